package playback

import (
	"sort"
	"time"

	"fabriclab/sim"
	"fabriclab/sim/unit"
)

// lookAhead is a second model of the recorder's scenario, run to its end
// without snapshots (LookAhead).
type lookAhead struct {
	build     *sim.Building // once begun (the first call of lookAhead begins it: after the first frame is posted)
	run       *sim.Started  // once built
	left      time.Duration // what is left of its wall budget
	budget    time.Duration // the whole budget
	looked    int           // its looks so far (aheadHopeless)
	last      aheadLook     // what the last look saw
	aside     bool          // recording has started: it goes on in a share of each slice (aheadShare)
	asideWall time.Duration // the wall time it has taken aside
	lead      aheadLead     // where the two models were at the last check aside (slow)
	events    uint64        // the events of its model's next step
	marks     []aheadMark   // after each step
}

// aheadMark is where the look-ahead's model was after a step, and the wall
// time its steps had taken so far.
type aheadMark struct {
	t    unit.Time
	wall time.Duration
}

// LookAhead has the recorder, before it records past its first frame,
// run a second model of the same scenario to its end without taking
// snapshots, for at most budget of wall time in all (Compute spends its
// slices on it first). A model's run is the same every time (no globals, no
// clock), so what the second one reaches is where the recorded one ends:
// recording then starts at the spacing the halvings would have reached by
// that end, and sends and keeps the frames they keep, without taking the
// ones they drop (the 8,192-GPU all-reduce: 155 snapshots, not 1,285);
// Progress is the simulated time over that end, and ETA what the
// look-ahead's model took from there and the snapshots left. A
// look-ahead that falls behind, by the pace of its model since its last
// look (aheadHopeless), is dropped at its next look, one that has not
// ended at its budget's end is dropped there, and recording goes on as
// without it. Under a heap limit
// (SetHeapLimit, set first) it is skipped, or dropped, while the live heap
// is past a quarter, or a half, of the limit: two models at once must not
// make a run that fits without it run out of memory.
func (rec *Recorder) LookAhead(budget time.Duration) {
	if budget <= 0 || len(rec.frames) != 1 || rec.done || rec.err != nil || rec.aheadTooBig(4) {
		return
	}
	rec.ahead = &lookAhead{left: budget, budget: budget, events: minEvents}
}

// aheadStep is about how long a step of the look-ahead's model takes:
// its events between two looks at the clock (the flow-level model's first
// ones take milliseconds each, its later ones microseconds).
const aheadStep = 2 * time.Millisecond

// lookAhead runs the look-ahead for about budget (before recording, at
// most what is left of its own), and once it ends has recording go on at
// the spacing it found (endFound). Before recording, one that falls behind
// or spends its budget is set aside: recording starts, and it goes on in a
// share of each slice. Aside, it is dropped once it does not gain on the
// recorded model (slow).
func (rec *Recorder) lookAhead(budget time.Duration) {
	a, start, aside := rec.ahead, time.Now(), rec.ahead.aside
	if aside {
		defer func() { a.asideWall += time.Since(start) }()
	} else {
		budget = min(budget, a.left)
		defer func() { a.left -= time.Since(start) }()
	}
	for n := 0; n == 0 || time.Since(start) < budget; n++ {
		if n%16 == 0 && rec.aheadTooBig(2) {
			rec.ahead = nil
			return
		}
		if a.build == nil && a.run == nil {
			b, err := sim.Begin(rec.sc)
			if err != nil {
				rec.ahead = nil
				return
			}
			a.build = b
			continue
		}
		if a.run == nil {
			if !a.build.Step(sim.BuildFlows) {
				continue
			}
			st, err := a.build.Started()
			if err != nil {
				rec.ahead = nil
				return
			}
			a.run, a.build = st, nil
		}
		m, t0 := a.run.Model, time.Now()
		if aside && a.asideWall >= a.lead.wall+a.budget/2 {
			if a.slow(m.Now(), rec.reached) {
				rec.ahead = nil
				return
			}
		}
		more, _ := m.AdvanceEvents(unit.Never, a.events)
		took := time.Since(t0)
		switch {
		case took < aheadStep/2:
			a.events = min(2*a.events, 1<<40)
		case took > 2*aheadStep:
			a.events = max(minEvents, a.events/2)
		}
		var wall time.Duration
		if n := len(a.marks); n > 0 {
			wall = a.marks[n-1].wall
		}
		a.marks = append(a.marks, aheadMark{m.Now(), wall + took})
		if !more {
			rec.ahead, rec.marks = nil, a.marks
			rec.found, rec.foundPicture = m.Now(), pictureBytes(a.run.Snapshot())
			rec.endFound()
			return
		}
		if !aside && rec.aheadHopeless(a, a.budget-a.left+time.Since(start)) {
			a.setAside(rec)
			return
		}
	}
	if !aside && time.Since(start) >= a.left {
		a.setAside(rec) // not done in its budget: recording starts beside it
	}
}

