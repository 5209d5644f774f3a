package playback

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

func newPlayer(t *testing.T, name string, sets ...string) *Player {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	p, err := New(sc)
	require.NoError(t, err)
	return p
}

// computeAll runs p to its end. The budget is generous so that the number of
// calls does not depend on the machine's speed (WebAssembly under a loaded
// Node is many times slower); a run that never ends hits go test's timeout.
func computeAll(t *testing.T, p *Player) {
	t.Helper()
	for i := 0; !p.Compute(time.Minute); i++ {
		require.Less(t, i, 1000, "the run ends")
	}
}

func TestComputeRecordsBoundedFrames(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	computeAll(t, p)
	n, dt := p.Frames()
	assert.LessOrEqual(t, n, MaxFrames+1)
	assert.Greater(t, n, MaxFrames/4)
	require.NotNil(t, p.Result())
	assert.InDelta(t, p.Result().Totals.SimTimeUs, p.End().Micros(), 0.001)
	assert.InDelta(t, p.End().Seconds()/PlaySeconds, p.Speed().Seconds(), 1e-9, "the run plays in PlaySeconds")
	assert.Positive(t, dt)
}

// The recorded frames stay within the byte budget: the resolution halves as
// often as it takes, and the running total matches the frames kept.
func TestComputeBoundsFrameBytes(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	one := SnapshotBytes(p.rec.frames[0])
	p.rec.budget = 40 * one
	computeAll(t, p)
	var sum int64
	for _, f := range p.rec.frames {
		sum += SnapshotBytes(f)
	}
	assert.Equal(t, sum, p.FrameBytes())
	assert.LessOrEqual(t, p.FrameBytes(), p.rec.budget+SnapshotBytes(p.rec.frames[len(p.rec.frames)-1]), "within the budget (the run's last frame may top it)")
	n, dt := p.Frames()
	assert.Greater(t, n, 10, "halving keeps half the budget's frames at least")
	assert.Greater(t, dt, 100*unit.Nanosecond, "the resolution halved")
	assert.InDelta(t, p.Result().Totals.SimTimeUs, p.End().Micros(), 0.001)
}

// A snapshot past the limit stops computing with an error that names the way out.
func TestComputeStopsAtABigSnapshot(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	p.rec.limit = SnapshotBytes(p.rec.frames[0]) + 1
	computeAll(t, p)
	require.Error(t, p.Err())
	assert.False(t, p.Done())
	assert.Contains(t, p.Err().Error(), "scenario incast is too big for the browser canvas: at ")
	assert.Contains(t, p.Err().Error(), "sim.fidelity: flow")
	assert.True(t, p.Compute(time.Millisecond), "stopped")

	p = newPlayer(t, "incast", "traffic.bytes=4MiB")
	computeAll(t, p)
	assert.NoError(t, p.Err())
	assert.True(t, p.Done())
}

func TestPlaybackAndScrubbing(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	computeAll(t, p)
	p.Play()
	p.Tick(1)
	assert.InDelta(t, float64(p.End())/PlaySeconds, float64(p.Pos()), float64(p.End())/1000)
	cur, prev := p.Frame()
	assert.LessOrEqual(t, cur.Time, p.Pos())
	assert.LessOrEqual(t, prev.Time, cur.Time)

	// Scrub back: the same frame as before, instantly.
	p.Seek(p.End() / 3)
	a, _ := p.Frame()
	p.Seek(p.End())
	p.Seek(p.End() / 3)
	b, _ := p.Frame()
	assert.Same(t, a, b)

	// Play to the end pauses; playing again restarts.
	p.Play()
	p.Tick(2 * PlaySeconds)
	assert.False(t, p.Playing())
	assert.Equal(t, p.End(), p.Pos())
	p.Play()
	assert.Zero(t, p.Pos())
}

func TestStepMovesToTheNextChange(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=1MiB")
	computeAll(t, p)
	for range 3 {
		from, _ := p.Frame()
		p.Step()
		to, _ := p.Frame()
		require.Greater(t, to.Time, from.Time, "a step moves on")
		assert.Equal(t, to.Time, p.Pos(), "a step lands on a frame")
		assert.True(t, changed(from, to), "at %v something changed", to.Time)
		for _, f := range p.frames {
			if f.Time > from.Time && f.Time < to.Time {
				assert.False(t, changed(from, f), "the step skipped a change at %v", f.Time)
			}
		}
	}
}

