// Package ebitenrender draws a render.DisplayList onto an Ebitengine image:
// the thin layer between the pure scene and the screen, and the only package
// of fabriclab that imports Ebitengine.
package ebitenrender

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/hajimehoshi/ebiten/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"fabriclab/assets"
	"fabriclab/render"
)

// Drawer draws display lists. It keeps its glyphs and path storage from
// frame to frame; keep one per canvas and use it from Draw only.
//
// Text is drawn glyph by glyph, rasterised with golang.org/x/image into an
// atlas that also holds the white pixel shapes are drawn with, so that a
// frame is two draw calls (the opaque shapes under the first text, with a
// shader of their own, then the rest): on software WebGL every draw call
// and every call into Ebitengine costs. Ebitengine's text/v2 would pull a full
// shaping engine into the WebAssembly, about 6 MB, for labels that need none.
type Drawer struct {
	faces  map[faceKey]font.Face
	glyphs map[glyphKey]*glyph
	batch  *batch
	atlas  atlas
	dst    Target // what Draw draws onto, while it does
	stats  Stats

	// Backdrop, when set, is given the picture's background colour (its
	// first rectangle, over the whole canvas); if it reports that the
	// target shows that colour wherever nothing is drawn (a transparent
	// screen over a page of that colour), the background is not painted:
	// on software WebGL, a pass over every pixel less a frame.
	Backdrop func(color.RGBA) bool

	// NudgeY moves everything by this many device pixels down (up when
	// negative): a fraction of a pixel, so that a target rasterised upside
	// down keeps ties on pixel centres as an image does (cmd/viz/final.go).
	NudgeY float32
}

// Stats counts the draw calls of a Draw and what they drew.
type Stats struct {
	Clears    int // a background rectangle drawn as a clear
	Batches   int // draw calls: the opaque shapes first, the rest, and one more each time new glyphs fill the atlas
	Solid     int // of those, calls with the solid shader (opaque shapes)
	Triangles int // triangles in those calls, two a glyph
	Glyphs    int // visible glyphs
}

// Stats is what the last Draw did.
func (d *Drawer) Stats() Stats { return d.stats }

type faceKey struct {
	w    assets.Weight
	size int // in 1/4 device px
}

type glyphKey struct {
	face faceKey
	r    rune
}

type glyph struct {
	x, y, w, h int     // the glyph's place in the atlas; w == 0 for a blank
	dx, dy     float64 // its origin relative to the pen on the baseline
	adv        float64
}

// maxGlyphs bounds the cache; past it the cache starts over.
const maxGlyphs = 4096

// New loads the fonts from assets: the Go font, and the CJK subset for Chinese.
func New() (*Drawer, error) {
	d := &Drawer{faces: map[faceKey]font.Face{}, glyphs: map[glyphKey]*glyph{}}
	if _, err := assets.NewFace(assets.Regular, 12); err != nil {
		return nil, fmt.Errorf("ebitenrender: loading the fonts: %w", err)
	}
	return d, nil
}

// Target is what a Drawer draws onto: an *ebiten.Image, or the
// ebiten.FinalScreen a game draws its picture straight onto (skipping the
// copy from its offscreen image, a pass over every pixel per frame).
type Target interface {
	DrawTriangles32(vertices []ebiten.Vertex, indices []uint32, img *ebiten.Image, options *ebiten.DrawTrianglesOptions)
	DrawTrianglesShader32(vertices []ebiten.Vertex, indices []uint32, shader *ebiten.Shader, options *ebiten.DrawTrianglesShaderOptions)
	Fill(clr color.Color)
}

