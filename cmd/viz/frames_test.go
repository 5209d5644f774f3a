package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

// framePage is a page whose frames run on demand: it counts the frames asked for.
type framePage struct {
	pageHost
	onDemand bool
	asked    int
}

func (h *framePage) framesOnDemand() { h.onDemand = true }
func (h *framePage) scheduleFrame()  { h.asked++ }

// onDemand is a game on a framePage whose first picture has been drawn, with
// frames on demand and computing left to the test.
func onDemand(t *testing.T, q string) (*Game, *framePage) {
	t.Helper()
	h := &framePage{pageHost: pageHost{q: q}}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	g.background = true // the test computes
	g.framesOnDemand()
	require.True(t, h.onDemand)
	require.NoError(t, g.Update())
	require.NotNil(t, g.frame.Layout, "the first picture prepared")
	assert.Zero(t, h.asked, "no frame asked for after the one that draws it")
	g.drawn, g.firstFrame = g.key, true // as Draw and DrawFinalScreen do
	require.NoError(t, g.Update())
	return g, h
}

func (h *framePage) times() int {
	n := 0
	for _, ev := range h.events {
		if ev["fabriclab"] == "time" {
			n++
		}
	}
	return n
}

// Paused while the run computes, frames run for the progress bar's tick and
// for commands only; between them the page still gets its time events.
// (Without the page's controls: with them the page shows the progress, see
// TestPausedProgressIsThePages.)
func TestFramesWhilePausedRunForTheTickAndCommands(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB&controls=0")
	asked := h.asked
	require.NoError(t, g.Update())
	assert.Equal(t, asked, h.asked, "paused, nothing changed: no frame")

	now := time.Unix(0, g.key.tick*int64(redrawEvery)) // within the picture's tick
	g.p.Compute(time.Millisecond)
	require.False(t, g.p.Done())
	times := h.times()
	g.page.nextTime = time.Time{}
	g.between(now)
	assert.Equal(t, asked, h.asked, "new frames computed, paused: no frame before the tick")
	assert.Equal(t, times+1, h.times(), "but a time event")

	g.between(now.Add(redrawEvery))
	assert.Equal(t, asked+1, h.asked, "the next tick: a frame for the progress bar")
	g.between(now.Add(redrawEvery))
	assert.Equal(t, asked+1, h.asked, "asked once until it runs")
	require.NoError(t, g.Update())
	g.drawn = g.key

	h.send(`{"fabriclab": "step"}`)
	assert.Equal(t, asked+2, h.asked, "a command asks for the frame that runs it")
	require.NoError(t, g.Update())
	g.drawn = g.key
	asked = h.asked
	g.between(time.Unix(0, g.key.tick*int64(redrawEvery)))
	assert.Equal(t, asked, h.asked)
}

// A seek that waits for computing gets its frame once computing settles it,
// and so does the end of computing.
func TestFramesRunWhenComputingMovesPlayback(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast")
	h.send(`{"fabriclab": "seek", "t_us": 20}`)
	require.NoError(t, g.Update())
	_, seeking := g.p.Seeking()
	require.True(t, seeking, "the seek waits for computing")
	tick := time.Unix(0, g.key.tick*int64(redrawEvery))
	asked := h.asked
	for {
		g.p.Compute(time.Millisecond)
		if _, seeking := g.p.Seeking(); !seeking {
			break
		}
		g.between(tick)
		require.Equal(t, asked, h.asked, "no frame while the seek waits (but for the tick)")
	}
	g.between(tick)
	assert.Equal(t, asked+1, h.asked, "the seek settled: a frame")
	require.NoError(t, g.Update())
	for !g.p.Done() {
		g.p.Compute(100 * time.Millisecond)
	}
	g.between(tick)
	assert.Equal(t, asked+2, h.asked, "computed: a frame without the progress bar")
	require.NoError(t, g.Update())
	g.between(tick.Add(time.Hour))
	assert.Equal(t, asked+2, h.asked, "computed and paused: no tick")
}

// Playing through computed frames asks for every next frame; at the computed
// end playback waits for the tick; starting after a pause does not jump.
func TestFramesWhilePlaying(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast")
	for !g.p.Done() {
		g.p.Compute(100 * time.Millisecond)
	}
	require.NoError(t, g.Update())
	g.last = time.Now().Add(-time.Second) // the last frame was long ago
	h.send(`{"fabriclab": "play"}`)
	asked := h.asked
	require.NoError(t, g.Update())
	assert.Zero(t, g.p.Pos(), "the first frame after a pause does not move playback")
	assert.Equal(t, asked+1, h.asked, "playing: the next frame")
	g.last = time.Now().Add(-50 * time.Millisecond)
	require.NoError(t, g.Update())
	assert.Positive(t, g.p.Pos(), "the frames after it do")
	assert.Equal(t, asked+2, h.asked)

	g2, h2 := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB&play=1")
	g2.p.Compute(time.Millisecond)
	g2.p.Seek(g2.p.End())
	require.NoError(t, g2.Update())
	asked = h2.asked
	require.NoError(t, g2.Update())
	assert.True(t, g2.p.Playing())
	assert.Equal(t, asked, h2.asked, "playing at the computed end: no frame but for the tick")
}

