package render

import (
	"image/color"
	"math"
	"slices"
	"strconv"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// maxSeries is how many flows the throughput chart draws one by one; with more
// it draws one line per shard (collectives), within and between nodes, or the total.
const maxSeries = 12

// maxChartPoints bounds the points of a chart line.
const maxChartPoints = 240

// seriesCache keeps per-snapshot sums (delivered bytes per shard, or in all)
// so that the charts need not add up thousands of flows of every old
// snapshot on every frame. Snapshots are immutable, so a pointer is a key.
type seriesCache struct {
	cur, old map[*snap.Snapshot][]int64
	// limited caches, likewise, whether congestion control limits a flow.
	limCur, limOld map[*snap.Snapshot]bool
}

func (c *seriesCache) get(s *snap.Snapshot, groups int, group func(fl *snap.Flow, i int) int) []int64 {
	if v, ok := c.cur[s]; ok && len(v) == groups {
		return v
	}
	if v, ok := c.old[s]; ok && len(v) == groups {
		c.cur[s] = v
		return v
	}
	v := make([]int64, groups)
	for i := range s.NumFlows() { // history snapshots may be compact
		fl := s.Flow(i)
		if g := group(fl, i); g >= 0 {
			v[g] += fl.Delivered
		}
	}
	c.cur[s] = v
	return v
}

// limited reports whether congestion control limits some flow of s.
func (c *seriesCache) limited(s *snap.Snapshot) bool {
	if c.limCur == nil {
		c.turn()
	}
	if v, ok := c.limCur[s]; ok {
		return v
	}
	v, ok := c.limOld[s]
	if !ok {
		for i := range s.NumFlows() {
			if s.Flow(i).RateGbps > 0 {
				v = true
				break
			}
		}
	}
	c.limCur[s] = v
	return v
}

// turn forgets the sums that the last frame did not use.
func (c *seriesCache) turn() {
	if c.cur == nil {
		c.cur, c.old = map[*snap.Snapshot][]int64{}, map[*snap.Snapshot][]int64{}
		c.limCur, c.limOld = map[*snap.Snapshot]bool{}, map[*snap.Snapshot]bool{}
		return
	}
	c.old, c.cur = c.cur, c.old
	clear(c.cur)
	c.limOld, c.limCur = c.limCur, c.limOld
	clear(c.limCur)
}

// Peaks the charts' axes are scaled to, by chart.
const (
	peakThroughput = iota
	peakRates
	peakQueues
	numPeaks
)

// chartState is what the charts keep between frames: the largest values
// shown so far, so that an axis only grows while the run plays forward (it
// starts again on another run or when playback goes back), and the lines of
// this frame, for the hover readout.
type chartState struct {
	run   *snap.Snapshot // the history's first snapshot: which run the peaks are of
	at    unit.Time      // the time of the frame the peaks were last raised at
	peak  [numPeaks]float64
	low   float64 // the lowest sender rate shown; 0 before the first
	lines []chartLine
	vals  []float64 // time (µs) and value of each point of lines, as dl.Points has x, y
	ticks []float64
	key   []keyItem
	rates []rateAt
	words []chartText // the titles and notes the panels drew (view.go)
}

// rateAt is line g's rate v at time t.
type rateAt struct {
	g int
	t unit.Time
	v float64
}

// chartLine is one line drawn on a chart.
type chartLine struct {
	chart  int
	name   string
	c      color.RGBA
	p0, v0 int // its first point in dl.Points and chartState.vals
	n      int // its points
	unit   func(float64) string
}

// keyItem is one entry of a chart's key: a colour and what it stands for.
type keyItem struct {
	name string
	c    color.RGBA
}

// grow raises peak k to v and returns the axis for it: at least the frame's
// shared axes (a comparison's other pane).
func (b *Builder) grow(k int, v float64) float64 {
	b.ch.peak[k] = max(b.ch.peak[k], v)
	if a := b.f.Axes; a != nil {
		return max(b.ch.peak[k], a[k])
	}
	return b.ch.peak[k]
}

// Axes are the peaks a scene's chart axes are scaled to (throughput, sender
// rates, queue depth), for two panes to share: Frame.Axes.
type Axes [numPeaks]float64

// Peaks are the peaks the last scene's charts reached by themselves (not
// counting Frame.Axes).
func (b *Builder) Peaks() Axes { return b.ch.peak }

// sampled returns up to maxChartPoints history indices, evenly spread, and
// always the last one.
func sampled(n int, out []int) []int {
	out = out[:0]
	if n <= maxChartPoints {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	for k := range maxChartPoints {
		out = append(out, k*(n-1)/(maxChartPoints-1))
	}
	return out
}

func (b *Builder) charts() {
	L := b.layout
	b.series.turn()
	cs := &b.ch
	cs.lines, cs.vals, cs.words = cs.lines[:0], cs.vals[:0], cs.words[:0]
	if h := b.history(); len(h) == 0 || h[0] != cs.run || b.f.Cur == nil || b.f.Cur.Time < cs.at {
		cs.peak, cs.low = [numPeaks]float64{}, 0
		if len(h) > 0 {
			cs.run = h[0]
		}
	}
	if b.f.Cur != nil {
		cs.at = b.f.Cur.Time
	}
	for i, r := range L.Charts {
		b.panel(r)
		switch L.Kinds[i] {
		case ChartThroughput:
			b.throughput(i, r)
		case ChartQueues:
			b.queues(i, r)
		case ChartFCT:
			b.fctChart(r)
		}
	}
	b.chartReadout()
}

func (b *Builder) panel(r Rect) {
	b.dl.rect(LayerPanel, r.X, r.Y, r.W, r.H, 8*b.layout.U, b.th.Panel, b.th.Border, 1*b.layout.U)
}

// plotArea draws a chart's title and its key (prefix, then a swatch and a
// name per item, on up to two lines, "+n more" for the rest) and returns the
// plot below them.
func (b *Builder) plotArea(r Rect, title, prefix string, key []keyItem) Rect {
	u, dl, th := b.layout.U, &b.dl, b.th
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, title, true)
	dl.text(LayerChart, r.X+10*u, r.Y+13*u, shorten(title, b.fs(1.0), assets.Medium, r.W-20*u), b.fs(1.0), Start, assets.Medium, th.Text)
	top := 30 * u
	if len(key) > 0 {
		size := b.fs(0.75)
		lh := size * 1.35
		x0, x1 := r.X+10*u, r.X+r.W-10*u
		x, y := x0, r.Y+top-1*u
		if prefix != "" {
			dl.text(LayerChart, x, y, prefix, size, Start, assets.Regular, th.Muted)
			x += TextWidth(prefix, size, assets.Regular) + 5*u
		}
		more := func(n int) string { return b.tf("chart.more", n) }
		second := false
		for i, k := range key {
			w := 12*u + TextWidth(k.name, size, assets.Regular) + 8*u
			if x+w > x1 && !second {
				x, y, second = x0, y+lh, true
			}
			need := w
			if i < len(key)-1 {
				need += TextWidth(more(len(key)-i-1), size, assets.Regular)
			}
			if second && x+need > x1 { // no room for the rest: count them
				dl.text(LayerChart, x, y, more(len(key)-i), size, Start, assets.Regular, th.Muted)
				break
			}
			dl.line(LayerChart, x, y, x+9*u, y, 2.5*u, k.c)
			dl.text(LayerChart, x+12*u, y, k.name, size, Start, assets.Regular, th.Muted)
			x += w
		}
		top = y - r.Y + lh
	}
	left := 50 * u
	return Rect{r.X + left, r.Y + top, r.W - left - 12*u, r.H - top - 22*u}
}

// frame draws a plot's axes and, when s has a step, its y ticks with labels
// and light grid lines.
func (b *Builder) frame(p Rect, s scale, label func(float64) string) {
	u, th, dl := b.layout.U, b.th, &b.dl
	dl.line(LayerChart, p.X, p.Y+p.H, p.X+p.W, p.Y+p.H, 1*u, th.Border)
	dl.line(LayerChart, p.X, p.Y, p.X, p.Y+p.H, 1*u, th.Border)
	if s.Step <= 0 {
		return
	}
	b.ch.ticks = s.ticks(b.ch.ticks)
	size := b.fs(0.78)
	every := 1 // on a short plot, a label on every second (third…) tick only
	if n := len(b.ch.ticks) - 1; n > 0 {
		every = max(1, int(math.Ceil(size*1.15/(p.H/float64(n)))))
	}
	for i, v := range b.ch.ticks {
		y := p.Y + p.H*(1-v/s.Max)
		if v > 0 {
			dl.line(LayerChart, p.X, y, p.X+p.W, y, 0.5*u, th.Border)
		}
		dl.line(LayerChart, p.X-3*u, y, p.X, y, 1*u, th.Border)
		if i%every == 0 {
			dl.text(LayerChart, p.X-5*u, y, label(v), size, End, assets.Regular, th.Muted)
		}
	}
}

// logFrame draws a plot's axes with a log y axis over the decades 10^lo to
// 10^hi (bits per second): a tick and label at each decade, and at 2 and 5
// times it when there are at most two decades.
func (b *Builder) logFrame(p Rect, lo, hi float64, y func(float64) float64) {
	u, th, dl := b.layout.U, b.th, &b.dl
	b.frame(p, scale{}, nil)
	last := math.Inf(1) // the y of the last label drawn: labels a line apart at least
	for d := lo; d <= hi; d++ {
		for _, m := range []float64{1, 2, 5} {
			if m > 1 && (hi-lo > 2 || d == hi) {
				continue
			}
			v := m * math.Pow(10, d)
			yy := y(v)
			if d > lo || m > 1 {
				dl.line(LayerChart, p.X, yy, p.X+p.W, yy, 0.5*u, th.Border)
			}
			dl.line(LayerChart, p.X-3*u, yy, p.X, yy, 1*u, th.Border)
			if last-yy >= b.fs(0.78)*1.1 {
				dl.text(LayerChart, p.X-5*u, yy, axisRate(v), b.fs(0.78), End, assets.Regular, th.Muted)
				last = yy
			}
		}
	}
}

// timeAxis labels the x axis from t0 to t1 with round times.
func (b *Builder) timeAxis(p Rect, t0, t1 unit.Time) {
	u, th, dl := b.layout.U, b.th, &b.dl
	if t1 <= t0 { // one snapshot: no span to label
		return
	}
	span := float64(t1 - t0)
	first, step := timeScale(t0, t1)
	size := b.fs(0.78)
	lastEnd := math.Inf(-1)
	for t := first; t <= t1; t += step {
		x := p.X + p.W*float64(t-t0)/span
		s := axisTime(t, step)
		w := TextWidth(s, size, assets.Regular)
		if x-w/2 < lastEnd+6*u || x+w/2 > p.X+p.W+10*u {
			continue
		}
		dl.line(LayerChart, x, p.Y+p.H, x, p.Y+p.H+3*u, 1*u, th.Border)
		dl.text(LayerChart, x, p.Y+p.H+11*u, s, size, Middle, assets.Regular, th.Muted)
		lastEnd = x + w/2
	}
}

func (b *Builder) empty(p Rect, msg string) {
	x, y := p.Center()
	b.chartWord(x, y, msg, false)
	b.dl.text(LayerChart, x, y, msg, b.fs(0.85), Middle, assets.Regular, b.th.Muted)
}

// history is the snapshots the charts span: History then Cur.
func (b *Builder) history() []*snap.Snapshot {
	h := b.f.History
	if c := b.f.Cur; c != nil && (len(h) == 0 || h[len(h)-1] != c) {
		h = append(h[:len(h):len(h)], c) // copies; rare when the caller appends Cur itself
	}
	return h
}

// hostName is endpoint e as the lessons name it: "h3" (host 3), or "GPU 3".
func (b *Builder) hostName(e int) string {
	t := b.layout.Topo
	if e >= 0 && e < len(t.Endpoints) && t.Nodes[t.Endpoints[e]].Role == topo.GPU {
		if t.Torus != nil {
			return b.tf("node.chip", e)
		}
		return "GPU " + itoa(e)
	}
	if e >= 0 && e < len(t.Endpoints) && t.Nodes[t.Endpoints[e]].Role == topo.Storage {
		return storageName(b.layout.Opt.Lang, t.Nodes[t.Endpoints[e]].Index)
	}
	return b.tf("node.host.abbr", e)
}

// flowKey names the flows of a chart, one by one: by sender when they share
// a receiver ("to h8:" h0 h1 …), else "h0→h4".
func (b *Builder) flowKey(cur *snap.Snapshot, n int) (string, []keyItem) {
	key := b.ch.key[:0]
	same := n > 1
	for i := 1; i < n; i++ {
		same = same && cur.Flows[i].Dst == cur.Flows[0].Dst
	}
	through := b.inNetwork() // each flow is a GPU's write to the switch and the sum back
	for i := range n {
		fl := &cur.Flows[i]
		name := b.hostName(fl.Src)
		if !same && !through {
			name = b.tf("chart.flow.hosts", b.hostName(fl.Src), b.hostName(fl.Dst))
		}
		key = append(key, keyItem{name, b.flowColor(fl, i)})
	}
	b.ch.key = key
	if through {
		return b.t("chart.via-switch"), key
	}
	if same {
		return b.tf("chart.to", b.hostName(cur.Flows[0].Dst)), key
	}
	return "", key
}

func (b *Builder) throughput(ci int, r Rect) {
	L, dl := b.layout, &b.dl
	hist := b.history()
	cur := b.f.Cur
	if cur == nil || len(hist) < 2 {
		p := b.plotArea(r, b.t("chart.throughput"), "", nil)
		b.frame(p, scale{}, nil)
		b.empty(p, b.t("chart.waiting"))
		return
	}
	if b.rateLimited() {
		b.senderRates(ci, r, hist)
		return
	}
	gs := throughputGroups(b, cur)
	b.ch.key = gs.key
	p := b.plotArea(r, gs.title, gs.prefix, gs.key)
	idx := sampled(len(hist), b.top)
	b.top = idx
	ymax := windowRates(b, hist, idx, &gs)
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	if b.ch.peak[peakThroughput] = max(b.ch.peak[peakThroughput], ymax); b.ch.peak[peakThroughput] == 0 { // GPUs computing, flows not started: no axis for nothing
		b.frame(p, scale{}, nil)
		b.timeAxis(p, t0, t1)
		b.empty(p, b.t("chart.no-traffic"))
		return
	}
	sc := niceScale(b.grow(peakThroughput, max(ymax, 1e9)))
	span := max(float64(t1-t0), 1)
	b.frame(p, sc, axisRate)
	b.timeAxis(p, t0, t1)
	nflows := len(cur.Flows)
	for g := range gs.n {
		c, name := b.th.Comm, b.t("chart.all")
		if gs.n > 1 {
			c, name = gs.key[g].c, gs.key[g].name
			if gs.prefix != "" && gs.maxTag >= 0 && nflows > maxSeries { // "shard 3", not "3"
				name = gs.prefix + " " + name
			}
		}
		p0, v0 := len(dl.Points), len(b.ch.vals)
		for _, rt := range b.ch.rates {
			if rt.g != g {
				continue
			}
			x := p.X + p.W*float64(rt.t-t0)/span
			y := p.Y + p.H*(1-min(rt.v/sc.Max, 1))
			dl.Points = append(dl.Points, float32(x), float32(y))
			b.ch.vals = append(b.ch.vals, rt.t.Micros(), rt.v)
		}
		b.addLine(ci, p0, v0, 1.6*L.U, c, name, fmtRate)
		if gs.n == nflows && gs.n > 1 {
			b.markSeries(g, p0, c) // a named or picked flow (routing.go)
		}
	}
}

// flowGroups is what the throughput chart's lines are.
type flowGroups struct {
	n             int // lines
	by            int // byTotal, byFlow, byTag or byNode
	topo          *topo.Topology
	title, prefix string
	key           []keyItem
	maxTag        int // the largest flow tag, -1 for none
}

const (
	byTotal = iota
	byFlow
	byTag
	byNode // within a node or between nodes
)

// of is the line flow fl, the i-th, counts towards. (A method, not a
// closure in the struct, so that it stays off the heap.)
func (gs *flowGroups) of(fl *snap.Flow, i int) int {
	switch gs.by {
	case byFlow:
		return i
	case byTag:
		return fl.Tag
	case byNode:
		t := gs.topo
		if t.Nodes[t.Endpoints[fl.Src]].Group == t.Nodes[t.Endpoints[fl.Dst]].Group {
			return 0
		}
		return 1
	}
	return 0
}

// throughputGroups picks the throughput chart's lines: flows one by one,
// shards, within and between nodes, or the total.
func throughputGroups(b *Builder, cur *snap.Snapshot) flowGroups {
	nflows := len(cur.Flows)
	gs := flowGroups{n: 1, topo: b.layout.Topo, title: b.t("chart.throughput"), maxTag: -1, key: b.ch.key[:0]}
	for i := range cur.Flows {
		gs.maxTag = max(gs.maxTag, cur.Flows[i].Tag)
	}
	switch {
	case nflows <= maxSeries && nflows > 0:
		gs.n, gs.title = nflows, b.t("chart.throughput.flow")
		gs.by = byFlow
		gs.prefix, gs.key = b.flowKey(cur, nflows)
	case gs.maxTag >= 0 && gs.maxTag < maxSeries:
		gs.n, gs.title = gs.maxTag+1, b.t("chart.throughput.shard")
		gs.by = byTag
		gs.prefix = b.t("chart.shard")
		for g := range gs.n {
			gs.key = append(gs.key, keyItem{itoa(g), b.th.Categorical(g)})
		}
	case b.multiNode():
		gs.n, gs.by = 2, byNode
		// not the node colours (orange is "computing" there)
		gs.key = append(gs.key, keyItem{b.t("chart.in-node"), b.th.Categorical(2)}, keyItem{b.t("chart.between-nodes"), b.th.Categorical(4)})
	}
	return gs
}

// windowRates works out each line's rates, into b.ch.rates, over a window
// of a few samples (a fifteenth of the span): per-sample rates of
// round-robin senders only jitter. It returns the largest, as the axis is
// the largest of them (and never less than before while playing forward).
func windowRates(b *Builder, hist []*snap.Snapshot, idx []int, gs *flowGroups) float64 {
	win := max(1, len(idx)/15)
	rates := b.ch.rates[:0]
	ymax := 0.0
	for g := range gs.n {
		for k := 1; k < len(idx); k++ {
			s0, s1 := hist[idx[max(0, k-win)]], hist[idx[k]]
			dt := (s1.Time - s0.Time).Seconds()
			if dt <= 0 {
				continue
			}
			a, cc := b.series.get(s0, gs.n, gs.of), b.series.get(s1, gs.n, gs.of)
			v := float64(cc[g]-a[g]) * 8 / dt
			ymax = max(ymax, v)
			rates = append(rates, rateAt{g, s1.Time, v})
		}
	}
	b.ch.rates = rates
	return ymax
}

// addLine draws the points appended since p0 as a line of chart ci and keeps
// it (with its values from v0) for the hover readout.
func (b *Builder) addLine(ci, p0, v0 int, width float64, c color.RGBA, name string, unit func(float64) string) {
	n := len(b.dl.Prims)
	b.dl.polyline(LayerChart, p0, width, c)
	if len(b.dl.Prims) == n {
		b.ch.vals = b.ch.vals[:v0]
		return
	}
	b.ch.lines = append(b.ch.lines, chartLine{chart: ci, name: name, c: c, p0: p0, v0: v0, n: (len(b.dl.Points) - p0) / 2, unit: unit})
}

// multiNode reports whether the endpoints are GPUs in more than one node,
// so that traffic within a node (NVLink) and between nodes can be told apart.
func (b *Builder) multiNode() bool {
	t := b.layout.Topo
	if len(t.Endpoints) == 0 {
		return false
	}
	first := t.Nodes[t.Endpoints[0]]
	if first.Role != topo.GPU {
		return false
	}
	for _, id := range t.Endpoints {
		if t.Nodes[id].Group != first.Group {
			return true
		}
	}
	return false
}

func (b *Builder) queues(ci int, r Rect) {
	L, dl := b.layout, &b.dl
	hist := b.history()
	if b.f.Cur == nil || len(hist) < 1 {
		p := b.plotArea(r, b.t("chart.queues"), "", nil)
		b.frame(p, scale{}, nil)
		b.empty(p, b.t("chart.waiting"))
		return
	}
	n := len(b.f.Cur.Links)
	if cap(b.peaks) < n {
		b.peaks = make([]int64, n)
	}
	b.peaks = b.peaks[:n]
	clear(b.peaks)
	idx := sampled(len(hist), b.top)
	b.top = idx
	for _, k := range idx {
		s := hist[k]
		for i := range min(n, s.NumLinks()) {
			b.peaks[i] = max(b.peaks[i], s.Link(i).QueueBytes)
		}
	}
	// the four deepest
	var top [4]int
	nt := 0
	for i, v := range b.peaks {
		if v <= 0 {
			continue
		}
		j := min(nt, 3)
		if nt == 4 && v <= b.peaks[top[3]] {
			continue
		}
		for j > 0 && b.peaks[top[j-1]] < v {
			if j < 4 {
				top[j] = top[j-1]
			}
			j--
		}
		top[j] = i
		nt = min(nt+1, 4)
	}
	key := b.ch.key[:0]
	for j := range nt {
		key = append(key, keyItem{linkName(L, top[j]), b.th.Categorical(j + 4)})
	}
	b.ch.key = key
	p := b.plotArea(r, b.t("chart.queues"), "", key)
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	if nt == 0 {
		b.frame(p, scale{}, nil)
		b.timeAxis(p, t0, t1)
		b.empty(p, b.t("chart.no-queues"))
		return
	}
	sc := bytesScale(b.grow(peakQueues, float64(b.peaks[top[0]])))
	b.frame(p, sc, axisBytes)
	b.timeAxis(p, t0, t1)
	span := max(float64(t1-t0), 1)
	u := L.U
	for j := range nt {
		li := top[j]
		p0, v0 := len(dl.Points), len(b.ch.vals)
		for _, k := range idx {
			s := hist[k]
			if li >= s.NumLinks() {
				continue
			}
			q := float64(s.Link(li).QueueBytes)
			x := p.X + p.W*float64(s.Time-t0)/span
			y := p.Y + p.H*(1-min(q/sc.Max, 1))
			dl.Points = append(dl.Points, float32(x), float32(y))
			b.ch.vals = append(b.ch.vals, s.Time.Micros(), q)
		}
		b.addLine(ci, p0, v0, 1.6*u, key[j].c, key[j].name, fmtBytes)
	}
	b.thresholds(p, sc.Max)
}

// thresholds draws the marking thresholds (Kmin, Kmax, FECN) of the queue
// chart as dashed lines, labelled at the right end on a backing so that the
// queue lines do not cross the words, and moved apart so that they never
// overlap each other.
func (b *Builder) thresholds(p Rect, ymax float64) {
	u, th, dl := b.layout.U, b.th, &b.dl
	mk := b.f.Cur.Marking
	size := b.fs(0.7)
	h := size * 1.3 // a label's height
	type label struct {
		v     int64
		name  string
		y, ly float64 // its line; the middle of its label
	}
	var ls [3]label
	n := 0
	for _, k := range [...]label{{v: mk.ECNKmin, name: "Kmin"}, {v: mk.ECNKmax, name: "Kmax"}, {v: mk.FECN, name: "FECN"}} {
		if k.v > 0 && float64(k.v) <= ymax {
			k.y = p.Y + p.H*(1-float64(k.v)/ymax)
			k.ly = k.y - h/2 - 1*u // just above its line
			ls[n] = k
			n++
		}
	}
	// Lowest first; each label at least a label's height above the one
	// below it; if the top one is pushed out of the plot, all move down.
	slices.SortStableFunc(ls[:n], func(a, c label) int { return int(min(max(a.v-c.v, -1), 1)) })
	for i := 1; i < n; i++ {
		ls[i].ly = min(ls[i].ly, ls[i-1].ly-h)
	}
	if n > 0 && ls[n-1].ly < p.Y+h/2 {
		d := p.Y + h/2 - ls[n-1].ly
		for i := range n {
			ls[i].ly += d
		}
	}
	for _, k := range ls[:n] {
		for x := p.X; x < p.X+p.W; x += 6 * u { // dashed, so it reads as a threshold
			dl.line(LayerChart, x, k.y, min(x+3*u, p.X+p.W), k.y, 1*u, th.Pause)
		}
	}
	for _, k := range ls[:n] { // over every line
		name := k.name + " " + axisBytes(float64(k.v))
		w := TextWidth(name, size, assets.Medium) + 6*u
		lx := p.X + p.W - w
		dl.rect(LayerChart, lx, k.ly-h/2, w, h, 2*u, th.Panel, color.RGBA{}, 0)
		dl.text(LayerChart, lx+3*u, k.ly, name, size, Start, assets.Medium, th.Pause)
	}
}

func (b *Builder) fctChart(r Rect) {
	L, dl, th := b.layout, &b.dl, b.th
	cur := b.f.Cur
	b.fct = b.fct[:0]
	if cur != nil {
		for i := range cur.Flows {
			if fl := &cur.Flows[i]; fl.Done {
				b.fct = append(b.fct, (fl.Finish - fl.Start).Micros())
			}
		}
	}
	total := 0
	if cur != nil {
		total = len(cur.Flows)
	}
	p := b.plotArea(r, b.t("chart.fct"), "", nil)
	p.Y += 10 * L.U // a line of figures under the title
	p.H -= 10 * L.U
	if len(b.fct) == 0 {
		b.frame(p, scale{}, nil)
		if total == 0 { // e.g. a training step still computing
			b.empty(p, b.t("chart.no-flows"))
		} else {
			b.empty(p, b.tf("chart.none-done", total))
		}
		return
	}
	slices.Sort(b.fct)
	lo, hi := b.fct[0], b.fct[len(b.fct)-1]
	if hi-lo < 0.1*hi { // nearly equal times: widen the range so the bars show it
		lo, hi = max(0, lo-0.05*hi), hi+0.05*hi
	}
	if hi <= lo {
		hi = lo + 1
	}
	const nb = 24
	if cap(b.bins) < nb {
		b.bins = make([]int, nb)
	}
	bins := b.bins[:nb]
	clear(bins)
	for _, v := range b.fct {
		bins[min(int((v-lo)/(hi-lo)*nb), nb-1)]++
	}
	top := 0
	for _, c := range bins {
		top = max(top, c)
	}
	sc := niceScale(float64(top))
	if sc.Step < 1 { // counts are whole
		sc = scale{max(1, math.Ceil(sc.Max)), 1}
	}
	b.frame(p, sc, func(v float64) string { return trim(v) })
	u := L.U
	// round completion times along the bins' range
	b.timeAxis(p, unit.Time(lo*float64(unit.Microsecond)), unit.Time(hi*float64(unit.Microsecond)))
	bw := p.W / nb
	for i, c := range bins {
		if c == 0 {
			continue
		}
		h := p.H * float64(c) / sc.Max
		dl.rect(LayerChart, p.X+float64(i)*bw+0.5, p.Y+p.H-h, bw-1, h, 0, assets.Viridis(0.45), color.RGBA{}, 0)
	}
	med := b.fct[len(b.fct)/2]
	p99 := b.fct[min(len(b.fct)-1, int(float64(len(b.fct))*0.99))]
	s := b.tf("chart.fct.figures", len(b.fct), total, fmtMicros(med), fmtMicros(p99))
	if TextWidth(s, b.fs(0.75), 0) > r.W-20*L.U {
		s = b.tf("chart.fct.short", len(b.fct), total, fmtMicros(med))
	}
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, s, false)
	dl.text(LayerChart, r.X+10*u, r.Y+29*u, s, b.fs(0.75), Start, assets.Regular, th.Muted)
}

