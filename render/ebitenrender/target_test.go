package ebitenrender_test

import (
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
	"fabriclab/render/ebitenrender"
)

// recorder is a Target that keeps what is drawn onto it, as Ebitengine's
// final screen would take it.
type recorder struct {
	ys     []float32 // every vertex's y
	glyphs int       // vertices not from the white pixel: glyphs'
	calls  int
	fills  int
}

func (r *recorder) DrawTriangles32(v []ebiten.Vertex, _ []uint32, _ *ebiten.Image, _ *ebiten.DrawTrianglesOptions) {
	r.calls++
	for _, x := range v {
		r.ys = append(r.ys, x.DstY)
		if x.SrcX != 1.5 || x.SrcY != 1.5 {
			r.glyphs++
		}
	}
}

func (r *recorder) Fill(color.Color) { r.fills++ }

// A Drawer draws onto any Target (the game's final screen, cmd/viz/final.go),
// shapes and glyphs in one call, and NudgeY moves every vertex, the glyphs'
// too, by exactly that much, nothing else.
func TestDrawOntoATargetWithANudge(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	white := color.RGBA{255, 255, 255, 255}
	dl := &render.DisplayList{W: 100, H: 50, Prims: []render.Prim{
		{Kind: render.KindRect, W: 100, H: 50, Fill: color.RGBA{20, 20, 30, 255}},
		{Kind: render.KindRect, X: 10, Y: 10, W: 20, H: 10.5, Fill: white},
		{Kind: render.KindLine, X: 0, Y: 30, W: 100, H: 30, Width: 1, Stroke: white},
		{Kind: render.KindText, X: 50, Y: 40, Size: 10, Str: "Hi", Fill: white},
	}}
	var plain, nudged recorder
	d.Draw(&plain, dl, 1)
	d.NudgeY = -1.0 / 16
	d.Draw(&nudged, dl, 1)
	assert.Equal(t, 1, plain.fills, "the background is a fill")
	assert.Equal(t, 1, plain.calls, "one draw call")
	assert.Equal(t, 8, plain.glyphs, "two glyphs, four vertices each")
	require.NotEmpty(t, plain.ys)
	require.Len(t, nudged.ys, len(plain.ys))
	for i := range plain.ys {
		assert.Equal(t, plain.ys[i]-1.0/16, nudged.ys[i], "vertex %d", i)
	}
}
