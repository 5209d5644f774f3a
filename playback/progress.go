package playback

import (
	"math"
	"time"

	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// Progress is how much of the run is computed, 0…1, or -1 while that is
// unknown. Once a look-ahead has found the run's end (LookAhead), it is the
// simulated time computed over that end; with a time limit (until), that
// over the limit, or the estimate below where it says more (the run ends
// first). Otherwise it is the payload delivered over what the run must
// deliver, where that is known before the end: every flow of a traffic
// pattern (once all are added), or the bytes a ring, Rabenseifner or
// unrelayed all-to-all collective moves in all: 2(n−1)·S for an
// all-reduce, (n−1)·S for reduce-scatter, all-gather and all-to-all
// (nccl-tests' S, n ranks); else, and for traffic beside them the lesser,
// a collective's, a training run's or inference's own (ownShare).
// Delivered bytes run ahead of time where a run slows at its end (a
// straggler), so it is an estimate; it never reaches 1 before the run
// ends, and never goes back
// (a training run's estimate drops when an iteration ends longer than the
// one before; the halvings a look-ahead's end calls for may drop the last
// frame recorded).
func (rec *Recorder) Progress() float64 {
	f := rec.progressNow()
	if f < 0 && rec.shown <= 0 {
		return -1 // nothing known yet: the page's bar says so, not "0 %"
	}
	if f < rec.shown {
		return rec.shown
	}
	rec.shown = max(rec.shown, f)
	return f
}

func (rec *Recorder) progressNow() float64 {
	switch {
	case rec.done:
		return 1
	case rec.end > 0: // the look-ahead's: from where it was when the end was found
		f := rec.from
		return min(0.999, f.f+(1-f.f)*float64(rec.End()-f.t)/float64(rec.end-f.t))
	}
	if rec.progressAt != rec.latest { // the estimate reads every flow: once a snapshot
		var bytes bool
		rec.progress, bytes = rec.estimate(rec.latest)
		rec.progressAt = rec.latest
		if bytes && rec.sc.Until == 0 {
			rec.sample()
		}
	}
	if rec.sc.Until > 0 {
		// The time limit, or sooner where the run ends first (victim-flow's
		// flows end at a tenth of its 50 ms: its bar said 9 % when done).
		return min(0.999, max(rec.progress, float64(rec.End())/float64(rec.sc.Until)))
	}
	return rec.progress
}

// progressSample is Progress's estimate at a snapshot of time t, taken
// after the model's events.
type progressSample struct {
	t      unit.Time
	events uint64
	f      float64
}

// sample keeps the estimate just made, and of those before it only the
// last quarter of the simulated time (and one before that): what the run
// did lately, for ETA.
func (rec *Recorder) sample() {
	if rec.progress < 0 {
		return
	}
	s := progressSample{rec.latest.Time, rec.latestAt, rec.progress}
	rec.samples = append(rec.samples, s)
	drop := 0
	for drop+2 < len(rec.samples) && rec.samples[drop+1].t <= s.t-s.t/4 {
		drop++
	}
	rec.samples = rec.samples[drop:]
}

// recently is what the run did per unit of progress over the samples
// kept: events and simulated time; false while progress has not moved.
func (rec *Recorder) recently() (events, time float64, ok bool) {
	n := len(rec.samples)
	if n < 2 {
		return 0, 0, false
	}
	a, b := rec.samples[0], rec.samples[n-1]
	df := b.f - a.f
	if df <= 0 || b.t <= a.t {
		return 0, 0, false
	}
	return float64(b.events-a.events) / df, float64(b.t-a.t) / df, true
}

// estimate is Progress from snapshot s of the run, before its end, and
// whether it is the payload's share delivered alone. Traffic beside a
// collective or a training run is done when both are: the lesser share
// (noisy-neighbor's bar said 87 % at 44 % of its run, its ring all-reduce's
// flows counted as the incast's).
func (rec *Recorder) estimate(s *snap.Snapshot) (f float64, bytes bool) {
	f, n := 1.0, 0
	want, got := rec.expectedBytes(s)
	if want > 0 {
		f, n = float64(got)/float64(want), 1
	}
	if n == 0 || rec.sc.TrafficFlows() > 0 {
		if other := ownShare(&rec.sc, s); other >= 0 {
			f, n = min(f, other), n+1
		}
	}
	if n == 0 {
		return -1, false
	}
	return min(0.999, f), want > 0 && n == 1
}

// ownShare is how far a collective, a training run or inference says it
// is, or -1.
func ownShare(sc *scenario.Scenario, s *snap.Snapshot) float64 {
	if c := s.Collective; c != nil && c.Bytes > 0 {
		return c.Done // any algorithm: the share of its transfers' bytes arrived
	}
	if in := s.Inference; in != nil && in.Requests > 0 && sc.Inference.OutputTokens > 0 {
		// the output tokens made (inference-llama3-8b's bar said 0 % to its end)
		return float64(in.Tokens) / (float64(in.Requests) * float64(sc.Inference.OutputTokens))
	}
	if tr := s.Training; tr != nil && tr.Iterations > 0 {
		// iterations as long as the last one that ended, or before the
		// first ends as its compute (a lower bound: too early, never late)
		per := tr.Compute
		if m := sc.Training.Accumulation; tr.PP > 1 && m > 0 {
			// a pipeline's bubble is part of every iteration: (p−1)/v
			// micro-batches' time beside its m (pp-gpt-1f1b's bar ran 26 %
			// ahead of its run)
			per = unit.Time(float64(per) * (1 + float64(tr.PP-1)/float64(max(1, tr.PPVirtual)*m)))
		}
		if n := len(tr.Steps); n > 0 {
			per = tr.Steps[n-1].End - tr.Steps[n-1].Start
		}
		if per > 0 {
			return float64(s.Time) / (float64(per) * float64(tr.Iterations))
		}
	}
	return -1
}

// ETA is about how many seconds of computing are left, or -1 while
// Progress is unknown or too small to tell. After a look-ahead it is what
// the look-ahead's model took from here to the end (modelLeft) and the
// snapshots left at what they cost lately. Without one, what is left of
// the run is taken to be like what it did lately: the events and simulated
// time a unit of progress took over the last quarter of the simulated time
// (recently; for a share of bytes delivered, else like all that is done),
// both as of the snapshot Progress was read from (the events handled since
// count as done, where counting them against a progress that waits for the
// next snapshot made the time left climb between snapshots), at what
// events and snapshots cost lately (costNow): a run's frames thin out as
// they halve, and in a browser the first seconds of a module run slower
// (its code is optimised while it runs), so the average so far overstates
// what is left.
func (rec *Recorder) ETA() float64 {
	f := rec.Progress()
	switch {
	case f >= 1:
		return 0
	case f < 0.005:
		return -1
	}
	c := rec.costNow()
	if rec.end > 0 { // the look-ahead's: what its model took from here, and the snapshots left
		var snap float64
		if c.snaps > 0 {
			snap = c.snapWall / c.snaps
		}
		return rec.modelLeft().Seconds() + rec.snapshotsUntil(rec.end)*snap
	}
	left := (1 - f) / f
	if c.events <= 0 || c.snaps <= 0 {
		return rec.computeWall.Seconds() * left
	}
	now := rec.End()
	events, end := float64(rec.latestAt)*left, now+unit.Time(float64(now)*left)
	if perEvents, perTime, ok := rec.recently(); ok {
		// At what the last quarter took a unit of progress: delivery runs
		// slower early (the pipes fill) and events thin out as flows
		// finish, so the average so far overstates what is left.
		last := rec.samples[len(rec.samples)-1]
		events, end = (1-last.f)*perEvents, last.t+unit.Time((1-last.f)*perTime)
	}
	events = max(0, events-float64(rec.run.Model.Events()-rec.latestAt))
	return events*c.eventWall/c.events + rec.snapshotsUntil(end)*c.snapWall/c.snaps
}

// snapshotsUntil is how many snapshots recording to end takes from here,
// halving the frames as Compute does whenever there are too many: by
// count, or by bytes at what a frame has taken so far (perm-1024's frames
// halve by bytes at about 200, not by count at 390: the time left of a
// run whose end was known was twice the truth).
func (rec *Recorder) snapshotsUntil(end unit.Time) float64 {
	most := rec.maxFrames(rec.latest)
	if n := len(rec.frames); n > 2 && rec.bytes > 0 {
		most = max(2, min(most, int(rec.budget/max(1, rec.bytes/int64(n)))))
	}
	n, dt := len(rec.frames), rec.dt
	t := unit.Time(n-1) * dt
	snaps := 0.0
	for range 64 {
		if t >= end || dt <= 0 {
			break
		}
		togo, room := float64(end-t)/float64(dt), float64(most-n+1)
		if togo <= room {
			return snaps + togo
		}
		snaps += room
		t += unit.Time(room) * dt
		n, dt = (most+2)/2, 2*dt
	}
	return snaps
}

// costWindow is about how much computing the ETA's costs remember at
// least; past four times that of computing, they remember a quarter of it:
// a long run's slow slice (a collection, a halving) must not make its time
// left jump (perm-1024 under Node: 4.8 s to 11 s and back within a second
// of computing), while the first seconds, which a browser runs slower,
// are forgotten.
const costWindow = time.Second

// measureCost adds to the recent costs events handled, or snapshots
// taken, in took; the older ones fade (costNow).
func (rec *Recorder) measureCost(events uint64, snapshots int, took time.Duration) {
	rec.cost.add(events, snapshots, took, math.Exp(-took.Seconds()/max(costWindow, rec.computeWall/4).Seconds()))
	rec.recent.add(events, snapshots, took, math.Exp(-took.Seconds()/(costWindow/4).Seconds()))
}

func (c *costs) add(events uint64, snapshots int, took time.Duration, keep float64) {
	c.eventWall, c.events = c.eventWall*keep, c.events*keep
	c.snapWall, c.snaps = c.snapWall*keep, c.snaps*keep
	if snapshots > 0 {
		c.snapWall += took.Seconds()
		c.snaps += float64(snapshots)
		return
	}
	c.eventWall += took.Seconds()
	c.events += float64(events)
}

// costNow is what an event and a snapshot cost lately: over the cost
// window, or over a quarter of it where that is less. A module's code runs
// faster as the browser optimises it, over its first seconds (an event of
// ecmp-collisions under Node: 2 µs, 0.2 µs a second later), which the
// window remembers; a slice made slow by a collection or the page is
// forgotten as fast by the window's quarter, and the window's figure
// holds. Under Node, three runs each in turn: ecmp-collisions' time left
// p50 / p95 0.28–0.47 / 1.31–1.60 → 0.17–0.20 / 0.97–1.14, perm-1024's
// 0.16–0.31 / 0.37–0.52 → 0.15–0.21 / 0.24–0.31.
func (rec *Recorder) costNow() costs {
	c, r := rec.cost, rec.recent
	if r.events > 0 && r.snaps > 0 && c.events > 0 && c.snaps > 0 {
		return costs{min(c.eventWall/c.events, r.eventWall/r.events), 1, min(c.snapWall/c.snaps, r.snapWall/r.snaps), 1}
	}
	return c
}

// ComputeTime is the wall time Compute has spent so far.
func (rec *Recorder) ComputeTime() time.Duration { return rec.computeWall }

// expectedBytes is what the run's flows must deliver in all, and what they
// have delivered so far, where that is known before the end (-1: not):
// of a traffic pattern, its own flows (untagged; a collective's beside it
// are tagged) once all are added; of a collective, what its algorithm moves.
func (rec *Recorder) expectedBytes(s *snap.Snapshot) (want, got int64) {
	sc := &rec.sc
	if n := sc.TrafficFlows(); n > 0 {
		found := 0
		for i := range s.NumFlows() {
			if f := s.Flow(i); f.Tag < 0 {
				found++
				want += f.Bytes
				got += f.Delivered
			}
		}
		if found < n {
			return -1, 0
		}
		return want, got
	}
	c := &sc.Collective
	if c.Op == "" || sc.Training.Model != "" {
		return -1, 0
	}
	n := int64(c.Ranks)
	if n == 0 {
		n = int64(sc.Endpoints())
	}
	ring := c.Algo == "" || c.Algo == "ring"
	switch {
	case c.Op == "allreduce" && (ring || c.Algo == "rabenseifner"):
		want = 2 * (n - 1) * int64(c.Bytes)
	case (c.Op == "reducescatter" || c.Op == "allgather") && ring:
		want = (n - 1) * int64(c.Bytes)
	case c.Op == "alltoall" && c.Algo != "hierarchical" && (s.Collective == nil || s.Collective.Phases < 2):
		// Relayed by PXN (two phases) a share crosses NVLink and then a
		// rail, delivered twice: alltoall-moe's flows deliver 1.47 times
		// this, and Progress sat at its cap for three quarters of the run.
		want = (n - 1) * int64(c.Bytes)
	default:
		return -1, 0
	}
	for i := range s.NumFlows() {
		got += s.Flow(i).Delivered
	}
	return want, got
}
