package render

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// The training view: a Gantt strip per row of GPUs (compute on top, the
// collectives under the backward pass that produced them), a cursor at the
// snapshot's time, the iteration figures as they become known, and a legend
// for the colours the GPUs of the topology take too.

// Okabe–Ito colours, apart from each other for colour-blind readers; backward
// and gradient traffic are the theme's compute and communication colours.
var (
	colForward   = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	colOptimizer = color.RGBA{0xf0, 0xe4, 0x42, 0xff}
	colGather    = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	colTP        = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
	inkOnBar     = color.RGBA{0x10, 0x14, 0x18, 0xff}
)

// timelineRect takes the training timelines' panel from the bottom of the
// topology area, leaving the topology 150 px where it can; on a short area
// (presenter mode at 1024×768) the timelines keep the room for their header,
// two rows of GPUs and the axis, and the topology gets smaller.
func timelineRect(area Rect, m, u float64) (tl, rest Rect) {
	h := min(max(area.H*0.42, 160*u), 340*u)
	h = max(min(h, max(area.H-150*u-m, min(125*u, area.H-70*u-m))), 0)
	tl = Rect{area.X, area.Y + area.H - h, area.W, h}
	rest = area
	rest.H -= h + m
	return tl, rest
}

// trainingShown reports whether this scene draws the training view.
func (b *Builder) trainingShown() bool {
	return b.layout.Timeline.W > 0 && b.f.Cur != nil && b.f.Cur.Training != nil
}

func (b *Builder) phaseColor(p snap.Phase) color.RGBA {
	switch p {
	case snap.Forward:
		return colForward
	case snap.Optimizer:
		return colOptimizer
	}
	return b.th.Compute
}

func (b *Builder) commColor(c *snap.Comm) color.RGBA {
	switch {
	case c.TP:
		return colTP
	case c.Kind == "allgather":
		return colGather
	}
	return b.th.Comm
}

// shade tells neighbouring layer groups (and their buckets) apart.
func (b *Builder) shade(c color.RGBA, group int) color.RGBA {
	if group >= 0 && group%2 == 1 {
		return assets.Mix(c, b.th.Background, 0.4)
	}
	return c
}

// computeFill is a computing GPU's fill: its phase's colour when the
// training view (whose legend explains it) is shown.
func (b *Builder) computeFill() color.RGBA {
	if b.trainingShown() {
		if k, ok := b.f.Cur.Training.TaskAt(b.f.Cur.Time); ok {
			return b.phaseColor(k.Phase)
		}
	}
	return b.th.Compute
}

// doing is what endpoint e does, for its tooltip: a training rank's
// phase or what it waits for.
func (b *Builder) doing(e int) string {
	a := b.activity(e)
	tr := b.f.Cur.Training
	plain := b.t("act." + a.String())
	if tr == nil || e >= tr.Ranks || a == snap.Idle {
		return plain
	}
	d := tr.DoingAt(b.f.Cur.Time)
	lang := b.layout.Opt.Lang
	if a == snap.Computing {
		return spaced(i18n.Tf(lang, "train.computing", doingWords(lang, d, tr.Sharding)))
	}
	if d.Kind == snap.Waiting && (d.Wait != "" || d.For != nil) {
		return doingWords(lang, d, tr.Sharding)
	}
	return plain
}

// doingWords says in lang what the ranks do: "backward (bucket 3)",
// "waiting for gradients"; in English as snap's Training.Doing says it.
func doingWords(lang Lang, d snap.Doing, sharding string) string {
	switch d.Kind {
	case snap.Busy:
		if d.Phase == snap.Optimizer {
			return i18n.T(lang, "train.opt-step")
		}
		ph := phaseName(lang, d.Phase)
		switch {
		case d.Group >= 0 && d.Unit:
			return i18n.Tf(lang, "train.unit", ph, d.Group)
		case d.Group >= 0:
			return i18n.Tf(lang, "train.bucket", ph, d.Group)
		}
		return ph
	case snap.Waiting:
		switch {
		case d.Wait != "":
			return waitWords(lang, d.Wait)
		case d.For != nil:
			return spaced(i18n.Tf(lang, "train.wait.for", commWords(lang, d.For, sharding)))
		}
		return i18n.T(lang, "train.wait")
	}
	return i18n.T(lang, "act.idle")
}