// Draw draws dl onto dst. The display list is in logical pixels; scale is
// the device scale factor (ebiten.Monitor().DeviceScaleFactor()), and dst
// is in device pixels, so lines and text stay crisp on HiDPI screens.
func (d *Drawer) Draw(dst Target, dl *render.DisplayList, scale float64) {
	if d.batch == nil {
		d.batch = newBatch(d.atlas.init())
	}
	b := d.batch
	d.dst = dst
	defer func() { d.dst = nil }()
	b.dy = d.NudgeY
	d.stats = Stats{}
	s := float32(scale)
	prims := dl.Prims
	// A first rectangle over the whole canvas is the background: a clear is
	// cheaper than filling it (it matters on software WebGL).
	if len(prims) > 0 {
		if p := &prims[0]; p.Kind == render.KindRect && p.X <= 0 && p.Y <= 0 && p.X+p.W >= dl.W && p.Y+p.H >= dl.H && p.Fill.A == 255 && p.Stroke.A == 0 {
			if d.Backdrop == nil || !d.Backdrop(p.Fill) {
				dst.Fill(p.Fill)
				d.stats.Clears++
			}
			prims = prims[1:]
		}
	}
	// The opaque shapes before the first text or translucent shape (the
	// panels, links, packets and nodes) are one call of their own, drawn
	// with a shader that reads no texture and replaces what is under them:
	// on software WebGL, reading the atlas's white pixel for every pixel of
	// a shape cost more than the rest of shading it.
	solid := 0
	for solid < len(prims) && opaqueShape(&prims[solid]) {
		solid++
	}
	for i := range prims {
		if i == solid && i > 0 {
			d.flushSolid(dst)
		}
		p := &prims[i]
		switch p.Kind {
		case render.KindRect:
			x, y, w, h := p.X*s, p.Y*s, p.W*s, p.H*s
			r := min(p.R*s, w/2, h/2)
			if opaqueOutlined(p) && w*h <= smallShape {
				// The outline's outer edge filled, and the fill inside
				// it over that: two fans, about half the triangles of a
				// fan and a quad per outline segment.
				hw := stroke(p.Width*s) / 2
				b.fan(b.roundRect(x-hw, y-hw, w+2*hw, h+2*hw, r+hw), p.Stroke)
				if w > 2*hw && h > 2*hw {
					b.fan(b.roundRect(x+hw, y+hw, w-2*hw, h-2*hw, max(r-hw, 0)), p.Fill)
				}
				continue
			}
			pts := b.roundRect(x, y, w, h, r)
			if p.Fill.A > 0 {
				b.fan(pts, p.Fill)
			}
			if p.Stroke.A > 0 && p.Width > 0 {
				b.outline(pts, p.Width*s, p.Stroke)
			}
		case render.KindCircle:
			if p.R <= 0 {
				continue
			}
			x, y, r := p.X*s, p.Y*s, p.R*s
			if opaqueOutlined(p) && 4*r*r <= smallShape {
				hw := stroke(p.Width*s) / 2
				b.fan(b.circle(x, y, r+hw), p.Stroke)
				if r > hw {
					b.fan(b.circle(x, y, r-hw), p.Fill)
				}
				continue
			}
			pts := b.circle(x, y, r)
			if p.Fill.A > 0 {
				b.fan(pts, p.Fill)
			}
			if p.Stroke.A > 0 && p.Width > 0 {
				b.outline(pts, p.Width*s, p.Stroke)
			}
		case render.KindLine:
			if p.Stroke.A > 0 {
				b.line(p.X*s, p.Y*s, p.W*s, p.H*s, max(p.Width*s, 0.5), p.Stroke)
			}
		case render.KindPolyline:
			pts := dl.Pts(p)
			if p.Stroke.A == 0 {
				continue
			}
			for k := 0; k+3 < len(pts); k += 2 {
				b.line(pts[k]*s, pts[k+1]*s, pts[k+2]*s, pts[k+3]*s, p.Width*s, p.Stroke)
			}
		case render.KindText:
			d.text(p, scale)
		}
	}
	if solid == len(prims) {
		d.flushSolid(dst)
	}
	d.flush(dst)
}

// opaqueShape says whether p is a shape that paints nothing translucent,
// which can be drawn over what is under it with no blending.
func opaqueShape(p *render.Prim) bool {
	return p.Kind != render.KindText && (p.Fill.A == 0 || p.Fill.A == 255) && (p.Stroke.A == 0 || p.Stroke.A == 255)
}

// opaqueOutlined says whether p is a shape filled and outlined in opaque
// colours, which can be drawn as its outline's outer shape filled, then its
// fill inside the outline: what shows is the same.
func opaqueOutlined(p *render.Prim) bool {
	return p.Fill.A == 255 && p.Stroke.A == 255 && p.Width > 0
}

