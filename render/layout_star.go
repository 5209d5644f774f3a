package render

import "fabriclab/sim/topo"

// star lays out a single switch over a row of its hosts.
func (L *Layout) star() {
	ys := L.tierYs(2)
	L.segments(eachAlone(L.byRole(topo.Leaf)), ys[1], ys[0])
}