// phaseName names a compute phase.
func phaseName(lang Lang, p snap.Phase) string {
	switch p {
	case snap.Forward:
		return i18n.T(lang, "train.forward")
	case snap.Backward:
		return i18n.T(lang, "train.backward")
	case snap.Optimizer:
		return i18n.T(lang, "train.optimizer")
	}
	return p.String()
}

// waitWords says a wait sim/train names (Task.Waited) in lang; one the
// catalogue lacks shows as it is.
func waitWords(lang Lang, w string) string {
	switch w {
	case "waiting for gradients":
		return i18n.T(lang, "train.wait.grads")
	case snap.TrailingWait:
		return i18n.T(lang, "train.wait.params")
	case "waiting for tensor-parallel all-reduce":
		return i18n.T(lang, "train.wait.tp")
	case "waiting for activations":
		return i18n.T(lang, "train.wait.acts")
	case "waiting for gradients from the next stage":
		return i18n.T(lang, "train.wait.stage-grads")
	case "waiting":
		return i18n.T(lang, "train.wait")
	}
	return w
}

// commWords names a collective of the run from its parts; in English as
// its Label (sim/train's) says it.
func commWords(lang Lang, c *snap.Comm, sharding string) string {
	switch {
	case c.TP:
		return i18n.T(lang, "train.comm.tp")
	case c.Group >= 0 && sharding == "fsdp":
		return i18n.Tf(lang, "train.comm.unit", opWords(lang, c.Kind), c.Group)
	case c.Group >= 0:
		return i18n.Tf(lang, "train.comm.bucket", opWords(lang, c.Kind), c.Group)
	case c.Kind == "allgather":
		return i18n.T(lang, "train.comm.params")
	}
	return c.Label
}

// spaced puts a space between a Chinese character and a Latin letter or
// figure next to it ("等待all-reduce" → "等待 all-reduce").
func spaced(s string) string {
	han := func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }
	latin := func(r rune) bool {
		return r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}
	rs := []rune(s)
	out := make([]rune, 0, len(rs)+4)
	for i, r := range rs {
		if i > 0 && (han(rs[i-1]) && latin(r) || latin(rs[i-1]) && han(r)) {
			out = append(out, ' ')
		}
		out = append(out, r)
	}
	return string(out)
}

