// Package playback is the canvas's playback logic, without Ebitengine: it runs
// a scenario ahead of the viewer in small time budgets, records snapshots at a
// fixed simulated-time resolution (compact: each frame shares the flows and
// links that did not change with the frame before), and plays, pauses,
// steps, seeks and changes speed over them. Scrubbing back is a lookup, so
// it is instant. A Recorder computes and records; a Player plays what it is
// sent: in this process through a pipe, or from a Web Worker (NewRemote,
// fed by Append, Halve, Finish and Fail).
package playback

import (
	"math"
	"slices"
	"time"

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

// Player plays one scenario's frames: it plays, pauses, steps, seeks and
// changes speed over what its Recorder has computed so far.
type Player struct {
	sc      scenario.Scenario
	rec     *Recorder        // computes the frames, in this process; nil for a remote player
	topo    *topo.Topology   // a remote player's fabric
	remote  progress         // a remote player's progress, as its recorder last said
	frames  []*snap.Snapshot // as the recorder keeps them (decoded)
	marks   []mark           // what Step needs to know of each frame
	shown   []shownFrame     // full copies of recently shown frames, newest last
	err     error            // why computing stopped short, if it did
	dt      unit.Time
	done    bool
	result  *simmetrics.Result
	rest    []byte    // the report's flows and links as JSON, until Result decodes them (report.go)
	restDue bool      // and they have yet to come
	pos     unit.Time // playback position
	playing bool
	speed   unit.Time // simulated time per real second
	auto    bool      // speed still follows the run's length

	target      unit.Time // a Seek past what is computed: where to go once it is; -1 for none
	stepPending bool      // a Step at the computed end: take it once more is computed
}

// progress is how far a recorder elsewhere has computed (Recorder.Progress, ETA).
type progress struct{ share, eta float64 }

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
	sc   scenario.Scenario
	b    *sim.Building
	took time.Duration // the wall time Begin and Build have taken (the flow-level model is built in Begin)
}

// Begin starts building a scenario (validated) for playback.
func Begin(sc scenario.Scenario) (*Builder, error) {
	start := time.Now()
	b, err := sim.Begin(sc)
	if err != nil {
		return nil, err
	}
	return &Builder{sc: sc, b: b, took: time.Since(start)}, nil
}

// Build builds for about budget of wall time, at least one step of
// sim.BuildFlows, and reports whether the scenario is built.
func (b *Builder) Build(budget time.Duration) bool {
	start := time.Now()
	defer func() { b.took += time.Since(start) }()
	for !b.b.Step(sim.BuildFlows) {
		if time.Since(start) >= budget {
			return false
		}
	}
	return true
}

// Scenario is what is being built.
func (b *Builder) Scenario() *scenario.Scenario { return &b.sc }

// LookAheadBudget is the wall time to give a look-ahead of the built
// scenario (Recorder.LookAhead): a second, or four times what building
// took. The 8,192-GPU all-reduce's look-ahead took 1.0–2.5 times its build
// under Node at load 6–17 (0.5–1.9 s: it builds a second model), incast's
// 0.16 s at load 6 and 0.9 s at 17, ecmp-collisions' 0.5 and 2.3 s;
// perm-1024's, 3.5 s at load 6, ends set aside, beside the recording.
func (b *Builder) LookAheadBudget() time.Duration { return max(time.Second, 4*b.took) }

// Player is the player, paused at time 0, once Build has reported the
// scenario built.
func (b *Builder) Player() (*Player, error) {
	st, err := b.b.Started()
	if err != nil {
		return nil, err
	}
	p := &Player{sc: b.sc, dt: FirstDt, auto: true, target: -1}
	p.rec = NewRecorder(b.sc, st, &pipe{p: p})
	p.speed = p.guessSpeed()
	return p, nil
}

// Recorder is a recorder of the built scenario sending to out, once Build
// has reported it built: a worker's, whose player is elsewhere.
func (b *Builder) Recorder(out Sink) (*Recorder, error) {
	st, err := b.b.Started()
	if err != nil {
		return nil, err
	}
	return NewRecorder(b.sc, st, out), nil
}

// NewRemote is a player of frames recorded elsewhere (a worker's Recorder
// of sc, over fabric t), paused at time 0 on the first frame: the rest
// come through Append, Halve, Finish and Fail, in the recorder's order.
func NewRemote(sc scenario.Scenario, t *topo.Topology, first *snap.Snapshot) *Player {
	p := &Player{sc: sc, topo: t, dt: FirstDt, auto: true, target: -1, remote: progress{-1, -1}}
	p.speed = p.guessSpeed()
	p.append(first)
	return p
}

