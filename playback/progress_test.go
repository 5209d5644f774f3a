package playback

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// Collectives of every algorithm and training runs say how far computing has
// got (not "estimating" throughout): a collective by the share of its bytes
// arrived, which only grows; training by iterations of the length seen so far.
func TestProgressKnownForCollectivesAndTraining(t *testing.T) {
	for _, c := range []struct {
		name      string
		sets      []string
		monotonic bool
	}{
		{"hierarchical-allreduce", nil, true},
		{"ring-allreduce-8", []string{"collective.algo=tree", "collective.bytes=16MiB"}, true},
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.iterations=3"}, true}, // an estimate that drops is held
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlayer(t, c.name, c.sets...)
			var seen []float64
			for i := 0; !p.Compute(2 * time.Millisecond); i++ {
				require.Less(t, i, 100000, "the run ends")
				seen = append(seen, p.Progress())
			}
			require.NotEmpty(t, seen)
			last := 0.0
			for i, f := range seen {
				if i == 0 && f < 0 {
					continue // nothing moved yet
				}
				assert.GreaterOrEqual(t, f, 0.0, "known at sample %d", i)
				assert.Less(t, f, 1.0, "not 1 before the end")
				if c.monotonic {
					assert.GreaterOrEqual(t, f, last, "only grows")
				}
				last = f
			}
			assert.Greater(t, seen[len(seen)-1], 0.3, "near the end it says so")
			assert.Equal(t, 1.0, p.Progress())
		})
	}
}

// progressAt is p's progress (and p) once it has computed share of the
// simulated time the whole run takes.
func progressAt(t *testing.T, share float64, name string, sets ...string) (float64, *Player) {
	t.Helper()
	whole := newPlayer(t, name, sets...)
	computeAll(t, whole)
	end := unit.Time(share * float64(whole.rec.End()))
	p := newPlayer(t, name, sets...)
	step := time.Millisecond
	for i := 0; p.rec.End() < end; i++ {
		require.Less(t, i, 100000)
		// Near share, small slices: a millisecond's can take a small run
		// (victim-flow) from short of it to its end.
		if p.rec.End() >= end-end/5 {
			step = 20 * time.Microsecond
		}
		require.False(t, p.Compute(step))
	}
	return p.Progress(), p
}

// An all-to-all relayed by PXN delivers a cross-node share twice (over
// NVLink to the rail's GPU, then across the rail): its progress is the
// collective's own, not the bytes its flows delivered, which passed what
// it moves at a fifth of the run (alltoall-moe's bar sat at 99.9 % from
// there to the end).
func TestProgressOfARelayedAllToAll(t *testing.T) {
	f, p := progressAt(t, 0.5, "alltoall-moe")
	require.Greater(t, p.rec.latest.Collective.Phases, 1, "relayed")
	assert.Greater(t, f, 0.4, "half the run's time")
	assert.Less(t, f, 0.9, "not near its end")
}

// Progress is the run's, not its time limit's, where it ends first:
// victim-flow's flows end at a tenth of its 50 ms (its bar said 9 % when
// done); inference counts the output tokens made (its bar said 0 % to the
// end); a pipeline's first iteration counts its bubble (pp-gpt-1f1b's bar
// said 93 % at 60 % of the run).
func TestProgressOfRunsWithoutBytesToCount(t *testing.T) {
	f, _ := progressAt(t, 0.6, "pp-gpt-1f1b")
	assert.Greater(t, f, 0.5, "pp-gpt-1f1b")
	assert.Less(t, f, 0.7, "pp-gpt-1f1b")
	f, _ = progressAt(t, 0.9, "victim-flow")
	assert.Greater(t, f, 0.6, "victim-flow near its end")
	f, _ = progressAt(t, 0.5, "inference-llama3-8b")
	assert.Greater(t, f, 0.3, "inference half way")
	assert.Less(t, f, 0.7, "inference half way")
}

// Traffic beside a collective is done when both are: noisy-neighbor's
// progress is the lesser of its incast's bytes and its ring all-reduce's
// share. Its incast's share once counted the ring's flows too, whose bytes
// came and went: the bar said 87 % at 44 % of the run. With a small incast
// the ring is the longer part, and the incast's share said 99.9 % early.
func TestProgressOfTrafficBesideACollective(t *testing.T) {
	for _, sets := range [][]string{nil, {"traffic.bytes=1MiB"}} {
		f, p := progressAt(t, 0.44, "noisy-neighbor", sets...)
		assert.Greater(t, f, 0.3, "%v", sets)
		assert.Less(t, f, 0.65, "%v: not near its end", sets)
		if sets == nil {
			want, got := p.rec.expectedBytes(p.rec.latest)
			assert.Equal(t, int64(8*8<<20), want, "the incast's eight flows of 8 MiB")
			assert.Less(t, got, want)
		}
	}
}

