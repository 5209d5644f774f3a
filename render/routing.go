package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// The routing view: how many flows each uplink carries (collisions stand
// out), a flows-per-uplink histogram, the picked flow's path and figures,
// the scenario's named flows, and reordering under per-packet routing. It
// shows on multi-tier fabrics running traffic patterns (not collectives or
// training, whose flows are chunks).

// routeCache is what the routing view keeps between frames.
type routeCache struct {
	layout   *Layout
	uplinks  []int32 // links from a switch up to a higher tier
	perNode  bool    // badges per upper switch: per-link ones would overlap
	spread   bool    // per-packet routing: a flow crosses many uplinks
	badgeAt  [][2]float64
	path     []int32
	onPath   []bool // by link, for the picked flow
	tops     []int32
	topAt    []int32 // by node: its index in tops, or -1
	topCount []int32 // by tops: running flows through it
	stamp    []int32 // by tops: the last flow counted
}

// Flow-count colours: 0 and 1 plain, 2 and 3+ warm, so collisions stand out.
var (
	countTwo   = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	countThree = color.RGBA{0xd6, 0x27, 0x28, 0xff}
)

// selectColor is the picked flow's path.
func (b *Builder) selectColor() color.RGBA {
	if b.layout.Opt.Dark {
		return color.RGBA{0xff, 0x6e, 0xe8, 0xff}
	}
	return color.RGBA{0xb0, 0x2c, 0x9e, 0xff}
}

// countColor is a badge's fill and text colour for n flows. Under
// per-packet routing every flow crosses many links by design: no warm colours.
func (b *Builder) countColor(n int32) (fill, text color.RGBA) {
	th := b.th
	switch {
	case n <= 0:
		return th.Panel, th.Muted
	case n == 1 || b.rt.spread:
		return th.Text, th.Background
	case n == 2:
		return countTwo, color.RGBA{0x10, 0x14, 0x18, 0xff}
	}
	return countThree, color.RGBA{0xff, 0xff, 0xff, 0xff}
}

// routingShown reports whether the view applies: a fabric with uplinks
// and flows that are not a collective's or training's chunks.
func (b *Builder) routingShown() bool {
	cur := b.f.Cur
	if cur == nil || cur.Routing == nil || cur.Routing.Routes == nil || len(b.rt.uplinks) == 0 {
		return false
	}
	for i := range cur.Flows {
		if cur.Flows[i].Tag >= 0 {
			return false
		}
	}
	return true
}

// prepareRoutes finds the layout's uplinks and where their badges go, once per layout.
func (b *Builder) prepareRoutes() {
	rt, L := &b.rt, b.layout
	if rt.layout == L {
		return
	}
	rt.layout = L
	rt.uplinks, rt.badgeAt, rt.tops = rt.uplinks[:0], rt.badgeAt[:0], rt.tops[:0]
	t := L.Topo
	for i := range t.Links {
		l := &t.Links[i]
		from, to := &t.Nodes[l.From], &t.Nodes[l.To]
		if from.Role.IsSwitch() && to.Role.IsSwitch() && to.Role != topo.NVSwitch && to.Tier > from.Tier {
			rt.uplinks = append(rt.uplinks, int32(i))
		}
	}
	r := b.badgeR()
	rt.perNode = L.Condensed
	for _, l := range rt.uplinks {
		ln := &L.Links[l]
		x, y := ln.X2+(ln.X1-ln.X2)*0.22, ln.Y2+(ln.Y1-ln.Y2)*0.22 // near the upper end
		rt.badgeAt = append(rt.badgeAt, [2]float64{x, y})
		if !ln.Shown {
			rt.perNode = true
		}
	}
	for i := 0; i < len(rt.badgeAt) && !rt.perNode; i++ {
		for j := i + 1; j < len(rt.badgeAt); j++ {
			if math.Hypot(rt.badgeAt[i][0]-rt.badgeAt[j][0], rt.badgeAt[i][1]-rt.badgeAt[j][1]) < 2.1*r {
				rt.perNode = true
				break
			}
		}
	}
	rt.topAt = slices.Grow(rt.topAt[:0], len(t.Nodes))[:len(t.Nodes)]
	for i := range rt.topAt {
		rt.topAt[i] = -1
	}
	if rt.perNode { // the switches the uplinks reach at the top tier, drawn on their own
		top := 0
		for _, l := range rt.uplinks {
			top = max(top, t.Nodes[t.Links[l].To].Tier)
		}
		for id := range t.Nodes {
			if t.Nodes[id].Tier == top && t.Nodes[id].Role.IsSwitch() && L.Nodes[id].Shown {
				rt.topAt[id] = int32(len(rt.tops))
				rt.tops = append(rt.tops, int32(id))
			}
		}
	}
}

