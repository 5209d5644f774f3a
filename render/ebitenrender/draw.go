// Package ebitenrender draws a render.DisplayList onto an Ebitengine image:
// the thin layer between the pure scene and the screen, and the only package
// of fabriclab that imports Ebitengine.
package ebitenrender

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"

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
// frame is a few draw calls (the opaque shapes, with shaders of their own,
// then the rest): on software WebGL every draw call and every call into
// Ebitengine costs. Ebitengine's text/v2 would pull a full
// shaping engine into the WebAssembly, about 6 MB, for labels that need none.
type Drawer struct {
	faces  map[faceKey]font.Face
	glyphs map[glyphKey]*glyph
	batch  *batch
	atlas  atlas
	dst    Target // what Draw draws onto, while it does
	stats  Stats
	pts    func(*render.Prim) []float32 // the display list's polyline points, while drawing

	order, later []int             // hoist's
	boxes        []image.Rectangle // hoist's

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
	Solid     int // of those, calls of opaque shapes (the solid or the rounded shader)
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
	b := d.batchNudged()
	d.dst, d.pts = dst, dl.Pts
	defer func() { d.dst, d.pts = nil, nil }()
	d.stats = Stats{}
	s := float32(scale)
	prims := d.background(dst, dl)
	// The opaque shapes before the first text or translucent shape (the
	// panels, links, packets and nodes) are one call of their own, drawn
	// with a shader that reads no texture and replaces what is under them:
	// on software WebGL, reading the atlas's white pixel for every pixel of
	// a shape cost more than the rest of shading it.
	solid := 0
	for solid < len(prims) && opaqueShape(&prims[solid]) {
		solid++
	}
	order, solid := d.hoist(prims, solid, s)
	b.shader = solidShape
	for k, i := range order {
		if k == solid && k > 0 {
			d.flushSolid(dst)
		}
		p := &prims[i]
		// From the first small rectangle or circle on (the packets, the
		// nodes), the opaque shapes are drawn with a shader that rounds
		// quads' corners, which draws triangles as the solid one does.
		if ok, _, _, _, _, _ := small(p, s); k < solid && b.shader == solidShape && ok {
			d.flushSolid(dst)
			b.shader = roundedShape
		}
		if k < solid && b.shader == roundedShape && d.smallShape(p, s) {
			continue
		}
		d.prim(p, dl, scale)
	}
	if solid == len(prims) {
		d.flushSolid(dst)
	}
	d.flush(dst)
}

// background paints the background, a first rectangle over the whole canvas, as
// a clear: cheaper than filling it (it matters on software WebGL). It
// returns the prims left to draw.
func (d *Drawer) background(dst Target, dl *render.DisplayList) []render.Prim {
	prims := dl.Prims
	if hasBackground(dl) {
		if d.Backdrop == nil || !d.Backdrop(prims[0].Fill) {
			dst.Fill(prims[0].Fill)
			d.stats.Clears++
		}
		prims = prims[1:]
	}
	return prims
}

// hasBackground says whether dl's first prim is its background: a
// rectangle over the whole canvas in one opaque colour.
func hasBackground(dl *render.DisplayList) bool {
	if len(dl.Prims) == 0 {
		return false
	}
	p := &dl.Prims[0]
	return p.Kind == render.KindRect && p.X <= 0 && p.Y <= 0 && p.X+p.W >= dl.W && p.Y+p.H >= dl.H && p.Fill.A == 255 && p.Stroke.A == 0
}

// WarmUp draws, with each of the shaders of opaque shapes, one pixel of
// dl's background (a first rectangle over the whole canvas) in its top left
// corner, where Draw paints that background; it draws nothing and returns
// false if dl has none. A software GPU compiles what draws a shader and
// blend the first time they draw (SwiftShader: 10-25 ms each, waited for on
// the page's thread as a frame is read back): with the loading picture,
// drawn while the run's first frame is still to come, the scene's first
// picture finds them compiled (cmd/viz/final.go).
func (d *Drawer) WarmUp(dst Target, dl *render.DisplayList) bool {
	if !hasBackground(dl) {
		return false
	}
	b, bg := d.batchNudged(), dl.Prims[0].Fill
	b.shader = solidShape
	b.quad(0, 0, 1, 0, 1, 1, 0, 1, bg)
	b.flushSolid(dst)
	b.shader = roundedShape
	b.rounded(0, 0, 1, 1, 0, false, bg)
	b.flushSolid(dst)
	return true
}

// batchNudged is the drawer's batch (made on first use), its vertices
// moved by NudgeY.
func (d *Drawer) batchNudged() *batch {
	if d.batch == nil {
		d.batch = newBatch(d.atlas.init())
	}
	d.batch.dy = d.NudgeY
	return d.batch
}

// prim adds p to the batch, in device pixels at scale.
func (d *Drawer) prim(p *render.Prim, dl *render.DisplayList, scale float64) {
	b, s := d.batch, float32(scale)
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
			return
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
			return
		}
		x, y, r := p.X*s, p.Y*s, p.R*s
		if opaqueOutlined(p) && 4*r*r <= smallShape {
			hw := stroke(p.Width*s) / 2
			b.fan(b.circle(x, y, r+hw), p.Stroke)
			if r > hw {
				b.fan(b.circle(x, y, r-hw), p.Fill)
			}
			return
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
			return
		}
		for k := 0; k+3 < len(pts); k += 2 {
			b.line(pts[k]*s, pts[k+1]*s, pts[k+2]*s, pts[k+3]*s, p.Width*s, p.Stroke)
		}
	case render.KindText:
		d.text(p, scale)
	}
}

