package main

import (
	"image/color"

	"fabriclab/i18n"
	"fabriclab/render"
)

// The loading picture: while a run's first frame is still to come from its
// worker (remote.go), the canvas shows the run's name on the theme's
// background.

// loadingPicture is what the canvas shows while a run's first frame is to
// come: its name on the theme's background.
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

// showLoading prepares the loading picture while a run waits for its first
// frame (prepare, with no run).
func (g *Game) showLoading(w, h float64) {
	name := g.waitingName()
	if name == "" {
		return
	}
	if k := [2]float64{w, h}; g.loadingPic == nil || k != g.loadingKey {
		g.loadingPic, g.loadingKey = loadingPicture(w, h, name, render.Lang(g.params.Lang), g.params.Theme == "light"), k
	}
	g.key = drawKey{errorPic: g.loadingPic, scale: g.scale}
}
