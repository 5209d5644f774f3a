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

// hostsCrowded reports whether n hosts in a row w wide would be too narrow
// for their labels (the last host's is the longest).
func (L *Layout) hostsCrowded(hosts []int, w float64) bool {
	n := len(hosts)
	if n < 2 {
		return false
	}
	pitch := w / float64(n)
	bw, _ := L.nodeSize(topo.Host)
	box := min(bw, pitch-max(2*L.U, pitch*0.18))
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
	L.Pods = append(L.Pods, Pod{Rect: box, Label: span, Nodes: hosts, Hosts: true})
	cw := (box.W - 8*u) / float64(len(hosts))
	ch := max(4*u, h-L.Type.Main*1.3-8*u)
	for i, id := range hosts {
		b := &L.Nodes[id]
		b.Rect = Rect{box.X + 4*u + float64(i)*cw + cw*0.1, box.Y + box.H - 3*u - ch, cw * 0.8, ch}
		b.Shown, b.Pod, b.Label = false, k, ""
	}
}

// groupBundles joins each host group to the switches its hosts link to: one
// bundle per switch, from the box's top to the switch's bottom.
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
				if _, ok := links[to]; !ok {
					sws = append(sws, to)
				}
				links[to] = append(links[to], l)
			}
		}
		for _, sw := range sws {
			s := &L.Nodes[sw]
			sx, _ := s.Center()
			px := min(max(sx, pod.X+pod.W*0.1), pod.X+pod.W*0.9)
			bd := Bundle{Pod: p, Group: sw, UpIDs: links[sw]}
			for _, l := range links[sw] {
				bd.DownIDs = append(bd.DownIDs, t.Links[l].Reverse)
			}
			bd.Up = L.offsetLine(px, pod.Y, sx, s.Y+s.H, +1)
			bd.Down = L.offsetLine(px, pod.Y, sx, s.Y+s.H, -1)
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
	for _, s := range []string{i18n.Tf(L.Opt.Lang, "node.hosts.group", p.Label, len(p.Nodes)), p.Label} {
		if TextWidth(s, L.Type.Main, assets.Medium)+8*L.U <= p.W {
			return s
		}
	}
	return ""
}