// stops walks Step from the start to the end, and StepBack from the end to
// the start, and returns the positions each stopped at.
func stops(t *testing.T, p *Player) (fwd, back []unit.Time) {
	t.Helper()
	p.Reset()
	fwd = append(fwd, p.Pos())
	for p.Pos() < p.End() {
		p.Step()
		require.Greater(t, p.Pos(), fwd[len(fwd)-1], "a step moves on")
		fwd = append(fwd, p.Pos())
		require.Less(t, len(fwd), 5000)
	}
	back = append(back, p.Pos())
	for p.Pos() > 0 {
		p.StepBack()
		require.Less(t, p.Pos(), back[len(back)-1], "a step back moves back")
		back = append(back, p.Pos())
		require.Less(t, len(back), 5000)
	}
	slices.Reverse(back)
	return fwd, back
}

// StepBack is Step's exact inverse: stepping back from the end stops where
// stepping forward from the start did, in reverse order.
func TestStepBackRetracesStep(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
		min  int
	}{
		{"incast", []string{"traffic.bytes=1MiB"}, 4},
		{"ring-allreduce-8", []string{"collective.bytes=8MiB", "collective.channels=1", "collective.chunk=0"}, 14},
	} {
		p := newPlayer(t, tc.name, tc.sets...)
		computeAll(t, p)
		fwd, back := stops(t, p)
		assert.GreaterOrEqual(t, len(fwd), tc.min, tc.name)
		assert.Equal(t, fwd, back, "%s: the same stops both ways", tc.name)
		assert.Equal(t, p.End(), fwd[len(fwd)-1], "%s: stepping ends on the run's end", tc.name)

		// From the middle of a step: back to where it began.
		p.Seek((fwd[2] + fwd[3]) / 2)
		p.Play()
		p.StepBack()
		assert.False(t, p.Playing(), "stepping back pauses")
		assert.Equal(t, fwd[2], p.Pos(), tc.name)
		p.StepBack()
		p.StepBack()
		assert.Equal(t, fwd[0], p.Pos(), tc.name)
		p.StepBack()
		assert.Equal(t, unit.Time(0), p.Pos(), "at the start stepping back stays put")
	}
}

// The run's last frame shows whenever playback reaches the end: by playing,
// by Step, by seeking to the end as the page does (through microseconds in
// a float) or past it.
func TestTheEndShowsTheLastFrame(t *testing.T) {
	p := newPlayer(t, "incast")
	computeAll(t, p)
	require.NotZero(t, p.End()%p.dt, "the run's end is between two frame times")
	last := func(how string) {
		t.Helper()
		cur, _ := p.Frame()
		assert.True(t, cur.Done, how)
		assert.Equal(t, p.End(), cur.Time, how)
		done := 0
		for i := range cur.Flows {
			if cur.Flows[i].Done {
				done++
			}
		}
		assert.Equal(t, 8, done, "%s: all eight finished", how)
		assert.Same(t, cur, p.History(10)[len(p.History(10))-1], "%s: the charts end on it too", how)
	}
	p.Play()
	for range 2000 {
		p.Tick(1.0 / 60)
	}
	last("played to the end")
	for _, us := range []float64{p.End().Micros(), p.End().Micros() * (1 - 1e-15), p.End().Micros() * 2} {
		p.Reset()
		p.Seek(unit.Time(us * float64(unit.Microsecond)))
		last(fmt.Sprintf("seek to %v µs", us))
	}
	p.Seek(p.End() - p.dt/2)
	for p.Pos() < p.End() {
		p.Step()
	}
	last("stepped to the end")
	p.Seek(p.End() - p.dt/2)
	cur, _ := p.Frame()
	assert.False(t, cur.Done, "half a frame before the end shows the frame before")
}

// A Seek or Step past what is computed waits at the computed end and goes
// there once Compute has got that far; past the run's end, to the end.
func TestSeekWaitsForCompute(t *testing.T) {
	p := newPlayer(t, "incast")
	p.Compute(time.Millisecond)
	want := 3 * unit.Millisecond
	require.Less(t, p.End(), want)
	p.Seek(want)
	at, ok := p.Seeking()
	assert.True(t, ok)
	assert.Equal(t, want, at)
	assert.Equal(t, p.End(), p.Pos(), "it waits at the computed end")
	for p.End() < want {
		p.Compute(time.Millisecond)
	}
	_, ok = p.Seeking()
	assert.False(t, ok)
	assert.Equal(t, want, p.Pos(), "then goes where it was asked")

	p.Seek(unit.Second) // past the run's end
	computeAll(t, p)
	assert.Equal(t, p.End(), p.Pos())
	cur, _ := p.Frame()
	assert.True(t, cur.Done)

	p = newPlayer(t, "incast", "traffic.bytes=1MiB")
	p.Compute(time.Microsecond)
	for range 10 {
		p.Step()
	}
	from := p.Pos()
	computeAll(t, p)
	assert.Greater(t, p.Pos(), from, "a Step at the computed end is taken once more is computed")
	assert.Less(t, p.Pos(), p.End(), "and moves one step, not to the end")
}

