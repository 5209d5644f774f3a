package main

import (
	"image/color"
	"time"

	"fabriclab/render"
	"fabriclab/sim/scenario"
)

// The start-up in the browser, each part in a turn of the page's thread of
// its own, so that the page has a frame before the scenario is built:
// the WebAssembly instantiated, Go and Ebitengine started (the page's own
// loading box shows meanwhile, until the scenario is loaded); a frame;
// the scenario built (one call into sim: perm-1024 takes half a second and
// more); a frame with its first picture; then computing in slices
// (compute.go). Only a scenario slow to build (slowBuild) goes so: the
// lessons' build in milliseconds, in the first turn, as before.

// startupHost is a host whose page can draw a frame between the parts.
type startupHost interface {
	// yieldFrame returns once the page has run a frame (and what it had
	// waiting before it).
	yieldFrame()
}

// firstLoad is the scenario of the page's address, until the computing
// goroutine builds it.
type firstLoad struct {
	sc  scenario.Scenario
	err error
}

// slowBuild is where the build takes a turn of its own: a packet-level
// fabric of this many endpoints or more (its routes are found as it is
// built: perm-1024's 1,024 hosts take half a second in WebAssembly). A
// smaller one builds in milliseconds, and a turn more would only delay its
// first picture (each costs the page a frame).
const slowBuild = 256

// startLoad loads the page's first scenario: on a startupHost, when it is
// slow to build, later, by startUp; else now.
func (g *Game) startLoad(sc scenario.Scenario, err error) {
	if _, ok := g.out.(startupHost); ok && err == nil && sc.Sim.Fidelity == scenario.Packet && sc.Endpoints() >= slowBuild {
		g.first = &firstLoad{sc, err}
		return
	}
	g.load(sc, err)
}

// startUp builds the first scenario between two frames of the page: in the
// first the page's loading box shows (and the canvas's loading picture, if
// Ebitengine draws a frame of its own), the second draws the scenario's
// first picture. A load the page sent meanwhile replaces it (load clears
// g.first).
func (g *Game) startUp(y startupHost) {
	y.yieldFrame() // no canvas frame is asked for: on software WebGL one costs a read-back
	g.mu.Lock()
	if f := g.first; f != nil {
		g.load(f.sc, f.err)
	}
	g.between(time.Now()) // asks for the first picture
	g.mu.Unlock()
	y.yieldFrame()
}

// loadingPicture is what the canvas shows while the first scenario is built:
// its name on the theme's background.
func loadingPicture(w, h float64, name string, lang render.Lang, light bool) *render.DisplayList {
	bg, fg := color.RGBA{0x0d, 0x11, 0x17, 0xff}, color.RGBA{0xc9, 0xd1, 0xd9, 0xff}
	if light {
		bg, fg = color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0x24, 0x29, 0x2f, 0xff}
	}
	text := "Building " + name + "…"
	if lang == render.ZH {
		text = "正在构建 " + name + "…"
	}
	dl := &render.DisplayList{}
	dl.Reset(float32(w), float32(h))
	dl.Prims = append(dl.Prims,
		render.Prim{Kind: render.KindRect, W: float32(w), H: float32(h), Fill: bg},
		render.Prim{Kind: render.KindText, Layer: render.LayerLabel, X: 24, Y: 40, Size: 16, Fill: fg, Str: text})
	return dl
}

// showLoading prepares the loading picture while the first scenario waits
// to be built (prepare, with no run).
func (g *Game) showLoading(w, h float64) {
	if g.first == nil {
		return
	}
	if k := [2]float64{w, h}; g.loadingPic == nil || k != g.loadingKey {
		g.loadingPic, g.loadingKey = loadingPicture(w, h, g.first.sc.Name, render.Lang(g.params.Lang), g.params.Theme == "light"), k
	}
	g.key = drawKey{errorPic: g.loadingPic, scale: g.scale}
}
