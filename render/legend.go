package render

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// legendItem is one entry of the legend: a mark w px wide drawn at x on
// the line at cy, and its name.
type legendItem struct {
	w    float64
	name string
	draw func(x, cy float64)
}

// legend explains the colours and marks along the bottom of the topology,
// in rows at the type scale's Small size: the entries that do not fit the
// rows the layout left are not shown (the last first), never smaller.
func (b *Builder) legend() {
	L, th, dl := b.layout, b.th, &b.dl
	u, size := L.U, L.Type.Small
	r := L.Legend
	lh := r.H / float64(max(legendRows(L), 1))
	x, row := r.X, 0
	for _, it := range b.legendItems() {
		w := it.w + 5*u + TextWidth(it.name, size, assets.Regular)
		if x > r.X && x+w > r.X+r.W {
			x, row = r.X, row+1
		}
		if float64(row+1)*lh > r.H+0.5 || x+w > r.X+r.W {
			break
		}
		cy := r.Y + lh*(float64(row)+0.5)
		if it.draw != nil {
			it.draw(x, cy)
		}
		dl.text(LayerLabel, x+it.w+5*u, cy, it.name, size, Start, assets.Regular, th.Muted)
		x += w + 14*u
	}
}

// legendItems are the legend's entries, the most needed first.
func (b *Builder) legendItems() []legendItem {
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U
	rw := 70 * u
	items := []legendItem{{rw, b.t("legend.load") + " 0–100%", func(x, cy float64) {
		const steps = 18
		for i := range steps {
			v := (float64(i) + 0.5) / steps
			dl.rect(LayerLabel, x+rw*float64(i)/steps, cy-4*u, rw/steps+0.6, 8*u, 0, b.loadColor(v), color.RGBA{}, 0)
		}
	}}, {16 * u, b.t("legend.idle-link"), func(x, cy float64) { dl.line(LayerLabel, x, cy, x+16*u, cy, L.LinkW, th.Idle) }}}
	for i, s := range []struct {
		c    color.RGBA
		name string
	}{{th.Comm, b.t("legend.comm")}, {th.Compute, b.t("legend.compute")}, {th.Node, b.t("legend.idle")}} {
		if i == 1 && (!b.anyCompute() || b.trainingShown()) { // the timeline's legend has the phases
			continue
		}
		items = append(items, legendItem{14 * u, s.name, func(x, cy float64) {
			dl.rect(LayerLabel, x, cy-5*u, 14*u, 10*u, 2*u, s.c, th.NodeEdge, 1*u)
		}})
	}
	front := b.classItems()
	if ch, ok := b.channelLegend(); ok { // NCCL's channel shown (channels.go)
		front = append([]legendItem{ch}, front...)
	}
	items = append(items[:1], append(front, items[1:]...)...)
	flows := b.t("legend.by-flow")
	if b.shards() {
		flows = b.t("legend.by-shard")
	}
	items = append(items,
		legendItem{14 * u, flows, func(x, cy float64) {
			b.packetMark(LayerLabel, x+3*u, cy, 2.7*u, 0)
			b.packetMark(LayerLabel, x+10*u, cy, 2.7*u, 1)
		}},
		legendItem{5 * u, b.t("legend.queue"), func(x, cy float64) {
			dl.rect(LayerLabel, x, cy-8*u, 5*u, 16*u, 1.5*u, th.Panel, th.Muted, 1*u)
			dl.rect(LayerLabel, x, cy, 5*u, 8*u, 0, th.Queue, color.RGBA{}, 0)
		}},
		legendItem{12 * u, b.t("legend.drop"), func(x, cy float64) { b.dropMarkOn(LayerLabel, x+6*u, cy, 6*u) }},
		legendItem{14 * u, b.t("legend.pause"), func(x, cy float64) { b.pauseMarkOn(LayerLabel, x+7*u, cy, 7*u) }})
	if b.anyMarks() {
		items = append(items,
			legendItem{9 * u, b.t("legend.ecn"), func(x, cy float64) {
				dl.circle(LayerLabel, x+4*u, cy, 2.7*u, th.Categorical(0), th.Background, 0.8*u)
				dl.circle(LayerLabel, x+4*u, cy, 4.3*u, color.RGBA{}, th.Pause, 1.2*u)
			}},
			legendItem{6 * u, b.t("legend.cnp"), func(x, cy float64) {
				dl.rect(LayerLabel, x, cy-3*u, 6*u, 6*u, 0, th.Pause, th.Background, 0.8*u)
			}})
	}
	return items
}

