package render

import (
	"cmp"
	"math"
	"slices"
)

// Links between the placed nodes, and the queue bars at switch ports.

// offsetLine returns the line from (x1, y1) to (x2, y2) shifted sideways by
// one half-spacing to side (+1 or -1).
func (L *Layout) offsetLine(x1, y1, x2, y2, side float64) LinkLine {
	dx, dy := x2-x1, y2-y1
	d := math.Hypot(dx, dy)
	if d == 0 {
		return LinkLine{X1: x1, Y1: y1, X2: x2, Y2: y2}
	}
	off := L.LinkW * 1.05 * side
	nx, ny := -dy/d*off, dx/d*off
	return LinkLine{X1: x1 + nx, Y1: y1 + ny, X2: x2 + nx, Y2: y2 + ny}
}

// anchor is where a link attaches to node id, towards the point (ox, oy).
func (L *Layout) anchor(id int, ox, oy float64) (float64, float64) {
	b := &L.Nodes[id]
	cx, cy := b.Center()
	if b.Wide {
		m := min(b.H, b.W*0.05)
		return min(max(ox, b.X+m), b.X+b.W-m), cy
	}
	return cx, cy
}

// placeLinks draws every link between shown nodes, each direction on its
// own side, and puts a queue bar beside each switch egress port.
func (L *Layout) placeLinks() {
	t := L.Topo
	for i := range t.Links {
		l := &t.Links[i]
		a, b := &L.Nodes[l.From], &L.Nodes[l.To]
		if !a.Shown || !b.Shown {
			continue
		}
		bx, by := b.Center()
		ax, ay := a.Center()
		x1, y1 := L.anchor(l.From, bx, by)
		x2, y2 := L.anchor(l.To, ax, ay)
		if a.Wide { // recompute the far end against the near end's anchor
			x2, y2 = L.anchor(l.To, x1, y1)
		}
		if b.Wide {
			x1, y1 = L.anchor(l.From, x2, y2)
			x2, y2 = L.anchor(l.To, x1, y1)
		}
		ln := L.offsetLine(x1, y1, x2, y2, 1)
		ln.Shown = true
		if t.Nodes[l.From].Role.IsSwitch() {
			ln.Queue = L.queueBar(l.From, &ln)
		}
		L.Links[i] = ln
	}
	for id := range t.Nodes {
		if t.Nodes[id].Role.IsSwitch() && L.Nodes[id].Shown {
			L.portStrips(id)
		}
	}
}

// stripPorts is how many ports in one direction a switch has before their
// queue bars move from beside the links into a strip along the switch.
const stripPorts = 12

// portStrips puts the queue bars of a switch with many ports going up (or
// down) in a row along its top (or bottom) edge, ordered like the links.
func (L *Layout) portStrips(id int) {
	t := L.Topo
	u := L.U
	b := &L.Nodes[id]
	cx, cy := b.Center()
	var up, down []int
	for _, l := range t.Nodes[id].Out {
		if !L.Links[l].Shown {
			continue
		}
		if L.Links[l].Y2 < cy {
			up = append(up, l)
		} else {
			down = append(down, l)
		}
	}
	for k, ports := range [2][]int{up, down} {
		n := len(ports)
		if n <= stripPorts {
			continue
		}
		slices.SortFunc(ports, func(a, c int) int { return cmp.Compare(L.Links[a].X2, L.Links[c].X2) })
		slot := min(6*u, max(2.5*u, b.W/float64(n)))
		w := slot * float64(n)
		bh := 14 * u
		y := b.Y - 3*u - bh
		if k == 1 {
			y = b.Y + b.H + 3*u
		}
		for i, l := range ports {
			L.Links[l].Queue = Rect{cx - w/2 + float64(i)*slot + slot*0.15, y, slot * 0.7, bh}
		}
	}
}

// queueBar places the queue bar of a switch port on link line ln: near the
// switch when the switch has few ports, farther along a fan of many.
func (L *Layout) queueBar(from int, ln *LinkLine) Rect {
	u := L.U
	dx, dy := ln.X2-ln.X1, ln.Y2-ln.Y1
	d := math.Hypot(dx, dy)
	if d < 1 {
		return Rect{}
	}
	f := 0.0
	b := &L.Nodes[from]
	ux, uy := math.Abs(dx/d), math.Abs(dy/d)
	exit := math.Min(b.W/2/math.Max(ux, 1e-9), b.H/2/math.Max(uy, 1e-9))
	if b.Wide {
		exit = b.H / 2 / math.Max(uy, 1e-9)
	}
	bw, bh := 6*u, 20*u
	near := (exit + 6*u + bh/2) / d
	f = min(max(f, near), 0.85)
	x, y := ln.X1+dx*f, ln.Y1+dy*f
	// beside the line, on this direction's side
	nx, ny := -dy/d, dx/d
	x += nx * (bw/2 + L.LinkW + 1*u)
	y += ny * (bw/2 + L.LinkW + 1*u)
	return Rect{x - bw/2, y - bh/2, bw, bh}
}
