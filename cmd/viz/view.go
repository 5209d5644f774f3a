package main

import (
	"time"

	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/unit"
)

// viewEvery is how often a playing run's view (the canvas as text and
// tables, for the page's "Canvas as a table") goes to the page.
const viewEvery = time.Second

// viewEvents is what the page has been told of the view and the keyboard's
// tooltip (pageEvents).
type viewEvents struct {
	due        bool // a load or a command moved playback: send the view once drawn
	last       time.Time
	sentAt     unit.Time // the time of the frame the last view was of
	sent       bool
	tooltipDue bool
}

// sendView sends the view of the scene on screen (the scene Draw built
// last). Paused, only once it is the frame prepared (after a seek, say):
// until then the view stays due. Playing, the frame on screen is always
// the one before the frame prepared, and is sent as it is.
func (g *Game) sendView(now time.Time) {
	v := g.builder.View()
	if v == nil || g.frame.Cur == nil {
		return
	}
	shown := v.TUs == g.frame.Cur.Time.Micros()
	if !shown && !g.p.Playing() {
		return
	}
	ev := &g.page.view
	ev.due, ev.last, ev.sent, ev.sentAt = false, now, true, g.frame.Cur.Time
	if !shown {
		ev.sentAt = -1 // of another frame: paused, the one shown goes
	}
	g.out.event(*v)
	g.page.summaryDue = true // the live summary follows (sent only if its text changed)
}

// viewEvents sends the view when due: after a load or a command, at most
// every viewEvery while playing, and when the frame shown changed while
// paused (a seek or t= that computing settled); and the keyboard's tooltip.
func (g *Game) viewEvents(now time.Time) {
	ev := &g.page.view
	if g.viewDue() || g.p.Playing() && now.Sub(ev.last) >= viewEvery {
		g.sendView(now)
	}
	if !ev.tooltipDue {
		return
	}
	if g.inspect.Kind == render.HoverNone {
		ev.tooltipDue = false
		g.out.event(protocol.Tooltip{})
		return
	}
	if text, ok := g.builder.Tooltip(g.inspect); ok {
		ev.tooltipDue = false
		g.out.event(protocol.Tooltip{Text: text})
	}
}

// viewDue says that the view of the frame shown is to be sent: after a load
// or a command, and paused when the frame shown changed (a seek that
// computing settled).
func (g *Game) viewDue() bool {
	ev := &g.page.view
	return ev.due || g.p != nil && !g.p.Playing() && g.frame.Cur != nil && (!ev.sent || g.frame.Cur.Time != ev.sentAt)
}

// inspectNext moves the keyboard's highlight to the next node or link (dir
// 1), the previous (-1), or closes its tooltip (0). The pointer moving
// ends it (inspected).
func (g *Game) inspectNext(dir int) {
	if g.layout == nil {
		return
	}
	g.page.view.tooltipDue = true
	if dir == 0 {
		g.inspect = render.Hover{}
		return
	}
	g.inspect = render.NextInspected(g.layout, g.inspect, dir)
	g.inspectAt = [2]int{g.mouseX, g.mouseY}
}

// inspected is what is under the cursor at (cx, cy): the keyboard's
// highlight while there is one and the pointer has not moved since.
func (g *Game) inspected(cx, cy float64) render.Hover {
	if g.inspect.Kind != render.HoverNone && g.inspectAt == [2]int{g.mouseX, g.mouseY} {
		return g.inspect
	}
	if g.inspect.Kind != render.HoverNone {
		g.inspect, g.page.view.tooltipDue = render.Hover{}, true
	}
	return render.HitTest(g.layout, cx, cy)
}
