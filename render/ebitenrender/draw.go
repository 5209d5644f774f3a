// Package ebitenrender draws a render.DisplayList onto an Ebitengine image:
// the thin layer between the pure scene and the screen, and the only package
// of fabriclab that imports Ebitengine.
package ebitenrender

import (
	"bytes"
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"fabriclab/assets"
	"fabriclab/render"
)

// Drawer draws display lists. It keeps its font faces and path storage from
// frame to frame; keep one per canvas and use it from Draw only.
type Drawer struct {
	sources [3]*text.GoTextFaceSource
	faces   map[faceKey]*text.GoTextFace
	path    vector.Path
	opts    text.DrawOptions
}

type faceKey struct {
	w    assets.Weight
	size int // in 1/4 device px
}

// New loads the fonts from assets.
func New() (*Drawer, error) {
	d := &Drawer{faces: map[faceKey]*text.GoTextFace{}}
	for w := range d.sources {
		src, err := text.NewGoTextFaceSource(bytes.NewReader(assets.Font(assets.Weight(w))))
		if err != nil {
			return nil, fmt.Errorf("ebitenrender: loading the Go font: %w", err)
		}
		d.sources[w] = src
	}
	return d, nil
}

// Draw draws dl onto dst. The display list is in logical pixels; scale is
// the device scale factor (ebiten.Monitor().DeviceScaleFactor()), and dst
// is in device pixels, so lines and text stay crisp on HiDPI screens.
func (d *Drawer) Draw(dst *ebiten.Image, dl *render.DisplayList, scale float64) {
	s := float32(scale)
	for i := range dl.Prims {
		p := &dl.Prims[i]
		switch p.Kind {
		case render.KindRect:
			d.rect(dst, p, s)
		case render.KindCircle:
			if p.Fill.A > 0 {
				vector.FillCircle(dst, p.X*s, p.Y*s, p.R*s, p.Fill, true)
			}
			if p.Stroke.A > 0 && p.Width > 0 {
				vector.StrokeCircle(dst, p.X*s, p.Y*s, p.R*s, p.Width*s, p.Stroke, true)
			}
		case render.KindLine:
			if p.Stroke.A > 0 {
				vector.StrokeLine(dst, p.X*s, p.Y*s, p.W*s, p.H*s, max(p.Width*s, 0.5), p.Stroke, true)
			}
		case render.KindPolyline:
			pts := dl.Pts(p)
			if len(pts) < 4 || p.Stroke.A == 0 {
				continue
			}
			d.path.Reset()
			d.path.MoveTo(pts[0]*s, pts[1]*s)
			for k := 2; k+1 < len(pts); k += 2 {
				d.path.LineTo(pts[k]*s, pts[k+1]*s)
			}
			vector.StrokePath(dst, &d.path, &vector.StrokeOptions{Width: p.Width * s, LineJoin: vector.LineJoinRound}, pathOptions(p.Stroke))
		case render.KindText:
			d.text(dst, p, scale)
		}
	}
}

func pathOptions(c color.RGBA) *vector.DrawPathOptions {
	o := &vector.DrawPathOptions{AntiAlias: true}
	o.ColorScale.ScaleWithColor(c)
	return o
}

func (d *Drawer) rect(dst *ebiten.Image, p *render.Prim, s float32) {
	x, y, w, h, r := p.X*s, p.Y*s, p.W*s, p.H*s, min(p.R*s, p.W*s/2, p.H*s/2)
	if r < 0.5 {
		if p.Fill.A > 0 {
			vector.FillRect(dst, x, y, w, h, p.Fill, true)
		}
		if p.Stroke.A > 0 && p.Width > 0 {
			vector.StrokeRect(dst, x, y, w, h, p.Width*s, p.Stroke, true)
		}
		return
	}
	d.path.Reset()
	d.path.MoveTo(x+r, y)
	d.path.LineTo(x+w-r, y)
	d.path.ArcTo(x+w, y, x+w, y+r, r)
	d.path.LineTo(x+w, y+h-r)
	d.path.ArcTo(x+w, y+h, x+w-r, y+h, r)
	d.path.LineTo(x+r, y+h)
	d.path.ArcTo(x, y+h, x, y+h-r, r)
	d.path.LineTo(x, y+r)
	d.path.ArcTo(x, y, x+r, y, r)
	d.path.Close()
	if p.Fill.A > 0 {
		vector.FillPath(dst, &d.path, nil, pathOptions(p.Fill))
	}
	if p.Stroke.A > 0 && p.Width > 0 {
		vector.StrokePath(dst, &d.path, &vector.StrokeOptions{Width: p.Width * s}, pathOptions(p.Stroke))
	}
}

func (d *Drawer) face(w assets.Weight, size float64) *text.GoTextFace {
	k := faceKey{w, int(size*4 + 0.5)}
	f, ok := d.faces[k]
	if !ok {
		f = &text.GoTextFace{Source: d.sources[min(int(w), 2)], Size: float64(k.size) / 4}
		d.faces[k] = f
	}
	return f
}

func (d *Drawer) text(dst *ebiten.Image, p *render.Prim, scale float64) {
	size := float64(p.Size) * scale
	f := d.face(p.Weight, size)
	o := &d.opts
	o.GeoM.Reset()
	o.ColorScale.Reset()
	o.ColorScale.ScaleWithColor(p.Fill)
	o.PrimaryAlign = [...]text.Align{text.AlignStart, text.AlignCenter, text.AlignEnd}[p.Anchor]
	o.SecondaryAlign = text.AlignStart
	// (X, Y) is the middle of the capitals: the baseline is half a cap height below.
	top := float64(p.Y)*scale + render.CapHeight(size)/2 - f.Metrics().HAscent
	o.GeoM.Translate(float64(p.X)*scale, top)
	text.Draw(dst, p.Str, f, o)
}

var defaultDrawer *Drawer

// Draw draws dl onto dst with a Drawer shared by the whole program (Ebitengine
// draws on one goroutine). See Drawer.Draw.
func Draw(dst *ebiten.Image, dl *render.DisplayList, scale float64) {
	if defaultDrawer == nil {
		d, err := New()
		if err != nil {
			panic(err) // the fonts are compiled in: only a broken build gets here
		}
		defaultDrawer = d
	}
	defaultDrawer.Draw(dst, dl, scale)
}
