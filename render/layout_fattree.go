package render

import (
	"fmt"
	"slices"

	"fabriclab/sim/topo"
)

// fatTree lays out a fat tree of up to 128 hosts in tiers, one segment per
// pod: hosts, their edge switches and the pod's aggregation switches; the
// core switches in a row on top.
func (L *Layout) fatTree() {
	t, a := L.Topo, L.Area
	spines, cores := L.byRole(topo.Spine), L.byRole(topo.Core)
	levels := 2
	if len(spines) > 0 {
		levels++
	}
	if len(cores) > 0 {
		levels++
	}
	ys := L.tierYs(levels)
	var pods []int    // pod numbers in the order their edge switches come
	var edges [][]int // by pod
	for _, lf := range L.byRole(topo.Leaf) {
		p := slices.Index(pods, t.Nodes[lf].Group)
		if p < 0 {
			pods, edges = append(pods, t.Nodes[lf].Group), append(edges, nil)
			p = len(pods) - 1
		}
		edges[p] = append(edges[p], lf)
	}
	spans := L.segments(edges, ys[levels-1], ys[levels-2])
	for i, pod := range pods {
		var aggs []int
		for _, sp := range spines {
			if t.Nodes[sp].Group == pod {
				aggs = append(aggs, sp)
			}
		}
		L.row(aggs, spans[i][0], spans[i][1], ys[levels-3])
	}
	if len(cores) > 0 {
		L.row(cores, a.X+a.W*0.1, a.X+a.W*0.9, ys[0])
	}
}

// fatTreeCondensed draws each pod as a block of cells (aggregation switches,
// edge switches, and a grid of hosts under their edge switch), core switches
// in groups on top, and each pod's links to a core group as one bundle.
func (L *Layout) fatTreeCondensed() {
	t := L.Topo
	a := L.Area
	u := L.U
	cores := L.byRole(topo.Core)
	k := 0
	for i := range t.Nodes {
		k = max(k, t.Nodes[i].Group+1)
	}
	h := k / 2
	pad := 18 * u
	gap := max(4*u, min(12*u, a.W*0.01))
	podW := (a.W - gap*float64(k-1)) / float64(k)
	cell := min((podW-4*u)/float64(h), 14*u)
	podH := cell*float64(h+2) + 3*cell + 16*u
	podY := a.Y + a.H - pad - podH
	for p := range k {
		px := a.X + float64(p)*(podW+gap)
		L.Pods = append(L.Pods, Pod{Rect: Rect{px, podY, podW, podH}, Label: fmt.Sprint(p)})
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Role == topo.Core {
			continue
		}
		pod := &L.Pods[nd.Group]
		gx := pod.X + (pod.W-cell*float64(h))/2
		var col, rowY float64
		switch nd.Role {
		case topo.Spine:
			col, rowY = float64(nd.Index), pod.Y+6*u
		case topo.Leaf:
			col, rowY = float64(nd.Index), pod.Y+6*u+cell*1.6
		case topo.Host:
			col = float64(nd.Index / h)
			rowY = pod.Y + 6*u + cell*3.4 + float64(nd.Index%h)*cell
		}
		s := cell * 0.82
		b := &L.Nodes[i]
		b.Rect = Rect{gx + col*cell + (cell-s)/2, rowY + (cell-s)/2, s, s}
		b.Pod = nd.Group
		pod.Nodes = append(pod.Nodes, i)
	}
	// Cores: h groups of h, group g above the aggregation switches g of every pod.
	top := a.Y + pad + 12*u
	groupGap := 10 * u
	gw := (a.W*0.92 - groupGap*float64(h-1)) / float64(h)
	grouped := L.spinesCrowded(cores[:h], gw) // too many to draw apart: a box per group ("core 0–7 · 8 switches")
	for g := range h {
		gx := a.X + a.W*0.04 + float64(g)*(gw+groupGap)
		if grouped {
			L.spineGroup(cores[g*h:(g+1)*h], gx, gx+gw, top)
		} else {
			L.row(cores[g*h:(g+1)*h], gx, gx+gw, top)
		}
	}
	if !grouped {
		L.labelRow(cores)
	}
	// Bundles: pod p's aggregation switch g to core group g.
	for p := range k {
		for g := range h {
			var b Bundle
			b.Pod, b.Group = p, g
			agg := -1
			for _, id := range L.Pods[p].Nodes {
				if nd := &t.Nodes[id]; nd.Role == topo.Spine && nd.Index == g {
					agg = id
				}
			}
			for _, l := range t.Nodes[agg].Out {
				if t.Nodes[t.Links[l].To].Role == topo.Core {
					b.UpIDs = append(b.UpIDs, l)
					b.DownIDs = append(b.DownIDs, t.Links[l].Reverse)
				}
			}
			ax, _ := L.Nodes[agg].Center()
			first, last := L.Nodes[cores[g*h]], L.Nodes[cores[(g+1)*h-1]]
			cx := (first.X + last.X + last.W) / 2
			cy := first.Y + first.H
			if grouped {
				box := L.Pods[first.Pod]
				cy = box.Y + box.H
			}
			b.Up = L.offsetLine(ax, L.Pods[p].Y, cx, cy, +1)
			b.Down = L.offsetLine(ax, L.Pods[p].Y, cx, cy, -1)
			b.Up.Shown, b.Down.Shown = true, true
			L.Bundles = append(L.Bundles, b)
		}
	}
}