// rateLimited reports whether congestion control has held back any sender so far.
func (b *Builder) rateLimited() bool {
	for _, s := range b.history() {
		if b.series.limited(s) {
			return true
		}
	}
	return false
}

// senderRates charts the rate congestion control allows each sender over
// time (line rate where it allows all): how DCQCN or ibcc cuts and recovers.
// The axis fits the rates seen so far, so that senders held to a few Gb/s
// do not lie flat on a line-rate axis.
func (b *Builder) senderRates(ci int, r Rect, hist []*snap.Snapshot) {
	L, dl, cur := b.layout, &b.dl, b.f.Cur
	n := min(len(cur.Flows), maxSeries)
	prefix, key := b.flowKey(cur, n)
	p := b.plotArea(r, b.t("chart.rates"), prefix, key)
	line := 0.0
	for _, l := range L.Topo.Links {
		line = max(line, float64(l.Rate))
	}
	if len(cur.Flows) > 0 {
		// the senders' own links set the scale
		if nd := &L.Topo.Nodes[L.Topo.Endpoints[cur.Flows[0].Src]]; len(nd.Out) > 0 {
			line = float64(L.Topo.Links[nd.Out[len(nd.Out)-1]].Rate)
		}
	}
	idx := sampled(len(hist), b.top)
	b.top = idx
	rate := func(s *snap.Snapshot, f int) (float64, bool) {
		if f >= s.NumFlows() || !s.Flow(f).Started || s.Flow(f).Done {
			return 0, false
		}
		if g := s.Flow(f).RateGbps; g > 0 {
			return g * 1e9, true
		}
		return line, true
	}
	top, low := 0.0, math.Inf(1)
	for _, s := range hist {
		for f := range n {
			if v, ok := rate(s, f); ok {
				top, low = max(top, v), min(low, v)
			}
		}
	}
	// A log axis from the decade below the lowest rate to the one above the
	// highest: senders cut to a few Gb/s from line rate are not flat on the
	// floor, and each halving is the same step. It grows both ways only.
	hi := math.Ceil(math.Log10(b.grow(peakRates, max(top, 1e9))))
	if low > top {
		low = top
	}
	if b.ch.low == 0 || low < b.ch.low {
		b.ch.low = max(low, 1e6)
	}
	lo := min(math.Floor(math.Log10(b.ch.low)), hi-1)
	ylog := func(v float64) float64 {
		return p.Y + p.H*(1-min(max((math.Log10(max(v, 1))-lo)/(hi-lo), 0), 1))
	}
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	span := max(float64(t1-t0), 1)
	b.logFrame(p, lo, hi, ylog)
	b.timeAxis(p, t0, t1)
	for f := range n {
		p0, v0 := len(dl.Points), len(b.ch.vals)
		for _, k := range idx {
			s := hist[k]
			v, ok := rate(s, f)
			if !ok {
				continue
			}
			x := p.X + p.W*float64(s.Time-t0)/span
			dl.Points = append(dl.Points, float32(x), float32(ylog(v)))
			b.ch.vals = append(b.ch.vals, s.Time.Micros(), v)
		}
		b.addLine(ci, p0, v0, 1.4*L.U, key[f].c, key[f].name, fmtRate)
	}
}

