package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Once the computing goroutine runs, Update no longer computes, yet the run
// is computed to its end while Updates go on, and a new run loaded later is
// computed too. (Run with -race: the goroutine and Update share the player.)
func TestComputingGoesOnBetweenFrames(t *testing.T) {
	g, h := started(t, "?scenario=incast&set=traffic.bytes%3D1MiB")
	g.startComputing()
	done := func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.p != nil && g.p.Done()
	}
	for !done() { // go test -timeout ends it should the goroutine not compute
		require.NoError(t, g.Update())
		runtime.Gosched()
	}
	assert.True(t, g.background)
	for !func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.idle }() {
		runtime.Gosched() // until the goroutine waits for a new run
	}
	h.send(`{"fabriclab": "load", "scenario": "incast", "set": ["traffic.bytes=2MiB"]}`)
	require.NoError(t, g.Update())
	require.False(t, done(), "a new run, not computed yet")
	for !done() {
		require.NoError(t, g.Update())
		runtime.Gosched()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	assert.Equal(t, "incast", g.p.Scenario().Name)
	assert.NoError(t, g.p.Err())
}

// A slice is twice a turn of the event loop, within its bounds.
func TestSliceIsTwiceATurn(t *testing.T) {
	assert.Equal(t, sliceMin, sliceFor(0, sliceMin), "no turn measured yet")
	assert.Equal(t, slicePlay, sliceFor(time.Millisecond, slicePlay), "frames ahead, cheap frames")
	assert.Equal(t, 50*time.Millisecond, sliceFor(25*time.Millisecond, sliceMin))
	assert.Equal(t, 50*time.Millisecond, sliceFor(25*time.Millisecond, slicePlay))
	assert.Equal(t, sliceMax, sliceFor(time.Second, slicePlay))
}

// Playing at the computed end, a newly computed frame waits for the next
// redraw tick instead of being drawn as it comes; once computed ahead of
// playback it shows.
func TestNewFramesAtTheComputedEndWaitForTheTick(t *testing.T) {
	g, _ := started(t, "?scenario=incast&set=traffic.bytes%3D256MiB")
	g.background = true // only this test computes
	g.p.Play()
	for {
		require.NoError(t, g.Update())
		g.drawn = g.key // as Draw does
		before := g.key
		g.p.Compute(time.Millisecond) // new frames
		require.False(t, g.p.Done())
		g.p.Seek(g.p.End()) // playing on at the computed end
		require.NoError(t, g.Update())
		if g.key.tick != before.tick {
			continue // a new tick came: try again
		}
		assert.NotSame(t, before.cur, g.frame.Cur, "a new frame is prepared")
		assert.Equal(t, before, g.key, "but not drawn before the tick")
		break
	}
	g.p.Pause()
	require.NoError(t, g.Update())
	g.drawn = g.key
	for end := g.p.End(); g.p.End() == end && !g.p.Done(); { // a new frame to step to, however slow the machine
		g.p.Compute(time.Millisecond)
	}
	g.p.Step()
	require.NoError(t, g.Update())
	assert.NotEqual(t, g.drawn, g.key, "paused and stepping: drawn at once")
}
