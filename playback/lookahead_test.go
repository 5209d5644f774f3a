package playback

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// With a look-ahead that ends, a worker's recorder sends only the frames
// the halvings keep (incast halves by count alone: 7,713 sent without),
// and the canvas plays what it plays without one: the same frames at the
// same spacing, the same stops.
func TestLookAheadSendsTheFramesKept(t *testing.T) {
	rec, w := remoteWire(t, "incast")
	rec.LookAhead(time.Hour)
	for !rec.Compute(time.Minute) {
	}
	before, w0 := remoteWire(t, "incast")
	for !before.Compute(time.Minute) {
	}
	p, p0 := w.p, w0.p
	n, dt := p.Frames()
	n0, dt0 := p0.Frames()
	require.Equal(t, n0, n)
	assert.Equal(t, dt0, dt)
	assert.Equal(t, n, w.sent, "every frame sent is kept")
	assert.Greater(t, w0.sent, 3*n0, "without, most are dropped")
	assert.Equal(t, p0.Result().Totals, p.Result().Totals)
	for i := 0; i < 40; i++ {
		p0.Step()
		p.Step()
		require.Equal(t, p0.Pos(), p.Pos(), "step %d", i)
		want, got := *p0.At(p0.Pos()), *p.At(p.Pos())
		want.Routing, got.Routing = nil, nil
		require.Equal(t, want, got)
	}
}

// Once the look-ahead has ended, progress is the simulated time computed
// over the run's end.
func TestLookAheadKnowsTheEnd(t *testing.T) {
	p := newPlayer(t, "hierarchical-allreduce")
	rec := p.rec
	rec.LookAhead(time.Hour)
	require.False(t, p.Compute(time.Hour))
	require.Positive(t, rec.end, "the look-ahead ended in one call")
	last := 0.0
	for i := 0; !p.Compute(time.Millisecond); i++ {
		require.Less(t, i, 100000, "the run ends")
		f := p.Progress()
		assert.InDelta(t, min(0.999, float64(rec.End())/float64(rec.end)), f, 1e-12, "short of 1 until the end")
		assert.GreaterOrEqual(t, f, last, "only grows")
		if f >= 0.005 {
			assert.GreaterOrEqual(t, p.ETA(), 0.0, "known once progress is")
		}
		last = f
	}
	assert.Equal(t, rec.end, p.End())
	assert.Equal(t, 1.0, p.Progress())
}

// A look-ahead that does not end in its budget is set aside, and
// recording starts as without one.
func TestLookAheadOutOfBudget(t *testing.T) {
	p := newPlayer(t, "incast")
	p.LookAhead(time.Nanosecond)
	require.NotNil(t, p.rec.ahead)
	require.False(t, p.Compute(time.Hour), "the call spent on the look-ahead")
	require.NotNil(t, p.rec.ahead)
	assert.True(t, p.rec.ahead.aside, "set aside")
	assert.Zero(t, p.rec.end)
	_, dt := p.Frames()
	assert.Equal(t, FirstDt, dt)
}

// A look-ahead whose model has fallen behind its budget by its second look
// (an eighth, then a quarter of it) is set aside there, not at the budget's
// end (perm-1024 takes seconds; its flows' delivered bytes tell how far).
func TestLookAheadDroppedWhenHopeless(t *testing.T) {
	p := newPlayer(t, "perm-1024")
	budget := 400 * time.Millisecond
	if runtime.GOOS == "js" {
		budget = 2 * time.Second // a module's first events run many times slower: under Node none of perm-1024's bytes arrived in the first 100 ms
	}
	p.LookAhead(budget)
	a := p.rec.ahead
	require.NotNil(t, a)
	for !a.aside && p.rec.ahead != nil {
		p.Compute(5 * time.Millisecond)
	}
	if p.rec.end > 0 {
		t.Skip("perm-1024 ended within its budget: a machine too fast to tell")
	}
	assert.Positive(t, a.looked, "its progress looked at")
	assert.Greater(t, a.left, a.budget/4, "set aside with most of its budget left")
	_, dt := p.Frames()
	assert.Equal(t, FirstDt, dt, "recording as without it")
}

// Under a heap limit, no look-ahead starts once the live heap is past a
// quarter of it.
func TestLookAheadSkippedNearTheHeapLimit(t *testing.T) {
	p := newPlayer(t, "incast")
	runtime.GC()
	require.Positive(t, LiveHeap())
	p.SetHeapLimit(2 * LiveHeap())
	p.LookAhead(time.Hour)
	assert.Nil(t, p.rec.ahead)
	p.SetHeapLimit(1 << 40)
	p.LookAhead(time.Hour)
	assert.NotNil(t, p.rec.ahead)
}

