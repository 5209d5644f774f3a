package render

import (
	"fmt"
	"strings"

	"fabriclab/sim/topo"
)

// A torus is drawn as a grid per plane: x across, y down, and the z planes
// stacked up and to the right, each a fraction of a cell further, so that a
// z link is a short diagonal. A chip's router is not drawn (links attach to
// the chip). A wrap-around link is a stub leaving the edge chip outwards,
// the way it goes: the +1 link of the last chip leaves right (x), down (y)
// or up-right (z); the −1 link of the first chip leaves the other way.
func (L *Layout) torus() {
	t := L.Topo
	tr := t.Torus
	dims := [3]int{1, 1, 1}
	copy(dims[:], tr.Dims)
	X, Y, Z := dims[0], dims[1], dims[2]
	A := L.Area
	lift := 0.0 // the z planes' offset, in cells
	if Z > 1 {
		lift = 0.85
	}
	// From the first chip's centre to the last: X−1 cells and the planes'
	// lift; the wrap-around stubs take 0.45 of a cell on either side.
	span := lift * float64(Z-1) / float64(Z)
	px := A.W / (float64(X-1) + span + 0.9)
	py := A.H / (float64(Y-1) + span + 0.9)
	ox, oy := lift*px/float64(Z), -lift*py/float64(Z)
	bw, bh := L.nodeSize(topo.GPU)
	w, h := min(bw, 0.62*px), min(bh, 0.62*py)
	if Z > 1 {
		w, h = min(w, 0.8*ox), min(h, -0.8*oy)
	}
	x0 := A.X + 0.45*px
	y0 := A.Y + 0.45*py - float64(Z-1)*oy
	var chips []int
	for e, id := range t.Endpoints {
		x, y, z := coordOf(tr, e, 0), coordOf(tr, e, 1), coordOf(tr, e, 2)
		cx := x0 + float64(x)*px + float64(z)*ox
		cy := y0 + float64(y)*py + float64(z)*oy
		b := &L.Nodes[id]
		b.Rect, b.Shown = Rect{cx - w/2, cy - h/2, w, h}, true
		L.Nodes[tr.Router[e]].Rect = b.Rect // not Shown: its links are drawn from the chip
		chips = append(chips, id)
	}
	L.labelRow(chips)
	stub := [3][2]float64{{0.42 * px, 0}, {0, 0.42 * py}, {0.55 * ox, 0.55 * oy}}
	for e := range t.Endpoints {
		for i, d := range tr.Dims {
			for k, sign := range [2]float64{1, -1} {
				l := tr.Port[(e*len(tr.Dims)+i)*2+k]
				to := tr.Index(t.Links[l].To)
				ax, ay := L.Nodes[t.Endpoints[e]].Center()
				c := coordOf(tr, e, i)
				wraps := d > 2 && (sign > 0 && c == d-1 || sign < 0 && c == 0)
				if wraps {
					ln := L.offsetLine(ax, ay, ax+sign*stub[i][0], ay+sign*stub[i][1], 1)
					ln.Shown = true
					L.Links[l] = ln
					continue
				}
				bx, by := L.Nodes[t.Endpoints[to]].Center()
				ln := L.offsetLine(ax, ay, bx, by, 1)
				ln.Shown = true
				L.Links[l] = ln
			}
		}
	}
}

// coordOf is endpoint e's coordinate in dimension i, 0 past the torus's dimensions.
func coordOf(tr *topo.Torus, e, i int) int {
	if i >= len(tr.Dims) {
		return 0
	}
	return tr.Coord(e, i)
}

// torusLabels are a chip's labels, longest first: its coordinates, its index.
func torusLabels(tr *topo.Torus, e int) []string {
	c := make([]string, len(tr.Dims))
	for i := range tr.Dims {
		c[i] = fmt.Sprint(tr.Coord(e, i))
	}
	return []string{strings.Join(c, ","), fmt.Sprint(e)}
}
