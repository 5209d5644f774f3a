// Package render turns a simulation snapshot into a picture. Layout places a
// topology's nodes on a canvas; Builder.Scene turns a layout and snapshots into
// a DisplayList of plain primitives, in pure Go and without a GPU; the list is
// written as SVG or PNG here, and drawn with Ebitengine by render/ebitenrender.
package render

import (
	"image/color"
	"slices"

	"fabriclab/assets"
)

// Kind is the shape of a primitive.
type Kind uint8

// Primitive kinds.
const (
	KindRect     Kind = iota // X, Y, W, H; corner radius R
	KindCircle               // centre X, Y; radius R
	KindLine                 // from X, Y to X2, Y2 (in W, H)
	KindPolyline             // the points Pts(dl) of the display list
	KindText                 // Str at X, Y with Size, Anchor and Weight
)

// Anchor says where a text's (X, Y) lies on it: horizontally start, middle or
// end; vertically on the middle of its capitals.
type Anchor uint8

// Text anchors.
const (
	Start Anchor = iota
	Middle
	End
)

// Layer orders primitives: lower layers are drawn first.
type Layer int8

// Layers, back to front.
const (
	LayerBackground Layer = iota
	LayerPanel
	LayerLink
	LayerPacket
	LayerNode
	LayerMarker
	LayerLabel
	LayerChart
	LayerTooltip
)

// Prim is one drawing primitive. Fill paints the inside (rects, circles),
// Stroke its outline or, for lines and polylines, the line itself; a zero
// colour (alpha 0) paints nothing. Coordinates are logical pixels.
type Prim struct {
	Kind   Kind
	Layer  Layer
	Anchor Anchor
	Weight assets.Weight
	X, Y   float32
	W, H   float32 // rect size; a line's end point
	R      float32 // corner radius of a rect; radius of a circle
	Width  float32 // stroke width
	Size   float32 // text size (em, in logical px)
	Fill   color.RGBA
	Stroke color.RGBA
	P0, P1 int32 // a polyline's points: Points[P0:P1] as x, y pairs
	Str    string
}

// DisplayList is a picture: primitives in drawing order on a W×H canvas.
// Reset keeps its storage, so a list reused frame after frame stops allocating.
type DisplayList struct {
	W, H   float32
	Prims  []Prim
	Points []float32 // x, y pairs of all polylines
}

// Reset empties the list for a w×h canvas.
func (dl *DisplayList) Reset(w, h float32) {
	dl.W, dl.H = w, h
	dl.Prims = dl.Prims[:0]
	dl.Points = dl.Points[:0]
}

// Pts returns a polyline's points as x, y pairs.
func (dl *DisplayList) Pts(p *Prim) []float32 { return dl.Points[p.P0:p.P1] }

// sortLayers orders the primitives by layer, keeping the order within a layer.
func (dl *DisplayList) sortLayers() {
	slices.SortStableFunc(dl.Prims, func(a, b Prim) int { return int(a.Layer) - int(b.Layer) })
}

func (dl *DisplayList) rect(l Layer, x, y, w, h, r float64, fill, stroke color.RGBA, width float64) {
	dl.Prims = append(dl.Prims, Prim{Kind: KindRect, Layer: l, X: float32(x), Y: float32(y), W: float32(w), H: float32(h),
		R: float32(r), Fill: fill, Stroke: stroke, Width: float32(width)})
}

func (dl *DisplayList) circle(l Layer, x, y, r float64, fill, stroke color.RGBA, width float64) {
	dl.Prims = append(dl.Prims, Prim{Kind: KindCircle, Layer: l, X: float32(x), Y: float32(y), R: float32(r),
		Fill: fill, Stroke: stroke, Width: float32(width)})
}

func (dl *DisplayList) line(l Layer, x1, y1, x2, y2, width float64, c color.RGBA) {
	dl.Prims = append(dl.Prims, Prim{Kind: KindLine, Layer: l, X: float32(x1), Y: float32(y1), W: float32(x2), H: float32(y2),
		Width: float32(width), Stroke: c})
}

// polyline adds the points appended to dl.Points since index p0.
func (dl *DisplayList) polyline(l Layer, p0 int, width float64, c color.RGBA) {
	if len(dl.Points)-p0 < 4 {
		dl.Points = dl.Points[:p0]
		return
	}
	dl.Prims = append(dl.Prims, Prim{Kind: KindPolyline, Layer: l, P0: int32(p0), P1: int32(len(dl.Points)),
		Width: float32(width), Stroke: c})
}

func (dl *DisplayList) text(l Layer, x, y float64, s string, size float64, a Anchor, w assets.Weight, c color.RGBA) {
	if s == "" {
		return
	}
	dl.Prims = append(dl.Prims, Prim{Kind: KindText, Layer: l, X: float32(x), Y: float32(y), Str: s, Size: float32(size),
		Anchor: a, Weight: w, Fill: c})
}
