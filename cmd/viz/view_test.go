package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
)

// events named name, in order.
func eventsNamed(h *pageHost, name string) []map[string]any {
	var out []map[string]any
	for _, ev := range h.events {
		if ev["fabriclab"] == name {
			out = append(out, ev)
		}
	}
	return out
}

func (g *Game) seeking() bool { _, ok := g.p.Seeking(); return ok }

// draw builds the scene as Draw does.
func draw(g *Game) { g.builder.Scene(&g.frame) }

// The view goes to the page once the frame it describes is drawn: after a
// load and after a command, in the page's language; not again while nothing
// moves.
func TestViewFollowsTheDrawnFrame(t *testing.T) {
	g, h := started(t, "?scenario=incast&lang=zh")
	assert.Empty(t, eventsNamed(h, "view"), "nothing drawn yet")
	draw(g)
	require.NoError(t, g.Update())
	views := eventsNamed(h, "view")
	require.Len(t, views, 1)
	assert.Equal(t, g.frame.Cur.Time.Micros(), views[0]["t_us"])
	assert.Len(t, views[0]["nodes"], 10)
	assert.Equal(t, "主机", views[0]["nodes"].([]any)[1].(map[string]any)["kind"])
	require.NoError(t, g.Update())
	assert.Len(t, eventsNamed(h, "view"), 1, "paused, unchanged: no new view")

	h.send(`{"fabriclab":"seek","t_us":30}`)
	for i := 0; i < 1000 && g.seeking(); i++ {
		require.NoError(t, g.Update())
	}
	require.NoError(t, g.Update())
	assert.Len(t, eventsNamed(h, "view"), 1, "the frame at 30 µs is not drawn yet")
	// (the frame shown may still change as the player thins its frames: then the next drawn)
	for i := 0; i < 10 && len(eventsNamed(h, "view")) == 1; i++ {
		draw(g)
		require.NoError(t, g.Update())
	}
	views = eventsNamed(h, "view")
	require.Len(t, views, 2)
	assert.InDelta(t, 30, views[1]["t_us"], 5)
	assert.Equal(t, 100.0, views[1]["links"].([]any)[0].(map[string]any)["load_pct"], "the busiest link first")
}

// While playing the view goes at most once a second, of the frame drawn
// last: Update prepares the next frame before it sends events, so the
// frame shown is always one behind (it was never sent while playing).
func TestViewAtMostOnceASecondWhilePlaying(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	for !g.p.Compute(time.Second) { // computed ahead (a loaded machine's first slices go to the look-ahead)
	}
	draw(g)
	require.NoError(t, g.Update())
	h.events = nil
	g.p.Play()
	now := time.Now()
	for i := range 30 { // three seconds of 100 ms ticks, in a frame's order
		g.p.Tick(0.1)
		g.prepare(0, 0)
		g.viewEvents(now.Add(time.Duration(i) * 100 * time.Millisecond))
		draw(g)
	}
	views := eventsNamed(h, "view")
	assert.GreaterOrEqual(t, len(views), 2)
	assert.LessOrEqual(t, len(views), 4)
	require.NotEmpty(t, views)
	assert.Greater(t, views[len(views)-1]["t_us"], 0.0, "views of the frames played")

	g.p.Pause() // paused, the view of the frame shown follows once drawn
	g.prepare(0, 0)
	draw(g)
	g.viewEvents(now.Add(4 * time.Second))
	views = eventsNamed(h, "view")
	assert.Equal(t, g.frame.Cur.Time.Micros(), views[len(views)-1]["t_us"], "paused: the frame shown")
}

// ↓ ↑ (inspect) move the keyboard's highlight over nodes and links: the
// frame is drawn with its tooltip, whose text goes to the page; Esc
// (inspect 0) closes it.
func TestInspectShowsTooltips(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.send(`{"fabriclab":"inspect","dir":1}`)
	require.NoError(t, g.Update())
	first := render.Inspectable(g.layout)[0]
	assert.Equal(t, first, g.frame.Hover, "the first item is highlighted")
	assert.Empty(t, eventsNamed(h, "tooltip"), "its tooltip is not drawn yet")
	draw(g)
	require.NoError(t, g.Update())
	tips := eventsNamed(h, "tooltip")
	require.Len(t, tips, 1)
	assert.True(t, strings.HasPrefix(tips[0]["text"].(string), "switch · "), tips[0]["text"])

	h.send(`{"fabriclab":"inspect","dir":-1}`)
	require.NoError(t, g.Update())
	draw(g)
	require.NoError(t, g.Update())
	assert.Equal(t, render.HoverLink, g.frame.Hover.Kind, "back from the first: the last link")
	tips = eventsNamed(h, "tooltip")
	require.Len(t, tips, 2)
	assert.Contains(t, tips[1]["text"], "→")

	h.send(`{"fabriclab":"inspect","dir":0}`)
	require.NoError(t, g.Update())
	assert.Equal(t, render.HoverNone, g.frame.Hover.Kind)
	tips = eventsNamed(h, "tooltip")
	require.Len(t, tips, 3)
	assert.Equal(t, "", tips[2]["text"])
}
