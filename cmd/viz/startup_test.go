package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
	"fabriclab/sim"
)

// startPage is a page that can draw a frame between the start-up's parts.
type startPage struct {
	pageHost
	yields int
}

func (h *startPage) yieldFrame() { h.yields++ }

// buildAll runs buildSlice as the computing goroutine does, in slices too
// short for one step, and returns how many it took; the loading picture
// shows until the last.
func buildAll(t *testing.T, g *Game) int {
	t.Helper()
	slices := 1
	for !g.buildSlice(time.Nanosecond) {
		slices++
		require.Nil(t, g.p, "nothing plays before the build is done")
		require.NoError(t, g.Update())
		require.Equal(t, g.loadingPic, g.key.errorPic, "the loading picture shows while it is built")
	}
	return slices
}

// In the browser a first scenario slow to build is built after a frame of
// the page (the canvas's loading picture, should Ebitengine draw one), in
// slices: its fabric, a step of sim.BuildFlows flows each, its player (the
// first snapshot); a load the page sends
// meanwhile wins. A small one builds at once.
func TestStartUpBuildsBetweenFrames(t *testing.T) {
	h := &startPage{pageHost: pageHost{q: "?scenario=perm-1024"}}
	g, err := newGame(h)
	require.NoError(t, err)
	assert.Nil(t, g.p, "not built with the page's first turn")
	g.w, g.h = 800, 600
	require.NoError(t, g.Update())
	require.NotNil(t, g.loadingPic)
	assert.Equal(t, g.loadingPic, g.key.errorPic, "the loading picture is what Draw shows")
	var texts []string
	for _, p := range g.loadingPic.Prims {
		if p.Kind == render.KindText {
			texts = append(texts, p.Str)
		}
	}
	assert.Equal(t, []string{"Building perm-1024…"}, texts)

	g.startUp(h)
	assert.Equal(t, 1, h.yields, "a frame before the build")
	assert.Nil(t, g.p)
	assert.Equal(t, 1+1024/sim.BuildFlows+1, buildAll(t, g), "the fabric, 1,024 flows a step a slice, the player")
	require.NotNil(t, g.p)
	assert.Equal(t, "perm-1024", g.p.Scenario().Name)
	assert.Equal(t, "loaded", h.last("loaded")["fabriclab"])
	assert.Nil(t, g.first)
	assert.Nil(t, g.loadingPic)

	h = &startPage{pageHost: pageHost{q: "?scenario=incast"}}
	g, err = newGame(h)
	require.NoError(t, err)
	assert.NotNil(t, g.p, "a small scenario builds at once")

	h = &startPage{pageHost: pageHost{q: "?scenario=perm-1024"}}
	g, err = newGame(h)
	require.NoError(t, err)
	h.send(`{"fabriclab": "load", "scenario": "ecmp-collisions"}`)
	require.NoError(t, g.Update())
	assert.Nil(t, g.first, "the page's load replaced the first scenario")
	require.NotNil(t, g.p)
	assert.Equal(t, "ecmp-collisions", g.p.Scenario().Name)
}

// A lesson step that loads a scenario slow to build, once computing runs
// in the background, is built in slices like the first: the old run goes
// at once, the loading picture shows, and it plays once built as the load
// asked; a small one loads within the command, as before.
func TestLoadCommandBuildsSlowScenarioInSlices(t *testing.T) {
	h := &startPage{pageHost: pageHost{q: "?scenario=incast"}}
	g, err := newGame(h)
	require.NoError(t, err)
	g.background = true // as startComputing sets it, without its goroutine
	g.w, g.h = 800, 600
	require.NoError(t, g.Update())
	require.NotNil(t, g.p)

	h.send(`{"fabriclab": "load", "scenario": "perm-1024", "play": true, "step": "2-3"}`)
	require.NoError(t, g.Update())
	assert.Nil(t, g.p, "the old run went")
	require.NotNil(t, g.first)
	assert.Equal(t, g.loadingPic, g.key.errorPic, "the loading picture shows")
	assert.Greater(t, buildAll(t, g), 2, "built in slices")
	require.NotNil(t, g.p)
	assert.Equal(t, "perm-1024", g.p.Scenario().Name)
	assert.True(t, g.p.Playing(), "the load asked to play")
	assert.Equal(t, "2-3", h.last("loaded")["step"])

	h.send(`{"fabriclab": "load", "scenario": "incast"}`)
	require.NoError(t, g.Update())
	assert.Nil(t, g.first)
	require.NotNil(t, g.p, "a small scenario loads within the command")
	assert.Equal(t, "incast", g.p.Scenario().Name)

	// a play sent while it is built is kept for when it is
	h.send(`{"fabriclab": "load", "scenario": "perm-1024"}`)
	h.send(`{"fabriclab": "play"}`)
	require.NoError(t, g.Update())
	buildAll(t, g)
	require.NotNil(t, g.p)
	assert.True(t, g.p.Playing())

	// a load that comes while another is built replaces it, counted as dropped
	h.send(`{"fabriclab": "load", "scenario": "perm-1024", "set": ["name=first"]}`)
	require.NoError(t, g.Update())
	require.False(t, g.buildSlice(time.Nanosecond), "begun, not built")
	h.send(`{"fabriclab": "load", "scenario": "perm-1024", "set": ["name=second"]}`)
	require.NoError(t, g.Update())
	buildAll(t, g)
	require.NotNil(t, g.p)
	assert.Equal(t, "second", g.p.Scenario().Name)
	assert.Equal(t, "second", h.last("loaded")["name"])
	assert.Equal(t, 1.0, h.last("loaded")["skipped"], "the first was dropped unbuilt")
}