func (b *Builder) badgeR() float64 { return 6.5 * b.layout.U }

// routing draws the routing view over the topology.
func (b *Builder) routing() {
	b.prepareRoutes()
	if !b.routingShown() {
		return
	}
	g := b.f.Cur.Routing
	b.rt.spread = g.Routes.PerPacket
	b.namedFlows(g)
	b.selectedPath(g)
	b.flowBadges(g)
	b.reorderTotal(g)
}

// badge draws a count on a round badge at (x, y).
func (b *Builder) badge(x, y float64, n int32) {
	fill, text := b.countColor(n)
	r := b.badgeR()
	edge := b.th.Border
	if n > 1 {
		edge = b.th.Background
	}
	s := strconv.Itoa(int(n))
	w := max(2*r, TextWidth(s, b.fs(0.72), assets.Bold)+5*b.layout.U)
	b.dl.rect(LayerMarker, x-w/2, y-r, w, 2*r, r, fill, edge, 0.8*b.layout.U)
	b.dl.text(LayerMarker, x, y, s, b.fs(0.72), Middle, assets.Bold, text)
}

// flowBadges counts the flows on each uplink, or (when those would crowd)
// through each top-tier switch, and on condensed pods the most on any one
// of their uplinks.
func (b *Builder) flowBadges(g *snap.Routing) {
	rt, L := &b.rt, b.layout
	t := L.Topo
	if b.allFinished() { // a badge of 0 on every uplink says nothing
		return
	}
	if !rt.perNode {
		for k, l := range rt.uplinks {
			if int(l) < len(g.LinkFlows) {
				b.badge(rt.badgeAt[k][0], rt.badgeAt[k][1], g.LinkFlows[l])
			}
		}
		return
	}
	if !L.Condensed { // condensed: the pods' badges say it, the core row has no room
		b.countThroughTops(g)
	}
	for k, id := range rt.tops {
		if L.Condensed {
			break
		}
		n := rt.topCount[k]
		nb := &L.Nodes[id] // on the box's top right corner, clear of the queue bars below
		b.badge(nb.X+nb.W-0.4*b.badgeR(), nb.Y-0.2*b.badgeR(), n)
	}
	for i := range L.Pods {
		if !L.Condensed {
			break
		}
		p := &L.Pods[i]
		var most int32
		for _, id := range p.Nodes {
			for _, l := range t.Nodes[id].Out {
				if t.Nodes[t.Links[l].To].Tier > t.Nodes[id].Tier && t.Nodes[id].Role.IsSwitch() && l < len(g.LinkFlows) {
					most = max(most, g.LinkFlows[l])
				}
			}
		}
		b.badge(p.X+p.W/2, p.Y-b.badgeR()-2*L.U, most)
	}
}

