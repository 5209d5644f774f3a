package playback

import (
	"runtime/metrics"
	"time"
	"unsafe"

	"fabriclab/sim"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/msg"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Recorder computes one scenario ahead of the viewer in small time budgets
// and records its frames at a fixed simulated-time resolution, halving it
// to stay within MaxFrames and MaxFrameBytes. What it records goes to its
// Sink, in order: the Player that plays the frames sits at the other end
// (in this process through a pipe that encodes and decodes every frame, as
// the frames will cross from a worker to the canvas).
type Recorder struct {
	sc          scenario.Scenario
	run         *sim.Started
	out         Sink
	frames      []*snap.Snapshot // compact (snap.Snapshot.Compact); frames[i] is at time i·dt, the last of a finished run at its end
	bytes       int64            // what frames take, by SnapshotBytes
	budget      int64            // the most frames may take: MaxFrameBytes
	limit       int64            // the most one snapshot may take: MaxSnapshotBytes
	err         error            // why computing stopped short, if it did
	dt          unit.Time
	done        bool
	result      *simmetrics.Result
	heapLimit   int64 // stop computing when the live heap passes it (0: no limit)
	computeWall time.Duration
	latest      *snap.Snapshot   // the newest snapshot, for progress
	latestAt    uint64           // the model's events when it was taken
	progressAt  *snap.Snapshot   // the snapshot progress was estimated from
	progress    float64          // that estimate
	shown       float64          // the most Progress has said (0: nothing known yet)
	samples     []progressSample // the estimates over the last quarter of the simulated time (ETA)

	// Sub-steps (Compute): the time the model has reached, whether the
	// next frame's snapshot is still to be taken there, the simulated time
	// per wall time it advanced at (0 before the first step), the wall time
	// a sub-step aims at, what a snapshot usually costs, and the slowest
	// steps.
	reached  unit.Time
	snapDue  bool
	rate     float64
	stepWall time.Duration
	snapCost time.Duration
	steps    stepTimes
	advances int // calls of Advance so far

	// Event caps (Compute): the events per wall nanosecond the sub-steps
	// ran at (0 before the first is timed), the sub-steps cut short by
	// their cap so far, and whether the last was.
	evRate   float64
	cuts     int
	cutShort bool      // the last sub-step was cut: the next goes on to its time
	cutTo    unit.Time // that time

	// What the last second or so of computing cost (ETA), and the last
	// quarter second (costNow).
	cost, recent costs

	// The look-ahead (LookAhead): while it runs, and what it found: the
	// run's end (0: unknown) and the wall time its model took to each time.
	ahead *lookAhead
	end   unit.Time
	marks []aheadMark
	model time.Duration // the wall time this recorder's model took so far
	paces []aheadMark   // model after each frame, at its time (modelLeft)
	// An end found by a look-ahead set aside, waiting for no snapshot to be
	// due (endFound), with the bytes of the picture there; and where
	// Progress was when it was taken up.
	found        unit.Time
	foundPicture int64
	from         progressFrom
}

// costs are the wall seconds spent advancing the model and the events
// handled in them, and those spent on snapshots and how many, each sum
// fading as computing goes on (measureCost).
type costs struct{ eventWall, events, snapWall, snaps float64 }

// A Sink takes what a Recorder records, in order.
type Sink interface {
	Frame(s *snap.Snapshot)      // a new frame (kept by the recorder: not to be changed)
	Halve()                      // every other frame dropped, the spacing doubled
	Finish(r *simmetrics.Result) // the run's report, after its last frame (Done)
	Fail(err error)              // computing stopped short
}

// stepTimes are the longest parts of computing (Slowest).
type stepTimes struct {
	advance, snapshot time.Duration
	at, span          unit.Time // where the longest Advance started, and how far it went
}

// NewRecorder starts recording a started run, sending to out: it records
// the first frame at once.
func NewRecorder(sc scenario.Scenario, st *sim.Started, out Sink) *Recorder {
	rec := &Recorder{sc: sc, run: st, out: out, dt: FirstDt, budget: MaxFrameBytes, limit: MaxSnapshotBytes, stepWall: StepWall}
	rec.record(st.Record(nil))
	return rec
}

// FirstDt is the frames' spacing before the first halving.
const FirstDt = 100 * unit.Nanosecond

// Compute runs the simulation further for about budget of wall time,
// recording frames, and reports whether it has reached the end (or stopped:
// see Err).
//
// The model advances toward the next frame's time in sub-steps of about
// StepWall each (their simulated length follows the rate the last ones ran
// at, and their events are capped at what ran in that wall time), so one
// busy stretch of simulated time, even one instant (perm-1024's 1,024
// flows starting at 0), cannot hold a slice far past its budget; a frame's
// snapshot, when it would not fit in what is left of the budget, waits for
// the next call. The frames are the same however the steps fall: the model
// stops at any time it is given, and after any event. While a look-ahead
// runs (LookAhead), Compute spends its calls on it.
func (rec *Recorder) Compute(budget time.Duration) bool {
	if rec.done || rec.err != nil {
		return true
	}
	start := time.Now()
	defer func() { rec.computeWall += time.Since(start) }()
	if a := rec.ahead; a != nil {
		if !a.aside {
			rec.lookAhead(budget)
			return false // recording starts with the next call
		}
		rec.lookAhead(budget / aheadShare)
	}
	rec.endFound()
	for n := 0; n == 0 || time.Since(start) < budget; n++ {
		if rec.heapLimit > 0 && n%16 == 0 && LiveHeap() > rec.heapLimit*3/4 {
			rec.fail(rec.outOfMemory())
			return true
		}
		if !rec.snapDue {
			next := unit.Time(len(rec.frames)) * rec.dt
			to := next
			switch {
			case rec.cutShort: // the model is within this step: on to its time
				to = rec.cutTo
			case rec.rate > 0 && rec.stepWall > 0:
				if sub := rec.rate * float64(rec.span(budget-time.Since(start))); sub < float64(next-rec.reached) {
					to = min(next, rec.reached+max(unit.Nanosecond, unit.Time(sub)))
				}
			}
			m := rec.run.Model
			from, e0 := m.Now(), m.Events()
			t0 := time.Now()
			more, reached := m.AdvanceEvents(to, rec.eventCap(budget-time.Since(start)))
			took := time.Since(t0)
			if took > rec.steps.advance {
				rec.steps.advance, rec.steps.at, rec.steps.span = took, from, m.Now()-from
			}
			rec.advances++
			rec.model += took
			rec.measureEvents(m.Events()-e0, took)
			rec.measureCost(m.Events()-e0, 0, took)
			rec.cutShort, rec.cutTo = !reached, to
			if !reached { // cut after its events: the rest of the step follows
				rec.cuts++
				if m.Now() > from {
					rec.measureRate(m.Now()-from, took)
				}
				continue
			}
			rec.measureRate(to-from, took)
			rec.reached = to
			if !more {
				rec.finish()
				return true
			}
			if to < next {
				continue
			}
			rec.snapDue = true
			if n > 0 && time.Since(start)+rec.snapCost > budget {
				return false // the snapshot starts the next slice
			}
		}
		t0 := time.Now()
		s := rec.run.Record(rec.frames[len(rec.frames)-1])
		if b := pictureBytes(s); b > rec.limit {
			rec.fail(rec.tooBig(s, b))
			return true
		}
		rec.record(s)
		rec.snapDue = false
		for len(rec.frames) > rec.maxFrames(s) || rec.bytes > rec.budget && len(rec.frames) > 2 {
			rec.halve()
		}
		rec.endFound()
		took := time.Since(t0)
		rec.snapCost += (took - rec.snapCost) / 4 // the usual cost: a rare dear one must not put off every snapshot
		rec.measureCost(0, 1, took)
		rec.steps.snapshot = max(rec.steps.snapshot, took)
	}
	return false
}

// StepWall is about how long one call of the model's Advance takes within
// Compute (see there).
const StepWall = 4 * time.Millisecond

// firstEvents caps a sub-step before any is timed, and minEvents every
// one: perm-1024's first events took about 90 µs each in a browser (its
// memory touched for the first time), its later ones under a microsecond.
const (
	firstEvents = 64
	minEvents   = 16
)

// eventCap is the events a sub-step may handle (0: no cap, with no
// sub-steps): what ran in StepWall, or in what is left of the slice if
// less, at the rate measureEvents keeps.
func (rec *Recorder) eventCap(left time.Duration) uint64 {
	switch {
	case rec.stepWall <= 0:
		return 0
	case rec.evRate <= 0:
		return firstEvents
	}
	return max(minEvents, uint64(min(rec.evRate*float64(rec.span(left)), 1<<40)))
}

// span is a sub-step's wall time: StepWall, or what is left of the slice
// if less, but not under a quarter of StepWall.
func (rec *Recorder) span(left time.Duration) time.Duration {
	return min(rec.stepWall, max(rec.stepWall/4, left))
}

// measureEvents keeps the events per wall time the sub-steps ran at, as
// measureRate keeps their simulated time: a slower step lowers it at once,
// a faster one at most doubles it.
func (rec *Recorder) measureEvents(n uint64, took time.Duration) {
	if took < timeable { // too quick to time: more events
		if rec.evRate > 0 {
			rec.evRate *= 2
		} else {
			rec.evRate = float64(max(n, 1)) / float64(timeable) // at least
		}
		return
	}
	r := float64(n) / float64(took)
	if rec.evRate > 0 && r > 2*rec.evRate {
		r = 2 * rec.evRate
	}
	rec.evRate = r
}

// measureRate keeps the simulated time per wall time that Advance ran at:
// a slower step lowers it at once, a faster one at most doubles it (a quiet
// stretch must not make the step into the next busy one long).
func (rec *Recorder) measureRate(sim unit.Time, took time.Duration) {
	if took < timeable || sim <= 0 {
		switch { // too quick to time: longer steps
		case rec.rate > 0:
			rec.rate = min(2*rec.rate, maxRate)
		case sim > 0:
			rec.rate = min(float64(sim)/float64(timeable), maxRate) // at least
		}
		return
	}
	r := float64(sim) / float64(took)
	if rec.rate > 0 && r > 2*rec.rate {
		r = 2 * rec.rate
	}
	rec.rate = min(r, maxRate)
}

// timeable is the shortest step whose time says its rate (the browser's
// clock has a resolution of 5–100 µs).
const timeable = 50 * time.Microsecond

// maxRate bounds the rate: a second of simulated time a millisecond is past
// any frame.
const maxRate = float64(unit.Second) / float64(time.Millisecond)

// Slowest is the longest call of the model's Advance (with the simulated
// time it started at and went over) and the longest snapshot (with
// recording it) since the last call, for the page's stats.
func (rec *Recorder) Slowest() (advance, snapshot time.Duration, at, span unit.Time) {
	s := rec.steps
	rec.steps = stepTimes{}
	return s.advance, s.snapshot, s.at, s.span
}

// maxFrames is how many frames to keep of snapshots like s: MaxFrames, fewer
// (down to MinFrames) when every snapshot is big (see SnapshotWork).
func (rec *Recorder) maxFrames(s *snap.Snapshot) int { return framesFor(pictureBytes(s)) }

// framesFor is maxFrames of snapshots whose pictures take b bytes.
func framesFor(b int64) int { return max(MinFrames, min(MaxFrames, int(SnapshotWork/max(1, b)))) }

// SetHeapLimit makes Compute stop with an error, before the program runs out
// of memory, once the live heap passes three quarters of limit bytes (the
// memory limit the program runs under; 0 for none).
func (rec *Recorder) SetHeapLimit(limit int64) { rec.heapLimit = limit }

// LiveHeap is the heap's live bytes as the last collection found them (a
// cheap read: no stop-the-world).
func LiveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

func (rec *Recorder) outOfMemory() error {
	way := msg.F("try a smaller scenario (fewer hosts, ranks or bytes), the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow), or run it with `fabriclab run`")
	if rec.sc.Sim.Fidelity != scenario.Packet {
		way = msg.F("try a smaller scenario (fewer hosts, ranks or bytes) or run it with `fabriclab run`")
	}
	return msg.Errorf("scenario %s ran out of memory in the browser canvas: at %s of simulated time (%d flows so far) the program holds %d MiB of its %d MiB; %s",
		rec.sc.Name, rec.End(), rec.latest.NumFlows(), LiveHeap()>>20, rec.heapLimit>>20, way)
}

// Err is why computing stopped before the run's end, or nil.
func (rec *Recorder) Err() error { return rec.err }

func (rec *Recorder) tooBig(s *snap.Snapshot, b int64) error {
	way := msg.F("use the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow) or run it with `fabriclab run`")
	if rec.sc.Sim.Fidelity != scenario.Packet {
		way = msg.F("run it with `fabriclab run`")
	}
	return msg.Errorf("scenario %s is too big for the browser canvas: at %s one picture of it (%d flows so far, %d packets on the wire) takes %d MiB, more than the %d MiB the canvas allows; %s",
		rec.sc.Name, s.Time, s.NumFlows(), len(s.Packets), b>>20, rec.limit>>20, way)
}

// finish records the last frame and the run's report.
func (rec *Recorder) finish() {
	rec.done = true
	last := rec.run.Record(rec.frames[len(rec.frames)-1])
	last.Done = true
	rec.record(last)
	rec.result = rec.run.Result()
	rec.out.Finish(rec.result)
}

// fail stops computing with err.
func (rec *Recorder) fail(err error) {
	rec.err = err
	rec.out.Fail(err)
}

// record keeps s, a compact snapshot from Record, as a frame and sends it
// on: its flows and links share every chunk that did not change since the
// frame before, so a frame costs what changed.
func (rec *Recorder) record(s *snap.Snapshot) {
	rec.latest, rec.latestAt = s, rec.run.Model.Events()
	if rec.end > 0 || rec.found > 0 || rec.ahead != nil {
		rec.paces = append(rec.paces, aheadMark{s.Time, rec.model})
	}
	var prev *snap.Snapshot
	if n := len(rec.frames); n > 0 {
		prev = rec.frames[n-1]
	}
	c := s.Compact(prev)
	rec.frames = append(rec.frames, c)
	rec.bytes += newBytes(c, prev)
	rec.out.Frame(c)
}

// SnapshotBytes is about what a snapshot takes in memory, counting every
// chunk of a compact one (shared or not).
func SnapshotBytes(s *snap.Snapshot) int64 { return newBytes(s, nil) }

// pictureBytes is SnapshotBytes of s in full form, as the model's Snapshot
// makes it, whichever form s is in: what one picture of the run takes.
func pictureBytes(s *snap.Snapshot) int64 {
	return int64(unsafe.Sizeof(*s)) +
		int64(s.NumLinks())*int64(unsafe.Sizeof(snap.Link{})) +
		int64(s.NumFlows())*int64(unsafe.Sizeof(snap.Flow{})) +
		int64(cap(s.Packets))*int64(unsafe.Sizeof(snap.Packet{})) +
		int64(cap(s.Controls))*int64(unsafe.Sizeof(snap.Control{})) +
		int64(cap(s.Activity)) + s.Routing.Bytes() + s.Collective.Size()
}

// newBytes is what s takes beyond the chunks it shares with prev.
func newBytes(s, prev *snap.Snapshot) int64 {
	b := int64(unsafe.Sizeof(*s)) +
		int64(cap(s.Links))*int64(unsafe.Sizeof(snap.Link{})) +
		int64(cap(s.Flows))*int64(unsafe.Sizeof(snap.Flow{})) +
		int64(cap(s.Packets))*int64(unsafe.Sizeof(snap.Packet{})) +
		int64(cap(s.Controls))*int64(unsafe.Sizeof(snap.Control{})) +
		int64(cap(s.Activity)) + s.Routing.Bytes() + s.Collective.Size() +
		int64(cap(s.FlowChunks)+cap(s.LinkChunks))*int64(unsafe.Sizeof([]int{}))
	for k, ch := range s.FlowChunks {
		if prev == nil || k >= len(prev.FlowChunks) || !sameChunk(prev.FlowChunks[k], ch) {
			b += int64(cap(ch)) * int64(unsafe.Sizeof(snap.Flow{}))
		}
	}
	for k, ch := range s.LinkChunks {
		if prev == nil || k >= len(prev.LinkChunks) || !sameChunk(prev.LinkChunks[k], ch) {
			b += int64(cap(ch)) * int64(unsafe.Sizeof(snap.Link{}))
		}
	}
	return b
}

// sameChunk reports whether a and b are one shared chunk.
func sameChunk[T any](a, b []T) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// halve keeps every other frame and doubles the resolution step; a kept
// frame's bytes are recounted against its new predecessor.
func (rec *Recorder) halve() {
	rec.frames = everyOther(rec.frames)
	rec.bytes = 0
	for i, f := range rec.frames {
		var prev *snap.Snapshot
		if i > 0 {
			prev = rec.frames[i-1]
		}
		rec.bytes += newBytes(f, prev)
	}
	rec.dt *= 2
	rec.out.Halve()
}

// everyOther keeps frames 0, 2, 4, … of s, in place.
func everyOther[T any](s []T) []T {
	n := 0
	for i := 0; i < len(s); i += 2 {
		s[n] = s[i]
		n++
	}
	clear(s[n:])
	return s[:n]
}

// Done reports whether the whole run has been computed.
func (rec *Recorder) Done() bool { return rec.done }

// Result is the run's report, once Done.
func (rec *Recorder) Result() *simmetrics.Result { return rec.result }

// End is the last computed time.
func (rec *Recorder) End() unit.Time { return rec.frames[len(rec.frames)-1].Time }

// Frames is how many frames are kept, and their spacing.
func (rec *Recorder) Frames() (int, unit.Time) { return len(rec.frames), rec.dt }

// FrameBytes is what the kept frames take, by SnapshotBytes.
func (rec *Recorder) FrameBytes() int64 { return rec.bytes }

// Topology is the fabric being computed.
func (rec *Recorder) Topology() *topo.Topology { return rec.run.Model.Topology() }
