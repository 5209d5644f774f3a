package main

import (
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// comparison is what plays in compare mode (compare=1, or a load with left
// and right): two players on one clock (playback.Pair), each drawn in its
// pane of the one canvas, under a strip with the shared time and, once both
// are computed, the difference summary.
type comparison struct {
	pair     *playback.Pair
	labels   [2]string
	panes    [2]pane
	split    render.Split
	dl       render.DisplayList
	diff     string // the difference summary, once both are computed
	held     bool   // the strip keeps diff back: a lesson's quiz waits for its answer
	sentDone bool
	ended    bool // ended sent, and playback has not left the end since
	nextTime time.Time
	lastText time.Time
	text     string // the last summary event's text
	textDue  bool   // a command moved playback, or both got computed: say so soon
	lang     string // of the strip's words: en or zh
	focus    int    // the side picked last: ] and [ step through its flows
}

// pane is one side's picture.
type pane struct {
	layout    *render.Layout
	layoutKey layoutKey
	builder   render.Builder
	frame     render.Frame
	axes      render.Axes // the other pane's peaks, for frame.Axes
	selected  int         // the picked flow (render.Frame.Selected)
}

// scene builds the pane's picture with its charts' axes reaching at least
// the other pane's peaks.
func (pn *pane) scene(other render.Axes) *render.DisplayList {
	pn.axes = other
	pn.frame.Axes = &pn.axes
	return pn.builder.Scene(&pn.frame)
}

// compareKey is what a comparison's picture depends on (part of drawKey).
type compareKey struct {
	cur, prev [2]*snap.Snapshot
	nhist     [2]int
	layouts   [2]*render.Layout
	hover     [2]render.Hover
	selected  [2]int
	strip     string
	tick      int64 // while computing: redrawEvery periods
}

// busy reports whether a comparison has computing left (c may be nil).
func (c *comparison) busy() bool {
	return c != nil && !c.pair.Done() && c.pair.Err() == nil
}

// loadCompare replaces what plays with a comparison of two sides.
func (g *Game) loadCompare(sides [2]playback.Side) {
	g.release()
	var ps [2]*playback.Player
	for i, s := range sides {
		which := [2]string{"left", "right"}[i]
		sc, err := s.Load(which)
		if err == nil && g.out.browser() {
			err = playback.FitsBrowser(&sc)
		}
		var p *playback.Player
		if err == nil {
			p, err = playback.New(sc)
		}
		if err != nil {
			g.fail(sideError(i18n.Lang(g.params.Lang), which, err))
			return
		}
		p.SetHeapLimit(heapLimit)
		ps[i] = p
	}
	g.comparing(ps, playback.Labels(sides, [2]*scenario.Scenario{ps[0].Scenario(), ps[1].Scenario()}))
}

// comparing plays a comparison of two new runs, as the page's parameters
// say, and tells the page.
func (g *Game) comparing(ps [2]*playback.Player, labels [2]string) {
	c := &comparison{pair: playback.NewPair(ps[0], ps[1]), labels: labels, lang: g.params.Lang}
	g.cmp, g.failure, g.loadedAt, g.selected = c, "", time.Now(), 0
	g.page.view = viewEvents{due: true} // the view of the run before is stale
	q := c.pair
	if g.params.Speed > 0 {
		q.SetSpeed(g.params.Speed)
	}
	if g.params.Start > 0 {
		q.Seek(g.params.Start)
	}
	if g.params.Play {
		q.Play()
	}
	g.out.event(protocol.CompareLoaded{Loaded: protocol.Loaded{Name: labels[0] + " vs " + labels[1], Step: g.step, Skipped: g.skipped},
		Compare: true, Left: ps[0].Scenario().Name, Right: ps[1].Scenario().Name, Labels: labels})
	g.skipped = 0
	g.sendCompareTime()
}

// handleCompare runs a playback command on the comparison; it reports
// whether the command was one.
func (g *Game) handleCompare(c protocol.Command) bool {
	q := g.cmp.pair
	switch c := c.(type) {
	case protocol.Play:
		q.Play()
	case protocol.Pause:
		q.Pause()
	case protocol.Toggle:
		q.Toggle()
	case protocol.Step:
		q.Step()
	case protocol.Back:
		q.StepBack()
	case protocol.Reset:
		q.Reset()
	case protocol.Seek:
		q.Seek(unitMicros(c.TUs))
	case protocol.Faster:
		q.Faster()
	case protocol.Slower:
		q.Slower()
	case protocol.Speed:
		q.SetSpeed(unitMicros(c.UsPerS))
	case protocol.Tap:
		g.cmp.pick(c.X, c.Y)
	case protocol.NextFlow:
		g.cmp.stepFlow(1)
	case protocol.PrevFlow:
		g.cmp.stepFlow(-1)
	default:
		return false
	}
	g.cmp.textDue = true
	g.sendCompareTime()
	return true
}

// compareKeys are the desktop window's shortcuts (keys), for a comparison.
func (g *Game) compareKeys() {
	for k, c := range map[ebiten.Key]protocol.Command{ebiten.KeySpace: protocol.Toggle{}, ebiten.KeyPeriod: protocol.Step{}, ebiten.KeyArrowRight: protocol.Step{},
		ebiten.KeyComma: protocol.Back{}, ebiten.KeyArrowLeft: protocol.Back{}, ebiten.KeyR: protocol.Reset{}, ebiten.KeyEqual: protocol.Faster{}, ebiten.KeyMinus: protocol.Slower{},
		ebiten.KeyBracketRight: protocol.NextFlow{}, ebiten.KeyBracketLeft: protocol.PrevFlow{}} {
		if inpututil.IsKeyJustPressed(k) {
			g.handleCompare(c)
		}
	}
}

// updateCompare is Update's work in compare mode.
func (g *Game) updateCompare(real float64, now time.Time) {
	c := g.cmp
	q := c.pair
	if !g.background { // a remote pair's sides compute nothing here: this takes what came
		t0 := time.Now()
		q.Compute(waitBudget)
		g.computeTook = time.Since(t0)
	}
	if err := q.Err(); err != nil {
		g.release()
		g.fail(err)
		x, y := g.pointer()
		g.prepare(float64(x)/g.scale, float64(y)/g.scale)
		return
	}
	if !g.out.browser() {
		g.compareKeys()
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
			x, y := ebiten.CursorPosition()
			c.pick(float64(x)/g.scale, float64(y)/g.scale)
		}
	}
	q.Tick(real)
	x, y := g.pointer()
	g.prepareCompare(float64(x)/g.scale, float64(y)/g.scale)
	g.compareEvents(now)
}