// chartReadout draws, while the cursor is over a chart, the point of the
// line nearest to it: a guide at its time, a ring on it, and a label with
// the time, the line's name and its value.
func (b *Builder) chartReadout() {
	h := b.f.Hover
	if h.Kind != HoverChart {
		return
	}
	L, dl, th, cs := b.layout, &b.dl, b.th, &b.ch
	u := L.U
	best, bestK, bestD := -1, 0, math.Inf(1)
	for i := range cs.lines {
		ln := &cs.lines[i]
		if ln.chart != h.ID {
			continue
		}
		for k := range ln.n {
			x, y := float64(dl.Points[ln.p0+2*k]), float64(dl.Points[ln.p0+2*k+1])
			// nearest in time first: a line far below still wins over no line
			d := math.Abs(x-h.X)*4 + math.Abs(y-h.Y)
			if d < bestD {
				best, bestK, bestD = i, k, d
			}
		}
	}
	if best < 0 {
		return
	}
	ln := &cs.lines[best]
	x, y := float64(dl.Points[ln.p0+2*bestK]), float64(dl.Points[ln.p0+2*bestK+1])
	t, v := cs.vals[ln.v0+2*bestK], cs.vals[ln.v0+2*bestK+1]
	r := L.Charts[h.ID]
	dl.line(LayerTooltip, x, r.Y+28*u, x, r.Y+r.H-22*u, 1*u, th.Muted)
	dl.circle(LayerTooltip, x, y, 3.5*u, ln.c, th.Panel, 1.5*u)
	size := b.fs(0.8)
	l1 := "t = " + fmtMicros(t)
	l2 := ln.name + ": " + ln.unit(v)
	w := max(TextWidth(l1, size, assets.Medium), TextWidth(l2, size, assets.Regular)) + 14*u
	bh := size*2.9 + 6*u
	bx, by := x+8*u, y-bh-6*u
	if bx+w > r.X+r.W-4*u {
		bx = max(x-8*u-w, r.X+50*u) // left of the guide, clear of the axis labels
	}
	by = max(by, r.Y+4*u)
	dl.rect(LayerTooltip, bx, by, w, bh, 4*u, th.Panel, th.Border, 1*u)
	dl.text(LayerTooltip, bx+7*u, by+3*u+size*0.72, l1, size, Start, assets.Medium, th.Text)
	dl.text(LayerTooltip, bx+7*u, by+3*u+size*2.17, l2, size, Start, assets.Regular, th.Muted)
}

func itoa(i int) string { return strconv.Itoa(i) }
