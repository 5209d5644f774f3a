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
	solid  []int // the number of triangles of each call with a shader
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

func (r *recorder) DrawTrianglesShader32(v []ebiten.Vertex, i []uint32, _ *ebiten.Shader, o *ebiten.DrawTrianglesShaderOptions) {
	if o.Blend == ebiten.BlendCopy && o.Images[0] == nil {
		r.solid = append(r.solid, len(i)/3)
	}
	r.DrawTriangles32(v, i, nil, nil)
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
	assert.Equal(t, 2, plain.calls, "two draw calls: the opaque shapes, the text")
	assert.Equal(t, 8, plain.glyphs, "two glyphs, four vertices each")
	require.NotEmpty(t, plain.ys)
	require.Len(t, nudged.ys, len(plain.ys))
	for i := range plain.ys {
		assert.Equal(t, plain.ys[i]-1.0/16, nudged.ys[i], "vertex %d", i)
	}
}

// With a Backdrop that shows the background colour, the background is not
// painted; one that cannot show it (or none) leaves it painted.
func TestBackdropTakesTheBackground(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	bg := color.RGBA{20, 20, 30, 255}
	dl := &render.DisplayList{W: 100, H: 50, Prims: []render.Prim{
		{Kind: render.KindRect, W: 100, H: 50, Fill: bg},
		{Kind: render.KindRect, X: 10, Y: 10, W: 20, H: 10, Fill: color.RGBA{255, 255, 255, 255}},
	}}
	var got []color.RGBA
	for _, shows := range []bool{true, false} {
		d.Backdrop = func(c color.RGBA) bool { got = append(got, c); return shows }
		var r recorder
		d.Draw(&r, dl, 1)
		if shows {
			assert.Zero(t, r.fills, "the backdrop shows the background")
		} else {
			assert.Equal(t, 1, r.fills, "the backdrop cannot show it: painted")
		}
		assert.Len(t, r.ys, 4, "the other rectangle is drawn either way")
	}
	assert.Equal(t, []color.RGBA{bg, bg}, got)
	d.Backdrop = nil
	var r recorder
	d.Draw(&r, dl, 1)
	assert.Equal(t, 1, r.fills, "no backdrop: painted")
}

// The opaque shapes before the first text or translucent shape are one
// call with the solid shader and no blending (nothing under them shows
// through); the rest, glyphs and translucent shapes, are blended as before.
func TestOpaqueShapesFirstAreSolid(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	white, glass := color.RGBA{255, 255, 255, 255}, color.RGBA{40, 40, 40, 128}
	rect := func(fill, stroke color.RGBA) render.Prim {
		return render.Prim{Kind: render.KindRect, X: 10, Y: 10, W: 20, H: 10, Fill: fill, Stroke: stroke, Width: 1}
	}
	line := render.Prim{Kind: render.KindLine, X: 0, Y: 30, W: 100, H: 30, Width: 1, Stroke: white}
	text := render.Prim{Kind: render.KindText, X: 50, Y: 40, Size: 10, Str: "Hi", Fill: white}
	for _, tc := range []struct {
		name  string
		prims []render.Prim
		solid []int // triangles of each solid call
		calls int
	}{
		{"all opaque", []render.Prim{rect(white, color.RGBA{}), line}, []int{4}, 1},
		{"opaque, then text", []render.Prim{rect(white, color.RGBA{}), line, text, rect(white, color.RGBA{})}, []int{4}, 2},
		{"a translucent fill ends it", []render.Prim{line, rect(glass, color.RGBA{}), line}, []int{2}, 2},
		{"so does a translucent outline", []render.Prim{rect(white, glass), line}, nil, 1},
		{"text first: none", []render.Prim{text, line}, nil, 1},
		{"invisible shapes: no call", []render.Prim{rect(color.RGBA{}, color.RGBA{}), text}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			d.Draw(&r, &render.DisplayList{W: 100, H: 50, Prims: tc.prims}, 1)
			assert.Equal(t, tc.solid, r.solid)
			assert.Equal(t, tc.calls, r.calls)
			assert.Equal(t, tc.calls, d.Stats().Batches)
			assert.Equal(t, len(tc.solid), d.Stats().Solid)
		})
	}
}

