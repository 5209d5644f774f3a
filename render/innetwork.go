package render

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// inNetwork tells an in-network reduction (NVLS on an NVSwitch, SHARP on a
// switch): the runner moves its bytes as rank r → r+1 through the switch,
// but what happens is each GPU writing to the switch, which reduces and
// multicasts the sum back, and the canvas draws that.
func (b *Builder) inNetwork() bool {
	c := b.coll()
	return c != nil && c.Algo == "innetwork"
}

// switchArrows draws, for each sender, an arrow up into the reducing switch
// (its write) and one back down (the multicast of the sum).
func (b *Builder) switchArrows(sends []snap.Send, w float64) {
	L := b.layout
	t := L.Topo
	u := L.U
	seen := map[int32]bool{}
	for _, s := range sends {
		if seen[s.Src] || s.Src < 0 || int(s.Src) >= len(t.Endpoints) {
			continue
		}
		seen[s.Src] = true
		id := t.Endpoints[s.Src]
		sw := b.reducer(id)
		if sw < 0 || !L.Nodes[id].Shown {
			continue
		}
		g, x := &L.Nodes[id], &L.Nodes[sw]
		gx, gy := g.Center()
		_, sy := x.Center()
		from, to := g.Y+g.H, x.Y // the GPU above the switch (a DGX)
		if sy < gy {
			from, to = g.Y, x.Y+x.H
		}
		off := max(3*u, w*1.2)
		b.arc(gx-off, from, gx-off, to, 0, w, b.th.Categorical(0), true) // write, reduced at the switch
		b.arc(gx+off, to, gx+off, from, 0, w, b.th.Categorical(2), true) // multicast of the sum
	}
}

// reducer is the switch an endpoint's in-network reduction runs in: its
// NVSwitch, else the first switch it links to; −1 if none is shown.
func (b *Builder) reducer(id int) int {
	L := b.layout
	t := L.Topo
	other := -1
	for _, l := range t.Nodes[id].Out {
		to := t.Links[l].To
		if !L.Nodes[to].Shown || !t.Nodes[to].Role.IsSwitch() {
			continue
		}
		if t.Nodes[to].Role == topo.NVSwitch {
			return to
		}
		if other < 0 {
			other = to
		}
	}
	return other
}