// classItems name the traffic classes by the shape of their packets
// (packetShape); none with a single class.
func (b *Builder) classItems() []legendItem {
	cur := b.f.Cur
	if cur == nil || len(cur.Classes) < 2 {
		return nil
	}
	var out []legendItem
	for c, name := range cur.Classes {
		out = append(out, legendItem{9 * b.layout.U, b.tf("legend.class", name), func(x, cy float64) {
			b.packetShape(LayerLabel, x+4*b.layout.U, cy, 3.2*b.layout.U, b.th.Text, c)
		}})
	}
	return out
}

// legendRows is how many rows of legend a layout leaves room for: what the
// longest legend (every entry) needs at the type scale's Small size, at most 3.
func legendRows(L *Layout) int {
	if L.Legend.W <= 0 {
		return 1
	}
	size := L.Type.Small
	var words []string
	for _, k := range []string{"legend.load", "legend.idle-link", "legend.comm", "legend.compute", "legend.idle",
		"legend.by-shard", "legend.queue", "legend.drop", "legend.pause", "legend.ecn", "legend.cnp"} {
		words = append(words, i18n.T(L.Opt.Lang, k))
	}
	marks := []float64{70 + 30, 16, 14, 14, 14, 14, 5, 12, 14, 9, 6}
	rows, x := 1, 0.0
	for i, s := range words {
		w := (marks[i]+5+14)*L.U + TextWidth(s, size, assets.Regular)
		if x > 0 && x+w > L.Legend.W {
			rows, x = rows+1, 0
		}
		x += w
	}
	if L.Opt.Training && L.Opt.Presenter && L.H >= 30*L.Type.Small {
		return min(rows, 2) // the timelines need the room more than the rarer marks
	}
	return min(rows, 3)
}

func (b *Builder) anyMarks() bool {
	if b.f.Cur == nil {
		return false
	}
	for i := range b.f.Cur.Links {
		if b.f.Cur.Links[i].ECNMarks > 0 {
			return true
		}
	}
	return false
}

// anyCompute reports whether some GPU computes now or did in the history, so
// the legend does not flicker while a training run waits for gradients.
func (b *Builder) anyCompute() bool {
	if c := b.f.Cur; c != nil && slices.Contains(c.Activity, snap.Computing) {
		return true
	}
	for _, s := range b.f.History {
		if slices.Contains(s.Activity, snap.Computing) {
			return true
		}
	}
	return false
}

// shards reports whether the flows carry collective chunk labels.
func (b *Builder) shards() bool {
	if c := b.f.Cur; c != nil {
		for i := range c.Flows {
			if c.Flows[i].Tag >= 0 {
				return true
			}
		}
	}
	return false
}

// tooltip draws the box with the figures of the hovered item.
func (b *Builder) tooltip() {
	f, L, th, dl := b.f, b.layout, b.th, &b.dl
	if f.Hover.Kind == HoverNone || f.Cur == nil {
		return
	}
	lines := b.tooltipLines()
	if len(lines) == 0 {
		return
	}
	u := L.U
	size := b.fs(0.95)
	lh := size * 1.45
	w := 0.0
	for i, s := range lines {
		w = max(w, TextWidth(s, size, weightOf(i)))
	}
	w += 20 * u
	h := lh*float64(len(lines)) + 12*u
	x, y := f.Hover.X+16*u, f.Hover.Y+16*u
	if x+w > L.W-4*u {
		x = f.Hover.X - 16*u - w
	}
	if y+h > L.H-4*u {
		y = f.Hover.Y - 16*u - h
	}
	x, y = max(x, 4*u), max(y, 4*u)
	dl.rect(LayerTooltip, x+2*u, y+3*u, w, h, 6*u, color.RGBA{0, 0, 0, 40}, color.RGBA{}, 0)
	dl.rect(LayerTooltip, x, y, w, h, 6*u, th.Panel, th.Border, 1*u)
	for i, s := range lines {
		c := th.Text
		if i > 0 {
			c = th.Muted
		}
		dl.text(LayerTooltip, x+10*u, y+6*u+lh*(float64(i)+0.5), s, size, Start, weightOf(i), c)
	}
}