// routeInset is the routing view's panel, in the place of the last chart
// (chartsAndCollective): the picked flow's figures, or the flows-per-uplink
// histogram (under per-packet routing, the range of flows on an uplink).
func (b *Builder) routeInset(g *snap.Routing, r Rect) {
	L, th, dl, rt := b.layout, b.th, &b.dl, &b.rt
	u, ts := L.U, &L.Type
	t := L.Topo
	// The uplinks of switches that send up: the bins the flows were thrown into.
	var bins [4]int
	lo, hi := int32(math.MaxInt32), int32(0)
	for _, l := range rt.uplinks {
		if int(l) >= len(g.LinkFlows) || !b.sendsUp(g, t.Links[l].From) {
			continue
		}
		n := g.LinkFlows[l]
		bins[min(int(n), 3)]++
		lo, hi = min(lo, n), max(hi, n)
	}
	x, w := r.X+10*u, r.W-20*u // charts() drew the panel
	lh := ts.Small * 1.45
	y := r.Y + ts.Body*1.1
	if lines := b.selectedLines(g); len(lines) > 0 { // the picked flow, in the panel's place
		b.insetLines(lines, r, y)
		return
	}
	dl.text(LayerLabel, x, y, shorten(b.t("route.title"), ts.Body, assets.Medium, w), ts.Body, Start, assets.Medium, th.Text)
	y += ts.Body*0.6 + lh*0.6
	if b.allFinished() {
		dl.text(LayerLabel, x, y, shorten(b.t("route.all-done"), ts.Small, assets.Regular, w), ts.Small, Start, assets.Regular, th.Muted)
		return
	}
	if rt.spread {
		what := b.t("route.none")
		if hi > 0 {
			what = b.tf("route.range", lo, hi)
			if lo == hi {
				what = b.tf("route.each", lo)
			}
		}
		dl.text(LayerLabel, x, y, shorten(b.t("route.spread"), ts.Small, assets.Regular, w), ts.Small, Start, assets.Regular, th.Muted)
		dl.text(LayerLabel, x, y+lh, shorten(what, ts.Small, assets.Regular, w), ts.Small, Start, assets.Regular, th.Text)
		y += 2 * lh
	} else {
		barH := min(44*u, r.H*0.3)
		y += ts.Small * 0.6 // the counts over the bars
		b.histogram(bins, r.X, y, r.W, barH)
		y += barH + ts.Small*1.6
	}
	dl.text(LayerLabel, x, y, shorten(b.badgeCaption(), ts.Small, assets.Regular, w), ts.Small, Start, assets.Regular, th.Muted)
}

// insetLines writes the picked flow's lines from y down in r, as many as fit.
func (b *Builder) insetLines(lines []string, r Rect, y float64) {
	L, th, dl := b.layout, b.th, &b.dl
	u, size := L.U, L.Type.Small
	x, w := r.X+10*u, r.W-20*u
	for i, s := range lines {
		if y+size*0.6 > r.Y+r.H-4*u {
			break
		}
		c, wt := th.Text, assets.Regular
		if i == 0 {
			c, wt = b.selectColor(), assets.Bold
		}
		b.chartWord(r.X+r.W/2, r.Y+r.H/2, s, false)
		dl.text(LayerLabel, x, y, shorten(s, size, wt, w), size, Start, wt, c)
		y += size * 1.45
	}
}

// allFinished reports whether every flow of the run so far has finished
// (none is on an uplink now, and none will be).
func (b *Builder) allFinished() bool {
	cur := b.f.Cur
	if !cur.Done || cur.NumFlows() == 0 {
		return false
	}
	for i := range cur.NumFlows() {
		if !cur.Flow(i).Done {
			return false
		}
	}
	return true
}

// sendsUp reports whether some flow goes up from switch n.
func (b *Builder) sendsUp(g *snap.Routing, n int) bool {
	t := b.layout.Topo
	for _, l := range t.Nodes[n].Out {
		if l < len(g.LinkFlows) && g.LinkFlows[l] > 0 && t.Nodes[t.Links[l].To].Tier > t.Nodes[n].Tier {
			return true
		}
	}
	return false
}

// histogram draws how many uplinks carry 0, 1, 2 and 3 or more flows, in
// bars barH high at most from y.
func (b *Builder) histogram(bins [4]int, x, y, w, barH float64) {
	th, dl, u := b.th, &b.dl, b.layout.U
	most := 1
	for _, n := range bins {
		most = max(most, n)
	}
	bw := (w - 16*u) / 4
	base := y + barH
	for k, n := range bins {
		bx := x + 8*u + float64(k)*bw
		fill, _ := b.countColor(int32(k))
		if k == 0 {
			fill = th.Idle
		}
		bh := barH * float64(n) / float64(most)
		if n > 0 {
			bh = max(bh, 1.5*u)
		}
		dl.rect(LayerChart, bx+3*u, base-bh, bw-6*u, bh, 0, fill, color.RGBA{}, 0)
		dl.text(LayerChart, bx+bw/2, base-bh-b.fs(0.7)*0.7, strconv.Itoa(n), b.fs(0.7), Middle, assets.Medium, th.Muted)
		lab := strconv.Itoa(k)
		if k == 3 {
			lab = "3+"
		}
		dl.text(LayerChart, bx+bw/2, base+b.fs(0.75)*0.8, lab, b.fs(0.75), Middle, assets.Regular, th.Muted)
	}
	dl.line(LayerChart, x+8*u, base, x+w-8*u, base, 1*u, th.Border)
}