// Time left counts the snapshots still to take as the frames halve: from
// 1,500 frames 100 ns apart (2,000 kept at most), 200 µs more are 501
// snapshots to the halving at 2,001, then 749.5 at 200 ns.
func TestSnapshotsLeftThinOut(t *testing.T) {
	p := newPlayer(t, "incast")
	rec := p.rec
	require.Equal(t, 2000, rec.maxFrames(rec.latest), "incast's snapshots are small")
	rec.frames = make([]*snap.Snapshot, 1500)
	rec.dt = 100 * unit.Nanosecond
	assert.InDelta(t, 1250.5, rec.snapshotsUntil(349900*unit.Nanosecond), 0.01)
	assert.InDelta(t, 400, rec.snapshotsUntil(189900*unit.Nanosecond), 0.01, "no halving before 40 µs more")
	assert.Zero(t, rec.snapshotsUntil(0), "nothing left")
}

// The costs time left is reckoned at fade: after a slow second (1 ms an
// event) and a fast one (100 µs), an event costs nearer the fast second's
// than the average of the two (182 µs).
func TestRecentCostsWeighMore(t *testing.T) {
	var rec Recorder
	rec.measureCost(1000, 0, time.Second)
	for range 10 {
		rec.measureCost(1000, 0, 100*time.Millisecond)
	}
	perEvent := rec.cost.eventWall / rec.cost.events
	assert.InDelta(t, 147e-6, perEvent, 2e-6)
	rec.measureCost(0, 4, 4*time.Millisecond)
	assert.InDelta(t, 1e-3, rec.cost.snapWall/rec.cost.snaps, 1e-9, "a snapshot's cost is kept apart")
	assert.InDelta(t, perEvent, rec.cost.eventWall/rec.cost.events, 1e-9, "fading leaves the ratio")
}

// permTo is perm-1024 computed to progress f without a look-ahead, its
// events costing a microsecond each and its snapshots nothing.
func permTo(t *testing.T, f float64) *Player {
	t.Helper()
	p := newPlayer(t, "perm-1024")
	for i := 0; p.rec.Progress() < f; i++ {
		require.Less(t, i, 100000, "progress grows")
		require.False(t, p.Compute(time.Millisecond))
	}
	require.Zero(t, p.rec.end, "no look-ahead")
	p.rec.cost = costs{eventWall: 1, events: 1e6, snapWall: 0, snaps: 1}
	p.rec.recent = p.rec.cost
	return p
}

// Without a look-ahead, the events handled since the snapshot that
// progress was read from count as done: between two snapshots the time left
// shrinks as the model goes on, not grows (perm-1024's did, 4.8 → 8.5 s
// within a second, while its progress waited for the next snapshot).
func TestTimeLeftCountsEventsSinceTheSnapshot(t *testing.T) {
	p := permTo(t, 0.05)
	rec := p.rec
	before := rec.ETA()
	require.Positive(t, before)
	_, _ = rec.run.Model.AdvanceEvents(unit.Never, 1000)
	assert.InDelta(t, before-1000e-6, rec.ETA(), 1e-9, "1,000 events done, at a microsecond each")
}

// Without a look-ahead, the events left are what a unit of progress took
// over the last quarter of the simulated time, not over the whole run so
// far: perm-1024's delivery starts slowly (its 1,024 flows fill the
// fabric) and its events thin out per byte delivered, so at a third of its
// bytes the average so far counted 19 % more events than are left, the
// last quarter 10 %.
// The model is deterministic: its events left are known by running it on.
func TestTimeLeftAtWhatTheRunDidLately(t *testing.T) {
	p := permTo(t, 0.33)
	rec := p.rec
	require.Greater(t, len(rec.samples), 10, "samples of the last quarter")
	assert.GreaterOrEqual(t, rec.samples[1].t, rec.End()-rec.End()/4, "older ones dropped")
	left := rec.ETA() * 1e6 // the events it expects
	now := rec.run.Model.Events()
	computeAll(t, p)
	truth := float64(rec.run.Model.Events() - now)
	assert.InEpsilon(t, truth, left, 0.15, "expected %.0f events left, %.0f were", left, truth)
}

