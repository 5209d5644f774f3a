package render

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"fabriclab/assets"
)

// PNG rasterises the display list onto a w×h image in device pixels, scale
// device pixels to the logical pixel, with a pure-Go rasteriser: the same
// picture as the canvas, for static export and golden tests.
func PNG(dl *DisplayList, w, h int, scale float64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rasterizer{dst: img, s: float32(scale)}
	for i := range dl.Prims {
		r.prim(dl, &dl.Prims[i])
	}
	return img
}

// WritePNG encodes the display list as a PNG at scale device pixels per logical one.
func WritePNG(out io.Writer, dl *DisplayList, scale float64) error {
	img := PNG(dl, int(math.Ceil(float64(dl.W)*scale)), int(math.Ceil(float64(dl.H)*scale)), scale)
	return png.Encode(out, img)
}

type rasterizer struct {
	dst *image.RGBA
	s   float32
	z   vector.Rasterizer
	// the path being built, in device px, and its bounds
	ox, oy                 float32
	pts                    []pathOp
	minX, minY, maxX, maxY float32
}

type pathOp struct {
	op   uint8 // 0 move, 1 line, 2 cubic, 3 close
	x, y [3]float32
}

func (r *rasterizer) begin() {
	r.pts = r.pts[:0]
	r.minX, r.minY = math.MaxFloat32, math.MaxFloat32
	r.maxX, r.maxY = -math.MaxFloat32, -math.MaxFloat32
}

func (r *rasterizer) grow(x, y float32) {
	r.minX, r.minY = min(r.minX, x), min(r.minY, y)
	r.maxX, r.maxY = max(r.maxX, x), max(r.maxY, y)
}

func (r *rasterizer) moveTo(x, y float32) {
	r.pts = append(r.pts, pathOp{op: 0, x: [3]float32{x}, y: [3]float32{y}})
	r.grow(x, y)
}

func (r *rasterizer) lineTo(x, y float32) {
	r.pts = append(r.pts, pathOp{op: 1, x: [3]float32{x}, y: [3]float32{y}})
	r.grow(x, y)
}

func (r *rasterizer) cubeTo(x1, y1, x2, y2, x3, y3 float32) {
	r.pts = append(r.pts, pathOp{op: 2, x: [3]float32{x1, x2, x3}, y: [3]float32{y1, y2, y3}})
	r.grow(x1, y1)
	r.grow(x2, y2)
	r.grow(x3, y3)
}

func (r *rasterizer) close() { r.pts = append(r.pts, pathOp{op: 3}) }

// fill paints the path built since begin with c.
func (r *rasterizer) fill(c color.RGBA) {
	if c.A == 0 || len(r.pts) == 0 {
		return
	}
	b := r.dst.Bounds()
	x0, y0 := max(int(math.Floor(float64(r.minX))), b.Min.X), max(int(math.Floor(float64(r.minY))), b.Min.Y)
	x1, y1 := min(int(math.Ceil(float64(r.maxX))), b.Max.X), min(int(math.Ceil(float64(r.maxY))), b.Max.Y)
	if x1 <= x0 || y1 <= y0 {
		return
	}
	r.z.Reset(x1-x0, y1-y0)
	r.z.DrawOp = draw.Over
	fx, fy := float32(x0), float32(y0)
	for _, p := range r.pts {
		switch p.op {
		case 0:
			r.z.MoveTo(p.x[0]-fx, p.y[0]-fy)
		case 1:
			r.z.LineTo(p.x[0]-fx, p.y[0]-fy)
		case 2:
			r.z.CubeTo(p.x[0]-fx, p.y[0]-fy, p.x[1]-fx, p.y[1]-fy, p.x[2]-fx, p.y[2]-fy)
		case 3:
			r.z.ClosePath()
		}
	}
	r.z.Draw(r.dst, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{})
}

const kappa = 0.5522848 // cubic Bézier control distance for a quarter circle

// roundRect adds a closed rounded rectangle, clockwise or (ccw) counter-clockwise.
func (r *rasterizer) roundRect(x, y, w, h, rad float32, ccw bool) {
	rad = min(rad, w/2, h/2)
	if rad < 0 {
		rad = 0
	}
	k := rad * kappa
	if !ccw {
		r.moveTo(x+rad, y)
		r.lineTo(x+w-rad, y)
		r.cubeTo(x+w-rad+k, y, x+w, y+rad-k, x+w, y+rad)
		r.lineTo(x+w, y+h-rad)
		r.cubeTo(x+w, y+h-rad+k, x+w-rad+k, y+h, x+w-rad, y+h)
		r.lineTo(x+rad, y+h)
		r.cubeTo(x+rad-k, y+h, x, y+h-rad+k, x, y+h-rad)
		r.lineTo(x, y+rad)
		r.cubeTo(x, y+rad-k, x+rad-k, y, x+rad, y)
	} else {
		r.moveTo(x+rad, y)
		r.cubeTo(x+rad-k, y, x, y+rad-k, x, y+rad)
		r.lineTo(x, y+h-rad)
		r.cubeTo(x, y+h-rad+k, x+rad-k, y+h, x+rad, y+h)
		r.lineTo(x+w-rad, y+h)
		r.cubeTo(x+w-rad+k, y+h, x+w, y+h-rad+k, x+w, y+h-rad)
		r.lineTo(x+w, y+rad)
		r.cubeTo(x+w, y+rad-k, x+w-rad+k, y, x+w-rad, y)
	}
	r.close()
}

