package render

import (
	"image/color"

	"fabriclab/assets"
	"fabriclab/sim/unit"
)

// saveColor marks a checkpoint's span on the training timeline: the
// palette's wine, which no other training colour is.
func (b *Builder) saveColor() color.RGBA { return b.th.Flows[len(b.th.Flows)-1] }

// saves draws each checkpoint written in the window as a bar above the
// plot, from its start to its end (to now while it is written), named
// beside it where there is room.
func (v *trainView) saves() {
	b, dl, p, u, tr := v.b, &v.b.dl, v.p, v.u, v.tr
	y, h := p.Y-13*u, 3*u
	for i, s := range tr.SaveStarts {
		end := v.now
		if i < len(tr.SaveEnds) {
			end = tr.SaveEnds[i]
		}
		if s > v.now || end <= v.w0 || s >= v.w1 {
			continue
		}
		x0, x1 := v.clip(v.px(s)), v.clip(v.px(max(end, s+unit.Nanosecond)))
		dl.rect(LayerChart, x0, y, max(x1-x0, 1*u), h, 0, b.saveColor(), color.RGBA{}, 0)
		label, size := b.t("train.save"), b.fs(0.75)
		base := y + h/2 + size*0.35 // level with the bar, clear of the header above
		switch w := TextWidth(label, size, assets.Regular); {
		case x1+3*u+w <= p.X+p.W: // after it
			dl.text(LayerChart, x1+3*u, base, label, size, Start, assets.Regular, b.th.Muted)
		case x0-3*u-w >= p.X: // before it
			dl.text(LayerChart, x0-3*u, base, label, size, End, assets.Regular, b.th.Muted)
		}
	}
}
