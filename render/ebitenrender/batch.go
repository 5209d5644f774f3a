package ebitenrender

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// batch collects the shapes and glyphs of a frame as triangles from the
// atlas and draws them in one call. Drawing each shape as its own
// antialiased path cost a draw call (and on software WebGL, seconds per
// frame) apiece.
type batch struct {
	v         []ebiten.Vertex
	idx       []uint32
	src       *ebiten.Image // the atlas: shapes take its white pixel
	opts      ebiten.DrawTrianglesOptions
	solid     *ebiten.Shader
	solidOpts ebiten.DrawTrianglesShaderOptions
	roundedSh *ebiten.Shader
	shader    shapeShader // which of the two the opaque shapes batched need
	ring      []float32   // scratch outline points
	dy        float32     // added to every y
}

// shapeShader is a shader for opaque shapes.
type shapeShader uint8

const (
	solidShape   shapeShader = iota // triangles in their colour
	roundedShape                    // quads whose corners the shader rounds (batch.rounded)
)

func newBatch(atlas *ebiten.Image) *batch {
	b := &batch{src: atlas}
	b.opts.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha // as the glyphs' colours are
	s, err := ebiten.NewShader([]byte(solidShader))
	if err != nil {
		panic(fmt.Sprintf("ebitenrender: the solid shader: %v", err)) // a bug: the source is fixed
	}
	b.solid = s
	if b.roundedSh, err = ebiten.NewShader([]byte(roundedShader)); err != nil {
		panic(fmt.Sprintf("ebitenrender: the rounded shader: %v", err))
	}
	b.solidOpts.Blend = ebiten.BlendCopy // opaque: nothing under it shows through
	return b
}

// solidShader paints a triangle in its vertices' colour (premultiplied, as
// they are given), reading no texture.
const solidShader = `//kage:unit pixels

package main

func Fragment(dstPos vec4, srcPos vec2, color vec4) vec4 {
	return color
}
`

// roundedShader paints a quad in its colour but for the pixels outside its
// rounded corners: srcPos is the pixel's offset from the quad's centre,
// custom.xy its half size, custom.z the corners' radius. (The 1/16 px keeps
// pixels on a square corner's edges.)
const roundedShader = `//kage:unit pixels

package main

func Fragment(dstPos vec4, srcPos vec2, color vec4, custom vec4) vec4 {
	q := abs(srcPos) - custom.xy + custom.z
	if length(max(q, 0)) > custom.z+1.0/16 {
		discard()
	}
	return color
}
`

// flush draws what has been collected onto dst.
func (b *batch) flush(dst Target) {
	if len(b.idx) > 0 {
		dst.DrawTriangles32(b.v, b.idx, b.src, &b.opts)
	}
	b.v, b.idx = b.v[:0], b.idx[:0]
}

// flushSolid draws what has been collected, opaque shapes only, onto dst
// with the solid shader and no blending.
func (b *batch) flushSolid(dst Target) {
	if len(b.idx) > 0 {
		sh := b.solid
		if b.shader == roundedShape {
			sh = b.roundedSh
		}
		dst.DrawTrianglesShader32(b.v, b.idx, sh, &b.solidOpts)
	}
	b.v, b.idx = b.v[:0], b.idx[:0]
}

// vertex adds a vertex of a shape in colour c (straight alpha, premultiplied
// here exactly as Ebitengine's ColorScaleModeStraightAlpha would).
func (b *batch) vertex(x, y float32, c color.RGBA) uint32 {
	a := float32(c.A) / 255
	b.v = append(b.v, ebiten.Vertex{DstX: x, DstY: y + b.dy, SrcX: whiteX, SrcY: whiteY,
		ColorR: float32(c.R) / 255 * a, ColorG: float32(c.G) / 255 * a, ColorB: float32(c.B) / 255 * a, ColorA: a,
		Custom0: unbounded, Custom1: unbounded}) // for the rounded shader: no corners
	return uint32(len(b.v) - 1)
}

// image adds the w×h image at (sx, sy) in the atlas, drawn at (x, y) in
// colour cs (premultiplied).
func (b *batch) image(x, y float32, sx, sy, w, h int, cs *ebiten.ColorScale) {
	i := uint32(len(b.v))
	y += b.dy
	r, g, bl, a := cs.R(), cs.G(), cs.B(), cs.A()
	fw, fh := float32(w), float32(h)
	for _, c := range [4][2]float32{{0, 0}, {fw, 0}, {0, fh}, {fw, fh}} {
		b.v = append(b.v, ebiten.Vertex{DstX: x + c[0], DstY: y + c[1], SrcX: float32(sx) + c[0], SrcY: float32(sy) + c[1],
			ColorR: r, ColorG: g, ColorB: bl, ColorA: a})
	}
	b.idx = append(b.idx, i, i+1, i+2, i+1, i+2, i+3)
}

