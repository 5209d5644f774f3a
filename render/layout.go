package render

import (
	"fmt"
	"math"
	"slices"

	"fabriclab/sim/topo"
)

// Rect is an axis-aligned rectangle in logical px.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x <= r.X+r.W && y >= r.Y && y <= r.Y+r.H
}

// Overlaps reports whether r and o share some area.
func (r Rect) Overlaps(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// Center returns the middle of r.
func (r Rect) Center() (x, y float64) { return r.X + r.W/2, r.Y + r.H/2 }

// Charts is a set of small charts shown beside the topology.
type Charts uint8

// The charts. The zero Charts shows all three; NoCharts none.
const (
	ChartThroughput Charts = 1 << iota // throughput per flow over time
	ChartQueues                        // queue depth of the busiest ports over time
	ChartFCT                           // histogram of flow completion times
	NoCharts        Charts = 1 << 7
	AllCharts              = ChartThroughput | ChartQueues | ChartFCT
)

func (c Charts) list() []Charts {
	if c == 0 {
		c = AllCharts
	}
	var out []Charts
	for _, k := range []Charts{ChartThroughput, ChartQueues, ChartFCT} {
		if c&NoCharts == 0 && c&k != 0 {
			out = append(out, k)
		}
	}
	return out
}

// Options say how a scene looks. The zero value is the light theme with every
// chart at normal text size.
type Options struct {
	Dark      bool   // dark theme
	Presenter bool   // big text and thicker lines for a projector
	Charts    Charts // which charts; 0: all
	Title     string // shown top left, e.g. the scenario's name
	// QueueRef is the queue depth (bytes) that fills a queue bar; 0 takes the
	// ports' buffer size, or 2 MiB on lossless ports, which have none.
	QueueRef int64
}

// NodeBox is where a node is drawn.
type NodeBox struct {
	Rect
	Shown bool   // drawn on its own; false inside a condensed pod (then Rect is its cell)
	Pod   int    // the condensed pod that holds it, or -1
	Label string // text inside the box ("" when it does not fit)
	Small bool   // the label is set at 80 % so that the whole row can have one
	Wide  bool   // a bar that links attach to along its length (an NVSwitch)
}

// LinkLine is where one direction of a cable is drawn: from its From end to
// its To end, shifted to its own side of the cable so both directions show.
type LinkLine struct {
	X1, Y1, X2, Y2 float64
	Shown          bool
	Queue          Rect // the egress queue bar (switch ports only; zero W otherwise)
}

// Pod is a condensed fat-tree pod: its switches and hosts drawn as cells of a block.
type Pod struct {
	Rect
	Label string
	Nodes []int // node IDs: aggregation, edge, host cells
}

// Bundle draws several links that run between the same two places as one line
// per direction: a condensed pod's uplinks to one group of core switches.
type Bundle struct {
	Up, Down       LinkLine // Up: pod → core
	UpIDs, DownIDs []int
	Pod, Group     int
}

// Layout places a topology's nodes and links on a W×H canvas (logical px)
// with room for a header, a legend and the charts.
type Layout struct {
	W, H    float64
	U       float64 // the UI scale: text and line sizes are multiplied by it
	Opt     Options
	Topo    *topo.Topology
	Header  Rect
	Area    Rect // the topology
	Legend  Rect
	Charts  []Rect
	Kinds   []Charts   // what each of Charts shows
	Nodes   []NodeBox  // by node ID
	EP      []int      // by node ID: its endpoint index, or -1
	Links   []LinkLine // by link ID
	Pods    []Pod
	Bundles []Bundle
	LinkW   float64 // width of one direction's line
	Font    float64 // the base text size
	oneRow  bool    // row never staggers (inside DGX node blocks)
}

// NewLayout lays out t on a w×h canvas. It adapts to the aspect ratio: charts
// go to the right of a wide canvas and below a tall one. Fat trees with more
// than 128 hosts are condensed into pod blocks.
func NewLayout(t *topo.Topology, w, h float64, opt Options) *Layout {
	w, h = max(w, 320), max(h, 240)
	u := min(w/1280, h/720)
	u = min(max(u, 0.75), 2.5)
	if opt.Presenter {
		u *= 1.3
	}
	L := &Layout{W: w, H: h, U: u, Opt: opt, Topo: t, Font: 12 * u}
	L.Nodes = make([]NodeBox, len(t.Nodes))
	L.EP = make([]int, len(t.Nodes))
	for i := range L.Nodes {
		L.Nodes[i].Pod = -1
		L.EP[i] = -1
	}
	for e, id := range t.Endpoints {
		L.EP[id] = e
	}
	L.Links = make([]LinkLine, len(t.Links))
	m := 12 * u
	L.Header = Rect{m, m * 0.5, w - 2*m, 34 * u}
	body := Rect{m, L.Header.Y + L.Header.H + m*0.5, w - 2*m, 0}
	body.H = h - body.Y - m
	L.Legend = Rect{body.X, body.Y + body.H - 30*u, 0, 30 * u}
	area := body
	area.H -= L.Legend.H + m*0.5
	kinds := opt.Charts.list()
	if len(kinds) > 0 {
		if w >= h*1.2 { // a column on the right
			cw := min(max(w*0.27, 250*u), 460*u)
			cx := body.X + body.W - cw
			gap := m
			ch := (body.H - gap*float64(len(kinds)-1)) / float64(len(kinds))
			for i, k := range kinds {
				L.Charts = append(L.Charts, Rect{cx, body.Y + float64(i)*(ch+gap), cw, ch})
				L.Kinds = append(L.Kinds, k)
			}
			area.W -= cw + m
		} else { // a row below
			chh := min(max(h*0.24, 150*u), 320*u)
			gap := m
			cw := (body.W - gap*float64(len(kinds)-1)) / float64(len(kinds))
			y := body.Y + body.H - chh
			for i, k := range kinds {
				L.Charts = append(L.Charts, Rect{body.X + float64(i)*(cw+gap), y, cw, chh})
				L.Kinds = append(L.Kinds, k)
			}
			area.H -= chh + m
			L.Legend.Y = y - m*0.5 - L.Legend.H
		}
	}
	L.Legend.W = area.W
	L.Area = area
	condensed := t.Kind == "fattree" && len(t.Endpoints) > 128
	lines := len(t.Links)
	if condensed {
		lines = len(t.Endpoints) / 4 // bundles: 2 · k · k/2 with k³/4 endpoints, about
	}
	switch { // thinner lines where there are many
	case lines <= 120:
		L.LinkW = 1.7 * u
	case lines <= 320:
		L.LinkW = 1.25 * u
	default:
		L.LinkW = 1.0 * u
	}
	switch {
	case condensed:
		L.fatTreeCondensed()
	case hasRole(t, topo.NVSwitch):
		L.hgx()
	default:
		L.tiers()
	}
	L.placeLinks()
	return L
}

func hasRole(t *topo.Topology, r topo.Role) bool {
	for i := range t.Nodes {
		if t.Nodes[i].Role == r {
			return true
		}
	}
	return false
}

// nodeSize is a node's largest box for its role.
func (L *Layout) nodeSize(r topo.Role) (w, h float64) {
	u := L.U
	switch r {
	case topo.Host:
		return 44 * u, 26 * u
	case topo.GPU:
		return 40 * u, 30 * u
	case topo.NIC:
		return 18 * u, 9 * u
	case topo.NVSwitch:
		return 0, 18 * u
	}
	return 64 * u, 24 * u
}

func (L *Layout) maxRows() int {
	if L.oneRow {
		return 1
	}
	return 4
}

// row places ids evenly between x0 and x1 with their centres on y; when boxes
// would get narrower than minW it staggers them over up to four rows going
// down. It returns the height the rows take below y's row centre.
func (L *Layout) row(ids []int, x0, x1, y float64) float64 {
	n := len(ids)
	if n == 0 {
		return 0
	}
	role := L.Topo.Nodes[ids[0]].Role
	bw, bh := L.nodeSize(role)
	pitch := (x1 - x0) / float64(n)
	gap := max(2*L.U, pitch*0.18)
	minW := 14 * L.U
	rows := 1
	for rows < L.maxRows() && pitch*float64(rows)-gap < minW && rows < n {
		rows++
	}
	w := min(bw, pitch*float64(rows)-gap)
	if rows > 1 {
		// Staggered boxes are wider than the pitch: keep the outer ones
		// inside [x0, x1] by spreading centres over [x0+w/2, x1-w/2].
		W, r, m := x1-x0, float64(rows), float64(n-1)
		w = min(bw, (r*W/m-gap)/(1+r/m))
		pitch = (W - w) / m
		x0 += w/2 - pitch/2
	}
	w = max(w, 3)
	hh := bh
	if w < bw*0.6 {
		hh = max(bh*0.7, min(bh, w*1.2))
	}
	dy := hh + max(4*L.U, hh*0.35)
	for i, id := range ids {
		x := x0 + (float64(i)+0.5)*pitch
		yy := y + float64(i%rows)*dy
		b := &L.Nodes[id]
		b.Rect = Rect{x - w/2, yy - hh/2, w, hh}
		b.Shown = true
	}
	L.labelRow(ids)
	return float64(rows-1) * dy
}

// labelRow labels the nodes of a row in one style: the longest form of label
// that fits every box, or none.
func (L *Layout) labelRow(ids []int) {
	for form := range 3 {
		ok := true
		for _, id := range ids {
			b := &L.Nodes[id]
			if b.Label = L.label(id, form, b.W, b.H); b.Label == "" {
				ok = false
				break
			}
		}
		if ok {
			size := L.Font * 0.92
			small := false
			for _, id := range ids {
				b := &L.Nodes[id]
				small = small || TextWidth(b.Label, size, 1)+4*L.U > b.W
			}
			for _, id := range ids {
				L.Nodes[id].Small = small
			}
			return
		}
	}
	for _, id := range ids {
		L.Nodes[id].Label = ""
	}
}

// fitLabel picks the longest label of a node that fits its box.
func (L *Layout) fitLabel(id int, w, h float64) string {
	for form := range 3 {
		if s := L.label(id, form, w, h); s != "" {
			return s
		}
	}
	return ""
}

// label is a node's label in a form (0 longest … 2 shortest) if it fits a
// w×h box, else "".
func (L *Layout) label(id, form int, w, h float64) string {
	nd := &L.Topo.Nodes[id]
	size := L.Font * 0.92
	if h < size*1.15 {
		return ""
	}
	var cands []string
	switch nd.Role {
	case topo.Host, topo.GPU:
		e := L.EP[id]
		if nd.Role == topo.GPU {
			cands = []string{fmt.Sprintf("GPU %d", nd.Index), fmt.Sprint(nd.Index)}
		} else {
			cands = []string{fmt.Sprintf("h%d", e), fmt.Sprint(e)}
		}
	case topo.NIC:
		return ""
	case topo.NVSwitch:
		cands = []string{"NVSwitch", "NVS"}
	case topo.Leaf:
		switch {
		case L.Topo.Kind == "star":
			cands = []string{"switch", "sw"}
		case L.Topo.Kind == "fattree":
			cands = []string{fmt.Sprintf("edge%d", nd.Index), fmt.Sprintf("e%d", nd.Index)}
		case len(nd.Name) > 4 && nd.Name[:4] == "rail":
			cands = []string{nd.Name, fmt.Sprintf("r%d", nd.Index)}
		default:
			cands = []string{nd.Name, fmt.Sprintf("L%d", nd.Index), fmt.Sprint(nd.Index)}
		}
	case topo.Spine:
		if L.Topo.Kind == "fattree" {
			cands = []string{fmt.Sprintf("agg%d", nd.Index), fmt.Sprintf("a%d", nd.Index)}
		} else {
			cands = []string{nd.Name, fmt.Sprintf("S%d", nd.Index), fmt.Sprint(nd.Index)}
		}
	case topo.Core:
		cands = []string{nd.Name, fmt.Sprintf("c%d", nd.Index), fmt.Sprint(nd.Index)}
	}
	if len(cands) == 0 {
		return ""
	}
	c := cands[min(form, len(cands)-1)]
	if TextWidth(c, size, 1)+4*L.U <= w {
		return c
	}
	if form == 2 && TextWidth(c, size*0.8, 1)+2*L.U <= w {
		return c // the scene draws labels that would not fit at full size smaller
	}
	return ""
}

// byRole returns the IDs of the nodes with role r, in ID order.
func (L *Layout) byRole(r topo.Role) []int {
	var ids []int
	for i := range L.Topo.Nodes {
		if L.Topo.Nodes[i].Role == r {
			ids = append(ids, i)
		}
	}
	return ids
}

// tiers lays out stars, leaf-spines of single hosts and small fat trees:
// endpoints along the bottom grouped under their switch, switches in rows above.
func (L *Layout) tiers() {
	t := L.Topo
	a := L.Area
	hosts := L.byRole(topo.Host)
	leaves := L.byRole(topo.Leaf)
	spines := L.byRole(topo.Spine)
	cores := L.byRole(topo.Core)
	pad := 18 * L.U
	_, hh := L.nodeSize(topo.Host)
	// Group hosts by their leaf (the first switch they link to).
	under := map[int][]int{}
	for _, h := range hosts {
		lf := t.Links[t.Nodes[h].Out[0]].To
		under[lf] = append(under[lf], h)
	}
	levels := 2
	if len(spines) > 0 {
		levels++
	}
	if len(cores) > 0 {
		levels++
	}
	// Host rows may stagger; keep room for them at the bottom.
	top, bottom := a.Y+pad+12*L.U, a.Y+a.H-pad-hh/2
	ys := make([]float64, levels)
	for i := range ys {
		ys[i] = top + (bottom-top)*float64(i)/float64(levels-1)
	}
	if levels == 2 { // a star: the switch not too far from its hosts
		ys[0] = top + (bottom-top)*0.12
	}
	// Segments: one per pod (fat tree) or per leaf.
	segKey := func(leaf int) int {
		if t.Kind == "fattree" {
			return t.Nodes[leaf].Group
		}
		return leaf
	}
	var segs []int
	for _, lf := range leaves {
		if k := segKey(lf); !slices.Contains(segs, k) {
			segs = append(segs, k)
		}
	}
	segW := a.W / float64(len(segs))
	inner := 0.0
	if len(segs) > 1 {
		inner = min(segW*0.08, 16*L.U)
	}
	hostRow := ys[levels-1]
	// Estimate stagger: place hosts first, then lift if rows run off the area.
	extra := 0.0
	for si, key := range segs {
		x0, x1 := a.X+float64(si)*segW+inner, a.X+float64(si+1)*segW-inner
		var segLeaves []int
		for _, lf := range leaves {
			if segKey(lf) == key {
				segLeaves = append(segLeaves, lf)
			}
		}
		var segHosts []int
		for _, lf := range segLeaves {
			segHosts = append(segHosts, under[lf]...)
		}
		extra = max(extra, L.row(segHosts, x0, x1, hostRow))
		if t.Kind == "fattree" {
			L.row(segLeaves, x0, x1, ys[levels-2])
			var aggs []int
			for _, sp := range spines {
				if t.Nodes[sp].Group == key {
					aggs = append(aggs, sp)
				}
			}
			L.row(aggs, x0, x1, ys[levels-3])
		} else {
			L.row(segLeaves, x0, x1, ys[levels-2])
		}
	}
	if extra > 0 { // shift the endpoint rows up so the last one fits
		for _, h := range hosts {
			L.Nodes[h].Y -= extra
		}
	}
	if t.Kind != "fattree" && len(spines) > 0 {
		w := a.W
		if len(spines) <= 4 {
			w = a.W * 0.6
		}
		L.row(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, ys[0])
	}
	if len(cores) > 0 {
		L.row(cores, a.X+a.W*0.1, a.X+a.W*0.9, ys[0])
	}
}

// hgx lays out DGX/HGX nodes: each node a block with its NICs on top, its GPUs
// in the middle and its NVSwitch as a bar below; rail or leaf switches and
// spines above.
func (L *Layout) hgx() {
	t := L.Topo
	a := L.Area
	u := L.U
	nvs := L.byRole(topo.NVSwitch)
	n := len(nvs)
	leaves := L.byRole(topo.Leaf)
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
	for g := range n {
		bx := x + float64(g)*(blockW+gap)
		blk := Rect{bx, blockY, blockW, blockH}
		L.Pods = append(L.Pods, Pod{Rect: blk, Label: fmt.Sprintf("node %d", g)})
		ip := min(10*u, blockW*0.06)
		x0, x1 := bx+ip, bx+blockW-ip
		big := len(leaves) == 0
		nicY := blk.Y + blk.H*0.17
		gpuY := blk.Y + blk.H*0.5
		nvY := blk.Y + blk.H*0.83
		if big {
			nicY, gpuY, nvY = blk.Y+blk.H*0.18, blk.Y+blk.H*0.5, blk.Y+blk.H*0.82
		}
		L.oneRow = true
		L.row(nicsOf[g], x0, x1, nicY)
		L.row(gpusOf[g], x0, x1, gpuY)
		L.oneRow = false
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
	top := a.Y + pad + 12*u
	levels := 1
	if len(spines) > 0 {
		levels = 2
	}
	leafY := top + (blockY-top)*0.62
	if levels == 1 {
		leafY = top + (blockY-top)*0.35
	}
	L.placeByChildren(leaves, a.X, a.X+a.W, leafY)
	if len(spines) > 0 {
		w := a.W
		if len(spines) <= 4 {
			w = a.W * 0.6
		}
		L.row(spines, a.X+(a.W-w)/2, a.X+(a.W+w)/2, top)
	}
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

// fatTreeCondensed draws each pod as a block of cells (aggregation switches,
// edge switches, and a grid of hosts under their edge switch), core switches
// in groups on top, and each pod's links to a core group as one bundle.
func (L *Layout) fatTreeCondensed() {
	t := L.Topo
	a := L.Area
	u := L.U
	cores := L.byRole(topo.Core)
	k := 0
	for i := range t.Nodes {
		k = max(k, t.Nodes[i].Group+1)
	}
	h := k / 2
	pad := 18 * u
	gap := max(4*u, min(12*u, a.W*0.01))
	podW := (a.W - gap*float64(k-1)) / float64(k)
	cell := min((podW-4*u)/float64(h), 14*u)
	podH := cell*float64(h+2) + 3*cell + 16*u
	podY := a.Y + a.H - pad - podH
	for p := range k {
		px := a.X + float64(p)*(podW+gap)
		L.Pods = append(L.Pods, Pod{Rect: Rect{px, podY, podW, podH}, Label: fmt.Sprint(p)})
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Role == topo.Core {
			continue
		}
		pod := &L.Pods[nd.Group]
		gx := pod.X + (pod.W-cell*float64(h))/2
		var col, rowY float64
		switch nd.Role {
		case topo.Spine:
			col, rowY = float64(nd.Index), pod.Y+6*u
		case topo.Leaf:
			col, rowY = float64(nd.Index), pod.Y+6*u+cell*1.6
		case topo.Host:
			col = float64(nd.Index / h)
			rowY = pod.Y + 6*u + cell*3.4 + float64(nd.Index%h)*cell
		}
		s := cell * 0.82
		b := &L.Nodes[i]
		b.Rect = Rect{gx + col*cell + (cell-s)/2, rowY + (cell-s)/2, s, s}
		b.Pod = nd.Group
		pod.Nodes = append(pod.Nodes, i)
	}
	// Cores: h groups of h, group g above the aggregation switches g of every pod.
	top := a.Y + pad + 12*u
	groupGap := 10 * u
	gw := (a.W*0.92 - groupGap*float64(h-1)) / float64(h)
	for g := range h {
		gx := a.X + a.W*0.04 + float64(g)*(gw+groupGap)
		L.row(cores[g*h:(g+1)*h], gx, gx+gw, top)
	}
	L.labelRow(cores)
	// Bundles: pod p's aggregation switch g to core group g.
	for p := range k {
		for g := range h {
			var b Bundle
			b.Pod, b.Group = p, g
			agg := -1
			for _, id := range L.Pods[p].Nodes {
				if nd := &t.Nodes[id]; nd.Role == topo.Spine && nd.Index == g {
					agg = id
				}
			}
			for _, l := range t.Nodes[agg].Out {
				if t.Nodes[t.Links[l].To].Role == topo.Core {
					b.UpIDs = append(b.UpIDs, l)
					b.DownIDs = append(b.DownIDs, t.Links[l].Reverse)
				}
			}
			ax, _ := L.Nodes[agg].Center()
			first, last := L.Nodes[cores[g*h]], L.Nodes[cores[(g+1)*h-1]]
			cx := (first.X + last.X + last.W) / 2
			cy := first.Y + first.H
			b.Up = L.offsetLine(ax, L.Pods[p].Y, cx, cy, +1)
			b.Down = L.offsetLine(ax, L.Pods[p].Y, cx, cy, -1)
			b.Up.Shown, b.Down.Shown = true, true
			L.Bundles = append(L.Bundles, b)
		}
	}
}

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
		slices.SortFunc(ports, func(a, c int) int { return cmpFloat(L.Links[a].X2, L.Links[c].X2) })
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

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
