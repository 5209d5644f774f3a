package render

import (
	"strings"

	"fabriclab/assets"
)

// headerFit is how the header's left side fits beside the time on the
// right: the title's size, and whether the topology's summary and a note
// after it (the routing view's reordered share) are drawn. On a narrow
// canvas (a pane of a comparison) the summary gives way first, then the
// note; then the title is cut short.
type headerFit struct {
	titleSize     float64
	title         string // the title, cut short where it does not fit
	summary, note bool
	noteX         float64 // where the note starts
	timeSize      float64 // the time's size: smaller in a narrow pane
	noFinished    bool    // no room for "finished"
}

// titleRoom is the width left for the title, summary and note beside the
// time (and "finished") as fit sets them.
func (b *Builder) titleRoom(fit headerFit) float64 {
	L := b.layout
	room := L.Header.W - 14*L.U
	if f := b.f; f != nil && f.Cur != nil {
		room -= TextWidth("t = "+fmtTime(f.Cur.Time), fit.timeSize, assets.Bold)
		if f.Cur.Done && !fit.noFinished {
			room -= TextWidth(b.t("head.finished"), b.fs(1.0), assets.Medium) + 12*L.U
		}
	}
	return room
}

// fitHeader fits the header's title, summary and note (may be "").
func (b *Builder) fitHeader(title, summary, note string) headerFit {
	L := b.layout
	h, u := L.Header, L.U
	fit := headerFit{timeSize: L.Type.Title}
	room := b.titleRoom(fit)
	if TextWidth(title, L.Type.Small, assets.Bold) > room { // a narrow pane: the time gives way, then "finished"
		fit.timeSize = L.Type.Body
		if room = b.titleRoom(fit); TextWidth(title, L.Type.Small, assets.Bold) > room {
			fit.noFinished = true
			room = b.titleRoom(fit)
		}
	}
	fit.titleSize = titleSize(&L.Type, title, room)
	tw := TextWidth(title, fit.titleSize, assets.Bold)
	sw := 0.0
	if summary != "" {
		sw = TextWidth(summary, b.fs(1.0), assets.Regular) + 14*u
	}
	nw := 0.0
	if note != "" {
		nw = TextWidth(note, b.fs(1.0), assets.Medium) + 14*u
	}
	switch {
	case tw+sw+nw <= room:
		fit.summary, fit.note = true, note != ""
	case note != "" && tw+nw <= room:
		fit.note = true
	case tw+sw <= room && note == "":
		fit.summary = true
	}
	fit.title = shorten(title, fit.titleSize, assets.Bold, room)
	fit.noteX = h.X + TextWidth(fit.title, fit.titleSize, assets.Bold) + 14*u
	if fit.summary {
		fit.noteX += sw
	}
	return fit
}

// titleSize is the largest size of the type scale at which title fits in
// w (a comparison's pane names its run whole), else the smallest.
func titleSize(ts *TypeScale, title string, w float64) float64 {
	for _, size := range []float64{ts.Title, ts.Main, ts.Body} {
		if TextWidth(title, size, assets.Bold) <= w {
			return size
		}
	}
	return ts.Small
}

// shorten is s, cut short with "…" where it would run past w at size: a
// narrow chart's title is shortened, never set smaller than the type scale.
func shorten(s string, size float64, weight assets.Weight, w float64) string {
	if TextWidth(s, size, weight) <= w {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if t := strings.TrimRight(string(r[:n]), " ·,:，：") + "…"; TextWidth(t, size, weight) <= w {
			return t
		}
	}
	return ""
}