// hoist returns the order to draw prims in, and how many of them are opaque
// shapes drawn first: the first solid, then each later opaque shape that
// nothing drawn between them overlaps (the badges over the spines, between
// their numbers), which moved among them shows the same pixels.
func (d *Drawer) hoist(prims []render.Prim, solid int, s float32) ([]int, int) {
	d.order, d.later, d.boxes = d.order[:0], d.later[:0], d.boxes[:0]
	for i := range solid {
		d.order = append(d.order, i)
	}
	for i := solid; i < len(prims); i++ {
		p := &prims[i]
		box := d.bounds(p, s)
		if opaqueShape(p) && !slices.ContainsFunc(d.boxes, box.Overlaps) {
			d.order = append(d.order, i)
			continue
		}
		d.later = append(d.later, i)
		d.boxes = append(d.boxes, box)
	}
	return append(d.order, d.later...), len(d.order)
}

// bounds is a box, in device px, that holds all p paints.
func (d *Drawer) bounds(p *render.Prim, s float32) image.Rectangle {
	var x0, y0, x1, y1 float32
	switch p.Kind {
	case render.KindRect:
		x0, y0, x1, y1 = p.X, p.Y, p.X+p.W, p.Y+p.H
	case render.KindCircle:
		x0, y0, x1, y1 = p.X-p.R, p.Y-p.R, p.X+p.R, p.Y+p.R
	case render.KindLine:
		x0, y0, x1, y1 = min(p.X, p.W), min(p.Y, p.H), max(p.X, p.W), max(p.Y, p.H)
	case render.KindPolyline:
		x0, y0, x1, y1 = 1e9, 1e9, -1e9, -1e9
		for k, v := range d.pts(p) {
			if k%2 == 0 {
				x0, x1 = min(x0, v), max(x1, v)
			} else {
				y0, y1 = min(y0, v), max(y1, v)
			}
		}
	case render.KindText:
		w, _ := d.measure(p, float64(s))
		x0, y0, x1, y1 = p.X-float32(w)/s, p.Y-2*p.Size, p.X+float32(w)/s, p.Y+2*p.Size
	}
	m := p.Width + 2 // the outline's half and more, and a pixel's rounding
	return image.Rect(int(x0*s-m*s)-1, int(y0*s-m*s)-1, int(x1*s+m*s)+2, int(y1*s+m*s)+2)
}

// small says whether p is a filled rectangle or circle (outlined or not) at
// most smallShape device px² large, and where it is.
func small(p *render.Prim, s float32) (ok bool, x, y, w, h, r float32) {
	switch p.Kind {
	case render.KindRect:
		x, y, w, h = p.X*s, p.Y*s, p.W*s, p.H*s
		r = min(p.R*s, w/2, h/2)
	case render.KindCircle:
		r = p.R * s
		x, y, w, h = p.X*s-r, p.Y*s-r, 2*r, 2*r
	default:
		return false, 0, 0, 0, 0, 0
	}
	// (A ring, not filled, keeps its outline's triangles.)
	return p.Fill.A > 0 && w > 0 && h > 0 && w*h <= smallShape, x, y, w, h, r
}

// smallShape draws p, if it is small, as quads for the rounded shader: the
// outline's outer shape, then the fill inside it. On software WebGL a node
// box's two fans, 20 triangles, cost more than the corner pixels of its two
// quads that the shader leaves out.
func (d *Drawer) smallShape(p *render.Prim, s float32) bool {
	ok, x, y, w, h, r := small(p, s)
	if !ok {
		return false
	}
	b := d.batch
	circle := p.Kind == render.KindCircle
	if p.Stroke.A > 0 && p.Width > 0 {
		hw := stroke(p.Width*s) / 2
		b.rounded(x-hw, y-hw, w+2*hw, h+2*hw, r+hw, circle, p.Stroke)
		x, y, w, h, r = x+hw, y+hw, w-2*hw, h-2*hw, max(r-hw, 0)
	}
	if w > 0 && h > 0 {
		b.rounded(x, y, w, h, r, circle, p.Fill)
	}
	return true
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

// measure is the width of text p in device px, with kerning, and its face.
func (d *Drawer) measure(p *render.Prim, scale float64) (float64, faceKey) {
	k := faceKey{p.Weight, int(float64(p.Size)*scale*4 + 0.5)}
	f := d.face(k)
	var width float64
	prev := rune(-1)
	for _, r := range p.Str {
		if prev >= 0 {
			width += float64(f.Kern(prev, r)) / 64
		}
		width += d.glyph(k, f, r).adv
		prev = r
	}
	return width, k
}

func (d *Drawer) text(p *render.Prim, scale float64) {
	size := float64(p.Size) * scale
	width, k := d.measure(p, scale)
	f := d.face(k)
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
	prev := rune(-1)
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
