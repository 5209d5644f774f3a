package render

import (
	"image/color"
	"maps"
	"math"
	"slices"
	"strconv"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// The channels NCCL builds on whole GPU nodes (its rings and trees), drawn
// from the routes the simulation ran them on (snap.Collective.Routes, made
// by sim/coll's ring and tree construction). One channel is shown at a
// time, the channels taking turns over the run, each for an equal share of
// the bytes moved: a ring's route through every GPU (in each node the GPUs
// in order, then out by one GPU's NIC along its rail to the next node), or
// a tree lane and its twin on the double binary tree's other tree (the
// chain through each node's GPUs from the GPU of the lane's NIC, the heads
// joined across nodes). A badge on each GPU numbers its place in the
// node's part of the route; the legend names the channel as NCCL's
// NCCL_DEBUG=INFO lines do ("Channel 00/16"). On one node the ring every
// channel runs goes through its GPUs in order (one channel keeps the
// step's transfers, which are then the ring); where nodes are drawn in
// groups, the channel shows as the rails its hops between nodes take.

// channelView is the channel shown now: its lanes (one for a ring, a tree
// lane and its twin), their hops, and each GPU endpoint's place in its
// node's part of the route (1 first).
type channelView struct {
	tree  bool
	lanes []int32
	hops  [][]snap.Send
	place map[int32]int
	of    int  // the collective's channels
	fits  bool // the GPU boxes have room for the badges
	// grouped: the GPUs are inside node groups (layout_groups.go), and the
	// channel shows as the rails its hops between nodes take: each hop's
	// bundle up from its sender's group to the rail and down from the rail
	// to its receiver's (ups and downs, by lane).
	grouped bool
	ups     [][]int // per lane, Layout.Bundles indexes
	downs   [][]int
}

// featuredChannel is the channel to show at c's progress, and false when
// there is none to show: no routes (other algorithms, too many ranks), an
// in-network view, one channel in one node, or a GPU of the route neither
// drawn on its own nor in a node group, or in groups but no hop between
// nodes on a drawn bundle.
func (b *Builder) featuredChannel(c *snap.Collective) (channelView, bool) {
	if c == nil || len(c.Routes) == 0 || c.Lanes == 0 || b.inNetwork() {
		return channelView{}, false
	}
	byLane := map[int32][]snap.Send{}
	var lanes []int32
	for _, h := range c.Routes {
		if byLane[h.Lane] == nil {
			lanes = append(lanes, h.Lane)
		}
		byLane[h.Lane] = append(byLane[h.Lane], h)
	}
	v := channelView{tree: c.Algo == "tree", of: c.Lanes}
	var sets [][]int32
	for _, l := range lanes {
		switch {
		case !v.tree:
			sets = append(sets, []int32{l})
		case int(l) < c.Lanes/2 && byLane[l+int32(c.Lanes/2)] != nil:
			sets = append(sets, []int32{l, l + int32(c.Lanes/2)})
		}
	}
	if len(sets) == 0 || c.Lanes == 1 && !slices.ContainsFunc(c.Routes, func(h snap.Send) bool { return h.Net }) {
		// nothing to show, or one ring in one node on one channel: its
		// step's transfers are the ring, drawn step by step as the ring
		// lessons read them
		return channelView{}, false
	}
	v.lanes = sets[min(int(c.Done*float64(len(sets))), len(sets)-1)]
	L := b.layout
	t := L.Topo
	shown := func(ep int32) bool {
		return ep >= 0 && int(ep) < len(t.Endpoints) && L.Nodes[t.Endpoints[ep]].Shown
	}
	for _, l := range v.lanes {
		for _, h := range byLane[l] {
			if !shown(h.Src) || !shown(h.Dst) {
				v.grouped = true
			}
		}
		v.hops = append(v.hops, byLane[l])
	}
	if v.grouped {
		return v, b.groupedChannel(&v)
	}
	nb := &L.Nodes[t.Endpoints[v.hops[0][0].Src]]
	r := b.badgeR()
	v.fits = nb.W >= 3.5*r && nb.H >= 3*r
	v.place = map[int32]int{}
	group := func(ep int32) int { return t.Nodes[t.Endpoints[ep]].Group }
	if !v.tree {
		at := map[int]int{} // per node, GPUs placed so far
		for _, h := range v.hops[0] {
			g := group(h.Src)
			at[g]++
			v.place[h.Src] = at[g]
		}
		return v, true
	}
	// A tree: each node's head is the GPU whose parent is in another node
	// (or the root, which has none); the chain goes down from it.
	parent, child := map[int32]int32{}, map[int32]int32{}
	for _, h := range v.hops[0] {
		parent[h.Src] = h.Dst
		if !h.Net {
			child[h.Dst] = h.Src
		}
	}
	for _, h := range v.hops[0] {
		for _, ep := range []int32{h.Src, h.Dst} {
			if p, ok := parent[ep]; ok && group(p) == group(ep) {
				continue // not a head
			}
			for k, at := 1, ep; k <= len(v.hops[0])+1; k++ {
				v.place[at] = k
				next, ok := child[at]
				if !ok {
					break
				}
				at = next
			}
		}
	}
	return v, true
}

// groupedChannel finds the bundles v's hops between nodes take, each
// sender's group up to its NIC's rail and the rail down to the receiver's
// group, and reports whether every GPU of v is in a group and some hop
// has its bundles drawn.
func (b *Builder) groupedChannel(v *channelView) bool {
	L := b.layout
	t := L.Topo
	group := func(ep int32) int {
		if ep < 0 || int(ep) >= len(t.Endpoints) {
			return -1
		}
		if p := L.Nodes[t.Endpoints[ep]].Pod; p >= 0 && L.Pods[p].Hosts {
			return p
		}
		return -1
	}
	bundle := func(pod, sw int) int {
		for i := range L.Bundles {
			if bd := &L.Bundles[i]; bd.Pod == pod && bd.Group == sw && bd.Up.Shown {
				return i
			}
		}
		return -1
	}
	drawn := false
	for _, hops := range v.hops {
		var ups, downs []int
		for _, h := range hops {
			ps, pd := group(h.Src), group(h.Dst)
			if ps < 0 || pd < 0 {
				return false
			}
			if !h.Net {
				continue
			}
			up := bundle(ps, leafOf(t, t.Endpoints[h.Src]))
			down := bundle(pd, leafOf(t, t.Endpoints[h.Dst]))
			if up < 0 || down < 0 {
				continue
			}
			ups, downs = append(ups, up), append(downs, down)
			drawn = true
		}
		slices.Sort(ups)
		slices.Sort(downs)
		v.ups, v.downs = append(v.ups, slices.Compact(ups)), append(v.downs, slices.Compact(downs))
	}
	return drawn
}

// leafOf is the switch a GPU's NIC hangs off (its rail or leaf), or −1.
func leafOf(t *topo.Topology, gpu int) int {
	for _, l := range t.Nodes[gpu].Out {
		nic := t.Links[l].To
		if t.Nodes[nic].Role != topo.NIC {
			continue
		}
		for _, k := range t.Nodes[nic].Out {
			if to := t.Links[k].To; t.Nodes[to].Role.IsSwitch() && t.Nodes[to].Role != topo.NVSwitch {
				return to
			}
		}
	}
	return -1
}

// channelRoutes draws the featured channel over the topology and reports
// whether it did (then the step's transfers are not drawn one by one: on
// NCCL's channels they would be every channel's at once).
func (b *Builder) channelRoutes(c *snap.Collective) bool {
	v, ok := b.featuredChannel(c)
	if !ok {
		return false
	}
	L := b.layout
	w := max(2.4*L.U, L.LinkW*1.8)
	if v.grouped {
		for i := range v.hops {
			off := float64(i) * (w + 2*L.U) // the twin beside the first where they share a bundle
			for _, k := range v.ups[i] {
				b.bundleLine(L.Bundles[k].Up, w, b.channelColor(i), off, true)
			}
			for _, k := range v.downs[i] {
				b.bundleLine(L.Bundles[k].Down, w, b.channelColor(i), off, false)
			}
		}
		return true
	}
	for i, hops := range v.hops {
		col := b.channelColor(i)
		for _, h := range hops {
			if v.tree && i > 0 && !h.Net {
				continue // the twin shares the chain: drawn once
			}
			b.sendArrow(h, w, col, float64(i)*(w+2*L.U)) // the twin beside the first where they share links
		}
	}
	b.placeBadges(v)
	return true
}

// bundleLine draws a group's bundle in c over the links, off to its
// right, with an arrowhead at the rail (up) or at the group (down).
func (b *Builder) bundleLine(ln LinkLine, w float64, c color.RGBA, off float64, up bool) {
	dl := &b.dl
	p0 := len(dl.Points)
	x1, y1, x2, y2 := ln.X1+off, ln.Y1, ln.X2+off, ln.Y2
	if !up {
		x1, y1, x2, y2 = x2, y2, x1, y1
	}
	dl.Points = append(dl.Points, float32(x1), float32(y1), float32(x2), float32(y2))
	b.haloLine(p0, w, c)
	ang := math.Atan2(y2-y1, x2-x1)
	hl := max(8*b.layout.U, w*3.5)
	for _, s := range []float64{-0.45, 0.45} {
		dl.line(LayerLink, x2, y2, x2-hl*math.Cos(ang+s), y2-hl*math.Sin(ang+s), w, c)
	}
}

// placeBadges numbers each GPU of the route by its place in its node's
// part of it, on the GPU box's top left corner, where the boxes are wide
// enough for a badge beside their label (v.fits).
func (b *Builder) placeBadges(v channelView) {
	L, dl := b.layout, &b.dl
	t := L.Topo
	r := b.badgeR()
	size := b.fs(0.72)
	col := b.channelColor(0)
	for _, ep := range slices.Sorted(maps.Keys(v.place)) {
		if !v.fits {
			return
		}
		nb := &L.Nodes[t.Endpoints[ep]]
		s := strconv.Itoa(v.place[ep])
		bw := max(2*r, TextWidth(s, size, assets.Bold)+5*L.U)
		x, y := nb.X+0.3*r, nb.Y-0.3*r
		dl.rect(LayerMarker, x-bw/2, y-r, bw, 2*r, r, col, b.th.Background, 0.8*L.U)
		dl.text(LayerMarker, x, y, s, size, Middle, assets.Bold, b.th.Background)
	}
}

// channelColor is the colour of the featured channel's i-th lane, one that
// stands out from the link loads: on the dark theme (loads teal to yellow)
// the palette's pink, on the light one (teal to dark purple) its orange;
// the twin tree sky blue.
func (b *Builder) channelColor(i int) color.RGBA {
	switch {
	case i > 0:
		return b.th.Categorical(1)
	case b.th.Name == assets.Light.Name:
		return b.th.Categorical(0)
	}
	return b.th.Categorical(7)
}

// twinDrawn reports whether a tree's twin has a line of its own: a hop
// between nodes (the chain in each node is drawn once, the first's).
func (v channelView) twinDrawn() bool {
	if len(v.hops) < 2 {
		return false
	}
	if v.grouped {
		return len(v.ups[1]) > 0
	}
	return slices.ContainsFunc(v.hops[1], func(h snap.Send) bool { return h.Net })
}

// channelLegend is the legend's entry for the featured channel, if any.
func (b *Builder) channelLegend() (legendItem, bool) {
	v, ok := b.featuredChannel(b.coll())
	if !ok {
		return legendItem{}, false
	}
	L, dl := b.layout, &b.dl
	u := L.U
	var name string // without badges, no numbers to explain
	switch {
	case v.tree && v.grouped:
		name = b.tf("chan.tree.groups", v.lanes[0], v.lanes[1], v.of)
	case v.grouped:
		name = b.tf("chan.ring.groups", v.lanes[0], v.of)
	case v.tree && v.fits:
		name = b.tf("chan.tree", v.lanes[0], v.lanes[1], v.of)
	case v.tree:
		name = b.tf("chan.tree.plain", v.lanes[0], v.lanes[1], v.of)
	case v.fits:
		name = b.tf("chan.ring", v.lanes[0], v.of)
	default:
		name = b.tf("chan.ring.plain", v.lanes[0], v.of)
	}
	lanes := len(v.lanes)
	if v.tree && !v.twinDrawn() {
		lanes = 1 // one node: the twin's chain is the first's, drawn once
	}
	mark := 16 * u * float64(lanes)
	if mark+5*u+TextWidth(name, L.Type.Small, assets.Regular) > L.Legend.W {
		// a legend row too narrow for the explanation: the channel's name
		// alone, rather than no entry (legend drops what does not fit)
		name = b.tf("chan.ring.plain", v.lanes[0], v.of)
		if v.tree {
			name = b.tf("chan.tree.plain", v.lanes[0], v.lanes[1], v.of)
		}
	}
	return legendItem{mark, name, func(x, cy float64) {
		for i := range lanes {
			x0 := x + 16*u*float64(i)
			dl.line(LayerLabel, x0, cy, x0+14*u, cy, max(2.4*u, L.LinkW*1.8), b.channelColor(i))
		}
	}}, true
}