// A look-ahead gets a second, or four builds for a scenario whose build
// is long (its look-ahead builds a second model).
func TestLookAheadBudget(t *testing.T) {
	for _, c := range []struct{ took, want time.Duration }{
		{0, time.Second},
		{100 * time.Millisecond, time.Second},
		{500 * time.Millisecond, 2 * time.Second},
	} {
		assert.Equal(t, c.want, (&Builder{took: c.took}).LookAheadBudget(), "build %v", c.took)
	}
}

// The model's time left is what the look-ahead's took from the recorded
// model's time to the end, at the pace the recorded model kept against it
// over the later half of what it recorded, once the look-ahead took
// paceAfter over that: a slow start of either (code optimised as it runs)
// does not count.
func TestModelLeftFollowsTheLookAhead(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	rec := &Recorder{marks: []aheadMark{{10, ms(10)}, {20, ms(30)}, {30, ms(60)}}}
	at := func(t unit.Time) { rec.frames = []*snap.Snapshot{{Time: t}} }
	at(5)
	assert.Equal(t, ms(60), rec.modelLeft(), "from the start, at the look-ahead's pace")
	at(20)
	rec.paces = []aheadMark{{0, 0}, {10, ms(40)}, {20, ms(60)}} // a slow start, then the look-ahead's pace
	rec.model = ms(60)
	assert.Equal(t, ms(30), rec.modelLeft(), "its last 30 ms at the pace of 10 to 20")
	rec.paces[2].wall, rec.model = ms(80), ms(80) // twice the look-ahead's time from 10 to 20
	assert.Equal(t, ms(60), rec.modelLeft(), "its last 30 ms at twice the time")
	at(30)
	assert.Zero(t, rec.modelLeft(), "at the end")
}

// A look-ahead is judged by the pace its model kept since the look before
// (at an eighth, a quarter, a half and three quarters of its budget, 1 s): a
// slow start (a module's first events, optimised as they run) does not drop
// one that has since sped up, and one whose model has slowed down (a
// machine loaded while it runs) is dropped at the next look, not at its
// budget's end.
func TestLookAheadJudgedByItsRecentPace(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	looks := []time.Duration{ms(125), ms(250), ms(500), ms(750)}
	for _, c := range []struct {
		name  string
		looks []aheadLook // at each of looks
		drop  int         // the look that drops it (-1: none)
	}{
		{"a slow start, then fast", []aheadLook{{0.004, ms(125)}, {0.15, ms(250)}, {0.5, ms(500)}}, -1},
		{"slowed down by its last look", []aheadLook{{0.1, ms(125)}, {0.25, ms(250)}, {0.55, ms(500)}, {0.7, ms(750)}}, 3},
		{"too long from the start", []aheadLook{{0.01, ms(125)}, {0.02, ms(250)}}, 1},
		{"no progress told yet", []aheadLook{{-1, ms(125)}, {0, ms(250)}, {0.3, ms(500)}, {0.8, ms(750)}}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &lookAhead{budget: time.Second}
			for i, l := range c.looks {
				assert.Equal(t, i == c.drop, a.behind(l, looks[i]), "look %d", i)
			}
		})
	}
}

// A look-ahead set aside is dropped at a check (every half of its budget
// taken aside) where its model went less than twice as far as the recorded
// one since the check before: it would end too late to save much.
func TestLookAheadAsideDroppedWhenSlow(t *testing.T) {
	a := &lookAhead{budget: time.Second}
	a.lead = aheadLead{ahead: 100, recorded: 10} // set aside
	a.asideWall = 500 * time.Millisecond
	assert.False(t, a.slow(400, 60), "300 against 50: on")
	a.asideWall = time.Second
	assert.False(t, a.slow(500, 110), "100 against 50: on")
	a.asideWall = 1500 * time.Millisecond
	assert.True(t, a.slow(560, 160), "60 against 50: dropped")

	b := &lookAhead{budget: time.Second}
	b.asideWall = 500 * time.Millisecond
	assert.False(t, b.slow(50, 60), "not yet built when set aside: the first check is where it starts from")
	b.asideWall = time.Second
	assert.True(t, b.slow(90, 110), "40 against 50")
}
