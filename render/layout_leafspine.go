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
	L.segments(eachAlone(L.fabricLeaves()), ys[levels-1], ys[levels-2])
	L.spineRow(spines, ys[0])
}

// spineRow places the spines in a row centred on y: a few of them closer
// together, many across the whole width.
func (L *Layout) spineRow(spines []int, y float64) {
	if len(spines) == 0 {
		return
	}
	a := L.Area
	w := a.W
	if len(spines) <= 4 {
		w = a.W * 0.6
	}
	if L.Topo.Kind == "dgx" && L.spinesCrowded(spines, w) { // 128 spines over 8 rails: one box
		L.spineGroup(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, y)
		return
	}
	L.row(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, y)
}
