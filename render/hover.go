package render

import (
	"math"
)

// HoverKind is what kind of thing is under the cursor.
type HoverKind uint8

// Hover kinds.
const (
	HoverNone   HoverKind = iota
	HoverNode             // ID is a node ID (a host, GPU, NIC or switch; or a cell of a condensed pod)
	HoverLink             // ID is a link ID (one direction of a cable)
	HoverQueue            // ID is the link ID whose egress queue bar is under the cursor
	HoverPod              // ID indexes Layout.Pods (a DGX node block or a condensed pod)
	HoverBundle           // ID indexes Layout.Bundles
	HoverChart            // ID indexes Layout.Charts; the scene reads out the line nearest (X, Y)
)

// Hover is what is under the cursor at (X, Y).
type Hover struct {
	Kind HoverKind
	ID   int
	X, Y float64
}

// HitTest returns what lies under (x, y): a queue bar, a node (or pod cell), a
// link (the nearer direction of a cable), a bundle or a pod, in that order of
// preference; over a chart, the chart; HoverNone over empty space.
func HitTest(L *Layout, x, y float64) Hover {
	h := Hover{X: x, Y: y}
	for i, r := range L.Charts {
		if r.Contains(x, y) {
			h.Kind, h.ID = HoverChart, i
			return h
		}
	}
	slop := 3 * L.U
	bestQ, bestQD := -1, math.Inf(1)
	for i := range L.Links {
		q := L.Links[i].Queue
		if L.Links[i].Shown && q.W > 0 && (Rect{q.X - slop, q.Y - slop, q.W + 2*slop, q.H + 2*slop}).Contains(x, y) {
			cx, cy := q.Center()
			if d := math.Hypot(x-cx, y-cy); d < bestQD {
				bestQ, bestQD = i, d
			}
		}
	}
	if bestQ >= 0 { // the port is there even while its queue is empty and no bar is drawn
		h.Kind, h.ID = HoverQueue, bestQ
		return h
	}
	for i := range L.Nodes {
		nb := &L.Nodes[i]
		if nb.W > 0 && (Rect{nb.X - 1, nb.Y - 1, nb.W + 2, nb.H + 2}).Contains(x, y) {
			h.Kind, h.ID = HoverNode, i
			return h
		}
	}
	best, bestD := -1, 4*L.U+L.LinkW
	for i := range L.Links {
		ln := &L.Links[i]
		if !ln.Shown {
			continue
		}
		if d := segDist(x, y, ln.X1, ln.Y1, ln.X2, ln.Y2); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		h.Kind, h.ID = HoverLink, best
		return h
	}
	for i := range L.Bundles {
		bd := &L.Bundles[i]
		if d := segDist(x, y, bd.Up.X1, bd.Up.Y1, bd.Up.X2, bd.Up.Y2); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		h.Kind, h.ID = HoverBundle, best
		return h
	}
	for i := range L.Pods {
		if L.Pods[i].Contains(x, y) {
			h.Kind, h.ID = HoverPod, i
			return h
		}
	}
	return h
}

// segDist is the distance from (x, y) to the segment (x1, y1)–(x2, y2).
func segDist(x, y, x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = min(1, max(0, ((x-x1)*dx+(y-y1)*dy)/l2))
	}
	return math.Hypot(x-(x1+t*dx), y-(y1+t*dy))
}