// setAside has recording start beside the look-ahead, from where the two
// models are (slow).
func (a *lookAhead) setAside(rec *Recorder) {
	a.aside = true
	if a.run != nil {
		a.lead = aheadLead{a.run.Model.Now(), rec.reached, 0}
	}
}

// aheadLead is where a look-ahead set aside and the recorded model were,
// in simulated time, when it had taken wall aside.
type aheadLead struct {
	ahead, recorded unit.Time
	wall            time.Duration
}

// slow reports whether a look-ahead set aside, its model at ahead and the
// recorded one at recorded, went less than twice as far as the recorded
// one since the last check (every half of its budget taken aside): it
// would end too late to save much. The model is most of what perm-1024
// costs to record, so its look-ahead, in a quarter of each slice, keeps
// pace with the recording at best (under Node: set aside at 2.1 s,
// dropped only at 12.6 s when the recording caught up, and the run took
// 15.5 s against 9.9); incast's model is a twentieth of it.
func (a *lookAhead) slow(ahead, recorded unit.Time) bool {
	last := a.lead
	a.lead = aheadLead{ahead, recorded, a.asideWall}
	if last == (aheadLead{}) {
		return false // not yet built when set aside: from here on
	}
	return ahead-last.ahead < 2*(recorded-last.recorded)
}

// aheadShare is the share of each slice of Compute a look-ahead set aside
// takes (LookAhead).
const aheadShare = 4 // a quarter

// endFound has recording go on at the spacing the halvings would reach by
// the end a look-ahead found (startAt), once no snapshot is due: Progress
// goes from where it was then, in proportion to the simulated time, to 1
// at that end. An end the recorded model has reached is left unused.
func (rec *Recorder) endFound() {
	end := rec.found
	if end == 0 || rec.snapDue {
		return
	}
	rec.found = 0
	from := rec.End()
	if end <= from {
		rec.marks = nil
		return
	}
	f := max(rec.Progress(), float64(from)/float64(end))
	rec.startAt(end, rec.foundPicture)
	rec.from = progressFrom{f, rec.End()} // after the halvings: they may drop the last frame
}

// progressFrom is where Progress was, and the simulated time recorded, when
// the run's end was found.
type progressFrom struct {
	f float64
	t unit.Time
}

// aheadHopeless reports whether the look-ahead, spent into its budget,
// will not end within it. At each of aheadLooks it takes where its model
// is (Progress's estimate); from the second on, what the model has left at
// the pace it kept since the look before (the share of the run done over
// its steps' wall time) is set against what is left of the budget, with
// half as much again to spare for an estimate that runs behind
// (ecmp-collisions' flows speed up as they go). The pace since the start
// would not do: a module's first seconds run many times slower (V8
// optimises it as it runs: ecmp-collisions' first 130 ms under Node
// reached 0.4 % in one process and 12 % in the next), and the building of
// the second model is paid once. A look-ahead that falls behind, by a run
// too long for it (perm-1024: 3.5 s under Node) or by a machine loaded
// while it runs, is set aside at the next look (recording starts beside
// it), not at its budget's end.
func (rec *Recorder) aheadHopeless(a *lookAhead, spent time.Duration) bool {
	if a.looked >= len(aheadLooks) || spent < a.budget*aheadLooks[a.looked]/8 || len(a.marks) == 0 {
		return false
	}
	a.looked++
	f, _ := rec.estimate(a.run.Snapshot())
	return a.behind(aheadLook{f, a.marks[len(a.marks)-1].wall}, spent)
}

// aheadLooks are the eighths of its budget at which a look-ahead is
// looked at (aheadHopeless): a look takes a whole snapshot of its model
// (the 8,192-GPU all-reduce's: 0.1 s natively), so not every eighth.
var aheadLooks = [...]time.Duration{1, 2, 4, 6}

