package render

import (
	"image/color"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// chartIteration marks the training view's own panels, in the place of
// the queue and completion-time charts (chartsAndCollective): the last
// iteration's breakdown, then the end of its backward pass, zoomed in.
const chartIteration Charts = 1 << 3

// trainingKinds are what a training view's chart slots show, in order.
var trainingKinds = []Charts{chartIteration, chartIteration, ChartThroughput}

// trainingCharts draws the training view's panels and charts.
func (b *Builder) trainingCharts() {
	L := b.layout
	cp := *L
	cp.Kinds = trainingKinds[:min(len(L.Charts), len(trainingKinds))]
	b.layout = &cp
	b.charts() // the throughput chart, and empty panels for the others
	b.layout = L
	tr := b.f.Cur.Training
	for i := range cp.Kinds {
		switch {
		case i == 0:
			b.iterBreakdown(L.Charts[i], tr)
		case i == 1:
			b.backwardEnd(L.Charts[i], tr)
		}
	}
}

// lastStep is the last iteration that has ended, and its index; before
// one has, the iteration under way so far once its backward pass is over
// (its exposed communication: from then to its last gradient collective's
// end); else false.
func lastStep(tr *snap.Training, now unit.Time) (snap.Step, int, bool) {
	if n := len(tr.Steps); n > 0 {
		return tr.Steps[n-1], n - 1, true
	}
	i := tr.Iter(now)
	if i >= len(tr.Starts) {
		return snap.Step{}, 0, false
	}
	s := snap.Step{Start: tr.Starts[i], End: now}
	be, ce := backwardEnds(tr, s, i)
	if be == 0 {
		return snap.Step{}, 0, false
	}
	s.IterationUs = (now - s.Start).Micros()
	s.ExposedCommUs = max(0, ce-be).Micros()
	return s, i, true
}

// backwardEnds are when iteration i's backward pass ended (0 if it has
// not) and when its last gradient collective did.
func backwardEnds(tr *snap.Training, s snap.Step, i int) (be, ce unit.Time) {
	for _, t := range tr.Tasks {
		if t.Iter == i && t.Phase == snap.Backward {
			be = max(be, t.End)
		}
	}
	ce = be
	for k := range tr.Comms {
		if c := &tr.Comms[k]; !c.TP && c.Start >= s.Start && c.Start < s.End {
			ce = max(ce, c.End())
		}
	}
	return be, ce
}

// iterBreakdown is a bar of where the last iteration's time went: compute,
// communication the compute did not hide, and waiting, with the figures.
func (b *Builder) iterBreakdown(r Rect, tr *snap.Training) {
	L, th, dl := b.layout, b.th, &b.dl
	u, ts := L.U, &L.Type
	x, w := r.X+10*u, r.W-20*u
	y := r.Y + ts.Body*1.1
	s, i, ok := lastStep(tr, b.f.Cur.Time)
	title := b.t("iter.first")
	if ok {
		title = b.tf("iter.title", i+1)
	}
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, title, true)
	dl.text(LayerChart, x, y, shorten(title, ts.Body, assets.Medium, w), ts.Body, Start, assets.Medium, th.Text)
	if !ok || s.IterationUs <= 0 || tr.PP > 1 && len(tr.Steps) == 0 { // a pipeline's parts are known once an iteration ends
		return
	}
	compute := min(tr.Compute.Micros(), s.IterationUs)
	if mean := s.GPUUtil * s.IterationUs; mean > 0 && mean < 0.99*compute { // a straggler: the others compute less and wait for it
		compute = mean
	}
	exposed := min(s.ExposedCommUs, s.IterationUs-compute)
	wait := max(0, s.IterationUs-compute-exposed)
	waitName := b.tf("iter.waiting", fmtMicros(wait))
	if tr.PP > 1 { // a stage's average: compute, the pipeline's bubble, and the rest
		compute = s.GPUUtil * s.IterationUs
		wait = min(s.BubbleUs, s.IterationUs-compute)
		exposed = max(0, s.IterationUs-compute-wait)
		waitName = b.tf("iter.bubble", fmtMicros(wait))
	}
	parts := []struct {
		us   float64
		c    color.RGBA
		name string
		size float64
		wt   assets.Weight
	}{
		{compute, th.Compute, b.tf("iter.compute", fmtMicros(compute)), ts.Small, assets.Regular},
		{exposed, th.Comm, b.tf("iter.exposed", fmtMicros(exposed)), ts.Main, assets.Bold}, // the key figure
		{wait, th.Idle, waitName, ts.Small, assets.Regular},
	}
	y += ts.Body * 0.9
	bh := ts.Small * 1.2
	bx := x
	for _, p := range parts {
		pw := w * p.us / s.IterationUs
		if pw > 0 {
			dl.rect(LayerChart, bx, y, max(pw, 1.5*u), bh, 0, p.c, color.RGBA{}, 0)
		}
		bx += pw
	}
	y += bh + ts.Main*0.9
	for _, p := range parts {
		if y+p.size*0.5 > r.Y+r.H-4*u {
			break
		}
		dl.rect(LayerChart, x, y-5*u, 10*u, 10*u, 2*u, p.c, th.NodeEdge, 1*u)
		name := p.name
		b.chartWord(r.X+r.W/2, r.Y+r.H/2, name, false)
		if p.wt == assets.Bold && TextWidth(name, p.size, p.wt) > w-16*u { // the key figure, shorter
			name = b.tf("iter.exposed.short", fmtMicros(exposed))
		}
		dl.text(LayerChart, x+16*u, y, shorten(name, p.size, p.wt, w-16*u), p.size, Start, p.wt, th.Text)
		y += max(p.size, ts.Small) * 1.45
	}
}

