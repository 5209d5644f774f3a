package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
)

// startPage is a page that can draw a frame between the start-up's parts.
type startPage struct {
	pageHost
	yields int
}

func (h *startPage) yieldFrame() { h.yields++ }

// In the browser a first scenario slow to build is built after a frame of
// the page (the canvas's loading picture, should Ebitengine draw one), then
// a frame shows its first picture; a load the page sends meanwhile wins. A
// small one builds at once.
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
	assert.Equal(t, 2, h.yields, "a frame before the build and one after")
	require.NotNil(t, g.p)
	assert.Equal(t, "perm-1024", g.p.Scenario().Name)
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
	g.startUp(h)
	require.NotNil(t, g.p)
	assert.Equal(t, "ecmp-collisions", g.p.Scenario().Name, "the page's load replaced the first scenario")
}
