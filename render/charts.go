package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"fabriclab/assets"
	"fabriclab/sim/snap"
)

// maxSeries is how many flows the throughput chart draws one by one; with more
// it draws one line per shard (collectives) or the total.
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
	for i, r := range L.Charts {
		b.panel(r)
		switch L.Kinds[i] {
		case ChartThroughput:
			b.throughput(r)
		case ChartQueues:
			b.queues(r)
		case ChartFCT:
			b.fctChart(r)
		}
	}
}

func (b *Builder) panel(r Rect) {
	b.dl.rect(LayerPanel, r.X, r.Y, r.W, r.H, 8*b.layout.U, b.th.Panel, b.th.Border, 1*b.layout.U)
}

// plotArea is the inside of a chart panel below its title.
func (b *Builder) plotArea(r Rect, title string) Rect {
	u := b.layout.U
	b.dl.text(LayerChart, r.X+10*u, r.Y+13*u, title, b.fs(1.0), Start, assets.Medium, b.th.Text)
	left := 50 * u
	return Rect{r.X + left, r.Y + 30*u, r.W - left - 12*u, r.H - 30*u - 22*u}
}

// axes draws a plot's frame, y labels (0 and ymax) and x labels.
func (b *Builder) axes(p Rect, ymax, xlo, xhi string) {
	u, th, dl := b.layout.U, b.th, &b.dl
	dl.line(LayerChart, p.X, p.Y+p.H, p.X+p.W, p.Y+p.H, 1*u, th.Border)
	dl.line(LayerChart, p.X, p.Y, p.X, p.Y+p.H, 1*u, th.Border)
	dl.line(LayerChart, p.X, p.Y, p.X+p.W, p.Y, 0.6*u, th.Border)
	dl.text(LayerChart, p.X-5*u, p.Y, ymax, b.fs(0.78), End, assets.Regular, th.Muted)
	dl.text(LayerChart, p.X-5*u, p.Y+p.H, "0", b.fs(0.78), End, assets.Regular, th.Muted)
	dl.text(LayerChart, p.X, p.Y+p.H+11*u, xlo, b.fs(0.78), Start, assets.Regular, th.Muted)
	dl.text(LayerChart, p.X+p.W, p.Y+p.H+11*u, xhi, b.fs(0.78), End, assets.Regular, th.Muted)
}

