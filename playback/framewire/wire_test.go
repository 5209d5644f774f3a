package framewire

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// The reader's varints read as encoding/binary's: the values, where the
// next one starts, and a broken or overlong one as an error (uvarints: -1).
func TestVarintsAsBinary(t *testing.T) {
	cases := [][]byte{{}, {0x80}, {0xff, 0xff}, append(make([]byte, 0, 12), 0x7f, 0x01)}
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 35, 1<<63 - 1, 1 << 63, math.MaxUint64} {
		cases = append(cases, binary.AppendUvarint(nil, v), append(binary.AppendUvarint(nil, v), 5))
	}
	over := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02} // 65 bits
	long := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}
	cases = append(cases, over, long, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	for _, b := range cases {
		u, n := binary.Uvarint(b)
		r := &reader{b: b}
		assert.Equal(t, u, r.uint(), "% x", b)
		assert.Equal(t, n <= 0, r.err != nil, "% x: %v", b, r.err)
		if n > 0 {
			assert.Equal(t, n, r.off, "% x", b)
		}
		var v [2]uint64 // uvarints as well, from the same byte
		off := (&reader{b: b}).uvarints(0, v[:1])
		if n > 0 {
			assert.Equal(t, [2]uint64{u, 0}, v, "% x", b)
			assert.Equal(t, n, off, "% x", b)
		} else {
			assert.Equal(t, -1, off, "% x", b)
		}
		s, n := binary.Varint(b)
		r = &reader{b: b}
		assert.Equal(t, s, r.int(), "% x", b)
		assert.Equal(t, n <= 0, r.err != nil, "% x", b)
	}
}

// The fast reads of links, flows and packets (a chunk's or an element's
// numbers in one loop) read as the slow ones, number by number: the same
// values, the same end, and on a damaged or cut frame the same error at
// the same byte.
func TestFastReadsAsSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 42))
	num := func() int64 {
		switch rng.IntN(6) {
		case 0, 1:
			return 0
		case 2:
			return rng.Int64N(100)
		case 3:
			return -rng.Int64N(1 << 20)
		case 4:
			return rng.Int64N(1 << 40)
		}
		return []int64{math.MaxInt64, math.MinInt64, -1, 1 << 62}[rng.IntN(4)]
	}
	const n, links, flows = 40, 30, 20
	var ls []snap.Link
	var fs []snap.Flow
	var ps []snap.Packet
	for range n {
		ls = append(ls, snap.Link{TxBytes: num(), QueueBytes: num(), BufferBytes: num(), Drops: num(), PauseFrames: num(), Paused: rng.IntN(2) == 1, ECNMarks: num()})
		fs = append(fs, snap.Flow{Src: int(num()), Dst: int(num()), Bytes: num(), Delivered: num(), Start: unit.Time(num()), Finish: unit.Time(num()),
			Done: rng.IntN(2) == 1, Started: rng.IntN(2) == 1, Tag: int(num()), Step: int(num()), RateGbps: rng.NormFloat64(), Class: uint8(rng.IntN(256))})
		ps = append(ps, snap.Packet{Link: rng.IntN(links), Flow: rng.IntN(flows), Progress: rng.Float64(), Count: int(num()), Marked: rng.IntN(2) == 1})
	}
	var lb, fb []byte
	for i := range n {
		lb, fb = putLink(lb, &ls[i]), putFlow(fb, &fs[i])
	}
	w := &writer{}
	for _, p := range ps { // as putMoving writes them
		w.int(int64(p.Link))
		w.int(int64(p.Flow))
		w.f64(p.Progress)
		w.int(int64(p.Count))
		w.bool(p.Marked)
	}
	pb := w.b
	damaged := func(b []byte) []byte {
		b = append([]byte(nil), b...)
		switch rng.IntN(4) {
		case 0: // cut
			return b[:rng.IntN(len(b))]
		case 1: // a byte anything
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		case 2: // a byte a flag's 2 or a varint's continuation
			b[rng.IntN(len(b))] = []byte{2, 0x80, 0xff}[rng.IntN(3)]
		}
		return b
	}
	// check reads whole, or damaged after the first trial, the fast way and the slow.
	check := func(what string, whole []byte, trial int, fast, slow func(*reader) any) {
		t.Helper()
		b := whole
		if trial > 0 {
			b = damaged(whole)
		}
		rf, rs := &reader{b: b, section: what}, &reader{b: b, section: what}
		gotFast, gotSlow := fast(rf), slow(rs)
		require.Equal(t, fmt.Sprint(rs.err), fmt.Sprint(rf.err), "%s: % x", what, b)
		require.Equal(t, fmt.Sprintf("%+v", gotSlow), fmt.Sprintf("%+v", gotFast), "%s: % x", what, b) // NaN from damaged bits too
		require.Equal(t, rs.off, rf.off, "%s: % x", what, b)
	}
	errs := 0
	for trial := range 1000 {
		check("links", lb, trial, func(r *reader) any {
			ch := make([]snap.Link, n)
			getLinks(r, ch)
			return ch
		}, func(r *reader) any {
			ch := make([]snap.Link, n)
			for i := range ch {
				getLink(r, &ch[i])
			}
			return ch
		})
		check("flows", fb, trial, func(r *reader) any {
			ch := make([]snap.Flow, n)
			getFlows(r, ch)
			return ch
		}, func(r *reader) any {
			ch := make([]snap.Flow, n)
			for i := range ch {
				getFlow(r, &ch[i])
			}
			return ch
		})
		check("packets", pb, trial, func(r *reader) any {
			out := make([]snap.Packet, n)
			getPackets(r, out, links, flows)
			if r.err != nil {
				errs++
			}
			return out
		}, func(r *reader) any {
			out := make([]snap.Packet, n)
			for i := range out {
				getPacket(r, &out[i], links, flows)
			}
			return out
		})
	}
	assert.Greater(t, errs, 300, "damaged packets that fail")
}
