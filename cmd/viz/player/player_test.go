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
	p.Step()
	t1 := p.Pos()
	assert.Positive(t, t1)
	p.Step()
	assert.Greater(t, p.Pos(), t1)
	p.StepBack()
	assert.Less(t, p.Pos(), p.End())
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
		cur, _ := p.Frame()
		assert.NotEmpty(t, cur.Links)
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