// Append, Halve, Finish and Fail take what a remote player's recorder
// sent (its Sink); a Seek or Step waiting for frames is taken once they come.
func (p *Player) Append(s *snap.Snapshot) { p.append(s); p.settle() }
func (p *Player) Halve()                  { p.halve() }
func (p *Player) Finish(r *simmetrics.Result) {
	p.finish(r)
	p.settle()
}
func (p *Player) Fail(err error) { p.err = err; p.settle() }

// SetProgress is what a remote player's recorder last said of its
// progress and time left (Recorder.Progress, ETA).
func (p *Player) SetProgress(share, eta float64) { p.remote = progress{share, eta} }

// Scenario is what is playing.
func (p *Player) Scenario() *scenario.Scenario { return &p.sc }

// Topology is the fabric being played.
func (p *Player) Topology() *topo.Topology {
	if p.rec == nil {
		return p.topo
	}
	return p.rec.Topology()
}

// Compute has the recorder compute for about budget of wall time
// (Recorder.Compute) and reports whether the run is over. A Seek or Step
// waiting for frames not yet computed is taken as soon as they are.
func (p *Player) Compute(budget time.Duration) bool {
	if p.done || p.err != nil || p.rec == nil {
		return p.done || p.err != nil
	}
	over := p.rec.Compute(budget)
	p.settle()
	return over || p.err != nil
}

// Progress, ETA, ComputeTime, Slowest and SetHeapLimit are the recorder's
// (a remote player's: what SetProgress was told, and none).
func (p *Player) Progress() float64 {
	switch {
	case p.done:
		return 1
	case p.rec == nil:
		return p.remote.share
	}
	return p.rec.Progress()
}

func (p *Player) ETA() float64 {
	switch {
	case p.done:
		return 0
	case p.rec == nil:
		return p.remote.eta
	}
	return p.rec.ETA()
}

func (p *Player) ComputeTime() time.Duration {
	if p.rec == nil {
		return 0
	}
	return p.rec.ComputeTime()
}

func (p *Player) SetHeapLimit(limit int64) {
	if p.rec != nil {
		p.rec.SetHeapLimit(limit)
	}
}

// LookAhead is the recorder's (Recorder.LookAhead), for a player that computes.
func (p *Player) LookAhead(budget time.Duration) {
	if p.rec != nil {
		p.rec.LookAhead(budget)
	}
}

func (p *Player) Slowest() (advance, snapshot time.Duration, at, span unit.Time) {
	if p.rec == nil {
		return 0, 0, 0, 0
	}
	return p.rec.Slowest()
}

// Err is why computing stopped before the run's end, or nil.
func (p *Player) Err() error { return p.err }

// append keeps a frame received from the recorder.
func (p *Player) append(c *snap.Snapshot) {
	var prev *snap.Snapshot
	if n := len(p.frames); n > 0 {
		prev = p.frames[n-1]
	}
	p.frames = append(p.frames, c)
	p.marks = append(p.marks, mark{step: stepOf(c), changed: prev == nil || changed(prev, c)})
}

// halve keeps every other frame, as the recorder has, and doubles the
// resolution step. A kept frame has changed from the one before it if it
// or the dropped one between had.
func (p *Player) halve() {
	for i := 1; i+1 < len(p.marks); i += 2 {
		p.marks[i+1].changed = p.marks[i+1].changed || p.marks[i].changed
	}
	p.frames, p.marks = everyOther(p.frames), everyOther(p.marks)
	p.shown = p.shown[:0]
	p.dt *= 2
}

// finish takes the run's report, after its last frame, and fixes the
// default speed.
func (p *Player) finish(r *simmetrics.Result) {
	p.done, p.result = true, r
	if p.auto {
		p.speed = clampSpeed(unit.Time(float64(p.End()) / PlaySeconds))
	}
}

// guessSpeed picks a speed before the run's length is known: the time limit if
// there is one, else 1 ms of simulated time over PlaySeconds.
func (p *Player) guessSpeed() unit.Time {
	if p.sc.Until > 0 {
		return unit.Time(float64(p.sc.Until) / PlaySeconds)
	}
	return unit.Time(float64(unit.Millisecond) / PlaySeconds)
}

// Done reports whether the whole run has been computed.
func (p *Player) Done() bool { return p.done }

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

// FrameBytes is what the recorded snapshots take, by SnapshotBytes (the
// recorder's count; a remote player's, counted here).
func (p *Player) FrameBytes() int64 {
	if p.rec != nil {
		return p.rec.FrameBytes()
	}
	var b int64
	for i, f := range p.frames {
		var prev *snap.Snapshot
		if i > 0 {
			prev = p.frames[i-1]
		}
		b += newBytes(f, prev)
	}
	return b
}

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
