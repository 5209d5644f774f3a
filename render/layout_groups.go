package render

import (
	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/topo"
)

// Host groups: a segment's hosts that cannot each have a labelled box in one
// row are drawn as one box ("h0–h31 · 32 hosts") with a strip of cells, one
// per host coloured by its load, and their links to each leaf as one bundle
// coloured by the links' mean load.

// hostsCrowded reports whether hosts in a row w wide, staggered over two
// rows, would be too narrow for their labels (the last host's is the
// longest).
func (L *Layout) hostsCrowded(hosts []int, w float64) bool {
	n := len(hosts)
	if n < 2 {
		return false
	}
	pitch := w / float64(n)
	bw, _ := L.nodeSize(topo.Host)
	box := min(bw, 2*pitch-max(2*L.U, pitch*0.18))
	return TextWidth(nodeName(L, hosts[n-1]), L.Type.Main, 1)+4*L.U > box
}

// hostGroup draws hosts as one box between x0 and x1, centred on y.
func (L *Layout) hostGroup(hosts []int, x0, x1, y float64) {
	u := L.U
	_, hh := L.nodeSize(topo.Host)
	h := max(hh+8*u, L.Type.Main*1.3+12*u)
	box := Rect{x0, y - h/2, x1 - x0, h}
	span := i18n.Tf(L.Opt.Lang, "node.hosts.span", L.EP[hosts[0]], L.EP[hosts[len(hosts)-1]])
	k := len(L.Pods)
	count := i18n.Tf(L.Opt.Lang, "node.hosts.count", len(hosts))
	L.Pods = append(L.Pods, Pod{Rect: box, Label: span, Count: count, Nodes: hosts, Hosts: true})
	cw := (box.W - 8*u) / float64(len(hosts))
	ch := max(4*u, h-L.Type.Main*1.3-8*u)
	for i, id := range hosts {
		b := &L.Nodes[id]
		b.Rect = Rect{box.X + 4*u + float64(i)*cw + cw*0.1, box.Y + box.H - 3*u - ch, cw * 0.8, ch}
		b.Shown, b.Pod, b.Label = false, k, ""
	}
}

// groupBundles joins each group to the shown nodes its members link to: one
// bundle per node, between the box's edge and the node's facing it.
func (L *Layout) groupBundles() {
	t := L.Topo
	for p := range L.Pods {
		pod := &L.Pods[p]
		if !pod.Hosts {
			continue
		}
		var sws []int
		links := map[int][]int{} // switch → the hosts' links to it
		for _, id := range pod.Nodes {
			for _, l := range t.Nodes[id].Out {
				to := t.Links[l].To
				if !L.Nodes[to].Shown {
					continue // inside the group (a DGX node's GPUs, NICs and NVSwitch)
				}
				if _, ok := links[to]; !ok {
					sws = append(sws, to)
				}
				links[to] = append(links[to], l)
			}
		}
		for _, sw := range sws {
			s := &L.Nodes[sw]
			sx, _ := s.Center()
			px := pod.X + pod.W*(0.1+0.8*min(1, max(0, (sx-L.Area.X)/L.Area.W))) // in the order of the switches
			if len(sws) == 1 {
				px = min(max(sx, pod.X+pod.W*0.1), pod.X+pod.W*0.9)
			}
			py, sy := pod.Y, s.Y+s.H // the switch above
			if s.Y > pod.Y+pod.H {
				py, sy = pod.Y+pod.H, s.Y
			}
			bd := Bundle{Pod: p, Group: sw, UpIDs: links[sw]}
			for _, l := range links[sw] {
				bd.DownIDs = append(bd.DownIDs, t.Links[l].Reverse)
			}
			bd.Up = L.offsetLine(px, py, sx, sy, +1)
			bd.Down = L.offsetLine(px, py, sx, sy, -1)
			bd.Up.Shown, bd.Down.Shown = true, true
			L.Bundles = append(L.Bundles, bd)
		}
	}
}

// groupLabel is what host group p's box says: its span and count, its span,
// or nothing, whichever fits (nothing when the area is too short for it).
func groupLabel(L *Layout, p *Pod) string {
	if p.Y < L.Area.Y {
		return ""
	}
	for _, s := range []string{p.Label + " · " + p.Count, p.Label} {
		if TextWidth(s, L.Type.Main, assets.Medium)+8*L.U <= p.W {
			return s
		}
	}
	return ""
}

