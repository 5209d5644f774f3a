package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pageHost is a browser page that records the events it gets.
type pageHost struct {
	q      string
	queue  commandQueue
	events []map[string]any
}

func (h *pageHost) query() string           { return h.q }
func (h *pageHost) commands() *commandQueue { return &h.queue }
func (h *pageHost) event(ev map[string]any) { h.events = append(h.events, ev) }
func (h *pageHost) browser() bool           { return true }
func (h *pageHost) send(cmd string)         { h.queue.push([]byte(cmd)) }

// started is a game on a page with query q, 800×600, after its first Update.
func started(t *testing.T, q string) (*Game, *pageHost) {
	t.Helper()
	h := &pageHost{q: q}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	require.NoError(t, g.Update())
	return g, h
}

// Update prepares the layout and the frame; it rebuilds the layout only when
// the canvas size, the scenario or the options change.
func TestUpdatePreparesWhatDrawShows(t *testing.T) {
	h := &pageHost{q: "?scenario=incast&controls=0"}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 1280, 720 // as LayoutF sets them
	require.NoError(t, g.Update())
	L := g.layout
	require.NotNil(t, L)
	assert.Equal(t, 1280.0, L.W)
	assert.Same(t, L, g.frame.Layout)
	require.NotNil(t, g.frame.Cur)
	assert.Equal(t, "incast", L.Opt.Title)

	require.NoError(t, g.Update())
	assert.Same(t, L, g.layout, "same size and scenario: the layout is kept")

	g.w = 1000
	require.NoError(t, g.Update())
	assert.Equal(t, 1000.0, g.layout.W, "a new size: a new layout")

	h.send(`{"fabriclab":"presenter","on":true}`)
	require.NoError(t, g.Update())
	assert.True(t, g.layout.Opt.Presenter, "presenter mode lays out again")

	old := g.layout
	h.send(`{"fabriclab":"load","scenario":"permutation"}`)
	require.NoError(t, g.Update())
	assert.NotSame(t, old.Topo, g.layout.Topo, "another scenario: its own layout")
	assert.Equal(t, "permutation", g.layout.Opt.Title)
	assert.Same(t, g.layout, g.frame.Layout)
}

// A failure is pictured by Update too: Draw only draws the picture.
func TestUpdatePicturesAFailure(t *testing.T) {
	g, _ := started(t, "?scenario=no-such-scenario")
	require.NotNil(t, g.errorPic)
	assert.Equal(t, float32(800), g.errorPic.W)
	pic := g.errorPic
	require.NoError(t, g.Update())
	assert.Same(t, pic, g.errorPic, "pictured once per size")
}

// A burst of loads builds only the last one: the others are dropped before
// anything is built, and so are playback commands meant for them.
func TestBurstOfLoadsBuildsTheLast(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.events = nil
	for i := range 20 {
		h.send(fmt.Sprintf(`{"fabriclab":"load","scenario":"permutation","set":["seed=%d"]}`, i+1))
		h.send(`{"fabriclab":"play"}`)
	}
	h.send(`{"fabriclab":"load","scenario":"ecmp-collisions"}`)
	require.NoError(t, g.Update())
	var loaded []map[string]any
	for _, ev := range h.events {
		if ev["fabriclab"] == "loaded" {
			loaded = append(loaded, ev)
		}
		assert.NotEqual(t, "error", ev["fabriclab"], ev)
	}
	require.Len(t, loaded, 1, "one build")
	assert.Equal(t, "ecmp-collisions", loaded[0]["name"])
	assert.Equal(t, 20, loaded[0]["skipped"])
	assert.False(t, g.p.Playing(), "the plays were for the dropped loads")
	assert.Equal(t, "ecmp-collisions", g.layout.Opt.Title)
}

// In the browser a scenario too big for the tab is refused before it is
// built, with the way out; what played before is let go.
func TestTooBigForTheBrowser(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.send(`{"fabriclab":"load","scenario":"perm-1024","set":["topology.k=32"]}`)
	require.NoError(t, g.Update())
	assert.True(t, g.p == nil, "no player")
	assert.True(t, g.layout == nil, "no layout of the old run")
	assert.Contains(t, g.failure, "too big for the browser canvas")
	assert.Contains(t, g.failure, "sim.fidelity: flow")
	require.NotNil(t, g.errorPic, "the canvas pictures the message")
}
