package render

import (
	"fabriclab/i18n"
	"fabriclab/sim/topo"
)

// hgx lays out DGX/HGX nodes: each node a block with its NICs on top, its GPUs
// in the middle and its NVSwitch as a bar below; rail or leaf switches and
// spines above.
func (L *Layout) hgx() {
	t := L.Topo
	a := L.Area
	u := L.U
	nvs := L.byRole(topo.NVSwitch)
	n := len(nvs)
	leaves := L.fabricLeaves()
	spines := L.byRole(topo.Spine)
	gpusOf := make([][]int, n)
	nicsOf := make([][]int, n)
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		switch nd.Role {
		case topo.GPU:
			gpusOf[nd.Group] = append(gpusOf[nd.Group], i)
		case topo.NIC:
			nicsOf[nd.Group] = append(nicsOf[nd.Group], i)
		}
	}
	pad := 18 * u
	short := a.H < L.minAreaH() // over the training timelines, in a comparison's pane: less air, a box per node
	if short {
		pad = 4 * u
	}
	gap := 14 * u
	if n > 8 {
		gap = 6 * u
	}
	var blockW, blockH, blockY float64
	if len(leaves) == 0 { // one node (or several without a fabric): big and centred
		blockW = min(a.W*0.86, 760*u*float64(n))
		blockH = min(a.H*0.7, 340*u)
		blockY = a.Y + (a.H-blockH)/2
	} else {
		blockW = (a.W - gap*float64(n-1)) / float64(n)
		blockH = min(a.H*0.42, 150*u)
		blockY = a.Y + a.H - pad - blockH
		if blockW < 150*u {
			blockH = min(blockH, 120*u)
			blockY = a.Y + a.H - pad - blockH
		}
	}
	L.Pods = L.Pods[:0]
	x := a.X
	if len(leaves) == 0 {
		x = a.X + (a.W-(blockW*float64(n)+gap*float64(n-1)))/2
	}
	if per := L.dgxGroupSize(n, a.W); len(leaves) > 0 && (per > 1 || short) { // too many nodes for a block each
		members := make([][]int, n)
		for g := range n {
			members[g] = append(append(append(members[g], gpusOf[g]...), nicsOf[g]...), nvs[g])
		}
		h := min(blockH, max(L.Type.Main*1.3+16*u, 60*u))
		L.dgxGroups(members, per, a.X, a.X+a.W, a.Y+a.H-pad-h, h)
		blockY = a.Y + a.H - pad - h
		n = 0 // no blocks one by one
	}
	for g := range n {
		bx := x + float64(g)*(blockW+gap)
		blk := Rect{bx, blockY, blockW, blockH}
		L.Pods = append(L.Pods, Pod{Rect: blk, Label: i18n.Tf(L.Opt.Lang, "node.dgx", g)})
		ip := min(10*u, blockW*0.06)
		x0, x1 := bx+ip, bx+blockW-ip
		big := len(leaves) == 0
		nicY := blk.Y + blk.H*0.17
		gpuY := blk.Y + blk.H*0.5
		nvY := blk.Y + blk.H*0.83
		if big {
			nicY, gpuY, nvY = blk.Y+blk.H*0.18, blk.Y+blk.H*0.5, blk.Y+blk.H*0.82
		}
		L.rows(nicsOf[g], x0, x1, nicY, 1)
		L.rows(gpusOf[g], x0, x1, gpuY, 1)
		if big { // room to spare: bigger GPUs
			for _, id := range gpusOf[g] {
				b := &L.Nodes[id]
				cx, cy := b.Center()
				w := min(b.W*1.4, (x1-x0)/float64(len(gpusOf[g]))*0.75)
				hh := min(b.H*1.4, blk.H*0.26)
				b.Rect = Rect{cx - w/2, cy - hh/2, w, hh}
				b.Label = L.fitLabel(id, w, hh)
			}
		}
		_, nh := L.nodeSize(topo.NVSwitch)
		if big {
			nh *= 1.3
		}
		b := &L.Nodes[nvs[g]]
		b.Rect = Rect{x0, nvY - nh/2, x1 - x0, nh}
		b.Shown, b.Wide = true, true
		b.Label = L.fitLabel(nvs[g], x1-x0, nh)
	}
	if len(leaves) == 0 {
		return
	}
	top := a.Y + pad + min(12*u, pad)
	levels := 1
	if len(spines) > 0 {
		levels = 2
	}
	leafY := top + (blockY-top)*0.62
	if levels == 1 {
		leafY = top + (blockY-top)*0.35
	}
	L.placeByChildren(leaves, a.X, a.X+a.W, leafY)
	L.spineRow(spines, top)
}

// placeByChildren places switches above the mean x of what hangs below them
// when that keeps them apart, and evenly otherwise (rails reach every node).
func (L *Layout) placeByChildren(ids []int, x0, x1, y float64) {
	L.row(ids, x0, x1, y) // sizes
	t := L.Topo
	xs := make([]float64, len(ids))
	for i, id := range ids {
		var sum float64
		var k int
		for _, l := range t.Nodes[id].Out {
			to := t.Links[l].To
			if t.Nodes[to].Tier < t.Nodes[id].Tier && L.Nodes[to].Shown {
				cx, _ := L.Nodes[to].Center()
				sum += cx
				k++
			}
		}
		if k == 0 {
			return
		}
		xs[i] = sum / float64(k)
	}
	w := L.Nodes[ids[0]].W
	for i := 1; i < len(xs); i++ {
		if xs[i]-xs[i-1] < w+4*L.U {
			return // they would collide: keep the even spread
		}
	}
	for i, id := range ids {
		L.Nodes[id].X = xs[i] - w/2
	}
}