// dgxGroupSize is how many DGX nodes one block holds in a row w wide: 1
// while a block per node is wide enough for its GPUs to be told apart, else
// as many as make blocks wide enough for their label.
func (L *Layout) dgxGroupSize(n int, w float64) int {
	if w/float64(n) >= 40*L.U { // room for a block per node
		return 1
	}
	g := max(1, int(w/(120*L.U))) // blocks wide enough for "nodes 0–63"
	per := (n + g - 1) / g
	for n%per != 0 { // groups of one size: 2 × 64, not 43 + 43 + 42
		per++
	}
	return per
}

// spinesCrowded reports whether spines in a row w wide, staggered over two
// rows, would be too narrow for their labels.
func (L *Layout) spinesCrowded(spines []int, w float64) bool {
	n := len(spines)
	if n < 8 {
		return false
	}
	pitch := w / float64(n)
	bw, _ := L.nodeSize(topo.Spine)
	box := min(bw, 2*pitch-max(2*L.U, pitch*0.18))
	return L.fitLabel(spines[n-1], box, 24*L.U) == ""
}

// spineGroup draws spines (or a fat tree's core switches) as one box
// between x0 and x1, centred on y.
func (L *Layout) spineGroup(spines []int, x0, x1, y float64) {
	h := L.Type.Main*1.3 + 8*L.U
	box := Rect{x0, y - h/2, x1 - x0, h}
	t := L.Topo
	first, last := t.Nodes[spines[0]].Index, t.Nodes[spines[len(spines)-1]].Index
	span := i18n.Tf(L.Opt.Lang, "node.spines.span", first, last)
	if t.Nodes[spines[0]].Role == topo.Core {
		span = i18n.Tf(L.Opt.Lang, "node.cores.span", first, last)
	}
	count := i18n.Tf(L.Opt.Lang, "node.switches.count", len(spines))
	L.Pods = append(L.Pods, Pod{Rect: box, Label: span, Count: count, Nodes: spines, Hosts: true})
	for _, id := range spines {
		b := &L.Nodes[id]
		b.Rect = Rect{box.X + box.W/2, box.Y + box.H/2, 0, 0}
		b.Shown, b.Pod, b.Label = false, len(L.Pods)-1, ""
	}
}

// dgxGroups draws n DGX nodes as blocks of per nodes each ("nodes 0–31 ·
// 256 GPUs"), between x0 and x1, with their top at y and h high; their GPUs,
// NICs and NVSwitches are inside, not drawn one by one.
func (L *Layout) dgxGroups(members [][]int, per int, x0, x1, y, h float64) {
	n := len(members)
	g := (n + per - 1) / per
	gap := 10 * L.U
	w := (x1 - x0 - gap*float64(g-1)) / float64(g)
	for k := range g {
		first, last := k*per, min(n, (k+1)*per)-1
		var ids []int
		gpus := 0
		for _, m := range members[first : last+1] {
			ids = append(ids, m...)
			for _, id := range m {
				if L.Topo.Nodes[id].Role == topo.GPU {
					gpus++
				}
			}
		}
		box := Rect{x0 + float64(k)*(w+gap), y, w, h}
		span := i18n.Tf(L.Opt.Lang, "node.dgx.span", first, last)
		if first == last {
			span = i18n.Tf(L.Opt.Lang, "node.dgx", first)
		}
		count := i18n.Tf(L.Opt.Lang, "node.gpus.count", gpus)
		L.Pods = append(L.Pods, Pod{Rect: box, Label: span, Count: count, Nodes: ids, Hosts: true})
		for _, id := range ids {
			b := &L.Nodes[id]
			b.Rect = Rect{box.X + box.W/2, box.Y + box.H/2, 0, 0} // no cell: too many to tell apart
			b.Shown, b.Pod, b.Label = false, len(L.Pods)-1, ""
		}
	}
}

// groupClear reports whether no other node's box lies over the top of group
// p's box, where its label goes (in a pane too short for the fabric's tiers).
func groupClear(L *Layout, p *Pod) bool {
	top := Rect{p.X, p.Y, p.W, min(p.H, L.Type.Main*1.4+L.Type.Body*1.4+8*L.U)}
	for i := range L.Nodes {
		if nb := &L.Nodes[i]; nb.Shown && nb.Overlaps(top) {
			return false
		}
	}
	return true
}
