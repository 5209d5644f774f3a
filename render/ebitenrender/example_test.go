package ebitenrender_test

import (
	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/render"
	"fabriclab/render/ebitenrender"
	"fabriclab/sim/packet"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// game shows how a viewer wires the scene into Ebitengine: Update advances
// the model and takes snapshots, Draw only builds the scene and draws it.
type game struct {
	model   *packet.Model
	history []*snap.Snapshot
	layout  *render.Layout
	scene   render.Builder
	drawer  *ebitenrender.Drawer
	hover   render.Hover
	w, h    int // logical size
}

func (g *game) Update() error {
	now := g.model.Now()
	g.model.Advance(now + 2*unit.Microsecond)
	g.history = append(g.history, g.model.Snapshot())
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

// Layout makes the screen image device-sized, so the drawing is crisp on HiDPI.
func (g *game) Layout(outW, outH int) (int, int) {
	if outW != g.w || outH != g.h {
		g.w, g.h = outW, outH
		g.layout = render.NewLayout(g.model.Topology(), float64(outW), float64(outH), render.Options{Title: "incast"})
	}
	s := ebiten.Monitor().DeviceScaleFactor()
	return int(float64(outW) * s), int(float64(outH) * s)
}

func Example() {
	d, err := ebitenrender.New()
	if err != nil {
		panic(err)
	}
	var g ebiten.Game = &game{drawer: d}
	_ = g // ebiten.RunGame(g) with a model from packet.New(&scenario)
}
