package render

import "fabriclab/assets"

// headerFit is how the header's left side fits beside the time on the
// right: the title's size, and whether the topology's summary and a note
// after it (the routing view's reordered share) are drawn. On a narrow
// canvas (a pane of a comparison) the summary gives way first, then the
// note; then the title shrinks.
type headerFit struct {
	titleSize     float64
	summary, note bool
	noteX         float64 // where the note starts
}

// fitHeader fits the header's title, summary and note (may be "").
func (b *Builder) fitHeader(title, summary, note string) headerFit {
	L := b.layout
	h, u := L.Header, L.U
	room := h.W - 14*u
	if f := b.f; f != nil && f.Cur != nil {
		room -= TextWidth("t = "+fmtTime(f.Cur.Time), b.fs(1.6), assets.Bold)
		if f.Cur.Done {
			room -= TextWidth(b.t("head.finished"), b.fs(1.0), assets.Medium) + 12*u
		}
	}
	fit := headerFit{titleSize: b.fs(1.45)}
	tw := TextWidth(title, fit.titleSize, assets.Bold)
	sw := TextWidth(summary, b.fs(1.0), assets.Regular) + 14*u
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
	for fit.titleSize > b.fs(0.9) && TextWidth(title, fit.titleSize, assets.Bold) > room {
		fit.titleSize *= 0.92
	}
	fit.noteX = h.X + TextWidth(title, fit.titleSize, assets.Bold) + 14*u
	if fit.summary {
		fit.noteX += sw
	}
	return fit
}

// fitSize is size, made smaller (down to 72 % of it) until s fits in w:
// a narrow chart's title gets smaller rather than run out of it.
func fitSize(s string, size float64, weight assets.Weight, w float64) float64 {
	least := size * 0.72
	for size > least && TextWidth(s, size, weight) > w {
		size = max(least, size*0.94)
	}
	return size
}
