package main

import (
	"strconv"
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
	assert.Equal(t, 1, h.asked, "one frame after the one that draws it, for its view (it draws nothing)")
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
	assert.Equal(t, asked, h2.asked, "playing at the computed end: no frame (the next comes with what is computed)")
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
	// the frame drawn, as the page's frames draw it: its view goes, and no
	// view is left due (a view due and a picture that changed would rightly
	// ask a frame: without this draw the test failed now and then)
	require.NoError(t, g.Update())
	draw(g)
	g.drawn = g.key
	require.NoError(t, g.Update())
	require.False(t, g.page.view.due, "the view went")
	asked, times := h.asked, h.times()
	for i := 1; i <= 5; i++ { // as a worker's frames come
		g.p.Compute(time.Millisecond)
		g.page.nextTime = time.Time{}
		require.NoError(t, g.Update())
	}
	assert.Equal(t, asked, h.asked, "no frame for the progress, tick after tick")
	assert.Equal(t, times+5, h.times(), "the page hears of it")
	ev := lastTime(t, &h.pageHost)
	assert.Positive(t, ev["progress"])

	h.send(`{"fabriclab":"seek","t_us":1e6}`) // far past what is computed
	require.NoError(t, g.Update())
	require.NotNil(t, g.frame.Computing, "a seek waiting: the canvas says how far it has got")
	assert.Equal(t, unit.Second, g.frame.Computing.Target)

	g2, _ := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB&play=1")
	require.NotNil(t, g2.frame.Computing, "playing: the box")
}

// The tooltip and the view go to the page once the picture they describe
// is drawn, so after a command that changes the picture (↓ on the canvas,
// a seek while paused) the canvas asks for the frame after the one that
// draws it; then none. (Frames on demand ran none: the tooltip never came.)
func TestFramesForTheTooltipAndTheView(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast")
	for !g.p.Done() {
		g.p.Compute(100 * time.Millisecond)
	}
	frame := func() { t.Helper(); drawnFrame(t, g) }
	frame()
	frame()
	asked := h.asked
	frame()
	assert.Equal(t, asked, h.asked, "nothing to draw: no frame asked for")

	for _, c := range []struct{ cmd, event string }{
		{`{"fabriclab":"inspect","dir":1}`, "tooltip"},
		{`{"fabriclab":"seek","t_us":50}`, "view"},
	} {
		before := len(eventsNamed(&h.pageHost, c.event))
		h.send(c.cmd)
		asked = h.asked // the command's own frame counted
		frame()
		assert.Equal(t, asked+1, h.asked, "%s: the frame after the one that draws it", c.cmd)
		frame()
		assert.Len(t, eventsNamed(&h.pageHost, c.event), before+1, "%s: the %s follows", c.cmd, c.event)
		frame()
		assert.Equal(t, asked+1, h.asked, "%s: then no frame", c.cmd)
	}
}

// A seek past what is computed, while paused, lands when computing reaches
// it; the frame that draws the picture there is followed by one that sends
// its view, though no command nor message asks for it. (The view never came
// when the worker's last message was taken before the seek landed:
// TestBrowserCanvasTableFaults, now and then.)
func TestFramesForTheViewOfASeekThatLands(t *testing.T) {
	g, h := onDemand(t, "?scenario=incast&set=traffic.bytes%3D256MiB")
	frame := func() { t.Helper(); drawnFrame(t, g) }
	frame()
	frame()
	target := g.p.End() + 100*unit.Microsecond
	h.send(`{"fabriclab":"seek","t_us":` + strconv.FormatFloat(target.Micros(), 'f', -1, 64) + `}`)
	frame()
	frame()
	require.True(t, g.seeking(), "the seek waits for computing")
	before := len(eventsNamed(&h.pageHost, "view"))
	for g.p.End() < target {
		g.p.Compute(time.Millisecond)
	}
	asked := h.asked
	frame() // the seek lands, and its picture is drawn
	require.False(t, g.seeking())
	require.NotZero(t, g.frame.Cur.Time, "a picture other than the first")
	require.Equal(t, asked+1, h.asked, "the frame after the one that draws it")
	frame()
	views := eventsNamed(&h.pageHost, "view")
	require.Len(t, views, before+1)
	assert.Equal(t, g.frame.Cur.Time.Micros(), views[before]["t_us"])
}

// drawnFrame runs a frame: Update, then Draw as the game's Draw does.
func drawnFrame(t *testing.T, g *Game) {
	t.Helper()
	require.NoError(t, g.Update())
	draw(g)
	g.drawn = g.key
}
