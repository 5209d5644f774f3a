package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Kinds of chart a collective draws in place of the queue and
// completion-time charts.
const (
	chartChunks Charts = 1 << 5 // which chunks each GPU holds, how far reduced
	chartSteps  Charts = 1 << 6 // each step's span over time
	chartRoute  Charts = 1 << 4 // the routing view's panel (routing.go)
)

// maxArrows bounds the transfers drawn on the topology.
const maxArrows = 64

// chartsAndCollective draws the charts and, for a collective, what it does
// now: its phase and step in the header, the current step's transfers on the
// topology, the chunk matrix and the steps chart in the place of the queue
// and completion-time charts. Other scenarios get the charts unchanged.
func (b *Builder) chartsAndCollective() {
	c := b.coll()
	L := b.layout
	if c == nil && b.f.Cur != nil && b.routingShown() && len(L.Charts) > 0 {
		// The routing view's panel takes the last chart's place.
		cp := *L
		cp.Kinds = slices.Clone(L.Kinds)
		cp.Kinds[len(cp.Kinds)-1] = chartRoute
		b.layout = &cp
		b.charts()
		b.layout = L
		b.routeInset(b.f.Cur.Routing, L.Charts[len(L.Charts)-1])
		return
	}
	if c == nil && b.inferenceShown() {
		b.inferenceCharts() // inference.go
		return
	}
	if c == nil && b.trainingShown() {
		b.trainingCharts() // iteration.go
		return
	}
	if c == nil {
		b.charts()
		return
	}
	kinds := slices.Clone(L.Kinds)
	for i, k := range kinds {
		switch k {
		case ChartQueues:
			kinds[i] = chartChunks
		case ChartFCT:
			kinds[i] = chartSteps
		}
	}
	// The charts are drawn from a copy of the layout whose kinds the chart
	// code does not know, so it leaves those panels empty for us.
	cp := *L
	cp.Kinds = kinds
	b.layout = &cp
	b.charts()
	b.layout = L
	for i, k := range kinds {
		switch k {
		case chartChunks:
			b.chunks(L.Charts[i], c)
		case chartSteps:
			b.steps(L.Charts[i], c)
		}
	}
	b.collHeader(c)
	b.arrows(c)
}

// coll is the current snapshot's collective, if any.
func (b *Builder) coll() *snap.Collective {
	if cur := b.f.Cur; cur != nil {
		return cur.Collective
	}
	return nil
}

// opWords names an operation as the lessons write it.
func opWords(lang Lang, op string) string {
	if i18n.Has("op." + op) {
		return i18n.T(lang, "op."+op)
	}
	return op
}

// algoWords names an algorithm.
func algoWords(lang Lang, algo string) string {
	if i18n.Has("algo." + algo) {
		return i18n.T(lang, "algo."+algo)
	}
	return algo
}

// phaseWords is a phase's name (as sim/coll writes it in English) in lang;
// a name the catalogue lacks shows as it is.
func phaseWords(lang Lang, phase string) string {
	if i18n.Has("phase." + phase) {
		return i18n.T(lang, "phase."+phase)
	}
	return phase
}

// joinWords joins two phrases, with a space unless both sides of the join
// are Chinese.
func joinWords(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 0 && len(rb) > 0 && ra[len(ra)-1] >= 0x2e80 && rb[0] >= 0x2e80 {
		return a + b
	}
	return a + " " + b
}