// prepareCompare makes the two panes' frames and the picture's key.
func (g *Game) prepareCompare(cx, cy float64) {
	c := g.cmp
	w, h := g.w, g.h
	if g.out.browser() && g.params.Controls {
		h -= controlsHeight
	}
	c.split = render.SplitCanvas(w, h, g.params.Big)
	q := c.pair
	var k compareKey
	for i, p := range q.Sides {
		pn := &c.panes[i]
		r := c.split.Panes[i]
		key := layoutKey{r.W, r.H, p.Topology(), render.Options{Dark: g.params.Theme != "light", Presenter: g.params.Big, Title: c.labels[i],
			Lang: render.Lang(g.params.Lang), Training: p.Scenario().Training.Model != "", Charts: render.PaneCharts(r, g.params.Big),
			SelectiveRepeat: selectiveRepeat(p.Scenario())}}
		if pn.layout == nil || key != pn.layoutKey {
			pn.layout, pn.layoutKey = render.NewLayout(key.topo, key.w, key.h, key.opt), key
		}
		var hover render.Hover
		if r.Contains(cx, cy) {
			hover = render.HitTest(pn.layout, cx-r.X, cy-r.Y)
		}
		pn.frame = render.Frame{Layout: pn.layout, Cur: p.At(p.Pos()), Prev: p.At(p.Pos() - q.Speed()/20),
			History: p.History(historyFrames), Hover: hover, Selected: pn.selected}
		k.selected[i] = pn.selected
		if !p.Done() {
			target, _ := q.Seeking()
			pn.frame.Computing = &render.Computing{Progress: p.Progress(), ETA: p.ETA(), Computed: p.End(), Target: max(0, target)}
			k.tick = time.Now().UnixNano() / int64(redrawEvery)
		}
		k.cur[i], k.prev[i], k.nhist[i], k.layouts[i], k.hover[i] = pn.frame.Cur, pn.frame.Prev, len(pn.frame.History), pn.layout, hover
	}
	if q.Done() && c.diff == "" && reported(q) {
		c.diff = playback.SummaryIn(g.params.Lang, c.labels, q.Sides[0].Result(), q.Sides[1].Result())
	}
	c.held = g.quizPending
	k.strip = c.stripLeft() + "\x00" + c.stripRight()
	g.key = drawKey{cmp: k, scale: g.scale}
}