// While playback waits, a slice keeps computing waitShare of the time.
func TestWaitSliceKeepsTheShare(t *testing.T) {
	assert.Equal(t, sliceMin, waitSlice(0))
	turn := 6 * time.Millisecond
	s := waitSlice(turn)
	assert.InDelta(t, waitShare, float64(s)/float64(s+turn), 0.001)
	assert.Equal(t, sliceMax, waitSlice(time.Second))
}

// Where a progress frame costs more than a tenth of a second (software
// WebGL), the progress bar's frames come further apart: they take at most a
// tenth of the time computing waits for.
func TestProgressFramesKeepToATenthOfTheTime(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB&controls=0")
	now := time.Unix(0, (g.key.tick+1)*int64(redrawEvery))
	asked := h.asked
	g.between(now)
	require.Equal(t, asked+1, h.asked, "the next tick: a frame for the progress bar")
	g.frames.measured(300 * time.Millisecond) // the turn that frame took
	require.NoError(t, g.Update())
	g.drawn = g.key

	g.between(now.Add(redrawEvery))
	assert.Equal(t, asked+1, h.asked, "a 300 ms frame: none a second later")
	g.between(now.Add(2 * redrawEvery))
	assert.Equal(t, asked+1, h.asked, "nor two seconds later")
	g.between(now.Add(3 * redrawEvery))
	assert.Equal(t, asked+2, h.asked, "three seconds later: 300 ms is a tenth")

	g.frames.measured(5 * time.Millisecond) // a cheap frame (a GPU)
	require.NoError(t, g.Update())
	g.drawn = g.key
	g.between(now.Add(4 * redrawEvery))
	assert.Equal(t, asked+3, h.asked, "a cheap frame: the tick is once a second again")
}

// Paused with the page's controls, the page's computing bar shows the
// progress (from the time events): the canvas draws no progress box and
// asks for no frame for it. A seek past what is computed, or playing, shows
// the box again.
func TestPausedProgressIsThePages(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB")
	require.False(t, g.p.Done())
	assert.Nil(t, g.frame.Computing, "paused: no progress box on the canvas")
	for round3(g.p.Progress()) == 0 { // some progress to report, however slow the machine
		g.p.Compute(time.Millisecond)
	}
	asked, times := h.asked, h.times()
	now := time.Unix(0, g.key.tick*int64(redrawEvery))
	for i := 1; i <= 5; i++ {
		g.p.Compute(time.Millisecond)
		g.page.nextTime = time.Time{}
		g.between(now.Add(time.Duration(i) * 2 * redrawEvery))
	}
	assert.Equal(t, asked, h.asked, "no frame for the progress, tick after tick")
	assert.Equal(t, times+5, h.times(), "the page hears of it")
	ev := lastTime(t, &h.pageHost)
	assert.Positive(t, ev["progress"])

	h.send(`{"fabriclab":"seek","t_us":1e6}`) // far past what is computed
	require.NoError(t, g.Update())
	require.NotNil(t, g.frame.Computing, "a seek waiting: the canvas says how far it has got")
	assert.Equal(t, unit.Second, g.frame.Computing.Target)
	asked = h.asked
	g.between(now.Add(20 * redrawEvery))
	assert.Equal(t, asked+1, h.asked, "and its tick asks for frames")

	g2, _ := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB&play=1")
	require.NotNil(t, g2.frame.Computing, "playing: the box")
}

// startFramePage is a page with frames on demand that draws one between
// the start-up's parts.
type startFramePage struct{ framePage }

func (h *startFramePage) yieldFrame() {}

// The first picture costs one frame: the one asked for once the scenario
// is built, whose Draw paints what its Update prepared. Asking for another
// would only present it again (perm-1024: 0.1–0.5 s on software WebGL).
func TestFirstPictureTakesOneFrame(t *testing.T) {
	h := &startFramePage{framePage{pageHost: pageHost{q: "?scenario=perm-1024"}}}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	g.background = true
	g.framesOnDemand()
	require.NoError(t, g.Update())
	for !g.buildSlice(time.Hour) {
	}
	require.NotNil(t, g.p)
	assert.Equal(t, 1, h.asked, "a frame for the first picture")
	require.NoError(t, g.Update())
	require.NotNil(t, g.frame.Layout)
	g.between(time.Now()) // before its Draw: the picture is prepared
	assert.Equal(t, 1, h.asked, "no frame more before it is drawn")
	g.drawn, g.firstFrame = g.key, true // as Draw and DrawFinalScreen do
	g.p.Compute(time.Millisecond)
	g.between(time.Now())
	require.NoError(t, g.Update())
	assert.Equal(t, 1, h.asked, "nor after, paused while it computes")
}