// behind is aheadHopeless's judgement of a look that saw now, spent into
// the budget.
func (a *lookAhead) behind(now aheadLook, spent time.Duration) bool {
	last := a.last
	a.last = now
	if now.f <= 0 || last.f <= 0 || now.f <= last.f || now.model <= last.model {
		return false // no telling (yet): on to the next look
	}
	pace := (now.f - last.f) / (now.model - last.model).Seconds()
	return (1-now.f)/pace > 1.5*(a.budget-spent).Seconds()
}

// aheadLook is where a look-ahead's model was at a look (aheadHopeless):
// Progress's estimate, and its steps' wall time so far.
type aheadLook struct {
	f     float64
	model time.Duration
}

// aheadTooBig reports whether the live heap is past 1/part of the heap limit.
func (rec *Recorder) aheadTooBig(part int64) bool {
	return rec.heapLimit > 0 && LiveHeap() > rec.heapLimit/part
}

// startAt starts recording at the spacing the halvings would reach by end,
// the time the run ends at, where a picture takes picture bytes: Compute
// records frame i at i·dt while the run goes on past it, so a run to end
// takes ⌈end/dt⌉ frames before its last, and halves (keeping frames 0, 2,
// 4, … and doubling dt) whenever they pass maxFrames. The halvings are
// those the recording would make by its end, made now: of frame 0 alone
// when the look-ahead ended before recording, or of the frames so far when
// it ended aside (endFound); the sink is told of each as of any other.
//
// The frames are those the halvings keep when the spacing found is not
// coarser than theirs: a coarser spacing's frames are a subset of a finer
// one's, fewer than maxFrames and no more bytes (a chunk that differs
// between two of them changed between two of the finer frames), so Compute
// halves further where the finer recording would have, by count or by
// bytes. Two ways it could differ, neither seen in TestLookAheadKeepsTheFrames:
// the count takes maxFrames of the picture at the end, so a run whose
// picture at its last frame is smaller, by enough to change maxFrames,
// keeps fewer frames than without a look-ahead; and halve counts a chunk
// that changed and changed back as new where a coarser recording shares it,
// so a run that halves by bytes may halve later than without.
func (rec *Recorder) startAt(end unit.Time, picture int64) {
	rec.end = end
	most := framesFor(picture)
	for end > 0 && int64((end+rec.dt-1)/rec.dt) > int64(most) {
		rec.halve()
	}
}

// modelLeft is about the wall time the recorder's model will take from
// where it is (the last frame's time) to the end: what the look-ahead's
// took, at the pace this one kept against it over the later half of the
// simulated time recorded (recording slows it: the collector has the
// frames to mark). Not since the start: the two models share their code,
// which V8 optimises as it runs, so whichever ran a stretch first ran it
// slower (a look-ahead before recording ran the start cold and made the
// recorded model look fast: the 8,192-GPU all-reduce's time left was a
// tenth of the truth; one set aside ran it warm, and incast's was five
// times the truth in the browser).
func (rec *Recorder) modelLeft() time.Duration {
	m := rec.marks
	if len(m) == 0 {
		return 0
	}
	now := rec.End()
	left := m[len(m)-1].wall - aheadWall(m, now)
	own := rec.paces
	j := sort.Search(len(own), func(j int) bool { return own[j].t >= now-(now-rec.from.t)/2 }) // the later half's start
	if j == len(own) {
		return left
	}
	ahead := aheadWall(m, now) - aheadWall(m, own[j].t)
	if ahead < paceAfter {
		return left
	}
	return time.Duration(float64(left) * float64(rec.model-own[j].wall) / float64(ahead))
}

// aheadWall is the wall time the look-ahead's steps, marks m, took to
// simulated time t (the steps that ended by t).
func aheadWall(m []aheadMark, t unit.Time) time.Duration {
	i := sort.Search(len(m), func(i int) bool { return m[i].t > t })
	if i == 0 {
		return 0
	}
	return m[i-1].wall
}

// paceAfter is how much of the look-ahead's model time the recorder's must
// have covered before modelLeft goes by its pace.
const paceAfter = 20 * time.Millisecond

// LookingAhead reports whether a look-ahead runs before recording (Compute
// spends its calls on it), and whether one runs set aside, beside it.
func (rec *Recorder) LookingAhead() (before, aside bool) {
	return rec.ahead != nil && !rec.ahead.aside, rec.ahead != nil && rec.ahead.aside
}

// EndKnown reports whether a look-ahead ended, so the run's end is known.
func (rec *Recorder) EndKnown() bool { return rec.end > 0 || rec.found > 0 }
