package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/i18n"
	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// summaryEvery is how often a playing run's text summary goes to the page
// (for its aria-live region: a few times per run, not every frame).
const summaryEvery = 2500 * time.Millisecond

// pageEvents is what the page has been told about the run that plays.
type pageEvents struct {
	nextTime    time.Time // when the next time event is due
	sentEnded   bool      // ended sent, and playback has not left the end since
	lastSummary time.Time
	summaryDue  bool // a command moved playback: send a summary soon
	summary     string
	view        viewEvents // view.go
}

// events sends the page what changed since the last tick: time ten times a
// second (on a fixed cadence, so late ticks do not stretch it), done once
// the run is computed, ended when playback reaches the computed end, and a
// summary now and then.
func (g *Game) events(now time.Time) {
	p := g.p
	if p == nil {
		return
	}
	ev := &g.page
	if !now.Before(ev.nextTime) {
		g.sendTime()
		// Late ticks catch up (the next is due sooner); a tick more than an
		// interval late starts the cadence again from now.
		ev.nextTime = ev.nextTime.Add(eventEvery)
		if ev.nextTime.Before(now) {
			ev.nextTime = now.Add(eventEvery)
		}
	}
	if p.Done() && !g.sentDone {
		g.sentDone = true
		t := p.Report().Totals
		g.out.event(protocol.Done{SimTimeUs: t.SimTimeUs, Drops: t.Drops,
			PauseFrames: t.PauseFrames, GoodputGbps: t.GoodputGbps, FlowsFinished: t.FlowsFinished})
		g.sendFigures()
	}
	g.viewEvents(now)
	atEnd := p.Done() && p.Pos() >= p.End()
	if atEnd && !ev.sentEnded {
		ev.sentEnded, ev.view.due = true, true
		g.sendTime()
		g.sendSummary(now)
		g.out.event(protocol.Ended{TUs: p.Pos().Micros(), Summary: ev.summary})
		return
	}
	if !atEnd {
		ev.sentEnded = false
	}
	if ev.summaryDue || p.Playing() && now.Sub(ev.lastSummary) >= summaryEvery {
		g.sendSummary(now)
	}
}

// sendSummary tells the page, in words, what the canvas shows now.
func (g *Game) sendSummary(now time.Time) {
	p := g.p
	ev := &g.page
	ev.summaryDue, ev.lastSummary = false, now
	text := summarize(p.Scenario(), p.At(p.Pos()), p.Pos(), i18n.Lang(g.params.Lang))
	if text == ev.summary {
		return
	}
	ev.summary = text
	g.out.event(protocol.Summary{Text: text})
}

// loadedEvents starts the page's events over for a new run.
func (g *Game) loadedEvents() {
	g.page = pageEvents{summaryDue: true, view: viewEvents{due: true}}
	g.inspect = render.Hover{}
}

// summarize says what a snapshot shows, in the page's language: what runs,
// the time, how many flows are done and the counters that matter, e.g.
// "incast: 8 senders to 1, t = 25 µs, 3 of 8 flows done, 12 pause frames".
func summarize(sc *scenario.Scenario, s *snap.Snapshot, t unit.Time, lang i18n.Lang) string {
	parts := []string{what(sc, lang) + i18n.T(lang, "summary.sep") + "t = " + micros(t)}
	done := 0
	for i := range s.Flows {
		if s.Flows[i].Done {
			done++
		}
	}
	if sc.Collective.Op != "" {
		parts = append(parts, i18n.Tf(lang, "summary.transfers", done, len(s.Flows)))
	} else {
		parts = append(parts, i18n.Tf(lang, "summary.flows", done, len(s.Flows)))
	}
	var drops, pauses, marks int64
	for i := range s.Links {
		l := &s.Links[i]
		drops += l.Drops
		pauses += l.PauseFrames
		marks += l.ECNMarks
	}
	// count adds "1 drop" (one) or "12 drops" (many) where n is not 0.
	count := func(n int64, one, many string) {
		if n == 1 {
			parts = append(parts, one)
		} else if n > 1 {
			parts = append(parts, many)
		}
	}
	count(drops, i18n.T(lang, "summary.drops.one"), i18n.Tf(lang, "summary.drops.many", drops))
	count(pauses, i18n.T(lang, "summary.pauses.one"), i18n.Tf(lang, "summary.pauses.many", pauses))
	if s.Marking.FECN > 0 { // InfiniBand CC marks: the snapshot counts its FECN marks as ECN marks
		count(marks, i18n.T(lang, "summary.fecn.one"), i18n.Tf(lang, "summary.fecn.many", marks))
	} else {
		count(marks, i18n.T(lang, "summary.ecn.one"), i18n.Tf(lang, "summary.ecn.many", marks))
	}
	if s.Done {
		parts = append(parts, i18n.T(lang, "summary.finished"))
	}
	return strings.Join(parts, i18n.T(lang, "summary.sep"))
}

// micros writes a time as the playback bar does: "25.6 µs", "1.25 ms".
func micros(t unit.Time) string {
	us := t.Micros()
	trim := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	switch {
	case us >= 1e6:
		return strings.TrimRight(strings.TrimRight(trim(us/1e6, 3), "0"), ".") + " s"
	case us >= 1000:
		return strings.TrimRight(strings.TrimRight(trim(us/1000, 3), "0"), ".") + " ms"
	}
	return strings.TrimRight(strings.TrimRight(trim(us, 1), "0"), ".") + " µs"
}

// what names the scenario and what it runs: "incast: 8 senders to 1",
// "ring-allreduce-8: allreduce (ring) on 8 ranks".
func what(sc *scenario.Scenario, lang i18n.Lang) string {
	var traffic string
	switch tr := &sc.Traffic; tr.Pattern {
	case "incast":
		if tr.Senders == 1 {
			traffic = i18n.T(lang, "summary.incast.one")
		} else {
			traffic = i18n.Tf(lang, "summary.incast", tr.Senders)
		}
	case "flows":
		traffic = i18n.Tf(lang, "summary.nflows", len(tr.Flows))
	case "", "none":
	default:
		traffic = tr.Pattern
	}
	switch {
	case sc.Training.Model != "":
		return i18n.Tf(lang, "summary.training", sc.Name, sc.Training.Model)
	case sc.Collective.Op != "":
		s := i18n.Tf(lang, "summary.collective", sc.Name, sc.Collective.Op, sc.Collective.Algo)
		if sc.Collective.Ranks > 0 {
			s += i18n.Tf(lang, "summary.ranks", sc.Collective.Ranks)
		}
		if traffic != "" {
			s += i18n.Tf(lang, "summary.beside", traffic)
		}
		return s
	case traffic != "":
		return i18n.Tf(lang, "summary.named", sc.Name, traffic)
	}
	return sc.Name
}

// pointer is where the canvas is pointed at, in device px: the mouse, or on
// a touch screen the last tap, which stays (a tap shows what hover shows)
// until the next.
func (g *Game) pointer() (int, int) {
	if ids := ebiten.AppendTouchIDs(g.touches[:0]); len(ids) > 0 {
		g.touches = ids
		g.tapX, g.tapY = ebiten.TouchPosition(ids[0])
		g.tapped = true
	}
	x, y := ebiten.CursorPosition()
	if g.tapped && x == g.mouseX && y == g.mouseY {
		return g.tapX, g.tapY
	}
	if x != g.mouseX || y != g.mouseY {
		g.tapped = false // the mouse moved: it points again
	}
	g.mouseX, g.mouseY = x, y
	return x, y
}
