package render

import (
	"image/color"

	"fabriclab/assets"
)

// Split is how a comparison divides the canvas: a strip across the top for
// the shared time and the difference summary, and two panes below it, side
// by side on a wide canvas, one above the other on a tall one.
type Split struct {
	Strip Rect
	Panes [2]Rect
}

// CompareStrip is the top strip's height at the normal text size (logical px).
const CompareStrip = 30

// MinPaneW is the narrowest pane side by side: narrower, a pane's header
// and charts do not fit, and the panes go one above the other.
const MinPaneW = 360

// SplitCanvas divides a w×h canvas for a comparison; big is presenter mode.
func SplitCanvas(w, h float64, big bool) Split {
	sh := float64(CompareStrip)
	if big {
		sh *= 1.4
	}
	s := Split{Strip: Rect{0, 0, w, sh}}
	body := max(1, h-sh)
	if w >= h*0.9 && w/2 >= MinPaneW { // landscape, or nearly, and wide enough: side by side
		half := w / 2
		s.Panes = [2]Rect{{0, sh, half, body}, {half, sh, w - half, body}}
	} else {
		half := body / 2
		s.Panes = [2]Rect{{0, sh, w, half}, {0, sh + half, w, body - half}}
	}
	return s
}

// PaneCharts are the charts that fit a pane of a comparison (the layout
// puts them in a row under a tall pane, a column beside a wide one): all
// three where each has room, else the throughput and queue charts, else
// the throughput chart alone.
func PaneCharts(pane Rect, big bool) Charts {
	u := min(max(min(pane.W/1280, pane.H/720), 0.75), 2.5)
	if big {
		u *= 1.3
	}
	room := (pane.W - 24*u) / (200 * u) // charts in a row
	if pane.W >= pane.H*1.2 {
		room = (pane.H - 80*u) / (120 * u) // in a column
	}
	switch {
	case room >= 3:
		return AllCharts
	case room >= 2:
		return ChartThroughput | ChartQueues
	}
	return ChartThroughput
}

// SideBySide draws a comparison into dst: the strip with left (the shared
// time) and right (the summary, or what is still computing) texts, and the
// two scenes, each moved into its pane (each was built at its pane's size).
func SideBySide(dst *DisplayList, s Split, dark, big bool, left, right string, scenes [2]*DisplayList) {
	th := &assets.Light
	if dark {
		th = &assets.Dark
	}
	w, h := s.Strip.W, max(s.Panes[0].Y+s.Panes[0].H, s.Panes[1].Y+s.Panes[1].H)
	dst.Reset(float32(w), float32(h))
	dst.rect(LayerBackground, 0, 0, w, h, 0, th.Background, color.RGBA{}, 0)
	for i, sc := range scenes {
		if sc != nil {
			appendMoved(dst, sc, s.Panes[i].X, s.Panes[i].Y)
		}
	}
	// The strip and the divider go over both scenes.
	st := s.Strip
	dst.rect(LayerTooltip, st.X, st.Y, st.W, st.H, 0, th.Panel, color.RGBA{}, 0)
	dst.line(LayerTooltip, st.X, st.Y+st.H, st.X+st.W, st.Y+st.H, 1, th.Border)
	p := s.Panes[1]
	if p.X > 0 {
		dst.line(LayerTooltip, p.X, p.Y, p.X, p.Y+p.H, 2, th.Border)
	} else {
		dst.line(LayerTooltip, p.X, p.Y, p.X+p.W, p.Y, 2, th.Border)
	}
	size, floor := 14.0, 12.0 // the type scale's floor (TypeScale)
	if big {
		size, floor = 19, 18
	}
	cy := st.Y + st.H/2
	pad := 12.0
	dst.text(LayerTooltip, st.X+pad, cy, left, size, Start, assets.Bold, th.Text)
	room := st.W - 3*pad - TextWidth(left, size, assets.Bold)
	small := max(size*0.9, floor)
	// a long summary is cut short rather than set under the floor: the
	// page has it in full under the step's caption
	dst.text(LayerTooltip, st.X+st.W-pad, cy, shorten(right, small, assets.Medium, room), small, End, assets.Medium, th.Text)
}

// appendMoved appends src's primitives to dst, moved by (dx, dy).
func appendMoved(dst, src *DisplayList, dx, dy float64) {
	x, y := float32(dx), float32(dy)
	p0 := int32(len(dst.Points))
	for i := 0; i+1 < len(src.Points); i += 2 {
		dst.Points = append(dst.Points, src.Points[i]+x, src.Points[i+1]+y)
	}
	for _, p := range src.Prims {
		p.X += x
		p.Y += y
		switch p.Kind {
		case KindLine:
			p.W += x
			p.H += y
		case KindPolyline:
			p.P0 += p0
			p.P1 += p0
		}
		dst.Prims = append(dst.Prims, p)
	}
}
