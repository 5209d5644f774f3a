package main

import (
	"fabriclab/sim/unit"
)

// Frames on demand. In the browser every frame the canvas presents costs the
// page's one thread a read-back of the canvas (tens to hundreds of ms on
// software WebGL), during which nothing computes; and Ebitengine, run at
// 60 Hz, presents the unchanged screen on the next few frames after each
// change. So there, frames run only when asked for (ebiten.FPSModeVsyncOffMinimum
// and ScheduleFrame): every frame while playback moves; otherwise for a
// command (commandQueue.wake), a message from a worker (bridge_js.go), input
// on the canvas and resizes (Ebitengine runs a frame for those itself). A
// frame whose picture has not changed draws nothing (Draw), so Ebitengine
// presents nothing either: it only takes what came and sends the events.

// frameHost is a host whose frames can run on demand: after framesOnDemand,
// a frame runs only once scheduleFrame asks for it.
type frameHost interface {
	framesOnDemand()
	scheduleFrame()
}

// frameState is what scheduling frames keeps (Game.frames).
type frameState struct {
	on      bool      // frames run on demand
	asked   bool      // a frame has been asked for and has not run yet
	playing bool      // the last Update asked for the next frame to play on
	pos     unit.Time // where playback was after the last Update
	done    bool      // whether the run was computed then
	asks    int       // frames asked for, for stats
}

// playable is what frames depend on, of a run or a comparison's pair.
type playable interface {
	Pos() unit.Time
	End() unit.Time
	Done() bool
	Playing() bool
	Err() error
}

func (g *Game) playable() playable {
	switch {
	case g.cmp != nil:
		return g.cmp.pair
	case g.p != nil:
		return g.p
	}
	return nil
}

// framesOnDemand makes frames run only when asked for, where the host can.
func (g *Game) framesOnDemand() {
	if h, ok := g.out.(frameHost); ok {
		h.framesOnDemand()
		g.frames.on = true
		g.out.commands().wake = h.scheduleFrame
	}
}

func (g *Game) askFrame(playing bool) {
	g.frames.asked, g.frames.playing = true, playing
	g.frames.asks++
	g.out.(frameHost).scheduleFrame()
}

// sinceLast is the wall time Update plays on by: after a pause in the frames
// (a frame that comes for a command, a tick, the pointer) none, so that
// playback starting or resuming does not jump.
func (g *Game) sinceLast(real float64) float64 {
	if g.frames.on && !g.frames.playing {
		return 0
	}
	return real
}

// afterUpdate asks for the next frame while playback moves through
// computed frames; otherwise the picture waits for what changes it.
func (g *Game) afterUpdate() {
	f := &g.frames
	f.asked, f.playing = false, false
	pb := g.playable()
	if pb == nil {
		if f.on && (len(g.arrivals) > 0 || g.held) { // the workers' messages fromWorkers left, or the picture held
			g.askFrame(false)
		}
		return
	}
	f.pos, f.done = pb.Pos(), pb.Done()
	if f.on && (pb.Playing() && pb.Pos() < pb.End() || g.firstPictureDue()) {
		g.askFrame(true)
		return
	}
	if f.on && (len(g.arrivals) > 0 || g.held) {
		g.askFrame(pb.Playing())
		return
	}
	if f.on && g.drawDue() && (g.viewDue() || g.page.view.tooltipDue) {
		g.askFrame(false) // the view and the tooltip are of the picture drawn: sent the frame after (view.go)
	}
}

// drawDue says that this frame's Draw has a new picture to draw.
func (g *Game) drawDue() bool { return g.key != g.drawn || !g.firstFrame }

// firstPictureDue says that the first picture is still to be drawn and
// not yet prepared: Draw paints the one Update prepared in the same frame.
// A frame asked for after it would only present it again, which Ebitengine
// does for up to four frames after a change (perm-1024: a frame of 0.1–0.5
// s on software WebGL, the whole picture drawn again and read back).
func (g *Game) firstPictureDue() bool {
	return !g.firstFrame && (g.failure != "" || g.cmp == nil && g.frame.Layout == nil)
}

// pageShowsProgress says that the page's own playback bar shows how far
// computing has got (its computing bar and the time left, from the time
// events), so the canvas need not: one run, paused, with no seek waiting.
// The canvas then draws no progress box and asks for no frame a second for
// it; each such frame was a picture drawn and read back, over 100 ms on
// software WebGL, while the canvas showed nothing new. Playing, seeking past
// what is computed, a comparison (its strip says how far) and an embed
// without controls keep the box.
func (g *Game) pageShowsProgress() bool {
	p := g.p
	if !g.out.browser() || !g.params.Controls || g.cmp != nil || p == nil || p.Playing() {
		return false
	}
	_, seeking := p.Seeking()
	return !seeking
}