// collStatus is the collective's state in words: "ring all-reduce ·
// reduce-scatter · step 3 of 7", "pairwise all-to-all · round 2 of 15".
func collStatus(lang Lang, c *snap.Collective, rails string) string {
	var sb strings.Builder
	sb.WriteString(joinWords(algoWords(lang, c.Algo), opWords(lang, c.Op)))
	if c.Finished {
		sb.WriteString(i18n.Tf(lang, "coll.finished", fmtTime(c.Elapsed)))
		return sb.String()
	}
	phase := c.Phase
	if phase == opWords(EN, c.Op) || phase == "" {
		phase = ""
	}
	phase = phaseWords(lang, phase)
	switch {
	case c.Streamed && c.Pipelined && c.Phases > 1:
		sb.WriteString(i18n.Tf(lang, "coll.pipelined", c.Phases, fmtPct(c.Done)))
	case c.Streamed && c.Phases > 1:
		sb.WriteString(i18n.Tf(lang, "coll.phase-of", c.PhaseIndex+1, c.Phases, phase))
	case c.Op == "alltoall" && c.Steps <= 1 && c.Phases <= 1:
		sb.WriteString(i18n.T(lang, "coll.all-at-once"))
	default:
		if phase != "" {
			sb.WriteString(" · ")
			sb.WriteString(phase)
		}
		if c.Steps > 0 && (c.Op != "alltoall" || c.Steps > 1) { // PXN's phases are one step each
			if c.Op == "alltoall" {
				sb.WriteString(i18n.Tf(lang, "coll.round-of", c.Step, c.Steps))
			} else {
				sb.WriteString(i18n.Tf(lang, "coll.step-of", c.Step, c.Steps))
			}
		}
	}
	if rails != "" {
		sb.WriteString(" · ")
		sb.WriteString(rails)
	}
	return sb.String()
}

// railsOf names the rails the current step's transfers between nodes use:
// a rail is a GPU's index in its node, and its NIC.
// railOf is the rail (leaf) a GPU's NIC is on: the GPU's index on a node
// with a NIC per GPU, fewer where GPUs share a NIC (topology.nics_per_node,
// dgx only: elsewhere the GPU's index, as before).
func railOf(t *topo.Topology, gpu int) int {
	if t.Kind != topo.DGX {
		return t.Nodes[gpu].Index
	}
	for _, l := range t.Nodes[gpu].Out {
		if nic := t.Links[l].To; t.Nodes[nic].Role == topo.NIC {
			for _, m := range t.Nodes[nic].Out {
				if leaf := t.Links[m].To; t.Nodes[leaf].Role == topo.Leaf {
					return t.Nodes[leaf].Index
				}
			}
		}
	}
	return t.Nodes[gpu].Index
}

func (b *Builder) railsOf(c *snap.Collective) string {
	t := b.layout.Topo
	if t.Torus != nil {
		return "" // no rails: chips send on their own ICI links
	}
	var rails []int
	for _, s := range c.Sends {
		if !s.Net || s.Src < 0 || int(s.Src) >= len(t.Endpoints) {
			continue
		}
		r := railOf(t, t.Endpoints[s.Src])
		if !slices.Contains(rails, r) {
			rails = append(rails, r)
		}
	}
	slices.Sort(rails)
	switch {
	case len(rails) == 0:
		return ""
	case len(rails) == 1:
		return b.tf("coll.rail", rails[0])
	case rails[len(rails)-1]-rails[0] == len(rails)-1:
		return b.tf("coll.rails", rails[0], rails[len(rails)-1])
	}
	return b.tf("coll.rails.n", len(rails))
}

// collHeader writes the status in the header, between the topology summary
// and the time, as large as fits.
func (b *Builder) collHeader(c *snap.Collective) {
	L, dl := b.layout, &b.dl
	h := L.Header
	title := L.Opt.Title
	if title == "" {
		title = "fabriclab"
	}
	x0 := b.fitHeader(title, "", "").noteX + 10*L.U // after what the header shows (fitHeader)
	x1 := h.X + h.W - TextWidth("t = "+fmtTime(b.f.Cur.Time), b.fs(1.6), assets.Bold) - 24*L.U
	if b.f.Cur.Done {
		x1 -= TextWidth(b.t("head.finished"), b.fs(1.0), assets.Medium) + 12*L.U
	}
	if x1-x0 < 60*L.U {
		return
	}
	// the whole status, else without the rails, else without the algorithm,
	// else none (it would run into the summary or the time)
	rails := b.railsOf(c)
	lang := L.Opt.Lang
	tries := []string{collStatus(lang, c, rails), collStatus(lang, c, "")}
	if i := strings.Index(tries[1], " · "); i > 0 {
		tries = append(tries, tries[1][i+len(" · "):])
	}
	size := L.Type.Main
	s := ""
	for _, t := range tries {
		if TextWidth(t, size, assets.Bold) <= x1-x0 {
			s = t
			break
		}
	}
	dl.text(LayerLabel, (x0+x1)/2, h.Y+h.H/2, s, size, Middle, assets.Bold, b.th.Text)
}

