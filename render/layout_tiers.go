package render

import "fabriclab/sim/topo"

// Stars, leaf-spines of single hosts and small fat trees are drawn in tiers:
// hosts along the bottom in segments under their switches, each tier of
// switches in a row above.

// tierYs returns the centre lines of n rows, top to bottom; the last is the
// hosts'. With two (a star) the switch stays near its hosts.
func (L *Layout) tierYs(n int) []float64 {
	a := L.Area
	pad := 18 * L.U
	_, hh := L.nodeSize(topo.Host)
	// Host rows may stagger; keep room for them at the bottom.
	top, bottom := a.Y+pad+12*L.U, a.Y+a.H-pad-hh/2
	ys := make([]float64, n)
	for i := range ys {
		ys[i] = top + (bottom-top)*float64(i)/float64(n-1)
	}
	if n == 2 {
		ys[0] = top + (bottom-top)*0.12
	}
	return ys
}

// segments splits the area's width into one segment per entry of segs (the
// leaves of a segment, in order): the leaves' hosts in a row on hostY, the
// leaves in a row on leafY. If host rows stagger, all hosts move up so the
// last row fits. It returns each segment's span [x0, x1].
func (L *Layout) segments(segs [][]int, hostY, leafY float64) [][2]float64 {
	t, a := L.Topo, L.Area
	hosts := L.byRole(topo.Host)
	under := map[int][]int{} // leaf → its hosts (a host's first link goes to its leaf)
	for _, h := range hosts {
		lf := t.Links[t.Nodes[h].Out[0]].To
		under[lf] = append(under[lf], h)
	}
	segW := a.W / float64(len(segs))
	inner := 0.0
	if len(segs) > 1 {
		inner = min(segW*0.08, 16*L.U)
	}
	spans := make([][2]float64, len(segs))
	extra := 0.0
	for si, leaves := range segs {
		x0, x1 := a.X+float64(si)*segW+inner, a.X+float64(si+1)*segW-inner
		var segHosts []int
		for _, lf := range leaves {
			segHosts = append(segHosts, under[lf]...)
		}
		if L.hostsCrowded(segHosts, x1-x0) {
			L.hostGroup(segHosts, x0, x1, hostY)
		} else {
			extra = max(extra, L.row(segHosts, x0, x1, hostY))
		}
		L.row(leaves, x0, x1, leafY)
		spans[si] = [2]float64{x0, x1}
	}
	if extra > 0 {
		for _, h := range hosts {
			L.Nodes[h].Y -= extra
		}
	}
	return spans
}

// eachAlone puts every id in a segment of its own.
func eachAlone(ids []int) [][]int {
	out := make([][]int, len(ids))
	for i, id := range ids {
		out[i] = []int{id}
	}
	return out
}