// selectedFlow is the picked flow's ID, or -1.
func (b *Builder) selectedFlow() int {
	if k := b.f.Selected - 1; k >= 0 && b.f.Cur != nil && k < len(b.f.Cur.Flows) {
		return k
	}
	return -1
}

// endpointName is endpoint ep's node name.
func (b *Builder) endpointName(ep int) string {
	t := b.layout.Topo
	if ep < 0 || ep >= len(t.Endpoints) {
		return fmt.Sprint(ep)
	}
	return nodeName(b.layout, t.Endpoints[ep])
}

// selectedLines are the picked flow's figures: who, how fast, how far,
// which way, and how many packets came out of order.
func (b *Builder) selectedLines(g *snap.Routing) []string {
	k := b.selectedFlow()
	if k < 0 {
		return nil
	}
	cur, prev := b.f.Cur, b.f.Prev
	fl := &cur.Flows[k]
	head := b.tf("route.flow", k)
	if n := g.Routes.Name(k); n != "" {
		head = b.tf("route.named", b.flowName(n), k)
	}
	out := []string{head, b.endpointName(fl.Src) + " → " + b.endpointName(fl.Dst)}
	state := b.t("route.waiting")
	switch {
	case fl.Done:
		state = b.tf("route.finished", fmtTime(fl.Finish-fl.Start))
	case fl.Started:
		state = b.t("route.sending")
		if prev != nil && prev.Time < cur.Time && k < len(prev.Flows) {
			bps := float64(fl.Delivered-prev.Flows[k].Delivered) * 8 / (cur.Time - prev.Time).Seconds()
			state = b.tf("route.sending.at", fmtRate(bps))
		}
	}
	out = append(out, state)
	if fl.Bytes > 0 {
		out = append(out, b.tf("route.delivered", fmtBytes(float64(fl.Delivered)), fmtBytes(float64(fl.Bytes)), fmtPct(float64(fl.Delivered)/float64(fl.Bytes))))
	}
	t := b.layout.Topo
	path := g.Routes.AppendPath(b.rt.path[:0], k, cur.Time)
	b.rt.path = path
	if g.Routes.PerPacket && len(path) == 0 && g.Routes.Truncated {
		out = append(out, b.t("route.unrecorded"))
	} else if g.Routes.PerPacket {
		out = append(out, b.tf("route.spread.n", len(path)))
	} else if len(path) > 1 {
		var via strings.Builder
		for i, l := range path[:len(path)-1] {
			if i > 0 {
				via.WriteString(" → ")
			}
			via.WriteString(t.Nodes[t.Links[l].To].Name)
		}
		out = append(out, b.tf("route.via", via.String()))
	}
	if g.Routes.PerPacket && g.Routes.MTU > 0 && fl.Delivered > 0 && g.Routes.Tracked() {
		pkts := (fl.Delivered + g.Routes.MTU - 1) / g.Routes.MTU
		n := cur.Reordered(k)
		out = append(out, b.tf("route.reordered", fmtPct1(float64(n)/float64(pkts)), n))
	}
	return out
}

// fmtPct1 writes a share as a percentage with one decimal under 10 %.
func fmtPct1(v float64) string {
	if v < 0.1 {
		return strconv.FormatFloat(v*100, 'f', 1, 64) + " %"
	}
	return strconv.Itoa(int(v*100+0.5)) + " %"
}

// pathLine draws link l of a highlighted path, under its own colour.
func (b *Builder) pathLine(l int32, c color.RGBA, extra float64) {
	L := b.layout
	if int(l) >= len(L.Links) {
		return
	}
	ln := &L.Links[l]
	if ln.Shown {
		lc, w := b.linkColor(b.util[l])
		b.dl.line(LayerLink, ln.X1, ln.Y1, ln.X2, ln.Y2, w+extra, c)
		b.dl.line(LayerLink, ln.X1, ln.Y1, ln.X2, ln.Y2, w, lc)
		return
	}
	for i := range L.Bundles { // a condensed pod's link: its bundle
		bd := &L.Bundles[i]
		for _, d := range [2]struct {
			ln  *LinkLine
			ids []int
		}{{&bd.Up, bd.UpIDs}, {&bd.Down, bd.DownIDs}} {
			for _, id := range d.ids {
				if id == int(l) {
					b.dl.line(LayerLink, d.ln.X1, d.ln.Y1, d.ln.X2, d.ln.Y2, L.LinkW+extra, c)
				}
			}
		}
	}
}

