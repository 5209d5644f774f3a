package render

import (
	"image/color"
	"math"
)

// Faults on the canvas: a down link is a dashed line in the drop colour (no
// ✕: the legend's ✕ is a drop), a degraded one dashed in the pause colour, and a
// slow GPU has a ring in the drop colour; the tooltips say which.

// faultLinks draws the links down or degraded now over their lines.
func (b *Builder) faultLinks() {
	f := b.f.Cur.Faults
	if f == nil {
		return
	}
	L := b.layout
	for _, id := range f.Down {
		if id < len(L.Links) && L.Links[id].Shown {
			b.dashed(&L.Links[id], true)
		}
	}
	for _, d := range f.Degraded {
		if d.Link < len(L.Links) && L.Links[d.Link].Shown {
			b.dashed(&L.Links[d.Link], false)
		}
	}
}

// dashed draws line ln dashed over itself: in the drop colour when down,
// else in the pause colour.
func (b *Builder) dashed(ln *LinkLine, down bool) {
	L, dl := b.layout, &b.dl
	c, w := b.th.Pause, L.LinkW*1.2
	if down {
		c = b.th.Drop
	}
	dx, dy := ln.X2-ln.X1, ln.Y2-ln.Y1
	n := max(int(math.Hypot(dx, dy)/(6*L.U)), 2) // a dash and a gap every 6 units
	for k := 0; k < n; k += 2 {
		a, e := float64(k)/float64(n), float64(k+1)/float64(n)
		dl.line(LayerMarker, ln.X1+dx*a, ln.Y1+dy*a, ln.X1+dx*e, ln.Y1+dy*e, w, c)
	}
}

// slowGPUs rings each slow GPU's box.
func (b *Builder) slowGPUs() {
	f := b.f.Cur.Faults
	if f == nil {
		return
	}
	L := b.layout
	for _, s := range f.Slow {
		if s.Endpoint >= len(L.Topo.Endpoints) {
			continue
		}
		nb := &L.Nodes[L.Topo.Endpoints[s.Endpoint]]
		if nb.W <= 0 {
			continue
		}
		g := 2 * L.U
		b.dl.rect(LayerMarker, nb.X-g, nb.Y-g, nb.W+2*g, nb.H+2*g, 3*L.U, color.RGBA{}, b.th.Drop, 2*L.U)
	}
}

// faultLinkLine is link id's fault now for its tooltip, or "".
func (b *Builder) faultLinkLine(id int) string {
	f := b.f.Cur.Faults
	switch {
	case f.LinkDown(id):
		return b.t("tip.link.down")
	case f.LinkGbps(id) > 0:
		return b.tf("tip.link.degraded", fmtRate(f.LinkGbps(id)*1e9))
	}
	return ""
}

// slowLine is endpoint e's slowness for its tooltip, or "".
func (b *Builder) slowLine(e int) string {
	if x := b.f.Cur.Faults.SlowFactor(e); x > 0 {
		return b.tf("tip.slow", x)
	}
	return ""
}