func TestSpeed(t *testing.T) {
	p := newPlayer(t, "incast")
	p.SetSpeed(unit.Second * 100)
	assert.Equal(t, MaxSpeed, p.Speed())
	p.SetSpeed(unit.Microsecond)
	p.Faster()
	assert.Equal(t, 2*unit.Microsecond, p.Speed())
	for _, s := range []unit.Time{MinSpeed, unit.Microsecond, unit.Millisecond, MaxSpeed} {
		assert.InEpsilon(t, float64(s), float64(SpeedAt(SpeedLevel(s))), 1e-6)
	}
}

func TestPlaybackWaitsForCompute(t *testing.T) {
	p := newPlayer(t, "incast")
	p.Compute(time.Millisecond)
	p.Play()
	p.Tick(1000)
	assert.Equal(t, p.End(), p.Pos(), "playback cannot pass what is computed")
	assert.True(t, p.Playing() || p.Done())
}

func TestCollectiveAndFlowLevelPlay(t *testing.T) {
	for _, name := range []string{"ring-allreduce-8", "hierarchical-allreduce"} {
		p := newPlayer(t, name, "collective.bytes=16MiB")
		computeAll(t, p)
		require.NotNil(t, p.Result().Collective, name)
		p.Seek(p.End())
		cur, _ := p.Frame()
		assert.NotEmpty(t, cur.Links)
		assert.True(t, cur.Done, "%s: the end shows the finished frame", name)
	}
}

func TestStepFollowsCollectiveSteps(t *testing.T) {
	p := newPlayer(t, "ring-allreduce-8", "collective.bytes=8MiB", "collective.channels=1", "collective.chunk=0")
	computeAll(t, p)
	seen := []int{}
	for range 30 {
		p.Step()
		cur, _ := p.Frame()
		seen = append(seen, stepOf(cur))
		if p.Pos() == p.End() {
			break
		}
	}
	require.GreaterOrEqual(t, len(seen), 10)
	for i := 1; i < len(seen); i++ {
		assert.GreaterOrEqual(t, seen[i], seen[i-1], "steps only go forward")
	}
	assert.Equal(t, 13, seen[len(seen)-2], "the last of the 14 ring steps (0…13) is reached")
}

// A long recording's memory stays bounded: a frame costs the chunks that
// changed, not every flow ever added, and the total stays in the budget.
func TestLongRecordingMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	p := newPlayer(t, "ring-allreduce-8", "collective.bytes=256MiB")
	computeAll(t, p)
	n, _ := p.Frames()
	require.GreaterOrEqual(t, n, MinFrames*3/4, "a long recording")
	last := p.frames[n-1]
	require.Greater(t, last.NumFlows(), 5000)
	full := SnapshotBytes(last.Full())
	perFrame := p.FrameBytes() / int64(n)
	t.Logf("%d frames, %d bytes a frame, a full snapshot %d bytes, %d flows", n, perFrame, full, last.NumFlows())
	assert.Less(t, perFrame, full/10, "a frame shares what did not change")
	assert.LessOrEqual(t, p.FrameBytes(), int64(MaxFrameBytes))

	// FrameBytes counts each chunk once, however many frames share it.
	seen := map[*snap.Flow]bool{}
	var flowBytes int64
	for _, f := range p.frames {
		for _, ch := range f.FlowChunks {
			if len(ch) > 0 && !seen[&ch[0]] {
				seen[&ch[0]] = true
				flowBytes += int64(cap(ch)) * int64(unsafe.Sizeof(snap.Flow{}))
			}
		}
	}
	assert.LessOrEqual(t, flowBytes, p.FrameBytes())
	assert.Greater(t, flowBytes, p.FrameBytes()/4, "flows are most of what frames take")

	// What the frames hold in the heap agrees.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p.frames, p.shown = nil, nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(before.HeapAlloc) - int64(after.HeapAlloc)
	t.Logf("the frames held %d bytes of heap", held)
	assert.Less(t, held, 2*p.FrameBytes()+full, "the heap the frames hold is about FrameBytes")
}