// endMark outlines endpoint ep's box.
func (b *Builder) endMark(ep int, c color.RGBA) {
	L := b.layout
	if ep < 0 || ep >= len(L.Topo.Endpoints) {
		return
	}
	nb := &L.Nodes[L.Topo.Endpoints[ep]]
	u := L.U
	b.dl.rect(LayerMarker, nb.X-2*u, nb.Y-2*u, nb.W+4*u, nb.H+4*u, 4*u, color.RGBA{}, c, 2.2*u)
}

// selectedPath highlights the picked flow's links and ends.
func (b *Builder) selectedPath(g *snap.Routing) {
	k := b.selectedFlow()
	if k < 0 {
		return
	}
	c := b.selectColor()
	b.rt.path = g.Routes.AppendPath(b.rt.path[:0], k, b.f.Cur.Time)
	for _, l := range b.rt.path {
		b.pathLine(l, c, 5*b.layout.U)
	}
	fl := &b.f.Cur.Flows[k]
	b.endMark(fl.Src, c)
	b.endMark(fl.Dst, c)
}

// namedFlows marks the scenario's named flows: their path in their own
// colour and a tag with the name over the sender.
func (b *Builder) namedFlows(g *snap.Routing) {
	L, u := b.layout, b.layout.U
	sel := b.selectedFlow()
	for k, name := range g.Routes.Names {
		if name == "" || k >= len(b.f.Cur.Flows) {
			continue
		}
		fl := &b.f.Cur.Flows[k]
		c := b.flowColor(fl, k)
		if k != sel && fl.Started {
			b.rt.path = g.Routes.AppendPath(b.rt.path[:0], k, b.f.Cur.Time)
			for _, l := range b.rt.path {
				b.pathLine(l, c, 3*u)
			}
		}
		if fl.Src >= len(L.Topo.Endpoints) {
			continue
		}
		nb := L.Nodes[L.Topo.Endpoints[fl.Src]].Rect
		if n := &L.Nodes[L.Topo.Endpoints[fl.Src]]; !n.Shown && n.Pod >= 0 { // a cell: under its group's box
			p := L.Pods[n.Pod].Rect
			nb.Y, nb.H = p.Y, p.H
		}
		s := b.flowName(name)
		tw := TextWidth(s, b.fs(0.78), assets.Bold) + 8*u
		x, y := nb.X+nb.W/2-tw/2, nb.Y+nb.H+4*u
		if y+14*u > L.Area.Y+L.Area.H { // no room below: above
			y = nb.Y - 18*u
		}
		if overNode(L, Rect{x, y, tw, 14 * u}, L.Topo.Endpoints[fl.Src]) {
			continue // a pane too short: the tag would hide a switch's name
		}
		b.dl.rect(LayerLabel, x, y, tw, 14*u, 4*u, c, b.th.Background, 1*u)
		b.dl.text(LayerLabel, x+tw/2, y+7*u, s, b.fs(0.78), Middle, assets.Bold, inkOn(c))
	}
}

// reorderTotal writes, in the header of a per-packet routing run, the share
// of packets that arrived out of order (where it fits: fitHeader).
func (b *Builder) reorderTotal(g *snap.Routing) {
	s := b.reorderNote(g)
	if s == "" {
		return
	}
	L := b.layout
	if fit := b.fitHeader(headerTitle(L), b.headerSummary(), s); fit.note {
		b.dl.text(LayerLabel, fit.noteX, L.Header.Y+L.Header.H/2, s, b.fs(1.0), Start, assets.Medium, countTwoOn(b.th))
	}
}

// reorderNote is reorderTotal's text, or "" where there is none.
func (b *Builder) reorderNote(g *snap.Routing) string {
	if g == nil || g.Routes == nil || !g.Routes.PerPacket || !g.Routes.Tracked() || g.Routes.MTU <= 0 || b.f.Cur == nil {
		return ""
	}
	var pkts int64
	for i := range b.f.Cur.Flows {
		pkts += (b.f.Cur.Flows[i].Delivered + g.Routes.MTU - 1) / g.Routes.MTU
	}
	if pkts == 0 {
		return ""
	}
	return b.tf("route.total", fmtPct1(float64(g.ReorderedTotal)/float64(pkts)))
}