// phaseColor is the colour of phase i (reduce phases warm, gathers cool).
func phaseColor(th *assets.Theme, i int) color.RGBA {
	return th.Categorical([...]int{0, 4, 2, 6, 5, 1}[i%6])
}

// cellColor is the colour of a cell filled v (0…1): the link-load ramp.
func (b *Builder) cellColor(v float64) color.RGBA {
	if v <= 0 {
		return b.th.Idle
	}
	return b.loadColor(v)
}

// chunks draws the matrix: a row per GPU (or group), a column per chunk,
// each cell as full as the chunk is reduced (or, in an all-to-all, received).
func (b *Builder) chunks(r Rect, c *snap.Collective) {
	u := b.layout.U
	chunksHeader(b, r, c)
	if c.Rows == 0 || c.Cols == 0 || len(c.Cells) < c.Rows*c.Cols {
		p := Rect{r.X + 10*u, r.Y + 54*u, r.W - 20*u, r.H - 64*u}
		b.empty(p, b.t("coll.too-many"))
		return
	}
	// the matrix, with row labels on the left, each row's mean over every
	// piece on the right, and a key below
	m := chunkMatrix{b: b, c: c, cells: c.Cells, slot: len(c.Slot) == len(c.Cells)}
	if m.slot {
		m.cells = c.Slot
	}
	labelW := TextWidth(b.tf("coll.gpu", 0)+"0", b.fs(0.7), 0) + 6*u
	if c.RowRanks > 1 || (r.H-80*u)/float64(c.Rows) < b.fs(0.85) { // ranges of ranks
		labelW = max(labelW, TextWidth(fmt.Sprintf("%d–%d", c.Ranks, c.Ranks), b.fs(0.7), 0)+6*u)
	}
	if m.slot {
		m.meanW = TextWidth(b.t("coll.all-pieces"), b.fs(0.68), 0) + 8*u
	}
	m.area = Rect{r.X + 10*u + labelW, r.Y + 58*u, r.W - 20*u - labelW - m.meanW, r.H - 58*u - 22*u}
	m.cs = min(m.area.W/float64(c.Cols), m.area.H/float64(c.Rows))
	if m.cs <= 0 {
		return
	}
	if m.cs >= 6*u {
		m.gap = max(0.6, m.cs*0.08)
	}
	m.mx = m.area.X + float64(c.Cols)*m.cs + 6*u
	if m.slot {
		b.dl.text(LayerChart, m.mx, m.area.Y-5*u, b.t("coll.all-pieces"), b.fs(0.68), Start, assets.Regular, b.th.Muted)
	}
	for row := range c.Rows {
		m.row(row)
	}
	m.key(r)
}

// chunksHeader draws the matrix's title and the bandwidth so far.
func chunksHeader(b *Builder, r Rect, c *snap.Collective) {
	dl, th, u := &b.dl, b.th, b.layout.U
	title := b.t("coll.chunks")
	switch {
	case c.Kind == snap.Received:
		title = b.t("coll.received")
	case c.Op == "allgather" || c.Op == "broadcast":
		title = b.t("coll.held")
	}
	dl.text(LayerChart, r.X+10*u, r.Y+13*u, shorten(title, b.fs(1.0), assets.Medium, r.W-20*u), b.fs(1.0), Start, assets.Medium, th.Text)
	bw := b.tf("coll.bw", fmtGBps(c.AlgBwGBps), fmtGBps(c.BusBwGBps)) // the key figure
	note := b.tf("coll.so-far", fmtPct(c.Done), fmtBytes(float64(c.Bytes)), fmtTime(c.Elapsed))
	if c.Finished {
		note = b.tf("coll.as-reported", fmtBytes(float64(c.Bytes)), fmtTime(c.Elapsed))
		bw = b.tf("coll.bw.final", fmtGBps(c.AlgBwGBps), fmtGBps(c.BusBwGBps))
	}
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, title, true)
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, bw, false)
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, note, false)
	dl.text(LayerChart, r.X+10*u, r.Y+30*u, shorten(bw, b.fs(0.9), assets.Bold, r.W-20*u), b.fs(0.9), Start, assets.Bold, th.Text)
	dl.text(LayerChart, r.X+10*u, r.Y+44*u, shorten(note, b.fs(0.75), assets.Regular, r.W-20*u), b.fs(0.75), Start, assets.Regular, th.Muted)
}

