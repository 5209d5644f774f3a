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
// Text is drawn glyph by glyph from a cache of small images rasterised with
// golang.org/x/image (Ebitengine packs them into one atlas, so a frame's
// text batches into few draw calls). Ebitengine's text/v2 would pull a full
// shaping engine into the WebAssembly, about 6 MB, for labels that need none.
type Drawer struct {
	faces  map[faceKey]font.Face
	glyphs map[glyphKey]*glyph
	batch  *batch
	opts   ebiten.DrawImageOptions
	stats  Stats

	// NudgeY moves everything by this many device pixels down (up when
	// negative): a fraction of a pixel, so that a target rasterised upside
	// down keeps ties on pixel centres as an image does (cmd/viz/final.go).
	NudgeY float32
}

// Stats counts the draw calls of a Draw and what they drew.
type Stats struct {
	Clears    int // a background rectangle drawn as a clear
	Batches   int // DrawTriangles calls: one per run of shapes between texts
	Triangles int // triangles in those calls
	Glyphs    int // DrawImage calls: one per visible glyph
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
	img    *ebiten.Image // white, alpha-masked; nil for blank glyphs
	dx, dy float64       // image origin relative to the pen on the baseline
	adv    float64
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
	DrawImage(img *ebiten.Image, options *ebiten.DrawImageOptions)
	Fill(clr color.Color)
}

// Draw draws dl onto dst. The display list is in logical pixels; scale is
// the device scale factor (ebiten.Monitor().DeviceScaleFactor()), and dst
// is in device pixels, so lines and text stay crisp on HiDPI screens.
func (d *Drawer) Draw(dst Target, dl *render.DisplayList, scale float64) {
	if d.batch == nil {
		d.batch = newBatch()
	}
	b := d.batch
	b.dy = d.NudgeY
	d.stats = Stats{}
	s := float32(scale)
	prims := dl.Prims
	// A first rectangle over the whole canvas is the background: a clear is
	// cheaper than filling it (it matters on software WebGL).
	if len(prims) > 0 {
		if p := &prims[0]; p.Kind == render.KindRect && p.X <= 0 && p.Y <= 0 && p.X+p.W >= dl.W && p.Y+p.H >= dl.H && p.Fill.A == 255 && p.Stroke.A == 0 {
			dst.Fill(p.Fill)
			d.stats.Clears++
			prims = prims[1:]
		}
	}
	for i := range prims {
		p := &prims[i]
		switch p.Kind {
		case render.KindRect:
			r := min(p.R*s, p.W*s/2, p.H*s/2)
			pts := b.roundRect(p.X*s, p.Y*s, p.W*s, p.H*s, r)
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
			pts := b.circle(p.X*s, p.Y*s, p.R*s)
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
			// Text goes over the shapes drawn so far: draw them first.
			d.flush(dst)
			d.text(dst, p, scale)
		}
	}
	d.flush(dst)
}

// flush draws the shapes batched so far, counting the call.
func (d *Drawer) flush(dst Target) {
	if n := len(d.batch.idx) / 3; n > 0 {
		d.stats.Batches++
		d.stats.Triangles += n
	}
	d.batch.flush(dst)
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
		for _, g := range d.glyphs {
			if g.img != nil {
				g.img.Deallocate()
			}
		}
		clear(d.glyphs)
	}
	g := &glyph{}
	dr, mask, mp, adv, ok := f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = f.Glyph(fixed.Point26_6{}, '?')
	}
	g.adv = float64(adv) / 64
	if !dr.Empty() {
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
		g.img = ebiten.NewImageFromImage(a)
		g.dx, g.dy = float64(dr.Min.X), float64(dr.Min.Y)
	}
	d.glyphs[gk] = g
	return g
}

func (d *Drawer) text(dst Target, p *render.Prim, scale float64) {
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
	o := &d.opts
	prev = -1
	for _, r := range p.Str {
		if prev >= 0 {
			x += float64(f.Kern(prev, r)) / 64
		}
		g := d.glyph(k, f, r)
		if g.img != nil {
			o.GeoM.Reset()
			o.GeoM.Translate(float64(int(x+g.dx+0.5)), float64(int(baseline+g.dy+0.5))+float64(d.batch.dy))
			o.ColorScale.Reset()
			o.ColorScale.ScaleWithColor(p.Fill)
			dst.DrawImage(g.img, o)
			d.stats.Glyphs++
		}
		x += g.adv
		prev = r
	}
}