// smallShape is the largest area, in device px², of a shape drawn as its
// outline's outer shape filled with the fill over it. On software WebGL a
// triangle costs about as much as a hundred pixels (node boxes, packets,
// badges: fewer triangles for a few more pixels); a panel would draw most
// of its pixels twice.
const smallShape = 64 * 64

// flush draws the shapes and glyphs batched so far, counting the call.
func (d *Drawer) flush(dst Target) {
	d.count()
	d.batch.flush(dst)
}

// flushSolid draws the opaque shapes batched so far, counting the call.
func (d *Drawer) flushSolid(dst Target) {
	if d.count() {
		d.stats.Solid++
	}
	d.batch.flushSolid(dst)
}

// count counts a call of what is batched, if anything is.
func (d *Drawer) count() bool {
	n := len(d.batch.idx) / 3
	if n > 0 {
		d.stats.Batches++
		d.stats.Triangles += n
	}
	return n > 0
}

func (d *Drawer) face(k faceKey) font.Face {
	f, ok := d.faces[k]
	if !ok {
		var err error
		f, err = assets.NewFace(k.w, float64(k.size)/4)
		if err != nil {
			panic(err) // only a broken font gets here
		}
		d.faces[k] = f
	}
	return f
}

func (d *Drawer) glyph(k faceKey, f font.Face, r rune) *glyph {
	gk := glyphKey{k, r}
	if g, ok := d.glyphs[gk]; ok {
		return g
	}
	if len(d.glyphs) >= maxGlyphs {
		d.startOver()
	}
	g := &glyph{}
	dr, mask, mp, adv, ok := f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = f.Glyph(fixed.Point26_6{}, '?')
	}
	g.adv = float64(adv) / 64
	if !dr.Empty() {
		w, h := dr.Dx(), dr.Dy()
		d.atlas.init()
		x, y, ok := d.atlas.place(w, h)
		if !ok {
			d.startOver()
			x, y, ok = d.atlas.place(w, h)
		}
		if ok { // else bigger than the atlas: not drawn
			a := image.NewAlpha(image.Rect(0, 0, w, h))
			draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
			d.atlas.write(x, y, a)
			g.x, g.y, g.w, g.h = x, y, w, h
			g.dx, g.dy = float64(dr.Min.X), float64(dr.Min.Y)
		}
	}
	d.glyphs[gk] = g
	return g
}

// startOver empties the glyph cache and the atlas, first drawing what
// uses them.
func (d *Drawer) startOver() {
	if d.dst != nil {
		d.flush(d.dst)
	}
	clear(d.glyphs)
	d.atlas.empty()
}

func (d *Drawer) text(p *render.Prim, scale float64) {
	size := float64(p.Size) * scale
	k := faceKey{p.Weight, int(size*4 + 0.5)}
	f := d.face(k)
	// Measure for the anchor, with kerning.
	var width float64
	prev := rune(-1)
	for _, r := range p.Str {
		if prev >= 0 {
			width += float64(f.Kern(prev, r)) / 64
		}
		width += d.glyph(k, f, r).adv
		prev = r
	}
	x := float64(p.X) * scale
	switch p.Anchor {
	case render.Middle:
		x -= width / 2
	case render.End:
		x -= width
	}
	// (X, Y) is the middle of the capitals: the baseline is half a cap height below.
	baseline := float64(p.Y)*scale + render.CapHeight(size)/2
	// The colour as Ebitengine's ColorScale.ScaleWithColor makes it
	// (premultiplied), as DrawImage drew glyphs with it.
	var cs ebiten.ColorScale
	cs.ScaleWithColor(p.Fill)
	prev = -1
	for _, r := range p.Str {
		if prev >= 0 {
			x += float64(f.Kern(prev, r)) / 64
		}
		g := d.glyph(k, f, r)
		if g.w > 0 {
			d.batch.image(float32(int(x+g.dx+0.5)), float32(int(baseline+g.dy+0.5)), g.x, g.y, g.w, g.h, &cs)
			d.stats.Glyphs++
		}
		x += g.adv
		prev = r
	}
}