// A filled shape's triangles zigzag down from its top: each spans a few
// rows, so that their heights add up to about twice the shape's (a fan
// from one corner makes every triangle about as tall as the shape).
func TestFansZigzag(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	for _, p := range []render.Prim{
		{Kind: render.KindRect, X: 10, Y: 10, W: 60, H: 40, R: 12, Fill: color.RGBA{255, 0, 0, 255}},
		{Kind: render.KindCircle, X: 50, Y: 50, R: 30, Fill: color.RGBA{255, 0, 0, 255}},
	} {
		var r triangles
		d.Draw(&r, &render.DisplayList{W: 100, H: 100, Prims: []render.Prim{p}}, 1)
		require.NotEmpty(t, r.heights)
		var sum, top, bottom float32 = 0, 1e9, -1e9
		for i, h := range r.heights {
			sum += h
			top, bottom = min(top, r.tops[i]), max(bottom, r.tops[i]+h)
		}
		assert.Less(t, sum, 2.5*(bottom-top), "kind %d: %d triangles %v", p.Kind, len(r.heights), r.heights)
	}
}

// triangles is a Target that keeps each triangle's top and height.
type triangles struct{ tops, heights []float32 }

func (r *triangles) DrawTriangles32(v []ebiten.Vertex, idx []uint32, _ *ebiten.Image, _ *ebiten.DrawTrianglesOptions) {
	for k := 0; k+2 < len(idx); k += 3 {
		a, b, c := v[idx[k]].DstY, v[idx[k+1]].DstY, v[idx[k+2]].DstY
		r.tops = append(r.tops, min(a, b, c))
		r.heights = append(r.heights, max(a, b, c)-min(a, b, c))
	}
}

func (r *triangles) DrawTrianglesShader32(v []ebiten.Vertex, idx []uint32, _ *ebiten.Shader, _ *ebiten.DrawTrianglesShaderOptions) {
	r.DrawTriangles32(v, idx, nil, nil)
}

func (r *triangles) Fill(color.Color) {}

// vertices is a Target that keeps every vertex and counts the calls.
type vertices struct {
	v     []ebiten.Vertex
	idx   int
	calls int
}

func (r *vertices) DrawTriangles32(v []ebiten.Vertex, idx []uint32, _ *ebiten.Image, _ *ebiten.DrawTrianglesOptions) {
	r.v = append(r.v, v...)
	r.idx += len(idx)
	r.calls++
}
func (r *vertices) DrawTrianglesShader32(v []ebiten.Vertex, idx []uint32, _ *ebiten.Shader, _ *ebiten.DrawTrianglesShaderOptions) {
	r.DrawTriangles32(v, idx, nil, nil)
}
func (r *vertices) Fill(color.Color) {}

// A small box filled and outlined in opaque colours is two fans (its
// outline's outer shape, the fill inside it), with the outline's extent; a
// translucent fill keeps the fan and a quad per outline segment.
func TestSmallOpaqueShapesAreTwoFans(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	box := func(fill color.RGBA) *vertices {
		dl := &render.DisplayList{W: 100, H: 50, Prims: []render.Prim{{Kind: render.KindRect, X: 10, Y: 10, W: 20, H: 10, R: 4,
			Fill: fill, Stroke: color.RGBA{0, 0, 0, 255}, Width: 2}}}
		var r vertices
		d.Draw(&r, dl, 1)
		return &r
	}
	opaque, translucent := box(color.RGBA{200, 0, 0, 255}), box(color.RGBA{100, 0, 0, 128})
	assert.Less(t, opaque.idx*10, translucent.idx*7, "fewer than 70 %% of the triangles: %d, %d indices", opaque.idx, translucent.idx)
	minX, maxX := float32(1e9), float32(-1e9)
	for _, v := range opaque.v {
		minX, maxX = min(minX, v.DstX), max(maxX, v.DstX)
	}
	assert.InDelta(t, 9, minX, 1e-4, "the outline's outer edge, half its width out")
	assert.InDelta(t, 31, maxX, 1e-4)
}

// Glyphs that overflow the atlas start it over: what was batched before is
// drawn first (a second call), and every glyph is taken from inside it.
func TestFullAtlasStartsOver(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	dl := &render.DisplayList{W: 1000, H: 1000}
	for size := 100; size < 110; size++ { // each size its own glyphs: about 260 of ~90×120 px, some 100 fit
		dl.Prims = append(dl.Prims, render.Prim{Kind: render.KindText, X: 10, Y: 500, Size: float32(size), Str: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
			Fill: color.RGBA{255, 255, 255, 255}})
	}
	var r vertices
	d.Draw(&r, dl, 1)
	assert.Greater(t, r.calls, 1, "the atlas filled up: what it held was drawn")
	assert.Equal(t, 260*4, len(r.v), "every glyph drawn")
	for _, v := range r.v {
		require.True(t, v.SrcX >= 0 && v.SrcX <= 1024 && v.SrcY >= 0 && v.SrcY <= 1024, "inside the atlas: %v", v)
	}
	assert.Equal(t, 260, d.Stats().Glyphs)
}
