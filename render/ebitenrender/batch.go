package ebitenrender

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// batch collects the shapes of a frame as coloured triangles and draws them
// in one call. Drawing each shape as its own antialiased path cost a draw
// call (and on software WebGL, seconds per frame) apiece.
type batch struct {
	v     []ebiten.Vertex
	idx   []uint32
	white *ebiten.Image
	opts  ebiten.DrawTrianglesOptions
	ring  []float32 // scratch outline points
	dy    float32   // added to every y
}

func newBatch() *batch {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return &batch{white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)}
}

// flush draws what has been collected onto dst.
func (b *batch) flush(dst Target) {
	if len(b.idx) > 0 {
		dst.DrawTriangles32(b.v, b.idx, b.white, &b.opts)
	}
	b.v, b.idx = b.v[:0], b.idx[:0]
}

func (b *batch) vertex(x, y float32, c color.RGBA) uint32 {
	b.v = append(b.v, ebiten.Vertex{DstX: x, DstY: y + b.dy, SrcX: 1.5, SrcY: 1.5,
		ColorR: float32(c.R) / 255, ColorG: float32(c.G) / 255, ColorB: float32(c.B) / 255, ColorA: float32(c.A) / 255})
	return uint32(len(b.v) - 1)
}

func (b *batch) quad(x0, y0, x1, y1, x2, y2, x3, y3 float32, c color.RGBA) {
	i := b.vertex(x0, y0, c)
	b.vertex(x1, y1, c)
	b.vertex(x2, y2, c)
	b.vertex(x3, y3, c)
	b.idx = append(b.idx, i, i+1, i+2, i, i+2, i+3)
}

// fan fills a convex polygon given as x, y pairs.
func (b *batch) fan(pts []float32, c color.RGBA) {
	n := len(pts) / 2
	if n < 3 {
		return
	}
	first := uint32(len(b.v))
	for k := 0; k < n; k++ {
		b.vertex(pts[2*k], pts[2*k+1], c)
	}
	for k := uint32(1); k+1 < uint32(n); k++ {
		b.idx = append(b.idx, first, first+k, first+k+1)
	}
}

// line strokes a segment of the given width (at least a device pixel).
func (b *batch) line(x1, y1, x2, y2, width float32, c color.RGBA) {
	dx, dy := x2-x1, y2-y1
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	w := max(width, 1) / 2
	nx, ny := -dy/l*w, dx/l*w
	b.quad(x1+nx, y1+ny, x2+nx, y2+ny, x2-nx, y2-ny, x1-nx, y1-ny, c)
}

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
	n := int(min(48, max(8, 2*math.Pi*float64(r)/2)))
	pts := b.ring[:0]
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / float64(n)
		pts = append(pts, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	b.ring = pts
	return pts
}
