package render

import (
	"math"

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
	Lang      Lang   // the language of the canvas's text: "" or EN, ZH
	// QueueRef is the queue depth (bytes) that fills a queue bar; 0 takes the
	// ports' buffer size, or 2 MiB on lossless ports, which have none.
	QueueRef int64
	// Training leaves room under the topology for the per-GPU timelines of a
	// training run (and colours GPUs by their compute phase).
	Training bool
	// SelectiveRepeat: the header says the run recovers lost packets by
	// selective repeat (a packet-level run with network.recovery: sr).
	SelectiveRepeat bool
}

// TypeScale is the canvas's sizes of text (logical px): every text is set
// in one of them. Small, the floor, is 12 px, 18 px in presenter mode (read
// from the back of a room on a 1024×768 projector), and grows on a canvas
// larger than 1280×720. A view that runs out of room drops labels, charts
// or legend entries; it does not set text smaller.
type TypeScale struct {
	Small float64 // axis ticks, keys, legends, secondary figures
	Body  float64 // chart titles, the header's summary, tooltips
	Main  float64 // node names, the collective's step, the key figure
	Title float64 // the header's title and time
}

// NewTypeScale is the type scale of a w×h canvas.
func NewTypeScale(w, h float64, presenter bool) TypeScale {
	floor := 12.0
	if presenter {
		floor = 18
	}
	k := math.Sqrt(max(1, min(w/1280, h/720))) // a larger canvas, somewhat larger text
	main := max(16, floor*1.2) * k
	return TypeScale{Small: floor * k, Body: floor * 1.12 * k, Main: main, Title: main * 1.2}
}

// NodeBox is where a node is drawn.
type NodeBox struct {
	Rect
	Shown bool   // drawn on its own; false inside a condensed pod (then Rect is its cell)
	Pod   int    // the condensed pod that holds it, or -1
	Label string // text inside the box ("" when it does not fit)
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
	Nodes []int  // node IDs: aggregation, edge, host cells
	Hosts bool   // a group of hosts or DGX nodes (layout_groups.go); Label is their span
	Count string // a group's count: "64 hosts", "256 GPUs"
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
	// Condensed: a fat tree's pods are drawn as blocks of cells (Pods,
	// Bundles). Host groups (Pod.Hosts) have bundles too, without it.
	Condensed bool
	Font      float64 // the base text size: Type.Body
	Type      TypeScale

	// Timeline is where the training timelines go (Options.Training), else zero.
	Timeline Rect
	// StorageBlock holds the storage nodes (layout_storage.go), else zero.
	StorageBlock Rect
}

// NewLayout lays out t on a w×h canvas. It adapts to the aspect ratio: charts
// go to the right of a wide canvas and below a tall one. Fat trees with more
// than 128 hosts are condensed into pod blocks.
func NewLayout(t *topo.Topology, w, h float64, opt Options) *Layout {
	w, h = max(w, 320), max(h, 240)
	ts := NewTypeScale(w, h, opt.Presenter)
	u := min(w/1280, h/720)
	u = min(max(u, 0.75), 2.5)
	if opt.Presenter {
		u *= 1.3
	}
	u = max(u, ts.Small/math.Sqrt(max(1, min(w/1280, h/720)))/9) // on a small canvas, spacing grows with the floor
	L := &Layout{W: w, H: h, U: u, Opt: opt, Topo: t, Font: ts.Body, Type: ts}
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
	L.Header = Rect{m, m * 0.5, w - 2*m, max(34*u, ts.Title*1.7)}
	body := Rect{m, L.Header.Y + L.Header.H + m*0.5, w - 2*m, 0}
	body.H = h - body.Y - m
	area := L.placeBody(body, m)
	if opt.Training && L.Timeline.H < 9*ts.Small && len(L.Charts) > 0 {
		// the timelines need the room more than the charts
		L.Charts, L.Kinds = nil, nil
		L.Opt.Charts = NoCharts
		area = L.placeBody(body, m)
	}
	if len(L.Charts) > 0 && L.Charts[0].Y > area.Y+area.H && area.H < L.minAreaH() {
		// charts under a topology too short for its tiers: the topology first
		L.Charts, L.Kinds = nil, nil
		L.Opt.Charts = NoCharts
		area = L.placeBody(body, m)
	}
	L.Area = area
	condensed := t.Kind == "fattree" && len(t.Endpoints) > 128
	L.Condensed = condensed
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
	storage := L.storageColumn()
	switch {
	case t.Torus != nil:
		L.torus()
	case condensed:
		L.fatTreeCondensed()
	case t.Kind == "fattree":
		L.fatTree()
	case hasRole(t, topo.NVSwitch): // a DGX, or a leaf-spine of DGX nodes
		L.hgx()
	case t.Kind == "leafspine":
		L.leafSpine()
	default:
		L.star()
	}
	L.placeStorage(storage)
	L.Area = area
	L.groupBundles()
	L.placeLinks()
	return L
}

