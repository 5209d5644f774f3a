package framewire

import (
	"fmt"

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

// readChunks reads what writeChunks wrote: the chunks left out are prev's.
func readChunks[T any](r *reader, prev [][]T, get func(*reader, *T)) ([][]T, int) {
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
		for i := range ch {
			get(r, &ch[i])
		}
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
		for i := range s.Packets {
			p := &s.Packets[i]
			p.Link, p.Flow = r.index(0, s.NumLinks()-1, "link"), r.index(0, s.NumFlows()-1, "flow")
			p.Progress = r.f64()
			p.Count = int(r.int())
			p.Marked = r.bool()
		}
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