func (b *Builder) empty(p Rect, msg string) {
	x, y := p.Center()
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

func (b *Builder) throughput(r Rect) {
	L, dl := b.layout, &b.dl
	hist := b.history()
	cur := b.f.Cur
	if cur == nil || len(hist) < 2 {
		p := b.plotArea(r, "Throughput")
		b.axes(p, "", "", "")
		b.empty(p, "waiting for data")
		return
	}
	if b.rateLimited() {
		b.senderRates(r, hist)
		return
	}
	// What the lines are: flows one by one, shards, or the total.
	nflows := len(cur.Flows)
	groups, title := 1, "Throughput, all flows"
	group := func(fl *snap.Flow, i int) int { return 0 }
	maxTag := -1
	for i := range cur.Flows {
		maxTag = max(maxTag, cur.Flows[i].Tag)
	}
	switch {
	case nflows <= maxSeries && nflows > 0:
		groups, title = nflows, "Throughput per flow"
		group = func(fl *snap.Flow, i int) int { return i }
	case maxTag >= 0 && maxTag < maxSeries:
		groups, title = maxTag+1, "Throughput per shard"
		group = func(fl *snap.Flow, i int) int { return fl.Tag }
	}
	p := b.plotArea(r, title)
	idx := sampled(len(hist), b.top)
	b.top = idx
	// Rates over a window of a few samples (a fifteenth of the span), and
	// their maximum: per-sample rates of round-robin senders only jitter.
	win := max(1, len(idx)/15)
	ymax := 0.0
	for k := 1; k < len(idx); k++ {
		s0, s1 := hist[idx[max(0, k-win)]], hist[idx[k]]
		dt := (s1.Time - s0.Time).Seconds()
		if dt <= 0 {
			continue
		}
		a, c := b.series.get(s0, groups, group), b.series.get(s1, groups, group)
		for g := range groups {
			ymax = max(ymax, float64(c[g]-a[g])*8/dt)
		}
	}
	ymax = niceCeil(max(ymax, 1e9))
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	span := max(float64(t1-t0), 1)
	b.axes(p, axisRate(ymax), fmtTime(t0), fmtTime(t1))
	for g := range groups {
		c := assets.Categorical(g)
		if groups == 1 {
			c = b.th.Comm
		} else if nflows <= maxSeries && cur.Flows[g].Tag >= 0 {
			c = assets.Categorical(cur.Flows[g].Tag)
		}
		p0 := len(dl.Points)
		for k := 1; k < len(idx); k++ {
			s0, s1 := hist[idx[max(0, k-win)]], hist[idx[k]]
			dt := (s1.Time - s0.Time).Seconds()
			if dt <= 0 {
				continue
			}
			a, cc := b.series.get(s0, groups, group), b.series.get(s1, groups, group)
			v := float64(cc[g]-a[g]) * 8 / dt
			x := p.X + p.W*float64(s1.Time-t0)/span
			y := p.Y + p.H*(1-min(v/ymax, 1))
			dl.Points = append(dl.Points, float32(x), float32(y))
		}
		dl.polyline(LayerChart, p0, 1.6*L.U, c)
	}
}

func (b *Builder) queues(r Rect) {
	L, dl, th := b.layout, &b.dl, b.th
	p := b.plotArea(r, "Queue depth, busiest ports")
	hist := b.history()
	if b.f.Cur == nil || len(hist) < 1 {
		b.axes(p, "", "", "")
		b.empty(p, "waiting for data")
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
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	if nt == 0 {
		b.axes(p, "", fmtTime(t0), fmtTime(t1))
		b.empty(p, "no queues yet")
		return
	}
	ymax := niceCeil(float64(b.peaks[top[0]]) / 0.7) // room for the key
	b.axes(p, axisBytes(ymax), fmtTime(t0), fmtTime(t1))
	span := max(float64(t1-t0), 1)
	u := L.U
	mk := b.f.Cur.Marking
	lastY, lastEnd := math.Inf(-1), 0.0 // the last threshold label's line and right end
	for _, k := range [...]struct {
		v    int64
		name string
	}{{mk.ECNKmin, "Kmin"}, {mk.ECNKmax, "Kmax"}, {mk.FECN, "FECN"}} {
		if k.v <= 0 || float64(k.v) > ymax {
			continue
		}
		y := p.Y + p.H*(1-float64(k.v)/ymax)
		for x := p.X; x < p.X+p.W; x += 6 * u { // dashed, so it reads as a threshold
			dl.line(LayerChart, x, y, min(x+3*u, p.X+p.W), y, 1*u, th.Pause)
		}
		lx := p.X + 3*u
		if math.Abs(y-lastY) < b.fs(0.9) { // lines close together: labels side by side
			lx = lastEnd + 6*u
		}
		dl.text(LayerChart, lx, y-5*u, k.name, b.fs(0.7), Start, assets.Regular, th.Pause)
		lastY, lastEnd = y, lx+TextWidth(k.name, b.fs(0.7), assets.Regular)
	}
	for j := range nt {
		li := top[j]
		c := assets.Categorical(j + 4)
		p0 := len(dl.Points)
		for _, k := range idx {
			s := hist[k]
			if li >= s.NumLinks() {
				continue
			}
			x := p.X + p.W*float64(s.Time-t0)/span
			y := p.Y + p.H*(1-min(float64(s.Link(li).QueueBytes)/ymax, 1))
			dl.Points = append(dl.Points, float32(x), float32(y))
		}
		dl.polyline(LayerChart, p0, 1.6*u, c)
		// key: port name, top right, one per line
		ky := p.Y + 8*u + float64(j)*b.fs(0.95)
		name := L.Topo.LinkName(li)
		dl.line(LayerChart, p.X+p.W-10*u, ky, p.X+p.W-2*u, ky, 2*u, c)
		dl.text(LayerChart, p.X+p.W-13*u, ky, name, b.fs(0.75), End, assets.Regular, th.Muted)
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
	p := b.plotArea(r, "Flow completion times")
	p.Y += 10 * L.U // a line of figures under the title
	p.H -= 10 * L.U
	if len(b.fct) == 0 {
		b.axes(p, "", "", "")
		b.empty(p, fmt.Sprintf("0 of %d flows finished", total))
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
	ymax := niceCeil(float64(top))
	b.axes(p, fmt.Sprint(ymax), fmtMicros(lo), fmtMicros(hi))
	bw := p.W / nb
	for i, c := range bins {
		if c == 0 {
			continue
		}
		h := p.H * float64(c) / ymax
		dl.rect(LayerChart, p.X+float64(i)*bw+0.5, p.Y+p.H-h, bw-1, h, 0, assets.Viridis(0.45), color.RGBA{}, 0)
	}
	med := b.fct[len(b.fct)/2]
	p99 := b.fct[min(len(b.fct)-1, int(float64(len(b.fct))*0.99))]
	s := fmt.Sprintf("%d of %d done · median %s · p99 %s", len(b.fct), total, fmtMicros(med), fmtMicros(p99))
	u := L.U
	if TextWidth(s, b.fs(0.75), 0) > r.W-20*L.U {
		s = fmt.Sprintf("%d/%d · med %s", len(b.fct), total, fmtMicros(med))
	}
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
func (b *Builder) senderRates(r Rect, hist []*snap.Snapshot) {
	L, dl, cur := b.layout, &b.dl, b.f.Cur
	p := b.plotArea(r, "Sender rates (congestion control)")
	n := min(len(cur.Flows), maxSeries)
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
	ymax := niceCeil(line)
	idx := sampled(len(hist), b.top)
	b.top = idx
	t0, t1 := hist[0].Time, hist[len(hist)-1].Time
	span := max(float64(t1-t0), 1)
	b.axes(p, axisRate(ymax), fmtTime(t0), fmtTime(t1))
	for f := range n {
		p0 := len(dl.Points)
		for _, k := range idx {
			s := hist[k]
			if f >= s.NumFlows() || !s.Flow(f).Started || s.Flow(f).Done {
				continue
			}
			v := line
			if g := s.Flow(f).RateGbps; g > 0 {
				v = g * 1e9
			}
			x := p.X + p.W*float64(s.Time-t0)/span
			y := p.Y + p.H*(1-min(v/ymax, 1))
			dl.Points = append(dl.Points, float32(x), float32(y))
		}
		dl.polyline(LayerChart, p0, 1.4*L.U, flowColor(&cur.Flows[f], f))
	}
}