// countTwoOn is the warm colour, darker on a light page for contrast.
func countTwoOn(th *assets.Theme) color.RGBA {
	if th.Name == "light" {
		return th.Pause
	}
	return countTwo
}

// inkOn is black or white, whichever reads better on c.
func inkOn(c color.RGBA) color.RGBA {
	if 0.299*float64(c.R)+0.587*float64(c.G)+0.114*float64(c.B) > 140 {
		return color.RGBA{0x10, 0x14, 0x18, 0xff}
	}
	return color.RGBA{0xff, 0xff, 0xff, 0xff}
}

// badgeCaption says what the badges count.
func (b *Builder) badgeCaption() string {
	rt, t := &b.rt, b.layout.Topo
	switch {
	case b.layout.Condensed:
		return b.t("route.badge.pod")
	case !rt.perNode:
		return b.t("route.badge.link")
	case len(rt.tops) > 0 && t.Nodes[rt.tops[0]].Role == topo.Core:
		return b.t("route.badge.core")
	}
	return b.t("route.badge.spine")
}

// countThroughTops counts the running flows that cross each top-tier
// switch, each once (parallel links would count a flow twice).
func (b *Builder) countThroughTops(g *snap.Routing) {
	rt, cur, t := &b.rt, b.f.Cur, b.layout.Topo
	n := len(rt.tops)
	rt.topCount = slices.Grow(rt.topCount[:0], n)[:n]
	rt.stamp = slices.Grow(rt.stamp[:0], n)[:n]
	clear(rt.topCount)
	for i := range rt.stamp {
		rt.stamp[i] = -1
	}
	for i := range cur.Flows {
		if f := &cur.Flows[i]; !f.Started || f.Done {
			continue
		}
		rt.path = g.Routes.AppendPath(rt.path[:0], i, cur.Time)
		for _, l := range rt.path {
			if k := rt.topAt[t.Links[l].To]; k >= 0 && rt.stamp[k] != int32(i) {
				rt.stamp[k] = int32(i)
				rt.topCount[k]++
			}
		}
	}
}

// routingFlows reports whether f has flows the routing view can pick: a
// routing picture, flows that are not a workload's chunks, and uplinks.
func routingFlows(f *Frame) bool {
	cur := f.Cur
	if cur == nil || cur.Routing == nil || cur.Routing.Routes == nil || len(cur.Flows) == 0 {
		return false
	}
	for i := range cur.Flows {
		if cur.Flows[i].Tag >= 0 {
			return false
		}
	}
	t := f.Layout.Topo
	for i := range t.Links { // and a fabric with uplinks
		from, to := &t.Nodes[t.Links[i].From], &t.Nodes[t.Links[i].To]
		if from.Role.IsSwitch() && to.Role.IsSwitch() && to.Role != topo.NVSwitch && to.Tier > from.Tier {
			return true
		}
	}
	return false
}

