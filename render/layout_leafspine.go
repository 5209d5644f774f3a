package render

import "fabriclab/sim/topo"

// leafSpine lays out a leaf-spine of single hosts in tiers: each leaf over
// its hosts, the spines in a row on top. (Leaf-spines of DGX nodes are laid
// out by hgx.)
func (L *Layout) leafSpine() {
	spines := L.byRole(topo.Spine)
	levels := 2
	if len(spines) > 0 {
		levels++
	}
	ys := L.tierYs(levels)
	leafY := ys[levels-2]
	if extra := L.spineRow(spines, ys[0]); levels == 3 && extra > 0 {
		// staggered spines reach down: the leaves go below their last row,
		// as far as the hosts' row leaves room
		_, sh := L.nodeSize(topo.Spine)
		_, hh := L.nodeSize(topo.Host)
		leafY = max(leafY, min(ys[0]+extra+sh+8*L.U, ys[2]-hh/2-sh/2-12*L.U))
	}
	L.segments(eachAlone(L.fabricLeaves()), ys[levels-1], leafY)
}

// spineRow places the spines in a row centred on y: a few of them closer
// together, many across the whole width. It returns how far staggered rows
// reach below y (row).
func (L *Layout) spineRow(spines []int, y float64) (extra float64) {
	if len(spines) == 0 {
		return 0
	}
	a := L.Area
	w := a.W
	if len(spines) <= 4 {
		w = a.W * 0.6
	}
	if L.Topo.Kind == "dgx" && L.spinesCrowded(spines, w) { // 128 spines over 8 rails: one box
		L.spineGroup(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, y)
		return 0
	}
	return L.row(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, y)
}
