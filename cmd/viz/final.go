package main

import (
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/protocol"
	"fabriclab/render/ebitenrender"
)

// DrawFinalScreen draws the picture Draw made straight onto the screen. At
// the canvas's own size (LayoutF asks for device pixels) the offscreen image
// covers the screen exactly, and copying it there would cost a pass over
// every pixel a frame: on software WebGL (SwiftShader, which the browser
// tests and many a virtual machine use) a third of the frame. (Drawn there,
// a few pixels along sloped edges may differ from the image's: the same
// picture, rasterised the other way up.) At any other scale the picture
// goes into the offscreen image, which Ebitengine's own way scales onto the
// screen.
func (g *Game) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if geoM == (ebiten.GeoM{}) && offscreen.Bounds().Size() == screen.Bounds().Size() {
		g.drawer.NudgeY = -1 / float32(int(1)<<subpixelBits)
		g.drawer.Backdrop = screenBackdrop // the screen was cleared for this frame
		g.paint(screen)
		g.drawer.NudgeY, g.drawer.Backdrop = 0, nil
		return
	}
	if !g.inOffscreen {
		g.paint(offscreen)
		g.inOffscreen = true
	}
	ebiten.DefaultDrawFinalScreen(screen, offscreen, geoM)
}

// subpixelBits is the rasteriser's precision (WebGL's SUBPIXEL_BITS, read in
// canvas_js.go; 4 on SwiftShader). The screen is drawn upside down compared
// with an image, so a shape edge exactly on a row of pixel centres would
// take the row on the other side of it; one step of this precision up makes
// it take the same row (a horizontal grid line stays on its row).
var subpixelBits = 8

// paint draws the picture onto dst, whole (the screen keeps nothing between
// frames), and times its first drawing.
func (g *Game) paint(dst ebitenrender.Target) {
	defer func() {
		if r := recover(); r != nil && g.drawErr == nil {
			g.drawErr = fmt.Errorf("drawing failed (please report it): %v", r)
		}
	}()
	start := time.Now()
	if g.pic == nil {
		dst.Fill(color.Transparent) // shown black: the screen has no alpha
	} else {
		if !g.warmed {
			g.warmed = g.drawer.WarmUp(dst, g.pic) // the loading picture compiles the scene's shaders
		}
		g.drawer.Draw(dst, g.pic, g.scale)
	}
	if g.painted || !g.picScene {
		return
	}
	g.painted = true
	end := time.Now()
	if !g.tel.lastDraw.IsZero() {
		g.tel.intervals = keep(g.tel.intervals, end.Sub(g.tel.lastDraw).Seconds()*1000)
	}
	g.tel.drawTimes = keep(g.tel.drawTimes, (g.built+end.Sub(start)).Seconds()*1000)
	g.tel.lastDraw = end
	if !g.firstFrame {
		g.firstFrame = true
		g.out.event(protocol.Frame{})
	}
}