// pick is a click or tap at (x, y) on the canvas (logical px): in a pane,
// it picks a flow there as one run's canvas does (render.PickFlow), and
// the other side picks the same flow when it has one between the same two
// endpoints, so that both show its path.
func (c *comparison) pick(x, y float64) {
	for i, r := range c.split.Panes {
		pn := &c.panes[i]
		if !r.Contains(x, y) || pn.frame.Layout == nil || pn.frame.Cur == nil {
			continue
		}
		pn.frame.Selected = pn.selected
		pn.selected = render.PickFlow(&pn.frame, render.HitTest(pn.frame.Layout, x-r.X, y-r.Y))
		c.focus = i
		c.mirror(i)
		return
	}
}

// stepFlow steps the side picked last through its flows (] and [).
func (c *comparison) stepFlow(dir int) {
	pn := &c.panes[c.focus]
	if pn.frame.Layout == nil || pn.frame.Cur == nil {
		return
	}
	pn.selected = render.StepFlow(&pn.frame, pn.selected, dir)
	c.mirror(c.focus)
}

// mirror gives the other side side i's pick: the same flow where it runs
// between the same endpoints there, else none.
func (c *comparison) mirror(i int) {
	from, to := &c.panes[i], &c.panes[1-i]
	to.selected = 0
	k := from.selected - 1
	if k < 0 || from.frame.Cur == nil || to.frame.Cur == nil || k >= len(from.frame.Cur.Flows) || k >= len(to.frame.Cur.Flows) {
		return
	}
	if render.StepFlow(&to.frame, 0, 1) == 0 {
		return // no flow paths to show there
	}
	a, b := &from.frame.Cur.Flows[k], &to.frame.Cur.Flows[k]
	if a.Src == b.Src && a.Dst == b.Dst {
		to.selected = from.selected
	}
}

// stripLeft is the strip's shared time; stripRight the summary, or what is
// still computing.
func (c *comparison) stripLeft() string { return "t = " + micros(c.pair.Pos()) }

func (c *comparison) stripRight() string {
	if c.diff != "" && c.held {
		return i18n.T(i18n.Lang(c.lang), "compare.held")
	}
	if c.diff != "" {
		return c.diff
	}
	pct := int(math.Round(100 * max(0, c.pair.Progress())))
	return i18n.Tf(i18n.Lang(c.lang), "compare.computing", c.labels[0], c.labels[1], pct)
}

// compareScene is the picture of a comparison: both panes and the strip.
func (g *Game) compareScene() *render.DisplayList {
	c := g.cmp
	var scenes [2]*render.DisplayList
	l, r := &c.panes[0], &c.panes[1]
	if l.frame.Layout != nil && r.frame.Layout != nil {
		// Both panes' charts on the same scales, so that the taller line is
		// the larger figure: each axis reaches the other side's peak.
		scenes[0] = l.scene(r.builder.Peaks()) // the right's, as of its last scene
		scenes[1] = r.scene(l.builder.Peaks())
		if r.builder.Peaks() != l.axes { // the right's peaks moved: the left again
			scenes[0] = l.scene(r.builder.Peaks())
		}
	} else {
		for i := range c.panes {
			if pn := &c.panes[i]; pn.frame.Layout != nil {
				pn.frame.Axes = nil
				scenes[i] = pn.builder.Scene(&pn.frame)
			}
		}
	}
	render.SideBySide(&c.dl, c.split, g.params.Theme != "light", g.params.Big, c.stripLeft(), c.stripRight(), scenes)
	return &c.dl
}

// sendCompareTime is the time event of a comparison: as for one run, with
// the shared time, plus each side's own end.
func (g *Game) sendCompareTime() {
	c := g.cmp
	if c == nil {
		return
	}
	q := c.pair
	g.lastEvent = time.Now()
	ev := protocol.CompareTime{Time: protocol.Time{TUs: q.Pos().Micros(), EndUs: q.End().Micros(),
		Playing: q.Playing(), Done: q.Done(), SpeedUs: q.Speed().Micros(), ComputedUs: q.End().Micros(),
		Progress: round3(q.Progress()), EtaS: round3(q.ETA())},
		Compare: true, LeftEndUs: q.Sides[0].End().Micros(), RightEndUs: q.Sides[1].End().Micros()}
	if t, ok := q.Seeking(); ok {
		us := t.Micros()
		ev.SeekUs = &us
	}
	g.out.event(ev)
}