// placeBody places the charts, the legend and (Options.Training) the
// timelines in body, and returns what is left for the topology.
func (L *Layout) placeBody(body Rect, m float64) Rect {
	area := L.placeCharts(body, m)
	L.Legend = Rect{area.X, 0, area.W, 0}
	L.Legend.H = float64(legendRows(L)) * L.Type.Small * 1.8
	L.Legend.Y = area.Y + area.H - L.Legend.H
	area.H -= L.Legend.H + m*0.5
	if L.Opt.Training {
		tl, rest := timelineRect(area, m, L.U)
		if tl.H >= 6*L.Type.Small { // else no room for the timelines: the topology alone
			L.Timeline, area = tl, rest
		}
	}
	return area
}

// placeCharts puts as many of the charts as fit (the first ones: they are
// dropped before any text gets smaller) in a column right of a wide body or
// a row under a tall one, and returns what is left of the body.
func (L *Layout) placeCharts(body Rect, m float64) Rect {
	kinds := L.Opt.Charts.list()
	if len(kinds) == 0 {
		return body
	}
	minW, minH := 22*L.Type.Small, 11*L.Type.Small // a chart's title, key, ticks and a plot
	area := body
	if L.W >= L.H*1.2 { // a column on the right
		cw := min(max(L.W*0.27, minW), L.W*0.42)
		n := min(len(kinds), int((body.H+m)/(minH+m)))
		if n == 0 {
			return body
		}
		ch := (body.H - m*float64(n-1)) / float64(n)
		for i, k := range kinds[:n] {
			L.Charts = append(L.Charts, Rect{body.X + body.W - cw, body.Y + float64(i)*(ch+m), cw, ch})
			L.Kinds = append(L.Kinds, k)
		}
		area.W -= cw + m
		return area
	}
	n := min(len(kinds), int((body.W+m)/(minW+m)))
	chh := min(max(L.H*0.24, minH), 320*L.U)
	if n == 0 || body.H-chh < 1.5*minH { // no room for a topology too
		return body
	}
	cw := (body.W - m*float64(n-1)) / float64(n)
	y := body.Y + body.H - chh
	for i, k := range kinds[:n] {
		L.Charts = append(L.Charts, Rect{body.X + float64(i)*(cw+m), y, cw, chh})
		L.Kinds = append(L.Kinds, k)
	}
	area.H -= chh + m
	return area
}

// minAreaH is the height the topology needs for its rows of nodes to stay
// apart: a row per tier of switches (and one of hosts), or a DGX node's
// block under its rails and spines.
func (L *Layout) minAreaH() float64 {
	t := L.Topo
	if t.Kind == "fattree" && len(t.Endpoints) > 128 {
		return 0 // condensed pods fit any height
	}
	tiers := 1
	for _, r := range []topo.Role{topo.Leaf, topo.Spine, topo.Core} {
		if hasRole(t, r) {
			tiers++
		}
	}
	if hasRole(t, topo.NVSwitch) {
		return (110 + 40*float64(tiers-1)) * L.U // the block, and a row per switch tier
	}
	return (60 + 40*float64(tiers-1)) * L.U
}

func hasRole(t *topo.Topology, r topo.Role) bool {
	for i := range t.Nodes {
		if t.Nodes[i].Role == r {
			return true
		}
	}
	return false
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
