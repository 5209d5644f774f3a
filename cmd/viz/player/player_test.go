package player

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
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

func computeAll(t *testing.T, p *Player) {
	t.Helper()
	for i := 0; !p.Compute(50 * time.Millisecond); i++ {
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
	one := SnapshotBytes(p.frames[0])
	p.budget = 40 * one
	computeAll(t, p)
	var sum int64
	for _, f := range p.frames {
		sum += SnapshotBytes(f)
	}
	assert.Equal(t, sum, p.FrameBytes())
	assert.LessOrEqual(t, p.FrameBytes(), p.budget+SnapshotBytes(p.frames[len(p.frames)-1]), "within the budget (the run's last frame may top it)")
	n, dt := p.Frames()
	assert.Greater(t, n, 10, "halving keeps half the budget's frames at least")
	assert.Greater(t, dt, 100*unit.Nanosecond, "the resolution halved")
	assert.InDelta(t, p.Result().Totals.SimTimeUs, p.End().Micros(), 0.001)
}

// A snapshot past the limit stops computing with an error that names the way out.
func TestComputeStopsAtABigSnapshot(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=4MiB")
	p.limit = SnapshotBytes(p.frames[0]) + 1
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

func TestStepBackMovesOneFrameBack(t *testing.T) {
	p := newPlayer(t, "incast", "traffic.bytes=1MiB")
	computeAll(t, p)
	n, dt := p.Frames()
	require.Greater(t, n, 3)

	// From the middle of a frame: to the frame before the one showing.
	p.Seek(3*dt + dt/2)
	p.Play()
	p.StepBack()
	assert.False(t, p.Playing(), "stepping back pauses")
	assert.Equal(t, 2*dt, p.Pos())
	cur, prev := p.Frame()
	assert.Equal(t, 2*dt, cur.Time)
	assert.Same(t, p.At(2*dt), cur)
	assert.Equal(t, dt, prev.Time)

	// Frame by frame down to the start, where it stays.
	p.StepBack()
	assert.Equal(t, dt, p.Pos())
	p.StepBack()
	assert.Equal(t, unit.Time(0), p.Pos())
	p.StepBack()
	assert.Equal(t, unit.Time(0), p.Pos(), "at the start stepping back stays put")
	cur, _ = p.Frame()
	assert.Equal(t, unit.Time(0), cur.Time)

	// At the end the run's last frame shows; stepping back goes to the one before.
	p.Seek(p.End())
	cur, _ = p.Frame()
	assert.True(t, cur.Done, "at the end the finished frame shows")
	assert.Equal(t, p.End(), cur.Time)
	p.StepBack()
	assert.Equal(t, unit.Time(n-2)*dt, p.Pos())
	cur, _ = p.Frame()
	assert.False(t, cur.Done)
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
