package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// row returns row r of a cols-wide matrix.
func row(cells []uint8, r, cols int) []uint8 { return cells[r*cols : (r+1)*cols] }

// The slot replays the ring as the textbook draws it: at reduce-scatter step
// s GPU r receives chunk r−s−2 summing s+2 GPUs' contributions (adding its
// own), so after the last step it owns chunk r fully reduced; all-gather
// spreads those copies, one more per GPU and step.
func TestProgressSlotIsTheTextbookRing(t *testing.T) {
	const n = 4
	s, err := Build(AllReduce, Ring, Params{Ranks: n})
	require.NoError(t, err)
	p := newProgress(s, identity(n), Options{Bytes: 4096, Track: true}, 0)
	p.setupStepwise([][]unit.Bytes{{1024}})
	require.True(t, p.colOwner, "each GPU owns one chunk: columns are owners")
	require.Len(t, p.slot, 2*(n-1)+1, "before the first step and after each")
	level := func(k int) uint8 { return share(int64(k), n) }
	for st := 0; st < n; st++ { // st reduce-scatter steps done
		for r := range n {
			got := row(p.slot[st], r, n)
			want := make([]uint8, n)
			for i := range want {
				want[i] = level(1)
			}
			for s := range st {
				want[mod(r-s-2, n)] = level(s + 2)
			}
			assert.Equal(t, want, got, "GPU %d after %d reduce-scatter steps", r, st)
		}
	}
	for r := range n {
		assert.Equal(t, uint8(255), p.slot[n-1][r*n+r], "GPU %d owns chunk %d reduced", r, r)
	}
	for st := 1; st < n; st++ { // all-gather: st+1 reduced chunks per GPU
		for r := range n {
			k := 0
			for _, v := range row(p.slot[n-1+st], r, n) {
				if v == 255 {
					k++
				}
			}
			assert.Equal(t, st+1, k, "GPU %d after %d all-gather steps", r, st)
		}
	}
}

// The all-to-all matrix counts what each GPU has received from each other;
// its diagonal, a GPU's own slice, is full from the start.
func TestProgressAllToAllCountsReceived(t *testing.T) {
	const n = 3
	s, err := Build(AllToAll, Pairwise, Params{Ranks: n})
	require.NoError(t, err)
	p := newProgress(s, identity(n), Options{Bytes: 300, Track: true}, 0)
	p.setupStepwise([][]unit.Bytes{{100}})
	c := p.Snapshot(0, nil)
	assert.Equal(t, snap.Received, c.Kind)
	assert.Equal(t, []uint8{255, 0, 0, 0, 255, 0, 0, 0, 255}, c.Cells)
	t0 := s.Steps[0].Transfers[0] // 0 → 1
	p.arrivedStep(0, t0.Src, 0, t0, 100, 5)
	c = p.Snapshot(10, nil)
	assert.Equal(t, uint8(255), c.Cells[t0.Dst*n+t0.Src], "GPU %d has all of GPU %d's slice", t0.Dst, t0.Src)
	assert.InDelta(t, 1.0/6, c.Done, 1e-12, "one of six transfers")
	assert.Equal(t, 10*unit.Time(1), c.Elapsed)
	assert.Equal(t, n-1, c.Steps, "pairwise: one round per peer")
}

// pairOf answers as pairIndex does, every time, for each phase asked.
func TestPairOfKeepsAnswers(t *testing.T) {
	p := &Progress{pairIndex: map[[3]int32]int32{{0, 1, 2}: 5, {1, 1, 2}: 7}}
	f := &snap.Flow{Src: 1, Dst: 2}
	other := &snap.Flow{Src: 2, Dst: 1}
	for range 2 { // looked up, then kept
		j, ok := p.pairOf(3, 0, f)
		assert.True(t, ok)
		assert.Equal(t, int32(5), j)
		j, ok = p.pairOf(3, 1, f)
		assert.True(t, ok)
		assert.Equal(t, int32(7), j)
		_, ok = p.pairOf(4, 0, other)
		assert.False(t, ok)
	}
}
