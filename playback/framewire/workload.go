package framewire

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// A collective is written whole every frame: its slices are bounded
// (snap.MaxColl*), a few KiB at most.
func putCollective(w *writer, c *snap.Collective) {
	w.str(c.Op)
	w.str(c.Algo)
	for _, n := range []int{c.Ranks, c.Lanes, c.PhaseIndex, c.Phases, c.Step, c.Steps, c.AllSteps, int(c.Kind), c.Rows, c.Cols, c.RowRanks} {
		w.int(int64(n))
	}
	for _, b := range []bool{c.Streamed, c.Pipelined, c.ColOwner, c.Finished} {
		w.bool(b)
	}
	w.str(c.Phase)
	w.list(len(c.PhaseNames), c.PhaseNames == nil)
	for _, n := range c.PhaseNames {
		w.str(n)
	}
	putSends(w, c.Sends)
	putSends(w, c.Routes)
	w.list(len(c.Cells), c.Cells == nil)
	w.b = append(w.b, c.Cells...)
	w.list(len(c.Slot), c.Slot == nil)
	w.b = append(w.b, c.Slot...)
	w.list(len(c.Spans), c.Spans == nil)
	for _, s := range c.Spans {
		w.int(int64(s.Phase))
		w.int(int64(s.First))
		w.int(int64(s.Last))
		w.f64(s.Done)
	}
	w.int(c.Bytes)
	w.f64(c.Done)
	w.int(int64(c.Elapsed))
	w.f64(c.AlgBwGBps)
	w.f64(c.BusBwGBps)
}

func getCollective(r *reader) *snap.Collective {
	r.section = "collective"
	c := &snap.Collective{Op: r.str(), Algo: r.str()}
	var kind int
	for _, n := range []*int{&c.Ranks, &c.Lanes, &c.PhaseIndex, &c.Phases, &c.Step, &c.Steps, &c.AllSteps, &kind, &c.Rows, &c.Cols, &c.RowRanks} {
		*n = int(r.int())
	}
	c.Kind = snap.CellKind(kind)
	for _, b := range []*bool{&c.Streamed, &c.Pipelined, &c.ColOwner, &c.Finished} {
		*b = r.bool()
	}
	c.Phase = r.str()
	if n, null := r.list(1); !null && r.err == nil {
		c.PhaseNames = make([]string, n)
		for i := range c.PhaseNames {
			c.PhaseNames[i] = r.str()
		}
	}
	c.Sends = getSends(r)
	c.Routes = getSends(r)
	c.Cells = r.bytes()
	c.Slot = r.bytes()
	if n, null := r.list(11); !null && r.err == nil {
		c.Spans = make([]snap.Span, n)
		for i := range c.Spans {
			s := &c.Spans[i]
			s.Phase, s.First, s.Last, s.Done = int(r.int()), unit.Time(r.int()), unit.Time(r.int()), r.f64()
		}
	}
	c.Bytes, c.Done, c.Elapsed = r.int(), r.f64(), unit.Time(r.int())
	c.AlgBwGBps, c.BusBwGBps = r.f64(), r.f64()
	if r.err == nil && (c.Rows < 0 || c.Cols < 0 || len(c.Cells) != c.Rows*c.Cols || c.Slot != nil && len(c.Slot) != len(c.Cells)) {
		r.fail("cells that do not fill their rows and columns")
	}
	return c
}

// putSends and getSends write and read a list of sends (a collective's
// Sends and Routes).
func putSends(w *writer, sends []snap.Send) {
	w.list(len(sends), sends == nil)
	for _, s := range sends {
		w.int(int64(s.Src))
		w.int(int64(s.Dst))
		w.int(int64(s.Lane))
		w.bool(s.Net)
	}
}

func getSends(r *reader) []snap.Send {
	n, null := r.list(4)
	if null || r.err != nil {
		return nil
	}
	out := make([]snap.Send, n)
	for i := range out {
		s := &out[i]
		s.Src, s.Dst, s.Lane, s.Net = int32(r.int()), int32(r.int()), int32(r.int()), r.bool()
	}
	return out
}

// bytes reads a list of bytes.
func (r *reader) bytes() []byte {
	n, null := r.list(1)
	if null || r.err != nil {
		return nil
	}
	out := append([]byte(nil), r.b[r.off:r.off+n]...)
	r.off += n
	return out
}