// compareEvents sends what changed, as events does for one run: time ten
// times a second, done (with both sides' totals and the difference) once
// both are computed, ended at the end, and a summary now and then.
func (g *Game) compareEvents(now time.Time) {
	c := g.cmp
	q := c.pair
	if !now.Before(c.nextTime) {
		g.sendCompareTime()
		c.nextTime = now.Add(eventEvery)
	}
	if q.Done() && !c.sentDone && reported(q) {
		c.sentDone = true
		side := func(p *playback.Player, label string) protocol.SideTotals {
			t := p.Report().Totals
			return protocol.SideTotals{Label: label, Name: p.Scenario().Name, SimTimeUs: t.SimTimeUs, MaxFctUs: t.MaxFctUs,
				Drops: t.Drops, PauseFrames: t.PauseFrames, GoodputGbps: t.GoodputGbps, FlowsFinished: t.FlowsFinished}
		}
		l, r := side(q.Sides[0], c.labels[0]), side(q.Sides[1], c.labels[1])
		g.out.event(protocol.CompareDone{Compare: true, SimTimeUs: max(l.SimTimeUs, r.SimTimeUs), Left: l, Right: r, Difference: c.diff})
		c.textDue = true
	}
	g.compareView(now)
	atEnd := q.Done() && q.Pos() >= q.End()
	if atEnd && !c.ended {
		c.ended = true
		g.sendCompareTime()
		g.sendCompareSummary(now)
		g.out.event(protocol.Ended{TUs: q.Pos().Micros(), Summary: c.text})
		return
	}
	if !atEnd {
		c.ended = false
	}
	if c.textDue || q.Playing() && now.Sub(c.lastText) >= summaryEvery || c.lastText.IsZero() {
		g.sendCompareSummary(now)
	}
}

// compareView sends the view (the page's "Canvas as a table") of both
// panes, each named by its label, when viewEvents would send one run's and
// both panes have drawn the frame they show.
func (g *Game) compareView(now time.Time) {
	c, ev := g.cmp, &g.page.view
	q := c.pair
	if !ev.due && !(q.Playing() && now.Sub(ev.last) >= viewEvery) && (q.Playing() || ev.sent && q.Pos() == ev.sentAt) {
		return
	}
	v := protocol.View{TUs: q.Pos().Micros(), Nodes: []protocol.ViewNode{}, Links: []protocol.ViewLink{}, Flows: []protocol.ViewFlow{}, Charts: []protocol.ViewChart{}}
	for i := range c.panes {
		pn := &c.panes[i]
		side := pn.builder.View()
		if side == nil || pn.frame.Cur == nil || side.TUs != pn.frame.Cur.Time.Micros() {
			return // not drawn yet
		}
		side.Label = c.labels[i]
		v.Sides = append(v.Sides, *side)
	}
	ev.due, ev.last, ev.sent, ev.sentAt = false, now, true, q.Pos()
	g.out.event(v)
}

// sendCompareSummary tells the page, in words, what both panes show.
func (g *Game) sendCompareSummary(now time.Time) {
	c := g.cmp
	c.lastText, c.textDue = now, false
	var text string
	lang := i18n.Lang(c.lang)
	for i, p := range c.pair.Sides {
		text += i18n.Tf(lang, "summary.sentence", sideSummary(lang, c.labels[i], summarize(p.Scenario(), p.At(p.Pos()), p.Pos(), lang), p.Scenario().Name))
	}
	if c.diff != "" {
		text += i18n.Tf(lang, "summary.sentence", c.diff)
	}
	text = strings.TrimSpace(text)
	if text == c.text {
		return
	}
	c.text = text
	g.out.event(protocol.CompareSummary{Text: text, Difference: c.diff})
}

// sideSummary is a side's summary under its label: "PFC alone: incast: 4
// senders to 1, …", but a label that starts with the scenario's name (a
// side without a label of its own, playback.Labels) stands for the name,
// not before it: "incast: 4 senders to 1", not "incast: incast: …".
func sideSummary(lang i18n.Lang, label, summary, name string) string {
	if rest, ok := strings.CutPrefix(summary, name); ok && name != "" && strings.HasPrefix(label, name) {
		return label + rest
	}
	return i18n.Tf(lang, "summary.named", label, summary)
}

// computeStats is what stats reports for a comparison: both sides' frame
// bytes and compute time, summed.
func (c *comparison) computeStats() (frameBytes int64, compute time.Duration) {
	for _, p := range c.pair.Sides {
		frameBytes += p.FrameBytes()
		compute += p.ComputeTime()
	}
	return frameBytes, compute
}

// releaseCompare drops a comparison (release calls it).
func (g *Game) releaseCompare() {
	if g.cmp != nil {
		g.cmp = nil
		runtime.GC()
	}
}

func unitMicros(us float64) unit.Time { return unit.Time(us * float64(unit.Microsecond)) }

// reported says that both sides' reports are whole: a worker's flows and
// links come after its run is done (playback/report.go), and the summary
// reads them.
func reported(q *playback.Pair) bool {
	return q.Sides[0].Result() != nil && q.Sides[1].Result() != nil
}