// Near the memory limit computing stops with what happened and what to try.
func TestHeapLimitStopsComputing(t *testing.T) {
	p := newPlayer(t, "incast")
	p.SetHeapLimit(1)
	computeAll(t, p)
	require.Error(t, p.Err())
	assert.False(t, p.Done())
	assert.Contains(t, p.Err().Error(), "scenario incast ran out of memory in the browser canvas")
	assert.Contains(t, p.Err().Error(), "a smaller scenario")
	assert.Contains(t, p.Err().Error(), "sim.fidelity: flow")

	p = newPlayer(t, "incast")
	p.SetHeapLimit(64 << 30)
	computeAll(t, p)
	assert.NoError(t, p.Err())
}

// History keeps to the same frames as playback moves on, so what the charts
// cache for them stays good; it ends on the frame shown.
func TestHistoryIsStable(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	computeAll(t, p)
	n, dt := p.Frames()
	require.Greater(t, n, 1000)
	p.Seek(unit.Time(n/2) * dt)
	a := p.History(240)
	p.Seek(unit.Time(n/2+1) * dt)
	b := p.History(240)
	require.LessOrEqual(t, len(b), 240)
	require.Greater(t, len(b), 120, "at most a power of two apart: more than half of n")
	cur, _ := p.Frame()
	assert.Same(t, cur, b[len(b)-1], "it ends on the frame shown")
	same := 0
	for _, s := range a[:len(a)-1] {
		if slices.Contains(b, s) {
			same++
		}
	}
	assert.Equal(t, len(a)-1, same, "one frame on, the same earlier frames")
	for k := 1; k+1 < len(b)-1; k++ { // the last, the frame shown, may be nearer
		assert.Equal(t, b[1].Time-b[0].Time, b[k+1].Time-b[k].Time, "evenly spaced")
	}
}

// Sub-steps change no frame: a run computed in steps of whole frames and one
// computed in many short sub-steps (their snapshots put off to the next
// call), each cut after a few events, record the same frames and the same
// result.
func TestComputeSubStepsKeepFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, tc := range []struct {
		name string
		sets []string
	}{
		{"incast", []string{"traffic.bytes=1MiB"}},
		{"noisy-neighbor", []string{"collective.bytes=4MiB", "traffic.bytes=1MiB"}},
		{"dp-resnet50", []string{"training.iterations=1"}},
		{"perm-1024", []string{"until=2us"}}, // 1,025 events at 0
	} {
		whole := newPlayer(t, tc.name, tc.sets...)
		whole.rec.stepWall = 0
		for !whole.Compute(time.Hour) {
		}
		short := newPlayer(t, tc.name, tc.sets...)
		short.rec.stepWall = time.Microsecond
		for {
			// Each call: the snapshot due, then sub-steps from a seventh of
			// a frame (at most doubling: three at least) to the next frame,
			// whose snapshot is put off to the next call as if it would not
			// fit; each sub-step cut after minEvents events, at most doubling.
			short.rec.rate, short.rec.snapCost = float64(short.rec.dt)/7/float64(short.rec.stepWall), 100*time.Hour
			short.rec.evRate = 1e-9
			if short.Compute(time.Hour) {
				break
			}
			require.True(t, short.rec.snapDue, "%s: the snapshot waits for the next call", tc.name)
		}
		assert.Greater(t, short.rec.advances, 3*whole.rec.advances, "%s: frames reached in sub-steps", tc.name)
		assert.Positive(t, short.rec.cuts, "%s: sub-steps cut after their events", tc.name)
		assert.Zero(t, whole.rec.cuts, tc.name)
		require.Equal(t, len(whole.frames), len(short.frames), tc.name)
		assert.Equal(t, whole.dt, short.dt, tc.name)
		for i := range whole.frames {
			a, b := *whole.frames[i].Full(), *short.frames[i].Full()
			if a.Routing != nil && b.Routing != nil { // a run's table of routes, filled as it goes
				ra, rb := *a.Routing, *b.Routing
				ra.Routes, rb.Routes = nil, nil
				a.Routing, b.Routing = &ra, &rb
			}
			require.Equal(t, a, b, "%s: frame %d", tc.name, i)
		}
		assert.Equal(t, whole.Result(), short.Result(), tc.name)
	}
}
