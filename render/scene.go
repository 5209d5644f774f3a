package render

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Frame is what one picture is made from. All it shows of the run (link
// load, queues, packets, endpoint activity, marking thresholds) comes from
// the snapshots.
type Frame struct {
	Layout *Layout
	// Cur is the snapshot to draw; Prev an earlier one that link rates and
	// drop flashes are measured against. A Prev a few frames back (say 1/20 of
	// a second of playback) gives steadier colours than the frame before; nil,
	// or one at the same time as Cur, keeps the rates of the last scene.
	Cur, Prev *snap.Snapshot
	// History holds earlier snapshots, oldest first, for the charts. They
	// may be compact: read their flows and links with NumFlows, Flow,
	// NumLinks and Link (Cur and Prev are full).
	History []*snap.Snapshot
	Hover   Hover

	Selected int // the flow the learner picked, as its ID + 1; 0: none (routing.go)
	// Computing, while the run is still being computed, draws its progress.
	Computing *Computing
	// Axes, if set, are the least the charts' axes reach: the other pane's
	// Peaks in a comparison, so that both panes' charts share their scales.
	Axes *Axes
}

// Builder builds scenes, keeping its storage from one frame to the next. A
// Builder is not safe for concurrent use; keep one per canvas.
type Builder struct {
	dl       DisplayList
	util     []float64 // by link
	utilAt   unit.Time
	buf      []byte
	series   seriesCache
	ch       chartState
	peaks    []int64
	top      []int
	pktCount []int32
	fct      []float64
	bins     []int
	th       *assets.Theme
	f        *Frame
	layout   *Layout
	rt       routeCache // the routing view's (routing.go)

	drawn Frame // what the last scene was drawn from, for View (view.go)

	// the training view's storage (render/training.go)
	trainBars  [4][]bar
	trainComms []*snap.Comm
}

// Scene draws f into the builder's display list and returns it. The list is
// valid until the next call.
func (b *Builder) Scene(f *Frame) *DisplayList {
	L := f.Layout
	b.f, b.layout = f, L
	b.th = &assets.Light
	if L.Opt.Dark {
		b.th = &assets.Dark
	}
	dl := &b.dl
	dl.Reset(float32(L.W), float32(L.H))
	dl.rect(LayerBackground, 0, 0, L.W, L.H, 0, b.th.Background, color.RGBA{}, 0)
	if f.Cur != nil {
		b.rates()
	}
	b.header()
	b.frames()
	if f.Cur != nil {
		b.links()
		b.faultLinks()
		b.bundles()
		b.packets()
		b.controls()
		b.markers()
		b.routing()
	}
	b.nodes()
	if f.Cur != nil {
		b.slowGPUs()
		b.rateGauges()
	}
	b.legend()
	b.chartsAndCollective()
	b.training()
	b.tooltip()
	b.progress()
	dl.sortLayers()
	b.drawn = *f
	return dl
}

// Scene builds one picture with a fresh Builder.
func Scene(f *Frame) *DisplayList {
	var b Builder
	return b.Scene(f)
}

func (b *Builder) rates() {
	f := b.f
	n := len(f.Cur.Links)
	if len(b.util) != n {
		b.util = make([]float64, n)
		b.utilAt = -1
	}
	if f.Prev == nil || f.Prev.Time >= f.Cur.Time || len(f.Prev.Links) != n {
		if f.Prev != nil && f.Prev.Time > f.Cur.Time {
			clear(b.util) // went back in time
		}
		return
	}
	dt := (f.Cur.Time - f.Prev.Time).Seconds()
	for i := range f.Cur.Links {
		r := float64(b.layout.Topo.Links[i].Rate)
		if r <= 0 {
			b.util[i] = 0
			continue
		}
		b.util[i] = min(1, float64(f.Cur.Links[i].TxBytes-f.Prev.Links[i].TxBytes)*8/(r*dt))
	}
	b.utilAt = f.Cur.Time
}

// activity is what endpoint ep does in the current snapshot.
func (b *Builder) activity(ep int) snap.Activity {
	if c := b.f.Cur; c != nil && ep >= 0 && ep < len(c.Activity) {
		return c.Activity[ep]
	}
	return snap.Idle
}

// fs is the size of the type scale for what was once the base size times
// k: Title from 1.4, Body from 0.9, else Small.
func (b *Builder) fs(k float64) float64 {
	ts := &b.layout.Type
	switch {
	case k >= 1.4:
		return ts.Title
	case k >= 0.9:
		return ts.Body
	}
	return ts.Small
}

func (b *Builder) header() {
	L, th, dl := b.layout, b.th, &b.dl
	h := L.Header
	title := headerTitle(L)
	cy := h.Y + h.H/2
	note := ""
	if b.f.Cur != nil {
		if b.prepareRoutes(); b.routingShown() {
			note = b.reorderNote(b.f.Cur.Routing)
		}
	}
	summary := b.headerSummary()
	fit := b.fitHeader(title, summary, note)
	dl.text(LayerLabel, h.X, cy, fit.title, fit.titleSize, Start, assets.Bold, th.Text)
	if fit.summary {
		x := h.X + TextWidth(fit.title, fit.titleSize, assets.Bold) + 14*L.U
		dl.text(LayerLabel, x, cy, summary, b.fs(1.0), Start, assets.Regular, th.Muted)
	}
	if f := b.f; f.Cur != nil {
		b.buf = append(b.buf[:0], "t = "...)
		b.buf = append(b.buf, fmtTime(f.Cur.Time)...)
		t := string(b.buf)
		dl.text(LayerLabel, h.X+h.W, cy, t, fit.timeSize, End, assets.Bold, th.Text)
		if f.Cur.Done && !fit.noFinished {
			w := TextWidth(t, fit.timeSize, assets.Bold)
			dl.text(LayerLabel, h.X+h.W-w-12*L.U, cy, b.t("head.finished"), b.fs(1.0), End, assets.Medium, th.Muted)
		}
	}
}

// headerTitle is the title the header shows.
func headerTitle(L *Layout) string {
	if L.Opt.Title == "" {
		return "fabriclab"
	}
	return L.Opt.Title
}

// headerSummary is the summary the header shows: none beside a collective's
// status, which needs the room more (collHeader).
func (b *Builder) headerSummary() string {
	if b.f.Cur != nil && b.coll() != nil {
		return ""
	}
	return b.summary()
}

// summary describes the topology in a few words.
func (b *Builder) summary() string {
	t := b.layout.Topo
	var sw, nvs, gpus, hosts int
	rate := unit.Rate(0)
	var kind string
	for i := range t.Nodes {
		switch r := t.Nodes[i].Role; {
		case r == topo.GPU:
			gpus++
		case r == topo.Host:
			hosts++
		case r == topo.NVSwitch:
			nvs++
		case r.IsSwitch():
			sw++
		}
	}
	for i := range t.Links {
		l := &t.Links[i]
		if k := string(l.Kind); k != "nvlink4" && k != "pcie5" {
			rate, kind = l.Rate, k
			break
		}
	}
	s := ""
	switch {
	case gpus > 0 && nvs > 1:
		s = b.tf("head.gpus.many", gpus, nvs)
	case gpus > 0:
		s = b.tf("head.gpus", gpus, nvs)
	default:
		s = b.tf("head.hosts", hosts)
	}
	switch {
	case sw == 1:
		s += b.t("head.switch")
	case sw > 1:
		s += b.tf("head.switches", sw)
	}
	if kind != "" {
		names := map[string]string{"roce": "RoCE", "ib": "InfiniBand", "ethernet": "Ethernet"}
		s += b.tf("head.fabric", math.Round(rate.Gbps()), names[kind])
	}
	if t.Storage > 0 {
		s += b.tf("head.storage", t.Storage)
	}
	if b.layout.Opt.SelectiveRepeat {
		s += b.t("head.recovery.sr")
	}
	return s
}

// frames draws the DGX node blocks, condensed pods and the storage block.
func (b *Builder) frames() {
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U
	b.storageBlock()
	for i := range L.Pods {
		p := &L.Pods[i]
		if p.Hosts { // a host group: a box like a host's, its label over its cells
			dl.rect(LayerNode, p.X, p.Y, p.W, p.H, 4*u, th.Node, th.NodeEdge, 1*u)
			if !groupClear(L, p) {
				continue // switches over it: no room for words
			}
			if p.H >= L.Type.Main*1.4+L.Type.Body*1.4+8*u && p.Y >= L.Area.Y && TextWidth(p.Label, L.Type.Main, assets.Medium)+8*u <= p.W &&
				TextWidth(p.Count, L.Type.Body, assets.Regular)+8*u <= p.W { // tall: the span, its count under it
				dl.text(LayerLabel, p.X+p.W/2, p.Y+4*u+L.Type.Main*0.7, p.Label, L.Type.Main, Middle, assets.Medium, th.Text)
				dl.text(LayerLabel, p.X+p.W/2, p.Y+4*u+L.Type.Main*1.4+L.Type.Body*0.7, p.Count, L.Type.Body, Middle, assets.Regular, th.Muted)
			} else if s := groupLabel(L, p); s != "" {
				dl.text(LayerLabel, p.X+p.W/2, p.Y+4*u+L.Type.Main*0.65, s, L.Type.Main, Middle, assets.Medium, th.Text)
			}
			continue
		}
		dl.rect(LayerPanel, p.X, p.Y, p.W, p.H, 8*u, th.Panel, th.Border, 1*u)
		if L.Condensed {
			dl.text(LayerLabel, p.X+p.W/2, p.Y+p.H-6*u, b.tf("node.pod", p.Label), b.fs(0.85), Middle, assets.Medium, th.Muted)
			if p.W < TextWidth(b.tf("node.pod", "00"), b.fs(0.85), 1) {
				b.dl.Prims[len(dl.Prims)-1].Str = p.Label
			}
		} else if podLabeled(L, i) {
			x, a := p.X+8*u, Start
			if i > 0 && i == len(L.Pods)-1 && !podLabeled(L, 1) { // the last of two: under its right end
				x, a = p.X+p.W, End
			}
			dl.text(LayerLabel, x, p.Y+p.H+L.Type.Body*0.75, p.Label, b.fs(0.9), a, assets.Medium, th.Muted)
		}
	}
}

// podLabeled reports whether node block i gets its label under it: every
// block where each label fits its block's width, else the first and the
// last (the rest are counted between them by the numbers).
func podLabeled(L *Layout, i int) bool {
	n := len(L.Pods)
	for k := range L.Pods {
		if TextWidth(L.Pods[k].Label, L.Type.Body, assets.Medium)+16*L.U > L.Pods[k].W+podGap(L) {
			return i == 0 || i == n-1
		}
	}
	return true
}

// podGap is the space between two node blocks in a row.
func podGap(L *Layout) float64 {
	if len(L.Pods) < 2 || L.Pods[1].Y != L.Pods[0].Y {
		return 0
	}
	return L.Pods[1].X - L.Pods[0].X - L.Pods[0].W
}

// linkColor is the colour and width of a line with utilisation v.
func (b *Builder) linkColor(v float64) (color.RGBA, float64) {
	if v < 0.005 {
		return b.th.Idle, b.layout.LinkW * 0.8
	}
	return b.loadColor(v), b.layout.LinkW * (0.9 + 1.1*v)
}

// loadColor maps a load in [0, 1] onto the part of viridis that stands out
// from the theme's background (assets.Theme.Load).
func (b *Builder) loadColor(v float64) color.RGBA { return b.th.Load(v) }

func (b *Builder) links() {
	L, dl := b.layout, &b.dl
	hov := b.f.Hover
	// Idle lines first, then busy ones above them.
	for pass := range 2 {
		for i := range L.Links {
			ln := &L.Links[i]
			if !ln.Shown {
				continue
			}
			v := b.util[i]
			if (v >= 0.005) != (pass == 1) {
				continue
			}
			c, w := b.linkColor(v)
			dl.line(LayerLink, ln.X1, ln.Y1, ln.X2, ln.Y2, w, c)
		}
	}
	if (hov.Kind == HoverLink || hov.Kind == HoverQueue) && hov.ID < len(L.Links) {
		ln := &L.Links[hov.ID]
		c, w := b.linkColor(b.util[hov.ID])
		dl.line(LayerLink, ln.X1, ln.Y1, ln.X2, ln.Y2, w+3*L.U, b.th.Highlight)
		dl.line(LayerLink, ln.X1, ln.Y1, ln.X2, ln.Y2, w, c)
	}
}

func (b *Builder) meanUtil(ids []int) float64 {
	var s float64
	for _, id := range ids {
		s += b.util[id]
	}
	return s / float64(max(len(ids), 1))
}

func (b *Builder) bundles() {
	dl := &b.dl
	for i := range b.layout.Bundles {
		bd := &b.layout.Bundles[i]
		for _, d := range [2]struct {
			ln  *LinkLine
			ids []int
		}{{&bd.Up, bd.UpIDs}, {&bd.Down, bd.DownIDs}} {
			c, w := b.linkColor(b.meanUtil(d.ids))
			dl.line(LayerLink, d.ln.X1, d.ln.Y1, d.ln.X2, d.ln.Y2, w, c)
		}
	}
}

// flowIndex is the categorical colour a flow's packets take: its shard's
// (tag's) in a collective, else its own.
func flowIndex(fl *snap.Flow, id int) int {
	if fl.Tag >= 0 {
		return fl.Tag
	}
	return id
}

// flowColor is the colour of a flow's packets (flowIndex) on this theme.
func (b *Builder) flowColor(fl *snap.Flow, id int) color.RGBA {
	return b.th.Categorical(flowIndex(fl, id))
}

// packetMark draws a packet of categorical colour i: a dot for an even i, a
// square for an odd one, so that neighbouring colours (orange and yellow,
// which merge under deuteranopia) differ in shape too.
func (b *Builder) packetMark(l Layer, x, y, r float64, i int) {
	b.packetShape(l, x, y, r, b.th.Categorical(i), i%2)
}

// packetShape draws a packet mark of colour c: a dot for an even shape, a
// square for an odd one.
func (b *Builder) packetShape(l Layer, x, y, r float64, c color.RGBA, shape int) {
	if shape%2 == 0 {
		b.dl.circle(l, x, y, r, c, b.th.Background, 0.8*b.layout.U)
		return
	}
	s := r * 0.9
	b.dl.rect(l, x-s, y-s, 2*s, 2*s, 0.3*s, c, b.th.Background, 0.8*b.layout.U)
}

// maxDots is how many packets a link shows as dots before it shows a count.
const maxDots = 6

func (b *Builder) packets() {
	L, dl, cur := b.layout, &b.dl, b.f.Cur
	if cap(b.pktCount) < len(L.Links) {
		b.pktCount = make([]int32, len(L.Links))
	}
	b.pktCount = b.pktCount[:len(L.Links)]
	clear(b.pktCount)
	for i := range cur.Packets {
		if p := &cur.Packets[i]; p.Link < len(L.Links) {
			b.pktCount[p.Link] += int32(max(p.Count, 1))
		}
	}
	r := max(1.4*L.U, 1.7*L.LinkW)
	for i := range cur.Packets {
		p := &cur.Packets[i]
		if p.Link >= len(L.Links) || !L.Links[p.Link].Shown || b.pktCount[p.Link] > maxDots {
			continue
		}
		ln := &L.Links[p.Link]
		x, y := ln.X1+(ln.X2-ln.X1)*p.Progress, ln.Y1+(ln.Y2-ln.Y1)*p.Progress
		ci, shape := p.Flow, p.Flow
		if p.Flow < len(cur.Flows) {
			ci = flowIndex(&cur.Flows[p.Flow], p.Flow)
			shape = ci
			if len(cur.Classes) > 1 { // the shape tells the class (the legend names them)
				shape = int(cur.Flows[p.Flow].Class)
			}
		}
		b.packetShape(LayerPacket, x, y, r, b.th.Categorical(ci), shape)
		if p.Marked { // ECN: a ring in the mark colour, so it does not rely on hue alone
			dl.circle(LayerPacket, x, y, r+1.6*L.U, color.RGBA{}, b.th.Pause, 1.2*L.U)
		}
	}
	for i, n := range b.pktCount {
		ln := &L.Links[i]
		if n <= maxDots || !ln.Shown {
			continue
		}
		x, y := (ln.X1+ln.X2)/2, (ln.Y1+ln.Y2)/2
		s := fmt.Sprint(n)
		w := TextWidth(s, b.fs(0.75), assets.Bold) + 6*L.U
		dl.rect(LayerPacket, x-w/2, y-6*L.U, w, 12*L.U, 6*L.U, b.th.Text, color.RGBA{}, 0)
		dl.text(LayerPacket, x, y, s, b.fs(0.75), Middle, assets.Bold, b.th.Background)
	}
}

// queueRef is the depth that fills a queue bar.
func (b *Builder) queueRef() float64 {
	if r := b.layout.Opt.QueueRef; r > 0 {
		return float64(r)
	}
	var m int64
	for i := range b.f.Cur.Links {
		m = max(m, b.f.Cur.Links[i].BufferBytes)
	}
	if m == 0 {
		m = 2 << 20
	}
	return float64(m)
}

func (b *Builder) markers() {
	L, th, dl, cur, prev := b.layout, b.th, &b.dl, b.f.Cur, b.f.Prev
	u := L.U
	ref := b.queueRef()
	for i := range L.Links {
		ln := &L.Links[i]
		if !ln.Shown || i >= len(cur.Links) {
			continue
		}
		s := &cur.Links[i]
		if q := ln.Queue; q.W > 0 && s.QueueBytes > 0 {
			frac := min(1, float64(s.QueueBytes)/ref)
			dl.rect(LayerMarker, q.X-1*u, q.Y-1*u, q.W+2*u, q.H+2*u, 1.5*u, th.Panel, th.Muted, 1*u)
			fh := max(q.H*frac, 1.5*u)
			dl.rect(LayerMarker, q.X, q.Y+q.H-fh, q.W, fh, 0, th.Queue, color.RGBA{}, 0)
			if float64(s.QueueBytes) > ref { // over the bar: a cap says so
				dl.line(LayerMarker, q.X-2*u, q.Y-2.5*u, q.X+q.W+2*u, q.Y-2.5*u, 1.5*u, th.Drop)
			}
		}
		if s.Paused {
			x, y := (ln.X1+ln.X2)/2, (ln.Y1+ln.Y2)/2
			b.pauseMark(x, y, 7*u)
		}
		if prev != nil && i < len(prev.Links) && s.Drops > prev.Links[i].Drops {
			x, y := ln.X1+(ln.X2-ln.X1)*0.2, ln.Y1+(ln.Y2-ln.Y1)*0.2
			if q := ln.Queue; q.W > 0 {
				x, y = q.X+q.W/2, q.Y-8*u
			}
			b.dropMark(x, y, 6*u)
		}
	}
}

// pauseMark draws ‖ on a round badge centred on (x, y).
func (b *Builder) pauseMark(x, y, r float64) { b.pauseMarkOn(LayerMarker, x, y, r) }

func (b *Builder) pauseMarkOn(l Layer, x, y, r float64) {
	th, dl := b.th, &b.dl
	dl.circle(l, x, y, r, th.Pause, th.Background, r*0.22)
	bw, bh := r*0.26, r*0.95
	dl.rect(l, x-r*0.38, y-bh/2, bw, bh, 0, th.Background, color.RGBA{}, 0)
	dl.rect(l, x+r*0.38-bw, y-bh/2, bw, bh, 0, th.Background, color.RGBA{}, 0)
}

// dropMark draws a ✕ on a square badge centred on (x, y).
func (b *Builder) dropMark(x, y, r float64) { b.dropMarkOn(LayerMarker, x, y, r) }

func (b *Builder) dropMarkOn(l Layer, x, y, r float64) {
	th, dl := b.th, &b.dl
	dl.rect(l, x-r, y-r, 2*r, 2*r, r*0.25, th.Drop, th.Background, r*0.2)
	d := r * 0.5
	dl.line(l, x-d, y-d, x+d, y+d, r*0.3, th.Background)
	dl.line(l, x-d, y+d, x+d, y-d, r*0.3, th.Background)
}

// nodes draws the nodes, the flags on condensed pods and the hovered pod.
func (b *Builder) nodes() {
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U
	hov := b.f.Hover
	for id := range L.Nodes {
		if L.Nodes[id].W <= 0 {
			continue
		}
		hovered := hov.Kind == HoverNode && hov.ID == id
		if !L.Nodes[id].Shown {
			if L.Nodes[id].W > 0 { // a DGX group's nodes have no cells
				podCell(b, id, hovered)
			}
		} else {
			nodeBox(b, id, hovered)
		}
	}
	if len(L.Bundles) > 0 && b.f.Cur != nil {
		podFlags(b)
	}
	if hov.Kind == HoverPod && hov.ID < len(L.Pods) {
		p := &L.Pods[hov.ID]
		dl.rect(LayerMarker, p.X, p.Y, p.W, p.H, 8*u, color.RGBA{}, th.Highlight, 2*u)
	}
}

// podCell draws node id as a cell of a condensed pod, coloured by the load
// of its busiest link out.
func podCell(b *Builder, id int, hovered bool) {
	th, nb, nd := b.th, &b.layout.Nodes[id], &b.layout.Topo.Nodes[id]
	c := th.Node
	if b.util != nil {
		var v float64
		for _, l := range nd.Out {
			v = max(v, b.util[l])
		}
		if v >= 0.005 {
			c = b.loadColor(v)
		}
	}
	edge := th.Border
	if hovered {
		edge = th.Highlight
	}
	b.dl.rect(LayerNode, nb.X, nb.Y, nb.W, nb.H, nb.W*0.15, c, edge, 0.7*b.layout.U)
}

// nodeBox draws node id as a box in its role's colours (a host's or GPU's
// by what it does now), a GPU with pins, and its label.
func nodeBox(b *Builder, id int, hovered bool) {
	L, th, dl := b.layout, b.th, &b.dl
	u, nb, nd := L.U, &L.Nodes[id], &L.Topo.Nodes[id]
	fill, edge, text := th.Node, th.NodeEdge, th.Text
	r := 4 * u
	switch nd.Role {
	case topo.Host, topo.GPU, topo.Storage:
		switch b.activity(L.EP[id]) {
		case snap.Communicating:
			fill, text = th.Comm, color.RGBA{0x10, 0x14, 0x18, 0xff}
		case snap.Computing:
			fill, text = b.computeFill(), color.RGBA{0x10, 0x14, 0x18, 0xff}
		}
		if nd.Role == topo.GPU {
			r = 2 * u
		}
	case topo.NIC:
		fill, edge = th.Idle, th.NodeEdge
		r = 1.5 * u
	default:
		fill, edge, text = th.Switch, th.Switch, th.SwitchText
		r = min(5*u, nb.H/3)
	}
	w := 1.2 * u
	if hovered {
		edge, w = th.Highlight, 2.5*u
	}
	dl.rect(LayerNode, nb.X, nb.Y, nb.W, nb.H, min(r, nb.W/3), fill, edge, w)
	if nd.Role == topo.GPU && nb.W > 10*u { // a chip: pins on both sides
		for k := range 3 {
			py := nb.Y + nb.H*(0.3+0.2*float64(k))
			dl.line(LayerNode, nb.X-2.5*u, py, nb.X, py, 1*u, th.NodeEdge)
			dl.line(LayerNode, nb.X+nb.W, py, nb.X+nb.W+2.5*u, py, 1*u, th.NodeEdge)
		}
	}
	if nb.Label != "" {
		cx, cy := nb.Center()
		dl.text(LayerLabel, cx, cy, nb.Label, L.Type.Main, Middle, assets.Medium, text)
	}
}

// podFlags flags, on each condensed pod, pauses and drops inside it.
func podFlags(b *Builder) {
	L, t, u, cur, prev := b.layout, b.layout.Topo, b.layout.U, b.f.Cur, b.f.Prev
	for i := range L.Pods {
		p := &L.Pods[i]
		var paused, dropped bool
		for _, id := range p.Nodes {
			for _, l := range t.Nodes[id].Out {
				if l < len(cur.Links) {
					paused = paused || cur.Links[l].Paused
					if prev != nil && l < len(prev.Links) {
						dropped = dropped || cur.Links[l].Drops > prev.Links[l].Drops
					}
				}
			}
		}
		r := min(6*u, p.W/6)
		if paused {
			b.pauseMark(p.X+p.W-r, p.Y-r-2*u, r)
		}
		if dropped {
			b.dropMark(p.X+r, p.Y-r-2*u, r*0.9)
		}
	}
}

// rateGauges draws, under each sender that congestion control holds back, a
// bar of the rate it may send at now (full: line rate) and the figure.
func (b *Builder) rateGauges() {
	L, th, dl, cur := b.layout, b.th, &b.dl, b.f.Cur
	u := L.U
	rate := map[int]float64{} // endpoint → allowed Gb/s, summed over its flows
	for i := range cur.Flows {
		if f := &cur.Flows[i]; f.RateGbps > 0 && f.Started && !f.Done {
			rate[f.Src] += f.RateGbps
		}
	}
	for _, ep := range slices.Sorted(maps.Keys(rate)) { // in order: the same picture every time
		gbps := rate[ep]
		if ep >= len(L.Topo.Endpoints) {
			continue
		}
		id := L.Topo.Endpoints[ep]
		nb := &L.Nodes[id]
		nd := &L.Topo.Nodes[id]
		if !nb.Shown || len(nd.Out) == 0 {
			continue
		}
		line := L.Topo.Links[nd.Out[len(nd.Out)-1]].Rate.Gbps()
		frac := min(1, gbps/line)
		x, y, w, h := nb.X, nb.Y+nb.H+3*u, nb.W, 4*u
		dl.rect(LayerLabel, x, y, w, h, h/2, th.Panel, th.Border, 0.6*u)
		dl.rect(LayerLabel, x, y, w*frac, h, h/2, b.loadColor(frac), color.RGBA{}, 0)
		if s := fmtRate(gbps * 1e9); TextWidth(s, b.fs(0.7), assets.Regular) <= w+2*u { // a figure where it does not run into the next
			dl.text(LayerLabel, x+w/2, y+h+b.fs(0.7)*0.8, s, b.fs(0.7), Middle, assets.Regular, th.Muted)
		}
	}
}

// controls draws congestion notifications (CNPs, BECNs) on their way back:
// a small square, so they differ from data packets by shape, first on the
// receiver's link towards its switch, then on the sender's link from its
// switch. (The hops between are not tracked; the two ends tell the story.)
func (b *Builder) controls() {
	L, dl, cur := b.layout, &b.dl, b.f.Cur
	t := L.Topo
	s := max(2.2*L.U, 2.4*L.LinkW)
	for _, c := range cur.Controls {
		if c.Flow >= len(cur.Flows) {
			continue
		}
		f := &cur.Flows[c.Flow]
		if f.Src >= len(t.Endpoints) || f.Dst >= len(t.Endpoints) {
			continue
		}
		src, dst := &t.Nodes[t.Endpoints[f.Src]], &t.Nodes[t.Endpoints[f.Dst]]
		if len(src.Out) == 0 || len(dst.Out) == 0 {
			continue
		}
		// The access links: the receiver's uplink, and the downlink to the sender.
		up := dst.Out[len(dst.Out)-1]
		down := t.Links[src.Out[len(src.Out)-1]].Reverse
		l, frac := up, 2*c.Progress
		if c.Progress >= 0.5 {
			l, frac = down, 2*c.Progress-1
		}
		ln := &L.Links[l]
		if !ln.Shown {
			continue
		}
		x, y := ln.X1+(ln.X2-ln.X1)*frac, ln.Y1+(ln.Y2-ln.Y1)*frac
		dl.rect(LayerPacket, x-s, y-s, 2*s, 2*s, 0, b.th.Pause, b.th.Background, 0.8*L.U)
	}
}