// PickFlow is the selection (a flow's ID + 1, or 0 for none, as
// Frame.Selected) after a click on h: on a host, a link, a bundle or a
// switch it picks a flow that starts, ends or runs there — the one after
// the current pick when that is one of them, so clicking again cycles —
// and on the topology's empty space none. Elsewhere (a chart, a pod's
// frame) the pick stays.
func PickFlow(f *Frame, h Hover) int {
	if !routingFlows(f) {
		return 0
	}
	L, cur := f.Layout, f.Cur
	t := L.Topo
	var match func(fl *snap.Flow, path []int32) bool
	onPath := func(ok func(l int) bool) func(*snap.Flow, []int32) bool {
		return func(_ *snap.Flow, path []int32) bool {
			for _, l := range path {
				if ok(int(l)) {
					return true
				}
			}
			return false
		}
	}
	switch h.Kind {
	case HoverNone:
		if L.Area.Contains(h.X, h.Y) {
			return 0
		}
		return f.Selected // a chart or the header: not the topology's empty space
	case HoverNode:
		if h.ID < 0 || h.ID >= len(t.Nodes) {
			return f.Selected
		}
		if ep := L.EP[h.ID]; ep >= 0 {
			match = func(fl *snap.Flow, _ []int32) bool { return fl.Src == ep || fl.Dst == ep }
		} else {
			match = onPath(func(l int) bool { return t.Links[l].To == h.ID })
		}
	case HoverLink, HoverQueue:
		match = onPath(func(l int) bool { return l == h.ID })
	case HoverBundle:
		if h.ID < 0 || h.ID >= len(L.Bundles) {
			return f.Selected
		}
		bd := &L.Bundles[h.ID]
		match = onPath(func(l int) bool { return slices.Contains(bd.UpIDs, l) || slices.Contains(bd.DownIDs, l) })
	default:
		return f.Selected
	}
	routes := cur.Routing.Routes
	var path []int32
	first, firstRunning, next := -1, -1, -1
	for i := range cur.Flows {
		fl := &cur.Flows[i]
		path = routes.AppendPath(path[:0], i, cur.Time)
		if !match(fl, path) {
			continue
		}
		if first < 0 {
			first = i
		}
		if firstRunning < 0 && fl.Started && !fl.Done {
			firstRunning = i
		}
		if next < 0 && i > f.Selected-1 && f.Selected > 0 {
			next = i
		}
	}
	switch {
	case first < 0:
		return f.Selected // nothing runs there: keep the pick
	case f.Selected > 0 && next >= 0 && matchesSelected(f, match, routes):
		return next + 1
	case f.Selected > 0 && matchesSelected(f, match, routes):
		return first + 1 // wrap around
	case firstRunning >= 0:
		return firstRunning + 1
	}
	return first + 1
}

// matchesSelected reports whether the picked flow matches.
func matchesSelected(f *Frame, match func(*snap.Flow, []int32) bool, routes *snap.Routes) bool {
	k := f.Selected - 1
	if k < 0 || k >= len(f.Cur.Flows) {
		return false
	}
	return match(&f.Cur.Flows[k], routes.AppendPath(nil, k, f.Cur.Time))
}

// StepFlow is the selection after stepping dir (+1 or −1) through the flows
// from the current one (sel, as Frame.Selected), wrapping around; with none
// picked, +1 picks the first flow and −1 the last.
func StepFlow(f *Frame, sel, dir int) int {
	if !routingFlows(f) {
		return 0
	}
	n := len(f.Cur.Flows)
	k := sel - 1
	switch {
	case k < 0 || k >= n:
		if dir < 0 {
			return n
		}
		return 1
	case dir < 0:
		return (k+n-1)%n + 1
	}
	return (k+1)%n + 1
}

// markSeries marks a named or picked flow's line in a per-flow chart, the
// line just drawn from dl.Points[p0:] in colour c: the picked one thicker,
// and at the line's end the flow's name (or, picked, "flow N").
func (b *Builder) markSeries(flow, p0 int, c color.RGBA) {
	cur, dl, u := b.f.Cur, &b.dl, b.layout.U
	if cur == nil || cur.Routing == nil || cur.Routing.Routes == nil || len(dl.Points)-p0 < 2 {
		return
	}
	name := b.flowName(cur.Routing.Routes.Name(flow))
	picked := flow == b.selectedFlow()
	if name == "" && !picked {
		return
	}
	end := len(dl.Points)
	if picked {
		dl.Points = append(dl.Points, dl.Points[p0:end]...)
		dl.polyline(LayerChart, end, 3.2*u, b.selectColor())
		dl.Points = append(dl.Points, dl.Points[p0:end]...)
		dl.polyline(LayerChart, end+(end-p0), 1.6*u, c)
		if name == "" {
			name = b.tf("route.flow", flow)
		}
	}
	x, y := float64(dl.Points[end-2]), float64(dl.Points[end-1])
	dl.circle(LayerChart, x, y, 2.6*u, c, b.th.Panel, 0.8*u)
	dl.text(LayerChart, x-5*u, y-8*u, name, b.fs(0.75), End, assets.Bold, b.th.Text)
}

// overNode reports whether r lies over a shown node other than except.
func overNode(L *Layout, r Rect, except int) bool {
	for i := range L.Nodes {
		if nb := &L.Nodes[i]; i != except && nb.Shown && nb.Overlaps(r) {
			return true
		}
	}
	return false
}