// roleName is a node's role in words.
func (b *Builder) roleName(r topo.Role) string { return b.t("role." + r.String()) }

// nodeRole is node id's kind in words: a torus's GPUs are chips.
func (b *Builder) nodeRole(id int) string {
	t := b.layout.Topo
	if r := t.Nodes[id].Role; r != topo.GPU || t.Torus == nil {
		return b.roleName(r)
	}
	return b.t("role.chip")
}

func weightOf(line int) assets.Weight {
	if line == 0 {
		return assets.Bold
	}
	return assets.Regular
}

var kindNames = map[string]string{"nvlink4": "NVLink 4", "pcie5": "PCIe Gen5 x16", "roce": "RoCE", "ib": "InfiniBand", "ethernet": "Ethernet"}

func (b *Builder) tooltipLines() []string {
	f, L := b.f, b.layout
	t := L.Topo
	cur := f.Cur
	h := f.Hover
	switch h.Kind {
	case HoverLink, HoverQueue:
		if h.ID >= len(t.Links) || h.ID >= len(cur.Links) {
			return nil
		}
		return b.linkLines(h.ID, h.Kind == HoverQueue)
	case HoverNode:
		if h.ID >= len(t.Nodes) {
			return nil
		}
		return b.nodeLines(h.ID)
	case HoverPod:
		if h.ID >= len(L.Pods) {
			return nil
		}
		return b.podLines(h.ID)
	case HoverBundle:
		if h.ID >= len(L.Bundles) {
			return nil
		}
		bd := &L.Bundles[h.ID]
		title := b.tf("tip.bundle", bd.Pod, bd.Group)
		if L.Pods[bd.Pod].Hosts {
			title = b.tf("tip.group.bundle", L.Pods[bd.Pod].Label, nodeName(L, bd.Group))
		}
		return []string{
			title,
			b.tf("tip.bundle.links", len(bd.UpIDs)),
			b.tf("tip.bundle.up", fmtPct(b.meanUtil(bd.UpIDs))),
			b.tf("tip.bundle.down", fmtPct(b.meanUtil(bd.DownIDs))),
		}
	}
	return nil
}

func (b *Builder) linkLines(id int, queueFirst bool) []string {
	t, cur := b.layout.Topo, b.f.Cur
	l := &t.Links[id]
	s := &cur.Links[id]
	v := b.util[id]
	lines := []string{linkName(b.layout, id),
		fmt.Sprintf("%s %s", fmtRate(float64(l.Rate)), kindNames[string(l.Kind)]),
		b.tf("tip.load", fmtPct(v), fmtRate(v*float64(l.Rate)))}
	q := ""
	if t.Nodes[l.From].Role.IsSwitch() || s.QueueBytes > 0 {
		q = b.tf("tip.queue", fmtBytes(float64(s.QueueBytes)))
		if s.BufferBytes > 0 {
			q += b.tf("tip.queue.of", fmtBytes(float64(s.BufferBytes)))
		}
		if queueFirst {
			lines = append(lines[:1], append([]string{q}, lines[1:]...)...)
		} else {
			lines = append(lines, q)
		}
	}
	if s.Drops > 0 || s.PauseFrames > 0 {
		lines = append(lines, b.tf("tip.drops.pauses", s.Drops, s.PauseFrames))
	}
	if s.ECNMarks > 0 {
		lines = append(lines, b.tf("tip.ecn", s.ECNMarks))
	}
	if s.Paused {
		lines = append(lines, b.t("tip.paused"))
	}
	if x := b.faultLinkLine(id); x != "" {
		lines = append(lines, x)
	}
	var flows []string
	seen := map[int]bool{}
	for i := range cur.Packets {
		p := &cur.Packets[i]
		if p.Link == id && !seen[p.Flow] && p.Flow < len(cur.Flows) {
			seen[p.Flow] = true
			fl := &cur.Flows[p.Flow]
			flows = append(flows, fmt.Sprintf("#%d %s→%s", p.Flow, b.hostName(fl.Src), b.hostName(fl.Dst)))
		}
	}
	if len(flows) > 0 {
		if len(flows) > 4 {
			flows = append(flows[:4], "…")
		}
		lines = append(lines, b.t("tip.on-wire")+strings.Join(flows, ", "))
	}
	return lines
}

