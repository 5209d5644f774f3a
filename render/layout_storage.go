package render

import (
	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/topo"
)

// Storage nodes (topology.storage_nodes) are drawn in a column of their own
// at the topology's right: their leaf at the height of the other leaves, the
// nodes stacked in a block under it, labelled as storage.

// storageLeaf is the storage nodes' leaf, or -1 without storage nodes.
func storageLeaf(t *topo.Topology) int {
	if t.Storage == 0 {
		return -1
	}
	last := &t.Nodes[t.Endpoints[len(t.Endpoints)-1]]
	return t.Links[last.Out[0]].To
}

// fabricLeaves are the leaves but the storage leaf.
func (L *Layout) fabricLeaves() []int {
	sl := storageLeaf(L.Topo)
	var out []int
	for _, id := range L.byRole(topo.Leaf) {
		if id != sl {
			out = append(out, id)
		}
	}
	return out
}

// storageColumn takes the storage column off the right of L.Area and
// returns it (zero without storage nodes).
func (L *Layout) storageColumn() Rect {
	if L.Topo.Storage == 0 {
		return Rect{}
	}
	a, u := &L.Area, L.U
	w := min(max(a.W*0.12, 72*u), 130*u)
	gap := 12 * u
	col := Rect{a.X + a.W - w, a.Y, w, a.H}
	a.W -= w + gap
	return col
}

// placeStorage lays the storage leaf and nodes out in col, the leaf level
// with the fabric's leaves.
func (L *Layout) placeStorage(col Rect) {
	t, u := L.Topo, L.U
	sl := storageLeaf(t)
	if sl < 0 {
		return
	}
	leafY := col.Y + col.H*0.45
	if ls := L.fabricLeaves(); len(ls) > 0 && L.Nodes[ls[0]].H > 0 {
		_, leafY = L.Nodes[ls[0]].Center()
	}
	_, lh := L.nodeSize(topo.Leaf)
	lw := col.W - 8*u
	L.Nodes[sl].Rect, L.Nodes[sl].Shown = Rect{col.X + 4*u, leafY - lh/2, lw, lh}, true
	L.Nodes[sl].Label = L.fitLabel(sl, lw, lh)
	top := leafY + lh/2 + 24*u
	bottom := col.Y + col.H - 18*u - L.Type.Body*1.2 // room for the block's label under it
	if bottom-top < 20*u {
		top = leafY + lh/2 + 8*u
	}
	L.StorageBlock = Rect{col.X, top, col.W, max(bottom-top, 12*u)}
	L.storageNodes(t.Endpoints[len(t.Endpoints)-t.Storage:])
}

// storageNodes places the storage nodes in L.StorageBlock: one column, or
// as many as give each node room for a label (at most four).
func (L *Layout) storageNodes(ids []int) {
	u, blk := L.U, L.StorageBlock
	pad, gap := 6*u, 4*u
	n := len(ids)
	cols, rows := 1, n
	pitch := (blk.H - 2*pad) / float64(rows)
	for cols < 4 && cols < n && pitch*0.8 < L.Type.Main*1.3 {
		cols++
		rows = (n + cols - 1) / cols
		pitch = (blk.H - 2*pad) / float64(rows)
	}
	w := (blk.W - 2*pad - float64(cols-1)*gap) / float64(cols)
	h := min(26*u, pitch*0.8)
	for i, id := range ids {
		x := blk.X + pad + float64(i%cols)*(w+gap)
		y := blk.Y + pad + (float64(i/cols)+0.5)*pitch
		b := &L.Nodes[id]
		b.Rect, b.Shown = Rect{x, y - h/2, w, h}, true
		b.Label = L.fitLabel(id, b.W, b.H)
	}
}

// storageName is storage node i's name.
func storageName(lang i18n.Lang, i int) string { return i18n.Tf(lang, "node.storage", i) }

// storageBlock draws the block the storage nodes sit in, named under it.
func (b *Builder) storageBlock() {
	L, th, u := b.layout, b.th, b.layout.U
	s := L.StorageBlock
	if s.W == 0 {
		return
	}
	b.dl.rect(LayerPanel, s.X, s.Y, s.W, s.H, 8*u, th.Panel, th.Border, 1*u)
	b.dl.text(LayerLabel, s.X+s.W/2, s.Y+s.H+L.Type.Body*0.75, b.t("node.storage.block"), b.fs(0.9), Middle, assets.Medium, th.Muted)
}
