package render

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// legend explains the colours and marks along the bottom of the topology.
func (b *Builder) legend() {
	start := len(b.dl.Prims)
	if end := b.legendAt(1); end > b.layout.Legend.X+b.layout.Legend.W {
		b.dl.Prims = b.dl.Prims[:start] // too wide: again, smaller
		b.legendAt(b.layout.Legend.W / (end - b.layout.Legend.X))
	}
}

// legendAt draws the legend at k times its size and returns where it ends.
func (b *Builder) legendAt(k float64) float64 {
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U * k
	r := L.Legend
	cy := r.Y + r.H/2
	size := b.fs(0.85) * k
	x := r.X
	label := func(s string) {
		dl.text(LayerLabel, x, cy, s, size, Start, assets.Regular, th.Muted)
		x += TextWidth(s, size, assets.Regular) + 14*u
	}
	// utilisation ramp
	load := b.t("legend.load")
	dl.text(LayerLabel, x, cy, load, size, Start, assets.Regular, th.Muted)
	x += TextWidth(load, size, assets.Regular) + 6*u
	dl.text(LayerLabel, x, cy, "0", size*0.9, Start, assets.Regular, th.Muted)
	x += TextWidth("0", size*0.9, 0) + 4*u
	rw := 90 * u
	const steps = 18
	for i := range steps {
		v := (float64(i) + 0.5) / steps
		dl.rect(LayerLabel, x+rw*float64(i)/steps, cy-4*u, rw/steps+0.6, 8*u, 0, b.loadColor(v), color.RGBA{}, 0)
	}
	x += rw + 4*u
	label("100%")
	// idle link
	dl.line(LayerLabel, x, cy, x+16*u, cy, L.LinkW*k, th.Idle)
	x += 20 * u
	label(b.t("legend.idle-link"))
	// node states
	sw := 14 * u
	for i, s := range []struct {
		c    color.RGBA
		name string
	}{{th.Comm, b.t("legend.comm")}, {th.Compute, b.t("legend.compute")}, {th.Node, b.t("legend.idle")}} {
		if i == 1 && (!b.anyCompute() || b.trainingShown()) { // the timeline's legend has the phases
			continue
		}
		dl.rect(LayerLabel, x, cy-5*u, sw, 10*u, 2*u, s.c, th.NodeEdge, 1*u)
		x += sw + 5*u
		label(s.name)
	}
	// queue, drop, pause, packet
	dl.rect(LayerLabel, x, cy-8*u, 5*u, 16*u, 1.5*u, th.Panel, th.Muted, 1*u)
	dl.rect(LayerLabel, x, cy, 5*u, 8*u, 0, th.Queue, color.RGBA{}, 0)
	x += 10 * u
	label(b.t("legend.queue"))
	b.dropMarkOn(LayerLabel, x+6*u, cy, 6*u)
	x += 16 * u
	label(b.t("legend.drop"))
	b.pauseMarkOn(LayerLabel, x+7*u, cy, 7*u)
	x += 18 * u
	label(b.t("legend.pause"))
	b.packetMark(LayerLabel, x+3*u, cy, 2.7*u, 0)
	b.packetMark(LayerLabel, x+10*u, cy, 2.7*u, 1)
	x += 18 * u
	if b.shards() {
		label(b.t("legend.by-shard"))
	} else {
		label(b.t("legend.by-flow"))
	}
	if b.anyMarks() {
		dl.circle(LayerLabel, x+4*u, cy, 2.7*u, th.Categorical(0), th.Background, 0.8*u)
		dl.circle(LayerLabel, x+4*u, cy, 4.3*u, color.RGBA{}, th.Pause, 1.2*u)
		x += 12 * u
		label(b.t("legend.ecn"))
		dl.rect(LayerLabel, x, cy-3*u, 6*u, 6*u, 0, th.Pause, th.Background, 0.8*u)
		x += 10 * u
		label(b.t("legend.cnp"))
	}
	return x - 14*u
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
		return []string{
			b.tf("tip.bundle", bd.Pod, bd.Group),
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
	lines := []string{t.LinkName(id),
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
	lines := []string{nd.Name}
	if e := L.EP[id]; e >= 0 {
		if nd.Role == topo.Host { // as the canvas and the lessons name it
			lines[0] = b.tf("node.host", e)
		}
		lines = append(lines, b.tf("tip.endpoint", b.roleName(nd.Role), e, b.doing(e)))
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
	lines = append(lines, b.tf("tip.ports", b.roleName(nd.Role), len(nd.Out)))
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
	if len(L.Bundles) == 0 { // a DGX node block
		return []string{p.Label}
	}
	var hosts int
	var up, upN float64
	var q, drops int64
	paused := 0
	for _, n := range p.Nodes {
		nd := &t.Nodes[n]
		if nd.Role == topo.Host {
			hosts++
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
		}
	}
	lines := []string{b.tf("tip.pod", p.Label),
		b.tf("tip.pod.hosts", hosts, fmtPct(up/max(upN, 1))),
		b.tf("tip.queued", fmtBytes(float64(q)))}
	if drops > 0 {
		lines = append(lines, b.tf("tip.drops", drops))
	}
	if paused > 0 {
		lines = append(lines, b.tf("tip.ports-paused", paused))
	}
	return lines
}