// backwardEnd zooms in on the end of the last iteration's backward pass:
// the last backward compute, the gradient collectives around it, and the
// span after it the iteration waited for them (the exposed communication).
func (b *Builder) backwardEnd(r Rect, tr *snap.Training) {
	L, th, dl := b.layout, b.th, &b.dl
	u, ts := L.U, &L.Type
	x, w := r.X+10*u, r.W-20*u
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, b.t("iter.zoom"), true)
	dl.text(LayerChart, x, r.Y+ts.Body*1.1, shorten(b.t("iter.zoom"), ts.Body, assets.Medium, w), ts.Body, Start, assets.Medium, th.Text)
	s, i, ok := lastStep(tr, b.f.Cur.Time)
	if !ok || tr.PP > 1 && len(tr.Steps) == 0 {
		return
	}
	be, ce := backwardEnds(tr, s, i)
	if be == 0 {
		return
	}
	span := max(ce-be, unit.Microsecond) * 2
	w0, w1 := be-span, be+span
	p := Rect{x + ts.Small*2, r.Y + ts.Body*2.2, w - ts.Small*4, r.H - ts.Body*2.2 - ts.Small*2.2} // room for the times under it
	if p.H < ts.Small*3 {
		return
	}
	at := func(t unit.Time) float64 { return p.X + p.W*float64(min(max(t, w0), w1)-w0)/float64(w1-w0) }
	lane := ts.Small * 0.9
	for _, t := range tr.Tasks { // the compute lane (the first stage's, which ends the backward pass)
		if t.Iter == i && t.End > w0 && t.Start < w1 && t.Stage == 0 {
			dl.rect(LayerChart, at(t.Start), p.Y, max(at(t.End)-at(t.Start), 1*u), lane, 0, b.phaseColor(t.Phase), color.RGBA{}, 0)
		}
	}
	y := p.Y + lane + 3*u
	for k := range tr.Comms { // the gradient collectives, a lane each while they fit
		c := &tr.Comms[k]
		if c.TP || c.Stage != 0 || c.End() <= w0 || c.Start >= w1 || c.Start < s.Start || y+lane > p.Y+p.H-ts.Main*1.2 {
			continue
		}
		dl.rect(LayerChart, at(c.Start), y, max(at(c.End())-at(c.Start), 1*u), lane*0.7, 0, th.Comm, color.RGBA{}, 0)
		y += lane*0.7 + 2*u
	}
	// the exposed span, named by the key figure
	dl.line(LayerChart, at(be), p.Y-2*u, at(be), p.Y+p.H, 1.5*u, th.Text)
	ex := b.tf("iter.exposed.short", fmtMicros(s.ExposedCommUs))
	b.chartWord(r.X+r.W/2, r.Y+r.H/2, ex, false)
	ty := p.Y + p.H - ts.Main*0.6
	tx, a, room := at(be)+6*u, Start, p.X+p.W-at(be)-6*u
	if TextWidth(ex, ts.Main, assets.Bold) > room {
		tx, a, room = at(be)-6*u, End, at(be)-6*u-r.X-4*u
	}
	dl.text(LayerChart, tx, ty, shorten(ex, ts.Main, assets.Bold, room), ts.Main, a, assets.Bold, th.Text)
	b.timeAxis(p, w0, w1)
}
