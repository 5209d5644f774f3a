// Package player is the canvas's playback logic, without Ebitengine: it runs
// a scenario ahead of the viewer in small time budgets, records snapshots at a
// fixed simulated-time resolution, and plays, pauses, steps, seeks and changes
// speed over them. Scrubbing back is a lookup, so it is instant.
package player

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

const (
	// MaxFrames and MaxFrameBytes bound the recorded snapshots, in count and
	// in bytes: past either the resolution halves. (A perm-1024 snapshot is
	// about 1.4 MB, so the count alone would let one run take gigabytes.)
	MaxFrames     = 2000
	MaxFrameBytes = 256 << 20
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
	frames  []*snap.Snapshot // frames[i] is at time i·dt
	bytes   int64            // what frames take, by SnapshotBytes
	budget  int64            // the most frames may take: MaxFrameBytes
	limit   int64            // the most one snapshot may take: MaxSnapshotBytes
	err     error            // why computing stopped short, if it did
	dt      unit.Time
	done    bool
	result  *metrics.Result
	pos     unit.Time // playback position
	playing bool
	speed   unit.Time // simulated time per real second
	auto    bool      // speed still follows the run's length
}

// New starts a scenario (validated) for playback, paused at time 0.
func New(sc scenario.Scenario) (*Player, error) {
	st, err := sim.Start(sc)
	if err != nil {
		return nil, err
	}
	p := &Player{sc: sc, run: st, dt: 100 * unit.Nanosecond, auto: true, budget: MaxFrameBytes, limit: MaxSnapshotBytes}
	p.record(st.Snapshot())
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
// see Err).
func (p *Player) Compute(budget time.Duration) bool {
	if p.done || p.err != nil {
		return true
	}
	start := time.Now()
	for time.Since(start) < budget {
		next := unit.Time(len(p.frames)) * p.dt
		more := p.run.Model.Advance(next)
		if !more {
			p.finish()
			return true
		}
		s := p.run.Snapshot()
		if b := SnapshotBytes(s); b > p.limit {
			p.err = p.tooBig(s, b)
			return true
		}
		p.record(s)
		for len(p.frames) > MaxFrames || p.bytes > p.budget && len(p.frames) > 2 {
			p.halve()
		}
	}
	return false
}

// Err is why computing stopped before the run's end, or nil.
func (p *Player) Err() error { return p.err }

func (p *Player) tooBig(s *snap.Snapshot, b int64) error {
	way := "use the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow) or run it with `fabriclab run`"
	if p.sc.Sim.Fidelity != scenario.Packet {
		way = "run it with `fabriclab run`"
	}
	return fmt.Errorf("scenario %s is too big for the browser canvas: at %s one picture of it (%d flows so far, %d packets on the wire) takes %d MiB, more than the %d MiB the canvas allows; %s",
		p.sc.Name, s.Time, len(s.Flows), len(s.Packets), b>>20, p.limit>>20, way)
}

// finish records the last frame and fixes the default speed.
func (p *Player) finish() {
	p.done = true
	last := p.run.Snapshot()
	last.Done = true
	p.record(last)
	p.result = p.run.Result()
	if p.auto {
		p.speed = clampSpeed(unit.Time(float64(last.Time) / PlaySeconds))
	}
}

func (p *Player) record(s *snap.Snapshot) {
	p.frames = append(p.frames, s)
	p.bytes += SnapshotBytes(s)
}

// SnapshotBytes is about what a snapshot takes in memory.
func SnapshotBytes(s *snap.Snapshot) int64 {
	return int64(unsafe.Sizeof(*s)) +
		int64(cap(s.Links))*int64(unsafe.Sizeof(snap.Link{})) +
		int64(cap(s.Flows))*int64(unsafe.Sizeof(snap.Flow{})) +
		int64(cap(s.Packets))*int64(unsafe.Sizeof(snap.Packet{})) +
		int64(cap(s.Controls))*int64(unsafe.Sizeof(snap.Control{})) +
		int64(cap(s.Activity))
}

// halve keeps every other frame and doubles the resolution step.
func (p *Player) halve() {
	n := 0
	for i, f := range p.frames {
		if i%2 == 1 {
			p.bytes -= SnapshotBytes(f)
			continue
		}
		p.frames[n] = f
		n++
	}
	clear(p.frames[n:])
	p.frames = p.frames[:n]
	p.dt *= 2
}

// Done reports whether the whole run has been computed.
func (p *Player) Done() bool { return p.done }

// Result is the run's report, once Done.
func (p *Player) Result() *metrics.Result { return p.result }

// End is the last computed time.
func (p *Player) End() unit.Time { return p.frames[len(p.frames)-1].Time }

// Pos is the playback position.
func (p *Player) Pos() unit.Time { return p.pos }

// Playing reports whether playback runs.
func (p *Player) Playing() bool { return p.playing }

// Speed is the simulated time played per real second.
func (p *Player) Speed() unit.Time { return p.speed }

// Tick moves playback on by real seconds of wall time (when playing). At the
// computed end it waits for more; at the run's end it pauses.
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
func (p *Player) Reset() { p.pos, p.playing = 0, false }

// Seek moves to t (clamped to what has been computed).
func (p *Player) Seek(t unit.Time) { p.pos = max(0, min(t, p.End())) }

// Step pauses and moves on: in a collective, to where its next step begins;
// otherwise to the next recorded frame with a change, the next event batch
// the viewer can see.
func (p *Player) Step() {
	p.playing = false
	i := p.index(p.pos)
	if s := stepOf(p.frames[i]); s >= 0 {
		for j := i + 1; j < len(p.frames); j++ {
			if stepOf(p.frames[j]) > s {
				p.pos = p.frames[j].Time
				return
			}
		}
	}
	for j := i + 1; j < len(p.frames); j++ {
		if changed(p.frames[i], p.frames[j]) {
			p.pos = p.frames[j].Time
			return
		}
	}
	p.pos = p.End()
}

// StepBack pauses and moves to the previous frame.
func (p *Player) StepBack() {
	p.playing = false
	if i := p.index(p.pos); i > 0 {
		p.pos = p.frames[i-1].Time
	}
}

// stepOf is the latest collective step that a started transfer belongs to, or -1.
func stepOf(s *snap.Snapshot) int {
	step := -1
	for i := range s.Flows {
		if f := &s.Flows[i]; f.Started && f.Step > step {
			step = f.Step
		}
	}
	return step
}

func changed(a, b *snap.Snapshot) bool {
	for i := range a.Links {
		if a.Links[i].TxBytes != b.Links[i].TxBytes || a.Links[i].Drops != b.Links[i].Drops {
			return true
		}
	}
	return len(a.Flows) != len(b.Flows)
}

// SetSpeed sets the speed (clamped); Faster and Slower step it by ×2.
func (p *Player) SetSpeed(s unit.Time) { p.speed, p.auto = clampSpeed(s), false }
func (p *Player) Faster()              { p.SetSpeed(p.speed * 2) }
func (p *Player) Slower()              { p.SetSpeed(p.speed / 2) }

func clampSpeed(s unit.Time) unit.Time { return max(MinSpeed, min(MaxSpeed, s)) }

// index is the frame at or before t. Frames are at i·dt except the last of a
// finished run, which is at the run's end.
func (p *Player) index(t unit.Time) int {
	last := len(p.frames) - 1
	if t >= p.frames[last].Time {
		return last
	}
	return max(0, min(int(t/p.dt), last))
}

// Frame returns the snapshot to show now and the one a frame step earlier
// (for rates), and the snapshots so far at a coarser step for charts.
func (p *Player) Frame() (cur, prev *snap.Snapshot) {
	i := p.index(p.pos)
	cur = p.frames[i]
	prev = p.frames[max(0, i-1)]
	return cur, prev
}

// History returns up to n frames from the start to the current position, evenly spaced.
func (p *Player) History(n int) []*snap.Snapshot {
	i := p.index(p.pos)
	if i+1 <= n {
		return p.frames[:i+1]
	}
	out := make([]*snap.Snapshot, 0, n)
	for k := range n {
		out = append(out, p.frames[k*i/(n-1)])
	}
	return out
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

// At is the recorded snapshot at or before t.
func (p *Player) At(t unit.Time) *snap.Snapshot { return p.frames[p.index(t)] }
