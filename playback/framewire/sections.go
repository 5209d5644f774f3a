package framewire

import (
	"encoding/binary"
	"fmt"
	"math"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

func unitTime(v int64) unit.Time { return unit.Time(v) }

// linkChunks and flowChunks are s's links and flows in chunks of
// snap.ChunkLen, compact or not.
func linkChunks(s *snap.Snapshot) [][]snap.Link {
	if s.Links == nil && s.LinkChunks != nil {
		return s.LinkChunks
	}
	return split(s.Links)
}

func flowChunks(s *snap.Snapshot) [][]snap.Flow {
	if s.Flows == nil && s.FlowChunks != nil {
		return s.FlowChunks
	}
	return split(s.Flows)
}

func split[T any](all []T) [][]T {
	out := make([][]T, 0, (len(all)+snap.ChunkLen-1)/snap.ChunkLen)
	for i := 0; i < len(all); i += snap.ChunkLen {
		out = append(out, all[i:min(i+snap.ChunkLen, len(all)):min(i+snap.ChunkLen, len(all))])
	}
	return out
}

// writeChunks writes n elements in chunks: a bitmap of the chunks written,
// then theirs; a chunk shared with prev's (the same slice) is left out.
// The elements are appended to a local slice, not through w: w is on the
// heap, and storing its slice at every value passed the collector's write
// barrier while it marked (8 % of the worker's time under Node for the
// 8,192-GPU all-reduce, where encoding took 44 %; BENCHMARKS.md).
func writeChunks[T any](w *writer, n int, chunks, prev [][]T, put func([]byte, *T) []byte) {
	w.uint(uint64(n))
	bits := make([]byte, (len(chunks)+7)/8)
	for k, ch := range chunks {
		if k >= len(prev) || !sameChunk(prev[k], ch) {
			bits[k/8] |= 1 << (k % 8)
		}
	}
	b := append(w.b, bits...)
	for k, ch := range chunks {
		if bits[k/8]&(1<<(k%8)) != 0 {
			for i := range ch {
				b = put(b, &ch[i])
			}
		}
	}
	w.b = b
}

// readChunks reads what writeChunks wrote: the chunks left out are prev's;
// get reads a chunk's elements.
func readChunks[T any](r *reader, prev [][]T, get func(*reader, []T)) ([][]T, int) {
	raw := r.uint()
	if r.err == nil && raw > uint64(len(r.b)-r.off)*8*snap.ChunkLen {
		r.fail(fmt.Sprintf("%d elements, more than the %d bytes left can list", raw, len(r.b)-r.off))
	}
	n := int(raw)
	chunks := (n + snap.ChunkLen - 1) / snap.ChunkLen
	if r.err != nil || r.need((chunks+7)/8) {
		return nil, 0
	}
	bits := r.b[r.off : r.off+(chunks+7)/8]
	r.off += len(bits)
	out := make([][]T, 0, chunks)
	for k := range chunks {
		size := min(snap.ChunkLen, n-k*snap.ChunkLen)
		if bits[k/8]&(1<<(k%8)) == 0 {
			if k >= len(prev) || len(prev[k]) != size {
				r.fail("a chunk left out that the frame before does not have")
				return nil, 0
			}
			out = append(out, prev[k])
			continue
		}
		ch := make([]T, size)
		get(r, ch)
		out = append(out, ch)
	}
	return out, n
}

func sameChunk[T any](a, b []T) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// putLink appends l to b (a writer of its own on the stack: see writeChunks).
func putLink(b []byte, l *snap.Link) []byte {
	w := writer{b}
	w.int(l.TxBytes)
	w.int(l.QueueBytes)
	w.int(l.BufferBytes)
	w.int(l.Drops)
	w.int(l.PauseFrames)
	w.bool(l.Paused)
	w.int(l.ECNMarks)
	return w.b
}

// getLinks reads a chunk of links: all their numbers in one call
// (reader.uvarints; Paused, a byte 0 or 1, reads as one). A chunk that
// does not read so is read again link by link (getLink), which names what
// is wrong.
func getLinks(r *reader, ch []snap.Link) {
	v := r.scratch(7 * len(ch))
	off := r.uvarints(r.off, v)
	for i := 0; i < len(ch) && off >= 0; i++ {
		v := v[7*i : 7*i+7]
		if v[5] > 1 {
			off = -1
			break
		}
		ch[i] = snap.Link{TxBytes: zigzag(v[0]), QueueBytes: zigzag(v[1]), BufferBytes: zigzag(v[2]), Drops: zigzag(v[3]),
			PauseFrames: zigzag(v[4]), Paused: v[5] == 1, ECNMarks: zigzag(v[6])}
	}
	if off < 0 {
		for i := range ch {
			getLink(r, &ch[i])
		}
		return
	}
	r.off = off
}

func getLink(r *reader, l *snap.Link) {
	l.TxBytes, l.QueueBytes, l.BufferBytes, l.Drops, l.PauseFrames = r.int(), r.int(), r.int(), r.int(), r.int()
	l.Paused = r.bool()
	l.ECNMarks = r.int()
}

func putFlow(b []byte, f *snap.Flow) []byte {
	w := writer{b}
	w.int(int64(f.Src))
	w.int(int64(f.Dst))
	w.int(f.Bytes)
	w.int(f.Delivered)
	w.int(int64(f.Start))
	w.int(int64(f.Finish))
	w.bool(f.Done)
	w.bool(f.Started)
	w.int(int64(f.Tag))
	w.int(int64(f.Step))
	w.f64(f.RateGbps)
	w.uint(uint64(f.Class))
	return w.b
}

// getFlows reads a chunk of flows, each flow's numbers in two calls: ten
// numbers (Done and Started among them), the rate's eight bytes, the class.
// From a flow that does not read so on, they are read number by number.
func getFlows(r *reader, ch []snap.Flow) {
	var v [11]uint64
	i := 0
	for ; i < len(ch); i++ {
		rate := r.uvarints(r.off, v[:10])
		off := -1
		if rate >= 0 && len(r.b)-rate >= 8 {
			off = r.uvarints(rate+8, v[10:])
		}
		if off < 0 || v[6] > 1 || v[7] > 1 {
			break
		}
		ch[i] = snap.Flow{Src: int(zigzag(v[0])), Dst: int(zigzag(v[1])), Bytes: zigzag(v[2]), Delivered: zigzag(v[3]),
			Start: unit.Time(zigzag(v[4])), Finish: unit.Time(zigzag(v[5])), Done: v[6] == 1, Started: v[7] == 1,
			Tag: int(zigzag(v[8])), Step: int(zigzag(v[9])), RateGbps: math.Float64frombits(binary.LittleEndian.Uint64(r.b[rate:])),
			Class: uint8(v[10])}
		r.off = off
	}
	for ; i < len(ch); i++ {
		getFlow(r, &ch[i]) // the slow way, which names what is wrong
	}
}

func getFlow(r *reader, f *snap.Flow) {
	f.Src, f.Dst = int(r.int()), int(r.int())
	f.Bytes, f.Delivered = r.int(), r.int()
	f.Start, f.Finish = unit.Time(r.int()), unit.Time(r.int())
	f.Done, f.Started = r.bool(), r.bool()
	f.Tag, f.Step = int(r.int()), int(r.int())
	f.RateGbps = r.f64()
	f.Class = uint8(r.uint())
}

// putMoving writes what changes every frame: packets, notifications,
// what the endpoints do, and the marking thresholds.
func putMoving(w *writer, s *snap.Snapshot) {
	w.list(len(s.Packets), s.Packets == nil)
	for _, p := range s.Packets {
		w.int(int64(p.Link))
		w.int(int64(p.Flow))
		w.f64(p.Progress)
		w.int(int64(p.Count))
		w.bool(p.Marked)
	}
	w.list(len(s.Controls), s.Controls == nil)
	for _, c := range s.Controls {
		w.int(int64(c.Flow))
		w.str(c.Kind)
		w.f64(c.Progress)
	}
	w.list(len(s.Activity), s.Activity == nil)
	for _, a := range s.Activity {
		w.b = append(w.b, byte(a))
	}
	w.int(s.Marking.ECNKmin)
	w.int(s.Marking.ECNKmax)
	w.int(s.Marking.FECN)
}

func getMoving(r *reader, s *snap.Snapshot) {
	r.section = "packets"
	if n, null := r.list(12); !null && r.err == nil {
		s.Packets = make([]snap.Packet, n)
		getPackets(r, s.Packets, s.NumLinks(), s.NumFlows())
	}
	r.section = "controls"
	if n, null := r.list(10); !null && r.err == nil {
		s.Controls = make([]snap.Control, n)
		for i := range s.Controls {
			c := &s.Controls[i]
			c.Flow, c.Kind, c.Progress = r.index(0, s.NumFlows()-1, "flow"), r.str(), r.f64()
		}
	}
	r.section = "activity"
	if n, null := r.list(1); !null && r.err == nil {
		s.Activity = make([]snap.Activity, n)
		for i := range s.Activity {
			s.Activity[i] = snap.Activity(r.b[r.off+i])
		}
		r.off += n
	}
	r.section = "marking"
	s.Marking = snap.Marking{ECNKmin: r.int(), ECNKmax: r.int(), FECN: r.int()}
}

// getPackets reads a frame's packets (on links links, of flows flows) as
// getFlows reads flows: the link and the flow, the progress's eight bytes,
// the count and Marked.
func getPackets(r *reader, ps []snap.Packet, links, flows int) {
	var v [4]uint64
	i := 0
	for ; i < len(ps); i++ {
		progress := r.uvarints(r.off, v[:2])
		off := -1
		if progress >= 0 && len(r.b)-progress >= 8 {
			off = r.uvarints(progress+8, v[2:])
		}
		l, f := zigzag(v[0]), zigzag(v[1])
		if off < 0 || l < 0 || l >= int64(links) || f < 0 || f >= int64(flows) || v[3] > 1 {
			break
		}
		ps[i] = snap.Packet{Link: int(l), Flow: int(f), Progress: math.Float64frombits(binary.LittleEndian.Uint64(r.b[progress:])),
			Count: int(zigzag(v[2])), Marked: v[3] == 1}
		r.off = off
	}
	for ; i < len(ps); i++ {
		getPacket(r, &ps[i], links, flows) // the slow way, which names what is wrong
	}
}

func getPacket(r *reader, p *snap.Packet, links, flows int) {
	p.Link, p.Flow = r.index(0, links-1, "link"), r.index(0, flows-1, "flow")
	p.Progress = r.f64()
	p.Count = int(r.int())
	p.Marked = r.bool()
}

func putInference(w *writer, v *snap.Inference) {
	for _, n := range []int{v.Arrived, v.Requests, v.Queued, v.Prefilling, v.Sending, v.Decoding, v.Done} {
		w.int(int64(n))
	}
	w.int(v.Tokens)
	w.f64(v.TTFTP50)
	w.int(v.KVBytes)
}

func getInference(r *reader) *snap.Inference {
	r.section = "inference"
	v := &snap.Inference{}
	for _, n := range []*int{&v.Arrived, &v.Requests, &v.Queued, &v.Prefilling, &v.Sending, &v.Decoding, &v.Done} {
		*n = int(r.int())
	}
	v.Tokens, v.TTFTP50, v.KVBytes = r.int(), r.f64(), r.int()
	return v
}