// unbounded is a half size no shape reaches.
const unbounded = 1 << 20

// rounded adds a w×h rectangle at (x, y) in opaque colour c with corners
// of radius r (square below half a pixel, as roundRect's) as one quad for
// the rounded shader. A circle's radius is that of a circle as large as
// the polygon circle() makes (a few hundredths less): the same pixels,
// but for a few at its rim.
func (b *batch) rounded(x, y, w, h, r float32, circle bool, c color.RGBA) {
	hx, hy := w/2, h/2
	if r < 0.5 {
		r = 0
	}
	r = min(r, hx, hy)
	sx, sy := hx, hy // the shape's half size
	if circle {
		n := float64(circleSides(r))
		r *= float32(math.Sqrt(n * math.Sin(2*math.Pi/n) / (2 * math.Pi)))
		sx, sy = r, r
	}
	i := uint32(len(b.v))
	for _, k := range [4][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		v := b.vertex(x+hx+k[0]*hx, y+hy+k[1]*hy, c)
		b.v[v].SrcX, b.v[v].SrcY = k[0]*hx, k[1]*hy
		b.v[v].Custom0, b.v[v].Custom1, b.v[v].Custom2 = sx, sy, r
	}
	b.idx = append(b.idx, i, i+1, i+2, i+1, i+2, i+3)
}

func (b *batch) quad(x0, y0, x1, y1, x2, y2, x3, y3 float32, c color.RGBA) {
	i := b.vertex(x0, y0, c)
	b.vertex(x1, y1, c)
	b.vertex(x2, y2, c)
	b.vertex(x3, y3, c)
	b.idx = append(b.idx, i, i+1, i+2, i, i+2, i+3)
}

// fan fills a convex polygon given as x, y pairs. Its triangles go down
// both sides from the top vertex at once, each taking the side whose next
// vertex is higher, so that each spans a few rows: software WebGL walks
// every row of every triangle, and a fan from one corner has each triangle
// span about the whole shape. (The pixels drawn are the same.)
func (b *batch) fan(pts []float32, c color.RGBA) {
	n := len(pts) / 2
	if n < 3 {
		return
	}
	first := uint32(len(b.v))
	top := 0
	for k := 0; k < n; k++ {
		b.vertex(pts[2*k], pts[2*k+1], c)
		if pts[2*k+1] < pts[2*top+1] {
			top = k
		}
	}
	y := func(k int) float32 { return pts[2*((top+k)%n)+1] }
	at := func(k int) uint32 { return first + uint32((top+k)%n) }
	// i and j are the last vertices taken down either side, counted from
	// the top forward (i) and back (j, from n); each triangle is them and
	// the higher of the next on either side.
	for i, j := 1, n; i+1 < j; {
		if y(j-1) < y(i+1) {
			b.idx = append(b.idx, at(i), at(j), at(j-1))
			j--
		} else {
			b.idx = append(b.idx, at(i), at(j), at(i+1))
			i++
		}
	}
}

// line strokes a segment of the given width (at least a device pixel).
func (b *batch) line(x1, y1, x2, y2, width float32, c color.RGBA) {
	dx, dy := x2-x1, y2-y1
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	w := stroke(width) / 2
	nx, ny := -dy/l*w, dx/l*w
	b.quad(x1+nx, y1+ny, x2+nx, y2+ny, x2-nx, y2-ny, x1-nx, y1-ny, c)
}

// stroke is the width a line of the given width is drawn: at least a device pixel.
func stroke(width float32) float32 { return max(width, 1) }

// outline strokes the closed outline pts.
func (b *batch) outline(pts []float32, width float32, c color.RGBA) {
	n := len(pts) / 2
	for k := 0; k < n; k++ {
		j := (k + 1) % n
		b.line(pts[2*k], pts[2*k+1], pts[2*j], pts[2*j+1], width, c)
	}
}

// roundRect returns the outline of a rectangle with rounded corners.
func (b *batch) roundRect(x, y, w, h, r float32) []float32 {
	pts := b.ring[:0]
	if r < 0.5 {
		pts = append(pts, x, y, x+w, y, x+w, y+h, x, y+h)
		b.ring = pts
		return pts
	}
	seg := int(min(8, max(2, r/2)))
	corner := func(cx, cy float32, from float64) {
		for k := 0; k <= seg; k++ {
			a := from + math.Pi/2*float64(k)/float64(seg)
			pts = append(pts, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	b.ring = pts
	return pts
}

// circle returns the outline of a circle.
func (b *batch) circle(cx, cy, r float32) []float32 {
	n := circleSides(r)
	pts := b.ring[:0]
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / float64(n)
		pts = append(pts, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	b.ring = pts
	return pts
}

// circleSides is how many sides circle's polygon of radius r has.
func circleSides(r float32) int { return int(min(48, max(8, 2*math.Pi*float64(r)/2))) }