// chunkMatrix is the laid-out matrix of a collective's chunks.
type chunkMatrix struct {
	b     *Builder
	c     *snap.Collective
	cells []uint8 // what the cells show: the chunks, or the current piece's
	slot  bool    // cells are the current piece's; a column of means shows every piece
	area  Rect    // the cells
	cs    float64 // a cell's side
	gap   float64 // between cells
	meanW float64 // the means' column's width
	mx    float64 // the means' column's x
}

// row draws a row of cells, its mean over every piece and its label.
func (m *chunkMatrix) row(row int) {
	b, c, dl, th, u := m.b, m.c, &m.b.dl, m.b.th, m.b.layout.U
	cs, gap, area := m.cs, m.gap, m.area
	full := float64(c.Ranks)
	y := area.Y + float64(row)*cs
	mean := 0.0
	for col := range c.Cols {
		v := float64(m.cells[row*c.Cols+col]) / 255
		mean += float64(c.Cells[row*c.Cols+col]) / 255 / float64(c.Cols)
		dl.rect(LayerChart, area.X+float64(col)*cs, y, cs-gap, cs-gap, 0, b.cellColor(v), color.RGBA{}, 0)
		if cs >= 24*u && c.Kind == snap.Reduced {
			k := int(math.Round(v * full))
			tc := color.RGBA{255, 255, 255, 255} // on the ramp's dark end
			if v > 0.6 {
				tc = color.RGBA{20, 20, 30, 255}
			}
			dl.text(LayerChart, area.X+(float64(col)+0.5)*cs-gap/2, y+cs/2-gap/2, strconv.Itoa(k), b.fs(0.62), Middle, assets.Medium, tc)
		}
	}
	if m.slot {
		bw := m.meanW - 10*u
		bh := max(min(cs-gap, 8*u), 1)
		by := y + (cs-gap-bh)/2
		dl.rect(LayerChart, m.mx, by, bw, bh, 0, th.Idle, color.RGBA{}, 0)
		dl.rect(LayerChart, m.mx, by, bw*mean, bh, 0, b.cellColor(mean), color.RGBA{}, 0)
	}
	every := m.every()
	if row%every != 0 {
		return
	}
	// a label per row, or per group of rows where rows are thinner than
	// the text: the group's range of ranks, with a bar along its rows
	lab := b.tf("coll.gpu", row)
	last := min(row+every, c.Rows) // the rows this label covers: row ..< last
	if c.RowRanks > 1 || every > 1 {
		lo := row * c.RowRanks
		lab = fmt.Sprintf("%d–%d", lo, min(last*c.RowRanks, c.Ranks)-1)
	}
	h, x := float64(last-row)*cs-gap, area.X-4*u
	if every > 1 {
		dl.line(LayerChart, area.X-2.5*u, y+1, area.X-2.5*u, y+h-1, 1.2*u, th.Muted)
		x -= u
	}
	dl.text(LayerChart, x, y+h/2, lab, b.fs(0.7), End, assets.Regular, th.Muted)
}

// every is how many rows one label covers: 1, or as many as make the text's
// height.
func (m *chunkMatrix) every() int {
	every := 1
	for float64(every)*m.cs < m.b.fs(0.85) && every < m.c.Rows {
		every *= 2
	}
	return every
}

