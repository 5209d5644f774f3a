package main

import (
	"github.com/hajimehoshi/ebiten/v2"
)

// DrawFinalScreen copies the picture onto the screen. At the canvas's own
// size (LayoutF asks for device pixels) the picture covers the screen
// exactly, and copied without blending the screen's pixels need not be read:
// on software WebGL that is a good part of the copy's cost. The screen has no
// alpha (canvas_js.go), so the copy shows what blending over Ebitengine's
// black would.
func (g *Game) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	if geoM == (ebiten.GeoM{}) && offscreen.Bounds().Size() == screen.Bounds().Size() {
		screen.DrawImage(offscreen, &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy})
		return
	}
	ebiten.DefaultDrawFinalScreen(screen, offscreen, geoM)
}