var shardingNames = map[string]string{"none": "DDP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "fsdp": "FSDP"}

// trainWindow is the stretch of time the timelines span: every iteration
// when there are at most three, else the one under way; the parts not run
// yet are as long as the last iteration, or in the first one as its compute
// so far extrapolates (at least the planned compute).
func trainWindow(tr *snap.Training, now unit.Time) (w0, w1 unit.Time) {
	if len(tr.Starts) == 0 {
		return 0, max(tr.Compute, 1)
	}
	cur := tr.Iter(now)
	est := tr.Compute
	if n := len(tr.Steps); n > 0 {
		est = tr.Steps[n-1].End - tr.Steps[n-1].Start
	}
	start := tr.Starts[cur]
	if len(tr.Steps) == 0 { // the first iteration: extrapolate from the compute done, once there is some
		var done unit.Time
		for i := len(tr.Tasks) - 1; i >= 0 && tr.Tasks[i].Iter == cur; i-- {
			done += max(min(tr.Tasks[i].End, now)-tr.Tasks[i].Start, 0)
		}
		if done*10 >= tr.Compute {
			est = max(est, unit.Time(float64(now-start)*float64(tr.Compute)/float64(done)))
		}
	}
	end := start + max(est, now-start)
	if cur < len(tr.Steps) {
		end = tr.Steps[cur].End
	}
	if tr.Iterations > 3 {
		return start, max(end, start+1)
	}
	return tr.Starts[0], max(end+unit.Time(tr.Iterations-1-cur)*est, tr.Starts[0]+1)
}

// tickStep is a round step giving about n ticks over span.
func tickStep(span unit.Time, n float64) unit.Time {
	raw := float64(span) / n
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, k := range []float64{1, 2, 5, 10} {
		if k*p >= raw {
			return unit.Time(k * p)
		}
	}
	return unit.Time(10 * p)
}

// tickLabel writes t in the unit of step, with no more digits than it needs.
func tickLabel(t, step unit.Time) string {
	units := []struct {
		div  unit.Time
		name string
	}{{unit.Second, " s"}, {unit.Millisecond, " ms"}, {unit.Microsecond, " µs"}, {unit.Nanosecond, " ns"}}
	for _, u := range units {
		if step >= u.div || u.div == unit.Nanosecond {
			return strconv.FormatFloat(float64(t)/float64(u.div), 'f', -1, 64) + u.name
		}
	}
	return ""
}

// bar is a stretch of a lane, in px.
type bar struct {
	x0, x1 float64
	fill   color.RGBA
	task   *snap.Task // what it shows, for its label: a task, a collective or a wait
	comm   *snap.Comm
	wait   string
	idle   bool
	gap    bool // leave a hair at the end, so that bars that touch stay apart
}

func (b *Builder) training() {
	if !b.trainingShown() {
		if r := b.layout.Timeline; r.W > 0 {
			b.panel(r)
		}
		return
	}
	r := b.layout.Timeline
	b.panel(r)
	v := trainView{b: b, r: r, u: b.layout.U, tr: b.f.Cur.Training, now: b.f.Cur.Time}
	v.header()
	// plot geometry
	u := v.u
	labelW := 62 * u
	v.p = Rect{r.X + 10*u + labelW, r.Y + 50*u, r.W - 20*u - labelW, r.H - 50*u - 40*u}
	if v.p.W < 40*u || v.p.H < 20*u {
		return
	}
	v.w0, v.w1 = trainWindow(v.tr, v.now)
	v.size = b.fs(0.8)
	if v.tr.PP > 1 {
		v.stageLanes()
	} else {
		v.computeLane()
	}
	v.visibleComms()
	v.rows(v.rowSlots())
	v.saves()
	v.axis()
	b.trainLegend(r, v.tr, r.Y+r.H-10*u)
}

// trainView carries what the steps of drawing the training view share.
type trainView struct {
	b      *Builder
	r, p   Rect // the panel and the plot in it
	u      float64
	tr     *snap.Training
	now    unit.Time
	w0, w1 unit.Time // the time window shown
	lo     int       // the first task that ends after w0
	size   float64   // of the labels on bars
	lane   []bar     // the compute lane
	stages [][]bar   // with pipeline stages, each stage's compute lane instead
	comms  []*snap.Comm
}

func (v *trainView) px(t unit.Time) float64 {
	return v.p.X + v.p.W*float64(t-v.w0)/float64(v.w1-v.w0)
}

func (v *trainView) clip(x float64) float64 { return min(max(x, v.p.X), v.p.X+v.p.W) }

// header draws the title, what the GPUs do now, and the figures.
func (v *trainView) header() {
	b, th, dl, r, u, tr, now := v.b, v.b.th, &v.b.dl, v.r, v.u, v.tr, v.now
	x := r.X + 10*u
	y := r.Y + 14*u
	dl.text(LayerChart, x, y, b.t("train.title"), b.fs(1.0), Start, assets.Medium, th.Text)
	x += TextWidth(b.t("train.title"), b.fs(1.0), assets.Medium) + 10*u
	ctx := b.tf("train.ctx", tr.Model, tr.Ranks, shardingNames[tr.Sharding])
	if tr.TP > 1 {
		ctx += b.tf("train.ctx.tp", tr.TP)
	}
	if tr.PP > 1 {
		ctx += b.ppContext(tr)
	}
	if len(tr.Rows) > 0 && tr.Rows[0].Count > 1 {
		ctx += b.tf("train.ctx.rows", tr.Rows[0].Count)
	}
	cur := tr.Iter(now)
	ctx += b.tf("train.ctx.iter", cur+1, tr.Iterations)
	lang := b.layout.Opt.Lang
	nowText := ""
	if !b.f.Cur.Done {
		d := tr.DoingAt(now)
		nowText = b.tf("train.now", doingWords(lang, d, tr.Sharding))
		long := nowText
		for i := range tr.Running {
			if c := &tr.Running[i]; c.Label != "" && d.For != c {
				long += b.tf("train.on-wire", commWords(lang, c, tr.Sharding))
			}
		}
		room := min(r.W*0.5, r.X+r.W-10*u-12*u-x) // clear of the title
		nowText = fitText(room, b.fs(0.85), assets.Bold, long, nowText, shorten(nowText, b.fs(0.85), assets.Bold, room))
		dl.text(LayerChart, r.X+r.W-10*u, y, nowText, b.fs(0.85), End, assets.Bold, th.Text)
	}
	room := r.X + r.W - 10*u - TextWidth(nowText, b.fs(0.85), assets.Bold) - 12*u - x
	dl.text(LayerChart, x, y, fitText(room, b.fs(0.85), assets.Regular, ctx, b.tf("train.ctx.short", tr.Model, tr.Ranks), ""), b.fs(0.85), Start, assets.Regular, th.Muted)
	dl.text(LayerChart, r.X+10*u, y+16*u, fitText(r.W-20*u, b.fs(0.85), assets.Medium, append(b.trainFigures(tr, cur), "")...), b.fs(0.85), Start, assets.Medium, th.Text)
}

// trainSlot is a row of the plot: a row of GPUs, or the gap where the list
// skips ranks.
type trainSlot struct {
	y, h       float64
	row        int // index into tr.Rows, or -1 for the gap
	from, upTo int // a gap's neighbours
}

// rowSlots lays out as many rows as fit (the first ones and the last), with
// a "…" row where the list skips ranks.
func (v *trainView) rowSlots() []trainSlot {
	tr, p := v.tr, v.p
	shown := make([]int, 0, len(tr.Rows))
	minH := v.b.fs(0.85) * 1.6
	fit := max(int(p.H/minH), 2)
	for i := range tr.Rows {
		if len(tr.Rows) <= fit || i < max(fit-2, 1) || i == len(tr.Rows)-1 {
			shown = append(shown, i)
		}
	}
	var slots []trainSlot
	weight := 0.0
	for k, i := range shown {
		if k > 0 {
			a := tr.Rows[shown[k-1]]
			if skips(tr, a, tr.Rows[i]) {
				slots = append(slots, trainSlot{row: -1, from: shown[k-1], upTo: i})
				weight += 0.7
			}
		}
		slots = append(slots, trainSlot{row: i})
		weight++
	}
	if weight*minH > p.H && len(slots) > len(shown) { // no room for the "…" row: the labels say what is skipped
		slots = slices.DeleteFunc(slots, func(s trainSlot) bool { return s.row < 0 })
		weight = float64(len(slots))
	}
	rh := p.H / max(weight, 1)
	yy := p.Y
	for i := range slots {
		h := rh
		if slots[i].row < 0 {
			h = rh * 0.7
		}
		slots[i].y, slots[i].h = yy, h
		yy += h
	}
	return slots
}

// computeLane builds the compute lane, the same on every rank: the tasks and
// the waits between them.
func (v *trainView) computeLane() {
	b, th, tr, now, w0, w1 := v.b, v.b.th, v.tr, v.now, v.w0, v.w1
	lang := b.layout.Opt.Lang
	lane := b.trainBars[0][:0]
	v.lo = sort.Search(len(tr.Tasks), func(i int) bool { return tr.Tasks[i].End > w0 })
	for i := v.lo; i < len(tr.Tasks); i++ {
		k := &tr.Tasks[i]
		if k.Start >= w1 || k.Start > now {
			break
		}
		prevEnd := tr.Starts[k.Iter] // the end of the task before it in its iteration
		if i > 0 && tr.Tasks[i-1].Iter == k.Iter {
			prevEnd = tr.Tasks[i-1].End
		}
		if k.Start > prevEnd && k.Waited != "" {
			lane = append(lane, bar{x0: v.px(prevEnd), x1: v.px(k.Start), fill: th.Idle, idle: true,
				wait: waitWords(lang, k.Waited)})
		}
		end := min(k.End, now)
		c := b.shade(b.phaseColor(k.Phase), k.Group)
		lane = append(lane, bar{x0: v.px(k.Start), x1: v.px(end), fill: c, task: k})
		if last := i+1 == len(tr.Tasks) || tr.Tasks[i+1].Iter != k.Iter; last && k.Iter < len(tr.Steps) && tr.Steps[k.Iter].End > k.End {
			lane = append(lane, bar{x0: v.px(k.End), x1: v.px(min(tr.Steps[k.Iter].End, now)), fill: th.Idle, idle: true, wait: waitWords(lang, snap.TrailingWait)})
		}
	}
	// a wait under way: the last task has ended and the next has not begun
	if !b.f.Cur.Done && len(tr.Tasks) > 0 {
		if last := tr.Tasks[len(tr.Tasks)-1]; last.End < now {
			w := b.t("train.wait")
			if d := tr.DoingAt(now); d.Kind == snap.Waiting {
				w = doingWords(lang, d, tr.Sharding)
			}
			lane = append(lane, bar{x0: v.px(last.End), x1: v.px(now), fill: th.Idle, idle: true, wait: w})
		}
	}
	b.trainBars[0] = lane
	v.lane = lane
}

// visibleComms gathers the collectives in the window and those under way.
func (v *trainView) visibleComms() {
	tr := v.tr
	comms := v.b.trainComms[:0]
	for i := range tr.Comms {
		if c := &tr.Comms[i]; c.Start < v.w1 && c.End() > v.w0 {
			comms = append(comms, c)
		}
	}
	for i := range tr.Running {
		if c := &tr.Running[i]; c.Label != "" {
			comms = append(comms, c)
		}
	}
	v.b.trainComms = comms
	v.comms = comms
}

// drawBar draws a bar of a lane at y, h high, with the longest label that
// fits if labelled.
func (v *trainView) drawBar(br bar, y, h float64, labelled bool) {
	b, th, dl, u, size := v.b, v.b.th, &v.b.dl, v.u, v.size
	x0, x1 := v.clip(br.x0), v.clip(br.x1)
	if br.gap && x1-x0 > 3*u {
		x1 -= 1 * u
	}
	if x1-x0 < 0.3*u {
		return
	}
	if br.idle {
		dl.rect(LayerChart, x0, y+h*0.3, x1-x0, h*0.4, 0, br.fill, color.RGBA{}, 0)
	} else {
		dl.rect(LayerChart, x0, y, x1-x0, h, 0, br.fill, color.RGBA{}, 0)
	}
	if !labelled || x1-x0 < TextWidth("0", size, assets.Medium)+4*u {
		return
	}
	var labels []string
	switch {
	case br.task != nil && v.tr.PP > 1:
		labels = b.ppLabels(br.task)
	case br.task != nil:
		labels = b.taskLabels(br.task, v.tr.Sharding)
	case br.comm != nil:
		labels = b.commLabels(br.comm, v.tr.Sharding)
	case br.wait != "":
		labels = []string{br.wait, b.t("train.wait"), b.t("train.wait.short")}
	}
	ink := inkOnBar
	if br.fill == colGather || br.idle {
		ink = th.Text
		if !br.idle {
			ink = color.RGBA{0xff, 0xff, 0xff, 0xff}
		}
	}
	for _, s := range labels {
		if TextWidth(s, size, assets.Medium)+4*u <= x1-x0 && h >= size*0.9 {
			if br.idle {
				dl.text(LayerChart, (x0+x1)/2, y-1*u, s, size, Middle, assets.Regular, th.Muted) // the type scale's floor: no smaller
			} else {
				dl.text(LayerChart, (x0+x1)/2, y+h/2, s, size, Middle, assets.Medium, ink)
			}
			break
		}
	}
}

// rows draws each slot: a gap's "… n more" line, or a row's label, its
// compute lane and its collectives under it. Only the first row has labels
// on its bars.
func (v *trainView) rows(slots []trainSlot) {
	b, th, dl, r, u, tr := v.b, v.b.th, &v.b.dl, v.r, v.u, v.tr
	lanes := assets.Mix(th.Panel, th.Border, 0.25)
	first := true
	for _, sl := range slots {
		if sl.row < 0 {
			a, z := tr.Rows[sl.from], tr.Rows[sl.upTo]
			n := z.First - a.First - a.Count
			s := b.tf("train.more.gpus", n)
			if tr.PP > 1 {
				s = b.tf("train.more.stages", z.Stage-a.Stage-1)
			}
			if z.Node >= 0 {
				s = b.tf("train.more.nodes", z.Node-a.Node-1, n)
			}
			dl.text(LayerChart, r.X+10*u, sl.y+sl.h/2, s, v.size, Start, assets.Regular, th.Muted)
			continue
		}
		row := tr.Rows[sl.row]
		gap := min(sl.h*0.12, 3*u)
		h := sl.h - gap
		ch := h * 0.55
		cy := sl.y + gap/2
		label := b.rowLabel(row)
		if tr.PP > 1 { // "stage 1 · GPU 2", or "stage 1" where that does not fit
			label = fitText(v.p.X-r.X-14*u, b.fs(0.85), assets.Medium, label, b.tf("train.row.stage.short", row.Stage))
		}
		dl.text(LayerChart, r.X+10*u, cy+ch/2, label, b.fs(0.85), Start, assets.Medium, th.Text)
		dl.rect(LayerChart, v.p.X, cy, v.p.W, h, 0, lanes, color.RGBA{}, 0)
		lane := v.lane
		if tr.PP > 1 {
			lane = v.stages[row.Stage]
		}
		for _, br := range b.coalesce(lane, 1.5*u, th.Idle) {
			v.drawBar(br, cy, ch, first && tr.PP <= 1 || tr.PP > 1 && !br.idle) // a pipeline's rows each name their micro-batches, not its waits
		}
		v.commLanes(sl.row, cy+ch+h*0.05, h-ch-h*0.05, lanes, first)
		first = false
	}
}

// commLanes draws a row's communication under its compute, at y, h high:
// data-parallel, and tensor-parallel below it.
func (v *trainView) commLanes(row int, y, h float64, lanes color.RGBA, labelled bool) {
	b, u := v.b, v.u
	dpH, tpH := h, 0.0
	if v.tr.TP > 1 {
		dpH, tpH = h*0.55, h*0.45
	}
	dp, tp := b.trainBars[1][:0], b.trainBars[2][:0]
	for _, c := range v.comms {
		if v.tr.PP > 1 && c.Stage != v.tr.Rows[row].Stage {
			continue
		}
		end := v.now
		if c.Ends != nil {
			end = min(c.Ends[row], v.now)
		}
		br := bar{x0: v.px(c.Start), x1: v.px(end), fill: b.commColor(c), comm: c, gap: true}
		if c.TP {
			tp = append(tp, br)
		} else {
			dp = append(dp, br)
		}
	}
	b.trainBars[1], b.trainBars[2] = dp, tp
	for _, br := range b.coalesce(dp, 1.5*u, lanes) {
		v.drawBar(br, y, dpH, labelled)
	}
	for _, br := range b.coalesce(tp, 1.5*u, lanes) {
		v.drawBar(br, y+dpH, tpH, labelled)
	}
}

// axis draws the time axis, where iterations (and micro-batches) begin, and
// the cursor.
func (v *trainView) axis() {
	b, th, dl, p, u, tr, now, w0, w1 := v.b, v.b.th, &v.b.dl, v.p, v.u, v.tr, v.now, v.w0, v.w1
	axisY := p.Y + p.H + 2*u
	dl.line(LayerChart, p.X, axisY, p.X+p.W, axisY, 1*u, th.Border)
	step := tickStep(w1-w0, max(p.W/(90*u), 2))
	for t := (w0 + step - 1) / step * step; t <= w1; t += step {
		x := v.px(t)
		dl.line(LayerChart, x, axisY, x, axisY+4*u, 1*u, th.Border)
		dl.text(LayerChart, x, axisY+11*u, tickLabel(t, step), b.fs(0.82), Middle, assets.Regular, th.Muted)
	}
	mark := func(t unit.Time, text, short string, strong bool) {
		if t <= w0 || t >= w1 || t > now {
			return
		}
		x := v.px(t)
		c, w := th.Border, 1*u
		if strong {
			c, w = th.Muted, 1.2*u
		}
		dl.line(LayerChart, x, p.Y-7*u, x, axisY, w, c)
		room := p.X + p.W - x - 6*u
		dl.text(LayerChart, x+3*u, p.Y-5*u, fitText(room, b.fs(0.78), assets.Regular, text, short, ""), b.fs(0.78), Start, assets.Regular, th.Muted)
	}
	for i, s := range tr.Starts {
		if i > 0 {
			mark(s, b.tf("train.iteration", i+1), strconv.Itoa(i+1), true)
		}
	}
	for i := v.lo; i < len(tr.Tasks) && tr.PP <= 1; i++ { // a pipeline's bars name their micro-batches
		if k := &tr.Tasks[i]; k.Micro > 0 && i > 0 && tr.Tasks[i-1].Micro != k.Micro && tr.Tasks[i-1].Iter == k.Iter {
			mark(k.Start, b.tf("train.micro", k.Micro+1), b.tf("train.micro.short", k.Micro+1), false)
		}
	}
	if now >= w0 && now <= w1 {
		x := v.px(now)
		dl.line(LayerChart, x, p.Y-3*u, x, axisY+2*u, 1.6*u, th.Highlight)
		dl.rect(LayerChart, x-3*u, p.Y-6*u, 6*u, 4*u, 1*u, th.Highlight, color.RGBA{}, 0)
	}
}

// fitText is the first of texts that fits in w at size, else the last.
func fitText(w, size float64, weight assets.Weight, texts ...string) string {
	for _, s := range texts {
		if TextWidth(s, size, weight) <= w {
			return s
		}
	}
	return texts[len(texts)-1]
}

// coalesce merges runs of bars narrower than w (in time order) into bins
// of about w whose colour mixes theirs by the share of the bin each
// covers, the rest of the bin counting as empty (bg): a thousand slivers of
// compute between waits read as their density, not as whichever is wider
// than a pixel.
func (bl *Builder) coalesce(in []bar, w float64, bg color.RGBA) []bar {
	slices.SortStableFunc(in, func(a, b bar) int { return cmp.Compare(a.x0, b.x0) })
	out := bl.trainBars[3][:0]
	defer func() { bl.trainBars[3] = out[:0] }()
	var bin struct {
		on            bool
		x0, x1        float64
		r, g, b, wsum float64
		solid         bool
	}
	flush := func() {
		if !bin.on {
			return
		}
		span := max(bin.x1-bin.x0, 1e-9)
		f := min(bin.wsum/span, 1)
		c := color.RGBA{uint8(bin.r / max(bin.wsum, 1e-9)), uint8(bin.g / max(bin.wsum, 1e-9)), uint8(bin.b / max(bin.wsum, 1e-9)), 0xff}
		out = append(out, bar{x0: bin.x0, x1: bin.x1, fill: assets.Mix(bg, c, f), idle: !bin.solid})
		bin.on = false
	}
	for _, br := range in {
		if br.x1-br.x0 >= w {
			flush()
			out = append(out, br)
			continue
		}
		if bin.on && br.x1 > bin.x0+w {
			flush()
		}
		if !bin.on {
			bin.on, bin.x0, bin.x1, bin.r, bin.g, bin.b, bin.wsum, bin.solid = true, br.x0, br.x0, 0, 0, 0, 0, false
		}
		bin.x1 = max(bin.x1, br.x1, bin.x0)
		d := max(br.x1-br.x0, 0)
		bin.r += d * float64(br.fill.R)
		bin.g += d * float64(br.fill.G)
		bin.b += d * float64(br.fill.B)
		bin.wsum += d
		bin.solid = bin.solid || !br.idle
	}
	flush()
	return out
}

// rowLabel names a timeline row: "GPU 3", "node 2".
func (b *Builder) rowLabel(r snap.TrainRow) string {
	if b.f.Cur.Training != nil && b.f.Cur.Training.PP > 1 {
		return b.tf("train.row.stage", r.Stage, r.First)
	}
	if r.Node >= 0 {
		return b.tf("train.row.node", r.Node)
	}
	return b.tf("train.row.gpu", r.First)
}

// taskLabels are a compute bar's labels, longest first.
func (b *Builder) taskLabels(k *snap.Task, sharding string) []string {
	switch k.Phase {
	case snap.Forward:
		if sharding == "fsdp" && k.Group >= 0 {
			return []string{b.tf("train.fwd", k.Group), strconv.Itoa(k.Group)}
		}
		return []string{b.t("train.forward"), b.t("train.fwd.short"), b.t("train.fwd.letter")}
	case snap.Backward:
		if k.Group >= 0 {
			return []string{b.tf("train.bwd", k.Group), strconv.Itoa(k.Group)}
		}
		return []string{b.t("train.backward"), b.t("train.bwd.short"), b.t("train.bwd.letter")}
	case snap.Optimizer:
		return []string{b.t("train.optimizer"), b.t("train.opt.short"), b.t("train.opt.letter")}
	}
	return nil
}

// commLabels are a collective bar's labels, longest first.
func (b *Builder) commLabels(c *snap.Comm, sharding string) []string {
	switch {
	case c.TP:
		return []string{b.t("train.tp")}
	case c.Group >= 0:
		return []string{strconv.Itoa(c.Group)}
	}
	return []string{commWords(b.layout.Opt.Lang, c, sharding), b.t("train.ag")}
}

// trainFigures is the line of figures, longest first: the last iteration's
// once one has ended (the run's report at the end), else what is to come.
func (b *Builder) trainFigures(tr *snap.Training, cur int) []string {
	n := len(tr.Steps)
	if n == 0 {
		return []string{b.tf("train.first", fmtTime(tr.Compute)), b.tf("train.first.mid", fmtTime(tr.Compute)), b.t("train.first.short")}
	}
	s := tr.Steps[n-1]
	tag := ""
	switch {
	case n == tr.Iterations && b.f.Cur.Done:
		tag = b.t("train.final")
	case n < tr.Iterations:
		tag = b.tf("train.under-way", cur+1)
	}
	util := strconv.FormatFloat(s.GPUUtil*100, 'f', 1, 64) + "%"
	if tr.PP > 1 {
		tag = b.tf("train.bubble", strconv.FormatFloat(s.Bubble*100, 'f', 1, 64)+"%") + tag
	}
	return []string{
		b.tf("train.figures", n, fmtMicros(s.IterationUs), fmtMicros(s.ExposedCommUs), util, tag),
		b.tf("train.figures.mid", n, fmtMicros(s.IterationUs), fmtMicros(s.ExposedCommUs), util, tag),
		b.tf("train.figures.short", n, fmtMicros(s.IterationUs), fmtMicros(s.ExposedCommUs), util),
	}
}

// trainLegend explains the bars' (and the GPUs') colours along the panel's bottom.
func (b *Builder) trainLegend(r Rect, tr *snap.Training, cy float64) {
	L, th, dl := b.layout, b.th, &b.dl
	u := L.U
	size := b.fs(0.82)
	grad := b.t("train.legend.ar")
	if tr.Sharding != "none" {
		grad = b.t("train.legend.rs")
	}
	items := []struct {
		c    color.RGBA
		name string
		idle bool
	}{{colForward, b.t("train.forward"), false}, {b.th.Compute, b.t("train.legend.bwd"), false}, {colOptimizer, b.t("train.optimizer"), false},
		{th.Idle, b.t("train.wait"), true}, {th.Comm, grad, false}}
	if tr.Sharding == "fsdp" { // FSDP shards: always a reduce-scatter
		items[1].name, items[4].name = b.t("train.legend.bwd.units"), b.t("train.legend.rs.units")
	}
	if tr.PP > 1 {
		items[0].name, items[1].name = b.t("train.legend.fwd.pp"), b.t("train.legend.bwd.pp")
	}
	if tr.Sharding != "none" {
		items = append(items, struct {
			c    color.RGBA
			name string
			idle bool
		}{colGather, b.t("train.legend.gather"), false})
	}
	if tr.TP > 1 {
		items = append(items, struct {
			c    color.RGBA
			name string
			idle bool
		}{colTP, b.t("train.comm.tp"), false})
	}
	if len(tr.SaveStarts) > 0 {
		items = append(items, struct {
			c    color.RGBA
			name string
			idle bool
		}{b.saveColor(), b.t("train.save"), false})
	}
	x := r.X + 10*u
	for _, it := range items {
		w := TextWidth(it.name, size, assets.Regular)
		if x+16*u+w > r.X+r.W-10*u {
			break
		}
		if it.idle {
			dl.rect(LayerChart, x, cy-2*u, 12*u, 4*u, 0, it.c, color.RGBA{}, 0)
		} else {
			dl.rect(LayerChart, x, cy-5*u, 12*u, 10*u, 1.5*u, it.c, color.RGBA{}, 0)
		}
		x += 16 * u
		dl.text(LayerChart, x, cy, it.name, size, Start, assets.Regular, th.Muted)
		x += w + 12*u
	}
}
