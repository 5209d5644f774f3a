package train

import (
	"container/heap"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// Each stage runs its forwards and backwards in Megatron-LM's order:
// testdata/pipeline_order.golden was written by testdata/megatron_order.py
// from Megatron's schedules.py (get_schedule_table run as Megatron wrote it).
func TestPipelineOrderIsMegatrons(t *testing.T) {
	data, err := os.ReadFile("testdata/pipeline_order.golden")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 4+2+4+3)
	for _, line := range lines {
		var p, m, v, s int
		head, want, ok := strings.Cut(line, ": ")
		require.True(t, ok, line)
		_, err := fmt.Sscanf(head, "p%d m%d v%d stage %d", &p, &m, &v, &s)
		require.NoError(t, err, line)
		schedule := OneFOneB
		if v > 1 {
			schedule = Interleaved
		}
		var got []string
		for _, sl := range PipelineOrder(schedule, p, m, v, s) {
			got = append(got, sl.String())
		}
		assert.Equal(t, want, strings.Join(got, " "), head)
	}
}

// GPipe runs every forward before any backward.
func TestGPipeOrder(t *testing.T) {
	var got []string
	for _, sl := range PipelineOrder(GPipe, 4, 3, 1, 2) {
		got = append(got, sl.String())
	}
	assert.Equal(t, "F0.0 F1.0 F2.0 B0.0 B1.0 B2.0", strings.Join(got, " "))
}

// freeFabric delivers every transfer at once: free communication.
type freeFabric struct {
	now    unit.Time
	seq    int
	events eventHeap
}

