package ebitenrender_test

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/render"
	"fabriclab/render/ebitenrender"
	"fabriclab/sim"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// game shows how a viewer wires the scene into Ebitengine: Update advances
// the run, takes snapshots (the renderer's only input) and lays out; Draw only
// builds the scene and draws it; Layout only sizes.
type game struct {
	run     *sim.Started
	history []*snap.Snapshot
	layout  *render.Layout
	scene   render.Builder
	drawer  *ebitenrender.Drawer
	hover   render.Hover
	w, h    int // logical size
}

func (g *game) Update() error {
	if g.layout == nil || g.layout.W != float64(g.w) || g.layout.H != float64(g.h) {
		g.layout = render.NewLayout(g.run.Model.Topology(), float64(g.w), float64(g.h), render.Options{Title: "incast"})
	}
	g.run.Model.Advance(g.run.Model.Now() + 2*unit.Microsecond)
	g.history = append(g.history, g.run.Snapshot())
	if len(g.history) > 600 {
		g.history = g.history[1:]
	}
	x, y := ebiten.CursorPosition() // device px: the screen image is device-sized
	s := ebiten.Monitor().DeviceScaleFactor()
	g.hover = render.HitTest(g.layout, float64(x)/s, float64(y)/s)
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	n := len(g.history)
	if n == 0 {
		return
	}
	f := render.Frame{Layout: g.layout, Cur: g.history[n-1], Prev: g.history[max(0, n-4)],
		History: g.history, Hover: g.hover}
	g.drawer.Draw(screen, g.scene.Scene(&f), ebiten.Monitor().DeviceScaleFactor())
}

// Layout records the size and makes the screen image device-sized, so the
// drawing is crisp on HiDPI.
func (g *game) Layout(outW, outH int) (int, int) {
	g.w, g.h = outW, outH
	s := ebiten.Monitor().DeviceScaleFactor()
	return int(float64(outW) * s), int(float64(outH) * s)
}

// Example draws a small display list off screen (Ebitengine queues the
// commands, so no window or GPU is needed) and shows what it cost: the
// background is a clear; the opaque shapes before the text are a draw with
// the solid shader and, from the first small filled shape on, one with the
// rounded shader (a quad a shape); the text and what follows it one more,
// two triangles a visible glyph.
func Example() {
	d, err := ebitenrender.New()
	if err != nil {
		panic(err)
	}
	white := color.RGBA{255, 255, 255, 255}
	dl := &render.DisplayList{W: 200, H: 100}
	dl.Points = []float32{10, 90, 50, 60, 90, 90}
	dl.Prims = []render.Prim{
		{Kind: render.KindRect, W: 200, H: 100, Fill: color.RGBA{20, 20, 30, 255}}, // background: a clear
		// At scale 2: a rounded rect of 4 corners × 7 points, filled (26
		// triangles) and outlined (28 sides × 2): solid. A small circle, a
		// quad (2), a line (2) and a polyline of two segments (4): rounded.
		{Kind: render.KindRect, X: 10, Y: 10, W: 60, H: 30, R: 6, Fill: white, Stroke: white, Width: 1},
		{Kind: render.KindCircle, X: 120, Y: 30, R: 5, Fill: white},
		{Kind: render.KindLine, X: 10, Y: 50, W: 190, H: 50, Width: 1, Stroke: white},
		{Kind: render.KindPolyline, P0: 0, P1: 6, Width: 1, Stroke: white},
		{Kind: render.KindRect, X: 150, Y: 10, W: 20, H: 20, Fill: color.RGBA{}}, // invisible: nothing
		{Kind: render.KindText, X: 100, Y: 80, Size: 12, Str: "Hi !", Fill: white, Anchor: render.Middle},
		{Kind: render.KindRect, X: 150, Y: 60, W: 20, H: 20, Fill: white}, // 2 more
	}
	screen := ebiten.NewImage(400, 200) // device pixels at scale 2
	d.Draw(screen, dl, 2)
	st := d.Stats()
	fmt.Printf("%d clear, %d triangle draws (%d solid) of %d triangles, %d glyphs\n", st.Clears, st.Batches, st.Solid, st.Triangles, st.Glyphs)

	// Without the text, the 3 glyphs' 6 triangles less, and every shape
	// is opaque: the solid and the rounded draws.
	dl.Prims = append(dl.Prims[:6], dl.Prims[7])
	d.Draw(screen, dl, 2)
	st = d.Stats()
	fmt.Printf("%d clear, %d triangle draws (%d solid) of %d triangles, %d glyphs\n", st.Clears, st.Batches, st.Solid, st.Triangles, st.Glyphs)
	// Output:
	// 1 clear, 3 triangle draws (2 solid) of 98 triangles, 3 glyphs
	// 1 clear, 2 triangle draws (2 solid) of 92 triangles, 0 glyphs
}

// Example_game shows how a viewer wires the scene into Ebitengine. It only
// compiles: ebiten.RunGame needs a window.
func Example_game() {
	d, err := ebitenrender.New()
	if err != nil {
		panic(err)
	}
	var g ebiten.Game = &game{drawer: d} // and run: sim.Start(scenario)
	_ = g                                // ebiten.RunGame(g) opens the window
}