// key draws, under the matrix in r, what a column is and the colour scale.
func (m *chunkMatrix) key(r Rect) {
	b, c, dl, th, u := m.b, m.c, &m.b.dl, m.b.th, m.b.layout.U
	ky := m.area.Y + float64(c.Rows)*m.cs + 10*u
	kx := r.X + 10*u
	var lo, hi, what string
	switch {
	case c.Kind == snap.Received:
		lo, hi, what = "0", "100%", b.t("coll.col.from")
	case c.Op == "allgather" || c.Op == "broadcast":
		lo, hi, what = b.t("coll.none"), b.t("coll.has"), b.t("coll.col.chunk")
	default:
		lo, hi = "1/"+strconv.Itoa(c.Ranks), strconv.Itoa(c.Ranks)+"/"+strconv.Itoa(c.Ranks)
		what = b.chunkWhat(c)
	}
	dl.text(LayerChart, kx, ky, lo, b.fs(0.7), Start, assets.Regular, th.Muted)
	kx += TextWidth(lo, b.fs(0.7), 0) + 4*u
	rw := 60 * u
	const steps = 12
	for i := range steps {
		v := (float64(i) + 0.5) / steps
		dl.rect(LayerChart, kx+rw*float64(i)/steps, ky-3.5*u, rw/steps+0.5, 7*u, 0, b.cellColor(v), color.RGBA{}, 0)
	}
	kx += rw + 4*u
	dl.text(LayerChart, kx, ky, hi, b.fs(0.7), Start, assets.Regular, th.Muted)
	kx += TextWidth(hi, b.fs(0.7), 0) + 10*u
	if kx+TextWidth(what, b.fs(0.7), 0) < r.X+r.W-8*u {
		dl.text(LayerChart, kx, ky, what, b.fs(0.7), Start, assets.Regular, th.Muted)
	}
}

// chunkWhat says what the matrix's columns are.
func (b *Builder) chunkWhat(c *snap.Collective) string {
	if c.ColOwner {
		if c.RowRanks > 1 {
			return b.t("coll.col.row-own")
		}
		return b.t("coll.col.gpu-own")
	}
	return b.t("coll.col.buffer")
}

// fmtGBps writes GB/s as nccl-tests print it.
func fmtGBps(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64) + " GB/s"
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 2, 64) + " GB/s"
	}
	return strconv.FormatFloat(v, 'f', 3, 64) + " GB/s"
}