type event struct {
	at  unit.Time
	seq int
	fn  func()
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func (f *freeFabric) Now() unit.Time                      { return f.now }
func (f *freeFabric) Send(_ fabric.Transfer, done func()) { f.At(f.now, done) }
func (f *freeFabric) Latency(src, dst int) unit.Time      { return 0 }
func (f *freeFabric) At(t unit.Time, fn func())           { f.seq++; heap.Push(&f.events, event{t, f.seq, fn}) }
func (f *freeFabric) Run() {
	for f.events.Len() > 0 {
		e := heap.Pop(&f.events).(event)
		f.now = e.at
		e.fn()
	}
}

// equalLayers is a custom model of n equal layers.
func equalLayers(n int) *Model {
	m := &Model{Name: "custom", Sample: "sample"}
	for i := range n {
		m.Tensors = append(m.Tensors, Tensor{Name: fmt.Sprintf("l%d", i), Params: 1 << 20, FwdFLOPs: 1e9})
	}
	m.GroupUnits()
	return m
}

func pipelineRun(t *testing.T, f fabric.Fabric, schedule string, p, m, v int) metrics.Training {
	t.Helper()
	cfg := Config{Model: equalLayers(p * v * 2), GPU: GPUs()[2], MFU: 0.5, Batch: 1024, Accumulation: m,
		BucketCap: 25 * unit.MiB, FirstBucket: unit.MiB, Overlap: true, WireBytes: 4, Sharding: NoSharding,
		PP: p, PPSchedule: schedule, PPVirtual: v, Algo: coll.Ring, Coll: coll.Options{Channels: 1}}
	var res metrics.Training
	got := false
	_, err := Start(f, cfg, identity(p), func(r metrics.Training) { res, got = r, true })
	require.NoError(t, err)
	if ff, ok := f.(*freeFabric); ok {
		ff.Run()
	}
	require.True(t, got, "the iteration ends")
	return res
}

// With equal stages and free communication the bubble is the published
// one (REFERENCE.md, "Pipeline parallelism": GPipe and 1F1B (p−1)/(m+p−1),
// Huang et al. 2019, Narayanan et al. SC'21; interleaved divides the bubble
// by v: (p−1)/(v·m+p−1) of the forward-backward time).
func TestBubbleMatchesThePublishedFormula(t *testing.T) {
	for _, c := range []struct {
		schedule string
		p, m, v  int
		want     float64
	}{
		{GPipe, 4, 8, 1, 3.0 / 11},
		{OneFOneB, 4, 8, 1, 3.0 / 11},
		{OneFOneB, 2, 1, 1, 1.0 / 2},
		{OneFOneB, 8, 16, 1, 7.0 / 23},
		{OneFOneB, 4, 2, 1, 3.0 / 5}, // fewer micro-batches than stages
		{Interleaved, 4, 8, 2, 3.0 / 19},
		{Interleaved, 2, 4, 2, 1.0 / 9},
		{Interleaved, 3, 6, 3, 2.0 / 20},
	} {
		name := fmt.Sprintf("%s p%d m%d v%d", c.schedule, c.p, c.m, c.v)
		res := pipelineRun(t, &freeFabric{}, c.schedule, c.p, c.m, c.v)
		assert.InDelta(t, c.want, res.BubbleFraction, 1e-4, name)
		assert.InDelta(t, c.want, BubbleFraction(c.schedule, c.p, c.m, c.v), 1e-12, name)
	}
}

// recordingFabric is a free fabric that keeps the pipeline's sends.
type recordingFabric struct {
	freeFabric
	sends []fabric.Transfer
}

func (f *recordingFabric) Send(tr fabric.Transfer, done func()) {
	if tr.Tag == -1 && tr.Step == -1 { // collectives step by step tag their chunks
		f.sends = append(f.sends, tr)
	}
	f.freeFabric.Send(tr, done)
}

// Activations go forward and their gradients back between the ranks of
// adjacent stages that hold the same slice of the same replica, a
// micro-batch's activations each (hidden × tokens × 2 bytes, /tp), placed
// as the placement says.
func TestPipelineSendsActivations(t *testing.T) {
	gpt2, err := Preset("gpt2-1.5b")
	require.NoError(t, err)
	for _, c := range []struct {
		placement string
		pairs     map[[2]int]int // src, dst → sends
	}{
		// tp-pp-dp: rank = t + 2(s + 2d): stage 0 is {0,1} and {4,5}, stage 1 {2,3} and {6,7}
		{"tp-pp-dp", map[[2]int]int{{0, 2}: 2, {1, 3}: 2, {4, 6}: 2, {5, 7}: 2, {2, 0}: 2, {3, 1}: 2, {6, 4}: 2, {7, 5}: 2}},
		// tp-dp-pp: rank = t + 2(d + 2s): stage 0 is ranks 0–3, stage 1 ranks 4–7
		{"tp-dp-pp", map[[2]int]int{{0, 4}: 2, {1, 5}: 2, {2, 6}: 2, {3, 7}: 2, {4, 0}: 2, {5, 1}: 2, {6, 2}: 2, {7, 3}: 2}},
	} {
		f := &recordingFabric{}
		cfg := Config{Model: gpt2, GPU: GPUs()[2], MFU: 0.45, Batch: 1024, Accumulation: 2, BucketCap: 25 * unit.MiB,
			FirstBucket: unit.MiB, Overlap: true, WireBytes: 4, Sharding: ZeRO1, TP: 2, PP: 2, PPSchedule: OneFOneB,
			Placement: c.placement, Algo: coll.Ring, Coll: coll.Options{Channels: 1}}
		done := false
		_, err := Start(f, cfg, identity(8), func(metrics.Training) { done = true })
		require.NoError(t, err)
		f.Run()
		require.True(t, done)
		got := map[[2]int]int{}
		for _, s := range f.sends {
			got[[2]int{s.Src, s.Dst}]++
			assert.Equal(t, unit.Bytes(1024*1600*2/2), s.Bytes, c.placement)
		}
		assert.Equal(t, c.pairs, got, c.placement)
	}
}

func TestPlacementRanks(t *testing.T) {
	for _, c := range []struct {
		order string
		want  int // Rank(1, 2, 1) with tp 2, pp 3, dp 4
	}{
		{"dp-tp-pp", 1 + 4*(1+2*2)}, // d fastest, then t, then s
		{"tp-pp-dp", 1 + 2*(2+3*1)},
		{"pp-dp-tp", 2 + 3*(1+4*1)},
	} {
		pl, err := NewPlacement(c.order, 2, 3, 4)
		require.NoError(t, err)
		assert.Equal(t, c.want, pl.Rank(1, 2, 1), c.order)
		seen := map[int]bool{}
		for d := range 4 {
			for s := range 3 {
				for tp := range 2 {
					seen[pl.Rank(d, s, tp)] = true
				}
			}
		}
		assert.Len(t, seen, 24, "every rank once")
	}
	for _, bad := range []string{"tp-pp", "tp-pp-pp", "tp-pp-dp-dp", "tp-xx-dp"} {
		_, err := NewPlacement(bad, 2, 3, 4)
		assert.Error(t, err, bad)
	}
}