func (b *Builder) nodeLines(id int) []string {
	L, cur := b.layout, b.f.Cur
	t := L.Topo
	nd := &t.Nodes[id]
	lines := []string{nodeName(L, id)} // as the canvas names it
	if e := L.EP[id]; e >= 0 {
		lines = append(lines, b.tf("tip.endpoint", b.nodeRole(id), e, b.doing(e)))
		if x := b.slowLine(e); x != "" {
			lines = append(lines, x)
		}
		var send, recv []string
		for i := range cur.Flows {
			fl := &cur.Flows[i]
			if !fl.Started || fl.Done {
				continue
			}
			d := b.tf("tip.of", fmtBytes(float64(fl.Delivered)), fmtBytes(float64(fl.Bytes)))
			if fl.Src == e && len(send) < 4 {
				send = append(send, b.tf("tip.sends", b.hostName(fl.Dst), d))
			}
			if fl.Dst == e && len(recv) < 4 {
				recv = append(recv, b.tf("tip.receives", b.hostName(fl.Src), d))
			}
		}
		lines = append(lines, send...)
		lines = append(lines, recv...)
		var done int
		for i := range cur.Flows {
			if fl := &cur.Flows[i]; fl.Done && (fl.Src == e || fl.Dst == e) {
				done++
			}
		}
		if done > 0 {
			lines = append(lines, b.tf("tip.finished", done))
		}
		return lines
	}
	lines = append(lines, b.tf("tip.ports", b.nodeRole(id), len(nd.Out)))
	var q, drops int64
	paused := 0
	var busiest float64
	for _, l := range nd.Out {
		if l < len(cur.Links) {
			q += cur.Links[l].QueueBytes
			drops += cur.Links[l].Drops
			if cur.Links[l].Paused {
				paused++
			}
			busiest = max(busiest, b.util[l])
		}
	}
	if nd.Role.IsSwitch() {
		lines = append(lines, b.tf("tip.queued", fmtBytes(float64(q))))
	}
	lines = append(lines, b.tf("tip.busiest", fmtPct(busiest)))
	if drops > 0 {
		lines = append(lines, b.tf("tip.drops", drops))
	}
	if paused > 0 {
		lines = append(lines, b.tf("tip.ports-paused", paused))
	}
	return lines
}

func (b *Builder) podLines(id int) []string {
	L, cur := b.layout, b.f.Cur
	t := L.Topo
	p := &L.Pods[id]
	if !L.Condensed && !p.Hosts { // a DGX node block
		return []string{p.Label}
	}
	var hosts, gpus int
	var up, upN, out, outN float64
	var q, drops int64
	paused := 0
	for _, n := range p.Nodes {
		nd := &t.Nodes[n]
		switch nd.Role {
		case topo.Host:
			hosts++
		case topo.GPU:
			gpus++
		}
		for _, l := range nd.Out {
			if l >= len(cur.Links) {
				continue
			}
			s := &cur.Links[l]
			q += s.QueueBytes
			drops += s.Drops
			if s.Paused {
				paused++
			}
			if nd.Role == topo.Host {
				up += b.util[l]
				upN++
			}
			if L.Nodes[t.Links[l].To].Shown { // leaves the group
				out += b.util[l]
				outN++
			}
		}
	}
	title := b.tf("tip.pod", p.Label)
	if p.Hosts {
		title = p.Label
	}
	load := b.tf("tip.pod.hosts", hosts, fmtPct(up/max(upN, 1)))
	if gpus > 0 { // a group of DGX nodes
		load = b.tf("tip.group.gpus", gpus, fmtPct(out/max(outN, 1)))
	}
	lines := []string{title, load, b.tf("tip.queued", fmtBytes(float64(q)))}
	if drops > 0 {
		lines = append(lines, b.tf("tip.drops", drops))
	}
	if paused > 0 {
		lines = append(lines, b.tf("tip.ports-paused", paused))
	}
	return lines
}