// steps draws when each step (or phase) ran: a bar from its first transfer
// to its latest arrival, solid as its transfers finish, and the time now.
func (b *Builder) steps(r Rect, c *snap.Collective) {
	L, dl, th := b.layout, &b.dl, b.th
	u := L.U
	if len(c.Spans) <= 1 {
		b.moved(r, c)
		return
	}
	title := b.t("coll.steps")
	if c.Streamed {
		title = b.t("coll.phases")
	}
	p := b.plotArea(r, title, "", nil)
	// phase key (on up to two lines), unless the bars are named
	size, lh := L.Type.Small, L.Type.Small*1.4
	kx, ky, x1 := r.X+10*u, p.Y, r.X+r.W-6*u
	names := c.PhaseNames
	if c.Streamed && p.H/float64(max(len(c.Spans), 1)) >= b.fs(1.1) {
		names = nil
		dl.text(LayerChart, kx, ky, shorten(b.t("coll.bar-key"), size, assets.Regular, x1-kx), size, Start, assets.Regular, th.Muted)
	}
	for i, name := range names {
		name = phaseWords(L.Opt.Lang, name)
		w := TextWidth(name, size, 0)
		if kx+10*u+w > x1 && kx > r.X+10*u && ky == p.Y {
			kx, ky = r.X+10*u, ky+lh
		}
		if kx+10*u+w > x1 {
			break
		}
		dl.rect(LayerChart, kx, ky-3.5*u, 7*u, 7*u, 1.5*u, phaseColor(b.th, i), color.RGBA{}, 0)
		dl.text(LayerChart, kx+10*u, ky, name, size, Start, assets.Regular, th.Muted)
		kx += 10*u + w + 10*u
	}
	if expl := b.t("coll.solid"); names != nil && kx+TextWidth(expl, size, 0) < x1 {
		dl.text(LayerChart, kx, ky, expl, size, Start, assets.Regular, th.Muted)
	}
	top := ky + lh // the plot under the key's lines
	p.H -= top - p.Y
	p.Y = top
	now := b.f.Cur.Time
	start := now - c.Elapsed
	if c.Finished { // Elapsed stopped at the end: the collective began with its first step
		start = now
		for _, s := range c.Spans {
			start = min(start, s.First)
		}
		now = start + c.Elapsed
	}
	var t0, t1 unit.Time = start, now
	for _, s := range c.Spans {
		if s.Last > t1 {
			t1 = s.Last
		}
	}
	if t1 <= t0 || len(c.Spans) == 0 {
		b.empty(p, b.t("coll.waiting"))
		return
	}
	xOf := func(t unit.Time) float64 { return p.X + p.W*float64(t-t0)/float64(t1-t0) }
	b.frame(p, scale{}, nil)
	b.timeAxis(p, t0, t1)
	n := len(c.Spans)
	rh := p.H / float64(n)
	inside := rh >= b.fs(1.1) // room to name each bar's phase in it
	for i, s := range c.Spans {
		y := p.Y + float64(i)*rh
		if s.First == 0 && s.Last == 0 && s.Done == 0 {
			continue
		}
		end, col := s.Last, phaseColor(b.th, s.Phase)
		if s.Done < 1 {
			end = now // still running
		}
		x0, x1 := xOf(max(s.First, t0)), xOf(max(end, s.First))
		h := max(rh*0.72, 1)
		dl.rect(LayerChart, x0, y+(rh-h)/2, max(x1-x0, 1), h, 0, assets.Mix(th.Panel, col, 0.4), color.RGBA{}, 0)
		dl.rect(LayerChart, x0, y+(rh-h)/2, max((x1-x0)*s.Done, 1), h, 0, col, color.RGBA{}, 0)
		if inside && s.Phase < len(c.PhaseNames) {
			lab := fmtPct(s.Done) // steps: the phase is in the key
			if c.Streamed {
				lab = phaseWords(L.Opt.Lang, c.PhaseNames[s.Phase]) + " · " + lab
			}
			if lx := x0 + 4*u; lx+TextWidth(lab, b.fs(0.72), assets.Medium) < p.X+p.W-2*u {
				dl.text(LayerChart, lx, y+rh/2, lab, b.fs(0.72), Start, assets.Medium, th.Text)
			}
		}
	}
	// y labels: first and last step
	first, last := b.tf("coll.step", 1), b.tf("coll.step", max(n, c.AllSteps)) // beyond 64 steps a bar is a group
	if c.Streamed {
		first, last = b.tf("coll.phase", 1), b.tf("coll.phase", n)
	}
	dl.text(LayerChart, p.X-5*u, p.Y+rh/2, first, b.fs(0.7), End, assets.Regular, th.Muted)
	if n > 1 {
		dl.text(LayerChart, p.X-5*u, p.Y+p.H-rh/2, last, b.fs(0.7), End, assets.Regular, th.Muted)
	}
	if !c.Finished {
		x := xOf(now)
		dl.line(LayerChart, x, p.Y, x, p.Y+p.H, 1.2*u, th.Text)
	}
}

// moved draws the share of the collective's bytes that has arrived over
// time, from the snapshots kept so far: the chart of a one-step collective.
func (b *Builder) moved(r Rect, c *snap.Collective) {
	L, dl, th := b.layout, &b.dl, b.th
	u := L.U
	p := b.plotArea(r, b.t("coll.moved"), "", nil)
	now := b.f.Cur.Time
	t0 := now - c.Elapsed
	t1 := max(now, t0+1)
	b.frame(p, scale{1, 0.25}, fmtPct)
	b.timeAxis(p, t0, t1)
	p0 := len(dl.Points)
	for _, s := range b.history() {
		if s.Collective == nil || s.Time < t0 || s.Time > t1 {
			continue
		}
		x := p.X + p.W*float64(s.Time-t0)/float64(t1-t0)
		y := p.Y + p.H*(1-s.Collective.Done)
		dl.Points = append(dl.Points, float32(x), float32(y))
	}
	dl.polyline(LayerChart, p0, 1.8*u, phaseColor(b.th, 0))
	moved := b.tf("coll.moved.of", fmtPct(c.Done), fmtBytes(float64(c.Bytes)))
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, moved, false)
	dl.text(LayerChart, p.X+6*u, p.Y+10*u, moved, b.fs(0.8), Start, assets.Medium, th.Text)
}

