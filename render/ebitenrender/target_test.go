package ebitenrender_test

import (
	"image/color"
	"math"
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
	ys      []float32 // every vertex's y
	glyphs  int       // vertices not from the white pixel: glyphs'
	calls   int
	fills   int
	solid   []int // the number of triangles of each call with a shader
	shaders map[*ebiten.Shader]bool
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

func (r *recorder) DrawTrianglesShader32(v []ebiten.Vertex, i []uint32, sh *ebiten.Shader, o *ebiten.DrawTrianglesShaderOptions) {
	if o.Blend == ebiten.BlendCopy && o.Images[0] == nil {
		r.solid = append(r.solid, len(i)/3)
	}
	if r.shaders == nil {
		r.shaders = map[*ebiten.Shader]bool{}
	}
	r.shaders[sh] = true
	r.calls++
	for _, x := range v { // no glyphs: srcPos is the shader's
		r.ys = append(r.ys, x.DstY)
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
// through), and so are later ones that nothing drawn before them but after
// that overlaps; the rest, glyphs and translucent shapes, are blended as
// before.
func TestOpaqueShapesFirstAreSolid(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	white, glass := color.RGBA{255, 255, 255, 255}, color.RGBA{40, 40, 40, 128}
	rect := func(fill, stroke color.RGBA) render.Prim {
		return render.Prim{Kind: render.KindRect, X: 10, Y: 10, W: 20, H: 10, Fill: fill, Stroke: stroke, Width: 1}
	}
	line := render.Prim{Kind: render.KindLine, X: 0, Y: 30, W: 100, H: 30, Width: 1, Stroke: white}
	cross := render.Prim{Kind: render.KindLine, X: 0, Y: 15, W: 100, H: 15, Width: 1, Stroke: white} // over rect
	text := render.Prim{Kind: render.KindText, X: 50, Y: 40, Size: 10, Str: "Hi", Fill: white}
	onText := rect(white, color.RGBA{})
	onText.X, onText.Y = 45, 35
	for _, tc := range []struct {
		name  string
		prims []render.Prim
		solid []int // triangles of each solid call
		calls int
	}{
		{"all opaque", []render.Prim{rect(white, color.RGBA{}), line}, []int{4}, 1},
		{"opaque, then text", []render.Prim{rect(white, color.RGBA{}), line, text, onText}, []int{4}, 2},
		{"a translucent fill ends it", []render.Prim{line, rect(glass, color.RGBA{}), cross}, []int{2}, 2},
		{"so does a translucent outline", []render.Prim{rect(white, glass), cross}, nil, 1},
		{"later opaque shapes clear of what is before them join it", []render.Prim{line, text, rect(white, color.RGBA{}), onText}, []int{2, 2}, 3}, // the rect rounded
		{"and where one translucent shape ends it", []render.Prim{line, rect(glass, color.RGBA{}), line, cross}, []int{4}, 2},
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

// shaderCalls is a Target that keeps each shader call's shader and vertices.
type shaderCalls struct {
	shaders  []*ebiten.Shader
	vertices [][]ebiten.Vertex
	tris     []int
}

func (r *shaderCalls) DrawTriangles32([]ebiten.Vertex, []uint32, *ebiten.Image, *ebiten.DrawTrianglesOptions) {
}

func (r *shaderCalls) DrawTrianglesShader32(v []ebiten.Vertex, idx []uint32, s *ebiten.Shader, _ *ebiten.DrawTrianglesShaderOptions) {
	r.shaders = append(r.shaders, s)
	r.vertices = append(r.vertices, append([]ebiten.Vertex(nil), v...))
	r.tris = append(r.tris, len(idx)/3)
}

func (r *shaderCalls) Fill(color.Color) {}

// Small filled rectangles and circles among the opaque shapes are quads for
// a shader that rounds their corners (the outline's outer shape, then the
// fill): from the first on, the opaque shapes are one call with that shader,
// whose other triangles it leaves whole (corners no shape reaches).
func TestSmallShapesAreRoundedQuads(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	fill, edge := color.RGBA{80, 90, 100, 255}, color.RGBA{200, 200, 200, 255}
	panel := render.Prim{Kind: render.KindRect, X: 2, Y: 2, W: 196, H: 96, R: 8, Fill: fill, Stroke: edge, Width: 1}
	line := render.Prim{Kind: render.KindLine, X: 0, Y: 30, W: 100, H: 60, Width: 2, Stroke: edge}
	node := render.Prim{Kind: render.KindRect, X: 10, Y: 10, W: 30, H: 16, R: 4, Fill: fill, Stroke: edge, Width: 2}
	dot := render.Prim{Kind: render.KindCircle, X: 60, Y: 40, R: 3, Fill: fill}
	ring := render.Prim{Kind: render.KindCircle, X: 80, Y: 40, R: 6, Stroke: edge, Width: 1}
	var r shaderCalls
	d.Draw(&r, &render.DisplayList{W: 200, H: 100, Prims: []render.Prim{panel, line, node, line, dot, ring, line}}, 1)
	require.Len(t, r.shaders, 2, "the panel and the first line; the rest")
	assert.NotSame(t, r.shaders[0], r.shaders[1])
	ringTris := r.tris[1] - 3*2 - 2*2 // less the node's two quads, the dot's, two lines
	assert.Greater(t, ringTris, 8, "the ring is its outline's triangles")

	v := r.vertices[1]
	// The node: its outline's outer edge (1 px out), then its fill (1 px in).
	for k, want := range [][6]float32{{9, 9, 16, 9, 5}, {11, 11, 14, 7, 3}} {
		q := v[4*k : 4*k+4]
		assert.Equal(t, want[0], q[0].DstX, "quad %d", k)
		assert.Equal(t, want[1], q[0].DstY, "quad %d", k)
		for _, c := range q {
			assert.Equal(t, [2]float32{want[2], want[3]}, [2]float32{abs(c.SrcX), abs(c.SrcY)}, "quad %d: srcPos is the offset from the centre", k)
			assert.Equal(t, [3]float32{want[2], want[3], want[4]}, [3]float32{c.Custom0, c.Custom1, c.Custom2}, "quad %d: half size and radius", k)
		}
	}
	// The next line (two triangles, four vertices), then the dot: a circle
	// as large as the 9-gon the triangles drew.
	for _, c := range v[8:12] {
		assert.GreaterOrEqual(t, min(c.Custom0, c.Custom1), float32(1<<20), "a line's triangles are whole")
	}
	dq := v[12:16]
	assert.Equal(t, float32(57), dq[0].DstX)
	assert.Equal(t, float32(63), dq[3].DstX)
	n := 9.0 // circleSides(3)
	polygon := n / 2 * 3 * 3 * math.Sin(2*math.Pi/n)
	rr := float64(dq[0].Custom2)
	assert.InDelta(t, polygon, math.Pi*rr*rr, 1e-3, "the dot's area")
	assert.Equal(t, dq[0].Custom2, dq[0].Custom0)
	for _, c := range v[16:] {
		assert.GreaterOrEqual(t, min(c.Custom0, c.Custom1), float32(1<<20), "the ring's and the last line's triangles are whole")
	}
}

func abs(x float32) float32 { return max(x, -x) }

// WarmUp draws one pixel of the background, in its top left corner, with
// each of the two shaders of opaque shapes (BlendCopy, no image), moved by
// NudgeY as Draw's shapes are; a picture without a background draws nothing.
func TestWarmUpDrawsEachShaderOnce(t *testing.T) {
	d, err := ebitenrender.New()
	require.NoError(t, err)
	bg := color.RGBA{20, 20, 30, 255}
	d.NudgeY = -1.0 / 16
	var r recorder
	require.True(t, d.WarmUp(&r, &render.DisplayList{W: 100, H: 50, Prims: []render.Prim{{Kind: render.KindRect, W: 100, H: 50, Fill: bg}}}))
	assert.Equal(t, []int{2, 2}, r.solid, "two calls of two triangles with a shader of opaque shapes")
	assert.Len(t, r.shaders, 2, "each with its own shader")
	assert.Zero(t, r.fills, "nothing cleared")
	for _, y := range r.ys {
		assert.Contains(t, []float32{-1.0 / 16, 1 - 1.0/16}, y, "within the top row")
	}
	var none recorder
	assert.False(t, d.WarmUp(&none, &render.DisplayList{W: 100, H: 50, Prims: []render.Prim{{Kind: render.KindRect, W: 10, H: 50, Fill: bg}}}), "no background")
	assert.Zero(t, none.calls)
}