func (r *rasterizer) circle(cx, cy, rad float32, ccw bool) {
	r.roundRect(cx-rad, cy-rad, 2*rad, 2*rad, rad, ccw)
}

// segment adds a line segment of width w as a quad, extended by half its
// width at both ends so that polyline joints close.
func (r *rasterizer) segment(x1, y1, x2, y2, w float32, ext bool) {
	dx, dy := x2-x1, y2-y1
	d := float32(math.Hypot(float64(dx), float64(dy)))
	if d == 0 {
		return
	}
	ux, uy := dx/d, dy/d
	if ext {
		e := w / 2
		x1, y1, x2, y2 = x1-ux*e, y1-uy*e, x2+ux*e, y2+uy*e
	}
	nx, ny := -uy*w/2, ux*w/2
	r.moveTo(x1+nx, y1+ny)
	r.lineTo(x2+nx, y2+ny)
	r.lineTo(x2-nx, y2-ny)
	r.lineTo(x1-nx, y1-ny)
	r.close()
}

func (r *rasterizer) prim(dl *DisplayList, p *Prim) {
	s := r.s
	switch p.Kind {
	case KindRect:
		x, y, w, h, rad := p.X*s, p.Y*s, p.W*s, p.H*s, p.R*s
		r.begin()
		r.roundRect(x, y, w, h, rad, false)
		r.fill(p.Fill)
		if p.Stroke.A > 0 && p.Width > 0 {
			sw := p.Width * s / 2
			r.begin()
			r.roundRect(x-sw, y-sw, w+2*sw, h+2*sw, rad+sw, false)
			if w > 2*sw && h > 2*sw {
				r.roundRect(x+sw, y+sw, w-2*sw, h-2*sw, max(rad-sw, 0), true)
			}
			r.fill(p.Stroke)
		}
	case KindCircle:
		x, y, rad := p.X*s, p.Y*s, p.R*s
		r.begin()
		r.circle(x, y, rad, false)
		r.fill(p.Fill)
		if p.Stroke.A > 0 && p.Width > 0 {
			sw := p.Width * s / 2
			r.begin()
			r.circle(x, y, rad+sw, false)
			if rad > sw {
				r.circle(x, y, rad-sw, true)
			}
			r.fill(p.Stroke)
		}
	case KindLine:
		r.begin()
		r.segment(p.X*s, p.Y*s, p.W*s, p.H*s, max(p.Width*s, 0.5), false)
		r.fill(p.Stroke)
	case KindPolyline:
		pts := dl.Pts(p)
		r.begin()
		for k := 0; k+3 < len(pts); k += 2 {
			r.segment(pts[k]*s, pts[k+1]*s, pts[k+2]*s, pts[k+3]*s, max(p.Width*s, 0.5), true)
		}
		r.fill(p.Stroke)
	case KindText:
		r.text(p)
	}
}

// faces are shared by every rasteriser; a font.Face is not safe for
// concurrent use, so text draws hold facesMu (PNGs made in parallel, as
// TestTextFits with RENDER_LOOK does, take turns at their texts).
var (
	facesMu sync.Mutex
	faces   = map[faceKey]font.Face{}
)

type faceKey struct {
	w    assets.Weight
	size int // in 1/4 px
}

// face returns the face of weight w at size device px: the Go font, with the
// CJK subset for Chinese. The caller holds facesMu while it uses the face.
func face(w assets.Weight, size float64) font.Face {
	k := faceKey{w, int(math.Round(size * 4))}
	if f, ok := faces[k]; ok {
		return f
	}
	f, err := assets.NewFace(w, float64(k.size)/4)
	if err != nil {
		panic("render: " + err.Error()) // only a broken embedded font gets here; TestPNG parses them
	}
	faces[k] = f
	return f
}

func (r *rasterizer) text(p *Prim) {
	size := float64(p.Size * r.s)
	facesMu.Lock()
	defer facesMu.Unlock()
	fc := face(p.Weight, size)
	d := font.Drawer{Dst: r.dst, Src: image.NewUniform(p.Fill), Face: fc}
	x := float64(p.X * r.s)
	switch p.Anchor {
	case Middle:
		x -= float64(d.MeasureString(p.Str)) / 64 / 2
	case End:
		x -= float64(d.MeasureString(p.Str)) / 64
	}
	base := float64(p.Y*r.s) + CapHeight(size)/2
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(base * 64))}
	d.DrawString(p.Str)
}