// arrows draws the current step's transfers on the topology: inside a node
// an arc under the GPUs (through the NVSwitch), between nodes a line along
// the links through the NICs and rail switches, coloured by channel.
func (b *Builder) arrows(c *snap.Collective) {
	L := b.layout
	if b.channelRoutes(c) { // NCCL's channels: one at a time (channels.go)
		return
	}
	if c.Finished || len(c.Sends) == 0 {
		return
	}
	sends := c.Sends
	if len(sends) > maxArrows { // too many to tell apart: only the ones between nodes
		sends = nil
		for _, s := range c.Sends {
			if s.Net {
				sends = append(sends, s)
			}
		}
		if len(sends) > maxArrows {
			return
		}
	}
	u := L.U
	w := max(1.8*u, L.LinkW*1.4)
	if len(sends) > 16 {
		w = max(1.1*u, L.LinkW)
	}
	if b.inNetwork() {
		b.switchArrows(sends, w)
		return
	}
	for _, s := range sends {
		b.sendArrow(s, w, b.th.Categorical(int(s.Lane)), 0)
	}
}

// sendArrow draws one send on the topology, w wide in col: inside a node an
// arc under the GPUs (through the NVSwitch), between nodes a line along the
// links through the NICs and rail switches, off to the right of their
// centres (two routes over the same links side by side).
func (b *Builder) sendArrow(s snap.Send, w float64, col color.RGBA, off float64) {
	L := b.layout
	t, u := L.Topo, L.U
	box := func(ep int32) *NodeBox {
		if ep < 0 || int(ep) >= len(t.Endpoints) {
			return nil
		}
		nb := &L.Nodes[t.Endpoints[ep]]
		if !nb.Shown {
			return nil
		}
		return nb
	}
	src, dst := box(s.Src), box(s.Dst)
	if src == nil || dst == nil || src == dst {
		return
	}
	sx, _ := src.Center()
	dx, _ := dst.Center()
	if s.Net {
		// along the links: GPU, its NIC, the rail switch (and the other
		// rail's, when the hop changes rails), the other NIC, the GPU
		sn, dn := b.nicOf(t.Endpoints[s.Src]), b.nicOf(t.Endpoints[s.Dst])
		if sn < 0 || dn < 0 {
			return
		}
		pts := []int{t.Endpoints[s.Src], sn}
		sl, dlf := b.switchOf(sn), b.switchOf(dn)
		if sl >= 0 {
			pts = append(pts, sl)
		}
		if dlf >= 0 && dlf != sl {
			if sp := b.spineOver(sl, dlf); sp >= 0 {
				pts = append(pts, sp) // changing rails: up through a spine
			}
			pts = append(pts, dlf)
		}
		pts = append(pts, dn, t.Endpoints[s.Dst])
		b.path(pts, w, col, off)
		return
	}
	below := b.belowRoom(src)
	drop := min(max(math.Abs(dx-sx)*0.22, 10*u), below)
	b.arc(sx, src.Y+src.H, dx, dst.Y+dst.H, drop, w, col, true)
}

// belowRoom is how far under a GPU an arc may dip before the NVSwitch bar.
func (b *Builder) belowRoom(nb *NodeBox) float64 {
	L := b.layout
	bottom := nb.Y + nb.H
	room := 40 * L.U
	for i := range L.Topo.Nodes {
		if L.Topo.Nodes[i].Role == topo.NVSwitch {
			s := &L.Nodes[i]
			if s.Shown && s.X <= nb.X+nb.W && nb.X <= s.X+s.W && s.Y > bottom {
				room = min(room, s.Y-bottom-2*L.U)
			}
		}
	}
	return max(room, 4*L.U)
}

