package main

import (
	"image/color"
	"time"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/render"
	"fabriclab/sim/scenario"
)

// The start-up in the browser, each part in turns of the page's thread of
// its own, so that the page has frames while the scenario is built: the
// WebAssembly instantiated, Go and Ebitengine started (the page's own
// loading box shows meanwhile, until the scenario is loaded); a frame; the
// scenario built in slices of computing (playback.Builder: perm-1024's build
// took one call of 0.4–1 s in the browser); a frame with its first
// picture; then computing in slices (compute.go). Only a scenario slow to
// build (slowBuild) goes so: the lessons' build in milliseconds, in the
// first turn, as before. A scenario slow to build that a command loads (a
// lesson's step) is built in slices too, the canvas showing its loading
// picture meanwhile.

// startupHost is a host whose page can draw a frame between the parts.
type startupHost interface {
	// yieldFrame returns once the page has run a frame (and what it had
	// waiting before it).
	yieldFrame()
}

// firstLoad is a scenario slow to build (the page's first, or one a command
// loaded) until the computing goroutine has built it.
type firstLoad struct {
	sc    scenario.Scenario
	b     *playback.Builder // being built, once begun
	built bool              // b has built the model (its player is still to make)
	play  bool              // play once built (the command's load or a play since)
}

// slowBuild is where the build takes turns of its own: a packet-level
// fabric of this many endpoints or more (its routes are found as it is
// built: perm-1024's 1,024 hosts took 0.1–0.4 s in WebAssembly). A smaller
// one builds in milliseconds, and a turn more would only delay its first
// picture (each costs the page a frame).
const slowBuild = 256

// slowToBuild says whether sc is built in slices on this host.
func (g *Game) slowToBuild(sc *scenario.Scenario, err error) bool {
	_, ok := g.out.(startupHost)
	return ok && err == nil && sc.Sim.Fidelity == scenario.Packet && sc.Endpoints() >= slowBuild
}

// startLoad loads the page's first scenario: on a startupHost, when it is
// slow to build, later, in slices (startUp, buildSlice); else now.
func (g *Game) startLoad(sc scenario.Scenario, err error) {
	if g.slowToBuild(&sc, err) {
		g.first = &firstLoad{sc: sc}
		return
	}
	g.load(sc, err)
}

// loadLater is load for a command (a lesson's step): a scenario slow to
// build is built by the computing goroutine in slices, the loading picture
// showing meanwhile, and plays once built if play.
func (g *Game) loadLater(sc scenario.Scenario, err error, play bool) {
	if g.first != nil {
		g.skipped++ // dropped before it was built
	}
	if !g.background || !g.slowToBuild(&sc, err) {
		g.load(sc, err)
		if g.p != nil && play {
			g.p.Play()
		}
		return
	}
	g.release() // the old run goes now: its memory is the new one's
	g.failure, g.loadingPic = "", nil
	g.first = &firstLoad{sc: sc, play: play}
	g.woken()
}

// startUp gives the page a frame before the first scenario is built: its
// loading box shows (and the canvas's loading picture, if Ebitengine draws
// a frame of its own). The computing goroutine then builds it in slices.
func (g *Game) startUp(y startupHost) {
	y.yieldFrame() // no canvas frame is asked for: on software WebGL one costs a read-back
}

// buildSlice builds the waiting scenario (g.first) for about budget and
// reports whether it is done (built, or failed): then it plays, and the
// first picture is asked for. Its fabric, its flows and its first snapshot
// (with the page's events) each take slices of their own: after the last
// flows a slice of the budget could not hold them too (perm-1024, load 10:
// 135–162 ms). A load the page sent meanwhile has replaced g.first.
func (g *Game) buildSlice(budget time.Duration) bool {
	f := g.first
	switch {
	case f.b == nil:
		if f.b = g.begin(f.sc, nil); f.b == nil { // slowToBuild took only a scenario without an error
			g.first, g.loadingPic = nil, nil
			return true
		}
		return false
	case !f.built:
		f.built = f.b.Build(budget)
		return false
	}
	g.first, g.loadingPic = nil, nil
	g.loaded(f.b)
	if g.p != nil && f.play {
		g.p.Play()
	}
	if g.frames.on && !g.frames.asked {
		g.askFrame(false) // the first picture, whatever the last run showed
	}
	return true
}

// loadingPicture is what the canvas shows while the first scenario is built:
// its name on the theme's background.
func loadingPicture(w, h float64, name string, lang render.Lang, light bool) *render.DisplayList {
	bg, fg := color.RGBA{0x0d, 0x11, 0x17, 0xff}, color.RGBA{0xc9, 0xd1, 0xd9, 0xff}
	if light {
		bg, fg = color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0x24, 0x29, 0x2f, 0xff}
	}
	text := i18n.Tf(lang, "viz.building", name)
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
