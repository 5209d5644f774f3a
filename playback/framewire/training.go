package framewire

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// A training run's static part (model, sharding, rows) is written with its
// first frame; its logs (Tasks, Comms, Starts, Steps, SaveStarts, SaveEnds) grow, never change
// below their length: each frame writes their lengths and the entries the
// decoder does not have yet.
func (e *Encoder) putTraining(w *writer, tr *snap.Training) {
	w.bool(!e.trained)
	if !e.trained {
		w.str(tr.Model)
		w.str(tr.Sharding)
		w.str(tr.PPSchedule)
		for _, n := range []int{tr.Ranks, tr.TP, tr.PP, tr.PPVirtual, tr.Iterations} {
			w.int(int64(n))
		}
		w.int(int64(tr.Compute))
		w.list(len(tr.Rows), tr.Rows == nil)
		for _, row := range tr.Rows {
			for _, n := range []int{row.First, row.Count, row.Node, row.Stage} {
				w.int(int64(n))
			}
		}
		e.trained = true
	}
	e.logs[0] = putLog(w, tr.Tasks, e.logs[0], putTask)
	e.logs[1] = putLog(w, tr.Comms, e.logs[1], putComm)
	e.logs[2] = putLog(w, tr.Starts, e.logs[2], putTime)
	e.logs[3] = putLog(w, tr.Steps, e.logs[3], putStep)
	e.logs[4] = putLog(w, tr.SaveStarts, e.logs[4], putTime) // since version 3
	e.logs[5] = putLog(w, tr.SaveEnds, e.logs[5], putTime)
	putComm(w, &tr.Running[0])
	putComm(w, &tr.Running[1])
}

// putLog writes a log's length and its entries past sent (what the decoder
// has), and returns what the decoder has then (the logs only grow).
func putLog[T any](w *writer, log []T, sent int, put func(*writer, *T)) int {
	w.list(len(log), log == nil)
	for i := sent; i < len(log); i++ {
		put(w, &log[i])
	}
	return len(log)
}

// getLog reads what putLog wrote onto have: the frame's log, a prefix of
// the longer have.
func getLog[T any](r *reader, have []T, get func(*reader, *T)) ([]T, []T) {
	v := r.uint() // the log's length + 1, 0 for nil (writer.list), not what follows
	if v == 0 || r.err != nil {
		return nil, have
	}
	n := int(min(v-1, uint64(len(have))+uint64(len(r.b)))) // more than the frame holds fails below
	if n > len(have) {
		r.fits(uint64(n-len(have)), 1)
		for range n - len(have) {
			var v T
			get(r, &v)
			have = append(have, v)
		}
	}
	if r.err != nil {
		return nil, have
	}
	return have[:n:n], have
}

func (d *Decoder) getTraining(r *reader, s *snap.Snapshot) {
	r.section = "training"
	if r.bool() {
		tr := &snap.Training{Model: r.str(), Sharding: r.str(), PPSchedule: r.str()}
		for _, n := range []*int{&tr.Ranks, &tr.TP, &tr.PP, &tr.PPVirtual, &tr.Iterations} {
			*n = int(r.int())
		}
		tr.Compute = unit.Time(r.int())
		if n, null := r.list(4); !null && r.err == nil {
			tr.Rows = make([]snap.TrainRow, n)
			for i := range tr.Rows {
				row := &tr.Rows[i]
				row.First, row.Count, row.Node, row.Stage = int(r.int()), int(r.int()), int(r.int()), int(r.int())
			}
		}
		if d.training == nil {
			d.training = tr
		}
	}
	if d.training == nil {
		r.fail("a training run's frame before its model and rows: the run's first frame is missing")
		return
	}
	logs := *d.training // a copy: the logs grow in it
	tr := logs
	tr.Tasks, logs.Tasks = getLog(r, logs.Tasks, getTask)
	tr.Comms, logs.Comms = getLog(r, logs.Comms, getComm)
	tr.Starts, logs.Starts = getLog(r, logs.Starts, getTime)
	tr.Steps, logs.Steps = getLog(r, logs.Steps, getStep)
	tr.SaveStarts, logs.SaveStarts = getLog(r, logs.SaveStarts, getTime)
	tr.SaveEnds, logs.SaveEnds = getLog(r, logs.SaveEnds, getTime)
	getComm(r, &tr.Running[0])
	getComm(r, &tr.Running[1])
	d.training = &logs
	s.Training = &tr
}

func putTime(w *writer, t *unit.Time) { w.int(int64(*t)) }
func getTime(r *reader, t *unit.Time) { *t = unit.Time(r.int()) }

func putTask(w *writer, t *snap.Task) {
	w.int(int64(t.Start))
	w.int(int64(t.End))
	for _, n := range []int{int(t.Phase), t.Iter, t.Micro, t.Group, t.Stage, t.Chunk} {
		w.int(int64(n))
	}
	w.str(t.Waited)
}

func getTask(r *reader, t *snap.Task) {
	t.Start, t.End = unit.Time(r.int()), unit.Time(r.int())
	var phase int
	for _, n := range []*int{&phase, &t.Iter, &t.Micro, &t.Group, &t.Stage, &t.Chunk} {
		*n = int(r.int())
	}
	t.Phase = snap.Phase(phase)
	t.Waited = r.str()
}

func putComm(w *writer, c *snap.Comm) {
	w.str(c.Label)
	w.str(c.Kind)
	w.bool(c.TP)
	w.int(int64(c.Group))
	w.int(c.Bytes)
	w.int(int64(c.Stage))
	w.int(int64(c.Start))
	w.list(len(c.Ends), c.Ends == nil)
	for _, t := range c.Ends {
		w.int(int64(t))
	}
}

func getComm(r *reader, c *snap.Comm) {
	c.Label, c.Kind, c.TP = r.str(), r.str(), r.bool()
	c.Group, c.Bytes, c.Stage, c.Start = int(r.int()), r.int(), int(r.int()), unit.Time(r.int())
	if n, null := r.list(1); !null && r.err == nil {
		c.Ends = make([]unit.Time, n)
		for i := range c.Ends {
			c.Ends[i] = unit.Time(r.int())
		}
	}
}

func putStep(w *writer, s *snap.Step) {
	w.int(int64(s.Start))
	w.int(int64(s.End))
	for _, v := range []float64{s.IterationUs, s.ExposedCommUs, s.GPUUtil, s.Bubble, s.BubbleUs} {
		w.f64(v)
	}
}

func getStep(r *reader, s *snap.Step) {
	s.Start, s.End = unit.Time(r.int()), unit.Time(r.int())
	for _, v := range []*float64{&s.IterationUs, &s.ExposedCommUs, &s.GPUUtil, &s.Bubble, &s.BubbleUs} {
		*v = r.f64()
	}
}
