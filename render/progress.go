package render

import (
	"fmt"
	"math"

	"fabriclab/assets"
	"fabriclab/sim/unit"
)

// Computing is what the canvas shows while the run is still being computed
// ahead of playback; Frame.Computing is nil once the whole run is.
type Computing struct {
	Progress float64   // share of the run computed, 0…1, or -1 while unknown
	ETA      float64   // seconds of computing left, or -1 while unknown
	Computed unit.Time // simulated time computed so far
	Target   unit.Time // where a seek waits to go, or 0
}

// progress draws a bar in the header, between the summary and "t = …":
// how far computing has got and about how long it will take, or
// "estimating" when that is unknown. Where the header has no room, it goes
// over the legend's right end, clear of the topology.
func (b *Builder) progress() {
	c := b.f.Computing
	if c == nil {
		return
	}
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U
	h := L.Header
	note := "" // what the header shows left of the time (header, fitHeader)
	if b.f.Cur != nil && b.routingShown() {
		note = b.reorderNote(b.f.Cur.Routing)
	}
	fit := b.fitHeader(headerTitle(L), b.headerSummary(), note)
	left := fit.noteX + 2*u
	if fit.note {
		left += TextWidth(note, b.fs(1.0), assets.Medium)
	}
	right := h.X + h.W - TextWidth("t = 000.000 ms", fit.timeSize, assets.Bold) - 16*u
	w, ht := min(340*u, right-left), min(h.H, 30*u)
	x, y := right-w, h.Y+(h.H-ht)/2
	if w < 120*u { // no room in the header: over the legend's right end (not the topology)
		lg := L.Legend
		if lg.H <= 0 {
			lg = Rect{h.X, L.H - ht - 6*u, h.W, ht}
		}
		w = min(340*u, lg.W*0.6)
		x, y = lg.X+lg.W-w, lg.Y+lg.H-ht
	}
	dl.rect(LayerTooltip, x, y, w, ht, 4*u, th.Panel, th.Border, 1*u)
	bar := Rect{x + 8*u, y + ht - 8*u, w - 16*u, 3.5 * u}
	dl.rect(LayerTooltip, bar.X, bar.Y, bar.W, bar.H, 1.5*u, th.Border, th.Border, 0)
	s := b.tf("progress.computed", fmtTime(c.Computed))
	if c.Target > 0 {
		s = b.tf("progress.going", fmtTime(c.Target)) + s
	}
	short := s // without the share and time left
	switch {
	case c.Progress >= 0:
		dl.rect(LayerTooltip, bar.X, bar.Y, bar.W*min(1, c.Progress), bar.H, 1.5*u, th.Comm, th.Comm, 0)
		short = fmt.Sprintf("%d %%", int(math.Floor(100*c.Progress)))
		s += " · " + short
		if c.ETA >= 0 {
			s += " · " + b.eta(c.ETA)
			short += " · " + b.eta(c.ETA)
		}
	default:
		// unknown share: a stripe that moves as more is computed
		k := math.Mod(c.Computed.Seconds()*1e6, 10) / 10
		dl.rect(LayerTooltip, bar.X+bar.W*0.8*k, bar.Y, bar.W*0.2, bar.H, 1.5*u, th.Comm, th.Comm, 0)
		s += b.t("progress.estimating")
	}
	room := w - 16*u // a narrow pop-up: the share and time left, cut short if need be
	s = fitText(room, b.fs(0.8), assets.Regular, s, short, shorten(short, b.fs(0.8), assets.Regular, room))
	dl.text(LayerTooltip, x+8*u, y+ht*0.38, s, b.fs(0.8), Start, assets.Regular, th.Text)
}

// eta writes seconds left as "about 12 s left" or "about 3 min left".
func (b *Builder) eta(s float64) string {
	switch {
	case s < 1:
		return b.t("progress.under")
	case s < 90:
		return b.tf("progress.secs", s)
	}
	return b.tf("progress.mins", s/60)
}