// haloLine draws the polyline of Points[p0:] in c over a wider one in the
// background colour, so that a transfer stands out from the links below.
func (b *Builder) haloLine(p0 int, w float64, c color.RGBA) {
	dl := &b.dl
	n := len(dl.Prims)
	dl.polyline(LayerLink, p0, w+2.2*b.layout.U, b.th.Background)
	if len(dl.Prims) > n {
		p := dl.Prims[n]
		p.Width, p.Stroke = float32(w), c
		dl.Prims = append(dl.Prims, p)
	}
}

// nicOf is the NIC a GPU reaches the network by, or −1.
func (b *Builder) nicOf(id int) int {
	t := b.layout.Topo
	for _, l := range t.Nodes[id].Out {
		if to := t.Links[l].To; t.Nodes[to].Role == topo.NIC && b.layout.Nodes[to].Shown {
			return to
		}
	}
	return -1
}

// switchOf is the switch above a NIC (its rail or leaf), or −1.
func (b *Builder) switchOf(id int) int {
	t := b.layout.Topo
	for _, l := range t.Nodes[id].Out {
		if to := t.Links[l].To; t.Nodes[to].Role.IsSwitch() && t.Nodes[to].Role != topo.NVSwitch && b.layout.Nodes[to].Shown {
			return to
		}
	}
	return -1
}

// spineOver is a switch above both a and b (the first by ID: the route
// ECMP picks is not known here), or −1.
func (b *Builder) spineOver(a, c int) int {
	t := b.layout.Topo
	ups := func(id int) []int {
		var out []int
		for _, l := range t.Nodes[id].Out {
			if to := t.Links[l].To; t.Nodes[to].Tier > t.Nodes[id].Tier && b.layout.Nodes[to].Shown {
				out = append(out, to)
			}
		}
		return out
	}
	if a < 0 || c < 0 {
		return -1
	}
	for _, x := range ups(a) {
		if slices.Contains(ups(c), x) {
			return x
		}
	}
	return -1
}

// path draws a line through the centres of nodes' boxes (dx to their
// right), leaving the first from its top and ending on the last's top with
// an arrowhead.
func (b *Builder) path(ids []int, w float64, c color.RGBA, dx float64) {
	dl, L := &b.dl, b.layout
	p0 := len(dl.Points)
	var px, py, x, y float64
	for i, id := range ids {
		nb := &L.Nodes[id]
		px, py = x, y
		x, y = nb.Center()
		x += dx
		if i == 0 || i == len(ids)-1 {
			y = nb.Y
		}
		dl.Points = append(dl.Points, float32(x), float32(y))
	}
	b.haloLine(p0, w, c)
	ang := math.Atan2(y-py, x-px)
	hl := max(8*L.U, w*3.5)
	for _, s := range []float64{-0.45, 0.45} {
		dl.line(LayerLink, x, y, x-hl*math.Cos(ang+s), y-hl*math.Sin(ang+s), w, c)
	}
}

// arc draws a quadratic curve from (x1, y1) to (x2, y2) bent by bend (down
// when positive), with an arrowhead at the end when head is set.
func (b *Builder) arc(x1, y1, x2, y2, bend, w float64, c color.RGBA, head bool) {
	dl := &b.dl
	mx, my := (x1+x2)/2, (y1+y2)/2+2*bend
	p0 := len(dl.Points)
	const n = 16
	var px, py float64
	for i := range n + 1 {
		t := float64(i) / n
		x := (1-t)*(1-t)*x1 + 2*(1-t)*t*mx + t*t*x2
		y := (1-t)*(1-t)*y1 + 2*(1-t)*t*my + t*t*y2
		if i == n-1 {
			px, py = x, y
		}
		dl.Points = append(dl.Points, float32(x), float32(y))
	}
	b.haloLine(p0, w, c)
	if !head {
		return
	}
	ang := math.Atan2(y2-py, x2-px)
	hl := max(8*b.layout.U, w*3.5)
	for _, s := range []float64{-0.45, 0.45} {
		dl.line(LayerLink, x2, y2, x2-hl*math.Cos(ang+s), y2-hl*math.Sin(ang+s), w, c)
	}
}
