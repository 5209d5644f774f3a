// Package playback is the canvas's playback logic, without Ebitengine: it runs
// a scenario ahead of the viewer in small time budgets, records snapshots at a
// fixed simulated-time resolution (compact: each frame shares the flows and
// links that did not change with the frame before), and plays, pauses,
// steps, seeks and changes speed over them. Scrubbing back is a lookup, so
// it is instant.
package playback

import (
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"time"
	"unsafe"

	"fabriclab/sim"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

const (
	// MaxFrames and MaxFrameBytes bound the recorded snapshots, in count and
	// in bytes: past either the resolution halves. (A perm-1024 frame is
	// about 1.3 MB, every link and packet changing, so the count alone would
	// let one run take gigabytes.)
	MaxFrames     = 2000
	MaxFrameBytes = 256 << 20
	// MinFrames and SnapshotWork bound the frames of a run with big
	// snapshots to SnapshotWork over the bytes of one, but at least
	// MinFrames: recording reads a whole snapshot per frame however little
	// of it the frame keeps.
	MinFrames    = 300
	SnapshotWork = 512 << 20
	// MaxSnapshotBytes bounds one snapshot: past it the run stops with an
	// error (a collective over many ranks adds flows as it goes, so its
	// snapshots grow; the estimate before building cannot see them).
	MaxSnapshotBytes = MaxFrameBytes / 8
	// PlaySeconds is how long a whole run takes to play at the default speed.
	PlaySeconds = 10.0
	// MinSpeed and MaxSpeed bound the speed (simulated time per real second).
	MinSpeed = 10 * unit.Nanosecond
	MaxSpeed = 10 * unit.Second
)

// Player plays one scenario.
type Player struct {
	sc      scenario.Scenario
	run     *sim.Started
	frames  []*snap.Snapshot // compact (snap.Snapshot.Compact); frames[i] is at time i·dt, the last of a finished run at its end
	marks   []mark           // what Step needs to know of each frame
	shown   []shownFrame     // full copies of recently shown frames, newest last
	bytes   int64            // what frames take, by SnapshotBytes
	budget  int64            // the most frames may take: MaxFrameBytes
	limit   int64            // the most one snapshot may take: MaxSnapshotBytes
	err     error            // why computing stopped short, if it did
	dt      unit.Time
	done    bool
	result  *simmetrics.Result
	pos     unit.Time // playback position
	playing bool
	speed   unit.Time // simulated time per real second
	auto    bool      // speed still follows the run's length

	target      unit.Time // a Seek past what is computed: where to go once it is; -1 for none
	stepPending bool      // a Step at the computed end: take it once more is computed
	heapLimit   int64     // stop computing when the live heap passes it (0: no limit)
	computeWall time.Duration
	latest      *snap.Snapshot // the newest full snapshot, for progress
	progressAt  *snap.Snapshot // the snapshot progress was estimated from
	progress    float64        // that estimate

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
}

// stepTimes are the longest parts of computing (Slowest).
type stepTimes struct {
	advance, snapshot time.Duration
	at, span          unit.Time // where the longest Advance started, and how far it went
}

// mark is what Step and StepBack know of a frame without reading its flows.
type mark struct {
	step    int  // stepOf the frame
	changed bool // changed from the frame before
}

// shownFrame is a recorded frame made full for the renderer.
type shownFrame struct {
	i int
	s *snap.Snapshot
}

// shownFrames is how many full frames are kept: the current one, the one
// rates start from, and a few recent ones so small moves copy nothing.
const shownFrames = 6

// New starts a scenario (validated) for playback, paused at time 0.
func New(sc scenario.Scenario) (*Player, error) {
	b, err := Begin(sc)
	if err != nil {
		return nil, err
	}
	for !b.Build(time.Hour) {
	}
	return b.Player()
}

// Builder is a scenario being built for playback in slices of wall time
// (Build), so that a page draws frames between them: perm-1024's build
// takes 0.1–0.4 s in WebAssembly. The player is New's however the slices
// fall (sim.Building).
type Builder struct {
	sc scenario.Scenario
	b  *sim.Building
}

// Begin starts building a scenario (validated) for playback.
func Begin(sc scenario.Scenario) (*Builder, error) {
	b, err := sim.Begin(sc)
	if err != nil {
		return nil, err
	}
	return &Builder{sc: sc, b: b}, nil
}

// Build builds for about budget of wall time, at least one step of
// sim.BuildFlows, and reports whether the scenario is built.
func (b *Builder) Build(budget time.Duration) bool {
	start := time.Now()
	for !b.b.Step(sim.BuildFlows) {
		if time.Since(start) >= budget {
			return false
		}
	}
	return true
}

// Scenario is what is being built.
func (b *Builder) Scenario() *scenario.Scenario { return &b.sc }

// Player is the player, paused at time 0, once Build has reported the
// scenario built.
func (b *Builder) Player() (*Player, error) {
	st, err := b.b.Started()
	if err != nil {
		return nil, err
	}
	sc := b.sc
	p := &Player{sc: sc, run: st, dt: 100 * unit.Nanosecond, auto: true, budget: MaxFrameBytes, limit: MaxSnapshotBytes, target: -1, stepWall: StepWall}
	p.record(st.Record(nil))
	p.speed = p.guessSpeed()
	return p, nil
}

// Scenario is what is playing.
func (p *Player) Scenario() *scenario.Scenario { return &p.sc }

// Topology is the fabric being played.
func (p *Player) Topology() *topo.Topology { return p.run.Model.Topology() }

// guessSpeed picks a speed before the run's length is known: the time limit if
// there is one, else 1 ms of simulated time over PlaySeconds.
func (p *Player) guessSpeed() unit.Time {
	if p.sc.Until > 0 {
		return unit.Time(float64(p.sc.Until) / PlaySeconds)
	}
	return unit.Time(float64(unit.Millisecond) / PlaySeconds)
}

// Compute runs the simulation further for about budget of wall time,
// recording frames, and reports whether it has reached the end (or stopped:
// see Err). A Seek or Step waiting for frames not yet computed is taken as
// soon as they are.
//
// The model advances toward the next frame's time in sub-steps of about
// StepWall each (their simulated length follows the rate the last ones ran
// at, and their events are capped at what ran in that wall time), so one
// busy stretch of simulated time, even one instant (perm-1024's 1,024
// flows starting at 0), cannot hold a slice far past its budget; a frame's
// snapshot, when it would not fit in what is left of the budget, waits for
// the next call. The frames are the same however the steps fall: the model
// stops at any time it is given, and after any event.
func (p *Player) Compute(budget time.Duration) bool {
	if p.done || p.err != nil {
		return true
	}
	start := time.Now()
	defer func() { p.computeWall += time.Since(start); p.settle() }()
	for n := 0; n == 0 || time.Since(start) < budget; n++ {
		if p.heapLimit > 0 && n%16 == 0 && LiveHeap() > p.heapLimit*3/4 {
			p.err = p.outOfMemory()
			return true
		}
		if !p.snapDue {
			next := unit.Time(len(p.frames)) * p.dt
			to := next
			switch {
			case p.cutShort: // the model is within this step: on to its time
				to = p.cutTo
			case p.rate > 0 && p.stepWall > 0:
				if sub := p.rate * float64(p.span(budget-time.Since(start))); sub < float64(next-p.reached) {
					to = min(next, p.reached+max(unit.Nanosecond, unit.Time(sub)))
				}
			}
			m := p.run.Model
			from, e0 := m.Now(), m.Events()
			t0 := time.Now()
			more, reached := m.AdvanceEvents(to, p.eventCap(budget-time.Since(start)))
			took := time.Since(t0)
			if took > p.steps.advance {
				p.steps.advance, p.steps.at, p.steps.span = took, from, m.Now()-from
			}
			p.advances++
			p.measureEvents(m.Events()-e0, took)
			p.cutShort, p.cutTo = !reached, to
			if !reached { // cut after its events: the rest of the step follows
				p.cuts++
				if m.Now() > from {
					p.measureRate(m.Now()-from, took)
				}
				continue
			}
			p.measureRate(to-from, took)
			p.reached = to
			if !more {
				p.finish()
				return true
			}
			if to < next {
				continue
			}
			p.snapDue = true
			if n > 0 && time.Since(start)+p.snapCost > budget {
				return false // the snapshot starts the next slice
			}
		}
		t0 := time.Now()
		s := p.run.Record(p.frames[len(p.frames)-1])
		if b := pictureBytes(s); b > p.limit {
			p.err = p.tooBig(s, b)
			return true
		}
		p.record(s)
		p.snapDue = false
		for len(p.frames) > p.maxFrames(s) || p.bytes > p.budget && len(p.frames) > 2 {
			p.halve()
		}
		took := time.Since(t0)
		p.snapCost += (took - p.snapCost) / 4 // the usual cost: a rare dear one must not put off every snapshot
		p.steps.snapshot = max(p.steps.snapshot, took)
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
func (p *Player) eventCap(left time.Duration) uint64 {
	switch {
	case p.stepWall <= 0:
		return 0
	case p.evRate <= 0:
		return firstEvents
	}
	return max(minEvents, uint64(min(p.evRate*float64(p.span(left)), 1<<40)))
}

// span is a sub-step's wall time: StepWall, or what is left of the slice
// if less, but not under a quarter of StepWall.
func (p *Player) span(left time.Duration) time.Duration {
	return min(p.stepWall, max(p.stepWall/4, left))
}

// measureEvents keeps the events per wall time the sub-steps ran at, as
// measureRate keeps their simulated time: a slower step lowers it at once,
// a faster one at most doubles it.
func (p *Player) measureEvents(n uint64, took time.Duration) {
	if took < timeable { // too quick to time: more events
		if p.evRate > 0 {
			p.evRate *= 2
		} else {
			p.evRate = float64(max(n, 1)) / float64(timeable) // at least
		}
		return
	}
	r := float64(n) / float64(took)
	if p.evRate > 0 && r > 2*p.evRate {
		r = 2 * p.evRate
	}
	p.evRate = r
}

// measureRate keeps the simulated time per wall time that Advance ran at:
// a slower step lowers it at once, a faster one at most doubles it (a quiet
// stretch must not make the step into the next busy one long).
func (p *Player) measureRate(sim unit.Time, took time.Duration) {
	if took < timeable || sim <= 0 {
		switch { // too quick to time: longer steps
		case p.rate > 0:
			p.rate = min(2*p.rate, maxRate)
		case sim > 0:
			p.rate = min(float64(sim)/float64(timeable), maxRate) // at least
		}
		return
	}
	r := float64(sim) / float64(took)
	if p.rate > 0 && r > 2*p.rate {
		r = 2 * p.rate
	}
	p.rate = min(r, maxRate)
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
func (p *Player) Slowest() (advance, snapshot time.Duration, at, span unit.Time) {
	s := p.steps
	p.steps = stepTimes{}
	return s.advance, s.snapshot, s.at, s.span
}

// maxFrames is how many frames to keep of snapshots like s: MaxFrames, fewer
// (down to MinFrames) when every snapshot is big (see SnapshotWork).
func (p *Player) maxFrames(s *snap.Snapshot) int {
	return max(MinFrames, min(MaxFrames, int(SnapshotWork/max(1, pictureBytes(s)))))
}

// SetHeapLimit makes Compute stop with an error, before the program runs out
// of memory, once the live heap passes three quarters of limit bytes (the
// memory limit the program runs under; 0 for none).
func (p *Player) SetHeapLimit(limit int64) { p.heapLimit = limit }

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

func (p *Player) outOfMemory() error {
	way := "try a smaller scenario (fewer hosts, ranks or bytes), the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow), or run it with `fabriclab run`"
	if p.sc.Sim.Fidelity != scenario.Packet {
		way = "try a smaller scenario (fewer hosts, ranks or bytes) or run it with `fabriclab run`"
	}
	return fmt.Errorf("scenario %s ran out of memory in the browser canvas: at %s of simulated time (%d flows so far) the program holds %d MiB of its %d MiB; %s",
		p.sc.Name, p.End(), p.latest.NumFlows(), LiveHeap()>>20, p.heapLimit>>20, way)
}

// Err is why computing stopped before the run's end, or nil.
func (p *Player) Err() error { return p.err }

func (p *Player) tooBig(s *snap.Snapshot, b int64) error {
	way := "use the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow) or run it with `fabriclab run`"
	if p.sc.Sim.Fidelity != scenario.Packet {
		way = "run it with `fabriclab run`"
	}
	return fmt.Errorf("scenario %s is too big for the browser canvas: at %s one picture of it (%d flows so far, %d packets on the wire) takes %d MiB, more than the %d MiB the canvas allows; %s",
		p.sc.Name, s.Time, s.NumFlows(), len(s.Packets), b>>20, p.limit>>20, way)
}

// finish records the last frame and fixes the default speed.
func (p *Player) finish() {
	p.done = true
	last := p.run.Record(p.frames[len(p.frames)-1])
	last.Done = true
	p.record(last)
	p.result = p.run.Result()
	if p.auto {
		p.speed = clampSpeed(unit.Time(float64(last.Time) / PlaySeconds))
	}
}

// record keeps s, a compact snapshot from Record, as a frame: its flows and
// links share every chunk that did not change since the frame before, so a
// frame costs what changed.
func (p *Player) record(s *snap.Snapshot) {
	p.latest = s
	var prev *snap.Snapshot
	if n := len(p.frames); n > 0 {
		prev = p.frames[n-1]
	}
	c := s.Compact(prev)
	m := mark{step: stepOf(s), changed: prev == nil || changed(prev, c)}
	p.frames = append(p.frames, c)
	p.marks = append(p.marks, m)
	p.bytes += newBytes(c, prev)
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

// halve keeps every other frame and doubles the resolution step. A kept
// frame has changed from the one before it if it or the dropped one between
// had; its bytes are recounted against its new predecessor.
func (p *Player) halve() {
	n := 0
	for i, f := range p.frames {
		if i%2 == 1 {
			if i+1 < len(p.marks) {
				p.marks[i+1].changed = p.marks[i+1].changed || p.marks[i].changed
			}
			continue
		}
		p.frames[n], p.marks[n] = f, p.marks[i]
		n++
	}
	clear(p.frames[n:])
	p.frames, p.marks = p.frames[:n], p.marks[:n]
	p.bytes = 0
	for i, f := range p.frames {
		var prev *snap.Snapshot
		if i > 0 {
			prev = p.frames[i-1]
		}
		p.bytes += newBytes(f, prev)
	}
	p.shown = p.shown[:0]
	p.dt *= 2
}

// Done reports whether the whole run has been computed.
func (p *Player) Done() bool { return p.done }

// Result is the run's report, once Done.
func (p *Player) Result() *simmetrics.Result { return p.result }

// End is the last computed time.
func (p *Player) End() unit.Time { return p.frames[len(p.frames)-1].Time }

// Pos is the playback position.
func (p *Player) Pos() unit.Time { return p.pos }

// Playing reports whether playback runs.
func (p *Player) Playing() bool { return p.playing }

// Speed is the simulated time played per real second.
func (p *Player) Speed() unit.Time { return p.speed }

// Tick moves playback on by real seconds of wall time (when playing). At the
// computed end it waits for more; at the run's end it pauses there, on the
// run's last frame.
func (p *Player) Tick(real float64) {
	if !p.playing {
		return
	}
	p.pos += unit.Time(float64(p.speed) * real)
	if end := p.End(); p.pos >= end {
		p.pos = end
		if p.done {
			p.playing = false
		}
	}
}

// Play, Pause and Toggle control playback; playing from the end restarts.
func (p *Player) Play() {
	if p.done && p.pos >= p.End() {
		p.pos = 0
	}
	p.target, p.stepPending = -1, false
	p.playing = true
}

func (p *Player) Pause() { p.playing = false }

func (p *Player) Toggle() {
	if p.playing {
		p.Pause()
	} else {
		p.Play()
	}
}

// Reset goes back to the start, paused.
func (p *Player) Reset() { p.pos, p.playing, p.target, p.stepPending = 0, false, -1, false }

// Seek moves to t. Past what has been computed it goes to the computed end
// and waits there, while Compute goes on, until t is computed (Seeking says
// so); past the run's end it goes to the end.
func (p *Player) Seek(t unit.Time) {
	p.stepPending = false
	p.target = -1
	t = max(0, t)
	if t > p.End() && !p.done && p.err == nil {
		p.target = t
		t = p.End()
	}
	p.pos = min(t, p.End())
	if p.pos >= p.End()-endSlack {
		p.pos = p.End()
	}
}

// endSlack is how close to the run's end a position shows the last frame:
// a time that went through microseconds in a float may come back a few
// picoseconds short.
const endSlack = unit.Nanosecond

// Seeking is where a Seek waits to go, while it waits for Compute.
func (p *Player) Seeking() (unit.Time, bool) { return p.target, p.target >= 0 }

// settle takes a waiting Seek or Step once what it waits for is computed.
func (p *Player) settle() {
	if p.target >= 0 && (p.target <= p.End() || p.done || p.err != nil) {
		t := p.target
		p.target = -1
		p.Seek(t)
	}
	if p.stepPending {
		p.Step()
	}
}

// Step pauses and moves on: in a collective, to where its next step begins;
// otherwise to the next recorded frame with a change, the next event batch
// the viewer can see. At the computed end it waits for the next one.
func (p *Player) Step() {
	p.playing, p.target, p.stepPending = false, -1, false
	if j := p.nextStop(p.index(p.pos)); j >= 0 {
		p.pos = p.frames[j].Time
		return
	}
	p.pos = p.End()
	p.stepPending = !p.done && p.err == nil
}

// nextStop is the frame a Step from frame i goes to, or -1 when none is
// computed yet. It reads only the marks, so walking every stop is cheap.
func (p *Player) nextStop(i int) int {
	if s := p.marks[i].step; s >= 0 {
		for j := i + 1; j < len(p.marks); j++ {
			if p.marks[j].step > s {
				return j
			}
		}
	}
	for j := i + 1; j < len(p.marks); j++ {
		if p.marks[j].changed {
			return j
		}
	}
	if p.done && i < len(p.frames)-1 {
		return len(p.frames) - 1
	}
	return -1
}

// StepBack pauses and goes back to where the Step before began: the latest
// frame before the position that a run of Steps from the start stops at.
// Step then StepBack, or StepBack then Step, comes back to the same frame.
func (p *Player) StepBack() {
	p.playing, p.target, p.stepPending = false, -1, false
	at := 0
	for j := p.nextStop(0); j >= 0 && p.frames[j].Time < p.pos; j = p.nextStop(j) {
		at = j
	}
	p.pos = p.frames[at].Time
}

// stepOf is the latest collective step that a started transfer belongs to, or -1.
func stepOf(s *snap.Snapshot) int {
	step := -1
	for i := range s.NumFlows() {
		if f := s.Flow(i); f.Started && f.Step > step {
			step = f.Step
		}
	}
	return step
}

// changed reports whether links sent or dropped or flows were added from a
// to b, skipping the chunks of links they share.
func changed(a, b *snap.Snapshot) bool {
	for i := 0; i < a.NumLinks(); i++ {
		if k := i / snap.ChunkLen; i%snap.ChunkLen == 0 && k < len(a.LinkChunks) && k < len(b.LinkChunks) && sameChunk(a.LinkChunks[k], b.LinkChunks[k]) {
			i += len(a.LinkChunks[k]) - 1
			continue
		}
		la, lb := a.Link(i), b.Link(i)
		if la.TxBytes != lb.TxBytes || la.Drops != lb.Drops {
			return true
		}
	}
	return a.NumFlows() != b.NumFlows()
}

// SetSpeed sets the speed (clamped); Faster and Slower step it by ×2.
func (p *Player) SetSpeed(s unit.Time) { p.speed, p.auto = clampSpeed(s), false }
func (p *Player) Faster()              { p.SetSpeed(p.speed * 2) }
func (p *Player) Slower()              { p.SetSpeed(p.speed / 2) }

func clampSpeed(s unit.Time) unit.Time { return max(MinSpeed, min(MaxSpeed, s)) }

// index is the frame at or before t. Frames are at i·dt except the last of a
// finished run, which is at the run's end: from there on (and within
// endSlack of it) the last frame shows.
func (p *Player) index(t unit.Time) int {
	last := len(p.frames) - 1
	if t >= p.frames[last].Time-endSlack {
		return last
	}
	i := max(0, min(int(t/p.dt), last))
	for i > 0 && p.frames[i].Time > t { // a frame the model reached late
		i--
	}
	return i
}

// full is frame i with its links and flows filled in, kept for a while so
// that showing it again copies nothing.
func (p *Player) full(i int) *snap.Snapshot {
	for k := len(p.shown) - 1; k >= 0; k-- {
		if p.shown[k].i == i {
			return p.shown[k].s
		}
	}
	s := p.frames[i].Full()
	if len(p.shown) >= shownFrames {
		p.shown = append(p.shown[:0], p.shown[1:]...)
	}
	p.shown = append(p.shown, shownFrame{i, s})
	return s
}

// Frame returns the snapshot to show now and the one a frame step earlier
// (for rates), both full.
func (p *Player) Frame() (cur, prev *snap.Snapshot) {
	i := p.index(p.pos)
	return p.full(i), p.full(max(0, i-1))
}

// History returns up to n frames from the start to the current position,
// evenly spaced, the last of them full (At(Pos())) and the others compact:
// read their flows and links with NumFlows, Flow, NumLinks and Link. The
// spacing is a power of two frames, so as playback moves on the same frames
// come back (and what the charts cache for them stays good).
func (p *Player) History(n int) []*snap.Snapshot {
	i := p.index(p.pos)
	if i+1 <= n {
		out := slices.Clone(p.frames[:i+1])
		out[i] = p.full(i)
		return out
	}
	stride := 1
	for i/stride+2 > n {
		stride *= 2
	}
	out := make([]*snap.Snapshot, 0, n)
	for k := 0; k < i; k += stride {
		out = append(out, p.frames[k])
	}
	return append(out, p.full(i))
}

// Frames is how many snapshots are recorded, and their spacing.
func (p *Player) Frames() (int, unit.Time) { return len(p.frames), p.dt }

// FrameBytes is what the recorded snapshots take, by SnapshotBytes.
func (p *Player) FrameBytes() int64 { return p.bytes }

// SpeedLevel maps the speed onto a log scale 0…1 for a slider, and back.
func SpeedLevel(s unit.Time) float64 {
	return (math.Log(float64(s)) - math.Log(float64(MinSpeed))) / (math.Log(float64(MaxSpeed)) - math.Log(float64(MinSpeed)))
}

func SpeedAt(level float64) unit.Time {
	l := math.Log(float64(MinSpeed)) + max(0, min(1, level))*(math.Log(float64(MaxSpeed))-math.Log(float64(MinSpeed)))
	return clampSpeed(unit.Time(math.Exp(l)))
}

// At is the recorded snapshot at or before t, full.
func (p *Player) At(t unit.Time) *snap.Snapshot { return p.full(p.index(t)) }