// Time left counts an event at what the last quarter second took where
// that is less than the last second (the module's code optimised as it
// runs), and at the second's where a slow slice made the quarter dearer.
func TestTimeLeftCostsFollowFasterCode(t *testing.T) {
	var rec Recorder
	rec.measureCost(0, 10, 10*time.Millisecond) // a millisecond a snapshot
	rec.measureCost(1000, 0, time.Second)       // 1 ms an event
	for range 10 {
		rec.measureCost(1000, 0, 100*time.Millisecond) // 100 µs
	}
	assert.InDelta(t, 147e-6, rec.cost.eventWall/rec.cost.events, 2e-6, "the second remembers the slow start")
	c := rec.costNow()
	assert.InDelta(t, 106e-6, c.eventWall/c.events, 2e-6, "the quarter has nearly forgotten it")
	assert.InDelta(t, 1e-3, c.snapWall/c.snaps, 1e-9)
	rec.measureCost(1000, 0, 500*time.Millisecond) // one slow slice: 500 µs
	c = rec.costNow()
	assert.InDelta(t, rec.cost.eventWall/rec.cost.events, c.eventWall/c.events, 1e-12, "the second's, not the quarter's")
	assert.Less(t, c.eventWall/c.events, 300e-6)
}

// A long run's costs remember a quarter of its computing: a slow second
// after 20 s of computing weighs less than after none.
func TestLongRunsCostsRememberMore(t *testing.T) {
	perEvent := func(computed time.Duration) float64 {
		rec := Recorder{computeWall: computed}
		for range 20 {
			rec.measureCost(1000, 0, 100*time.Millisecond) // 100 µs an event
		}
		rec.measureCost(1000, 0, time.Second) // 1 ms an event
		return rec.cost.eventWall / rec.cost.events
	}
	assert.InDelta(t, 307e-6, perEvent(0), 2e-6, "after none, a second's memory")
	assert.InDelta(t, 161e-6, perEvent(20*time.Second), 2e-6, "after 20 s, five seconds'")
}

// Snapshots left halve by bytes too, at what a frame has taken so far:
// 100 frames of 1 MiB, 256 MiB at most, are 256 frames before a halving,
// not incast's 2,000 by count; 90 µs more at 100 ns take 157 snapshots to
// the first halving, 128 to the second, then 122.
func TestSnapshotsLeftHalveByBytes(t *testing.T) {
	p := newPlayer(t, "incast")
	rec := p.rec
	rec.frames = make([]*snap.Snapshot, 100)
	rec.dt = 100 * unit.Nanosecond
	rec.bytes, rec.budget = 100<<20, 256<<20
	assert.InDelta(t, 157+128+122, rec.snapshotsUntil(100*unit.Microsecond), 0.01)
}

// Progress never goes back: a training run's estimate (iterations as long
// as the last that ended) drops when an iteration ends longer than the one
// before, and the bar holds where it was.
func TestProgressNeverBack(t *testing.T) {
	p := newPlayer(t, "dp-resnet50", "sim.fidelity=flow", "training.iterations=3")
	rec := p.rec
	for !p.Compute(time.Millisecond) && (rec.latest.Training == nil || len(rec.latest.Training.Steps) == 0) {
	}
	require.NotEmpty(t, rec.latest.Training.Steps, "an iteration ended")
	f := p.Progress()
	require.Positive(t, f)
	s := *rec.latest // the next snapshot: the last iteration twice as long
	tr := *s.Training
	tr.Steps = slices.Clone(tr.Steps)
	last := &tr.Steps[len(tr.Steps)-1]
	last.End += last.End - last.Start
	s.Training = &tr
	drop, _ := rec.estimate(&s)
	require.Less(t, drop, f, "the estimate drops")
	rec.latest = &s
	assert.Equal(t, f, p.Progress())
	rec.latest = &snap.Snapshot{Time: s.Time} // nothing to tell from
	assert.Equal(t, f, p.Progress(), "an unknown after a known keeps it")
}

// Progress is -1 while nothing tells it (the page shows the bar as
// unknown, not at 0 %): incast before its flows are added.
func TestProgressUnknownAtFirst(t *testing.T) {
	rec := newPlayer(t, "incast").rec
	rec.latest, rec.progressAt = &snap.Snapshot{}, nil
	assert.Equal(t, -1.0, rec.Progress())
	assert.Equal(t, -1.0, rec.ETA())
}
