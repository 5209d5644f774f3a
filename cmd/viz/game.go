package main

import (
	"errors"
	"fmt"
	"image"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/render/ebitenrender"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// host is where the program runs: the browser page or a desktop window.
type host interface {
	query() string
	commands() *commandQueue
	event(ev protocol.Event)
	browser() bool
}

const (
	// Simulation work per tick when Update computes (on a desktop and in
	// tests; in the browser workers compute: see budget): at least playBudget while
	// playback has computed frames ahead of it, so frames stay smooth;
	// waitBudget while it waits for computing (paused, at the computed end,
	// or seeking past it), so computing gets most of the time yet a frame
	// stays under ~100 ms.
	playBudget = 8 * time.Millisecond
	waitBudget = 85 * time.Millisecond
	// aheadSeconds is how much playback, at its speed, counts as enough
	// computed ahead to play frames already computed.
	aheadSeconds = 2.0
	// redrawEvery is how often the progress bar is redrawn while nothing
	// else changes: a drawn frame costs the browser tens of milliseconds
	// (SwiftShader: 80 ms for perm-1024), which computing would not get.
	redrawEvery   = time.Second
	eventEvery    = 100 * time.Millisecond
	historyFrames = 240
)

// Game is the Ebitengine game: Update drains commands, computes ahead,
// advances playback and prepares the frame; Draw only draws it; LayoutF
// only sizes.
type Game struct {
	// mu keeps Update and Draw apart (a desktop window runs them on
	// threads); background says that Update does not compute (a test does).
	mu         sync.Mutex
	background bool

	out     host
	params  playback.Params
	p       *playback.Player
	cmp     *comparison // instead of p: two runs side by side (compare.go)
	step    string      // the lesson step whose scenario is loaded
	failure string
	drawErr error // a panic in Draw, for Update to report

	drawer  *ebitenrender.Drawer
	builder render.Builder
	scale   float64 // device px per logical px
	w, h    float64 // the window in logical px

	// The picture Draw made, for DrawFinalScreen: picScene says it is a
	// scene (not an error); built is what making it took; painted says it
	// has been drawn once; inOffscreen that it is in the offscreen image.
	pic                            *render.DisplayList
	picScene, painted, inOffscreen bool
	built                          time.Duration

	// What Draw shows, prepared by Update.
	layout    *render.Layout
	layoutKey layoutKey
	frame     render.Frame
	errorPic  errorPicture // the failure, when there is one (errorpic.go)
	selected  int          // the flow the learner picked (render.Frame.Selected), kept through playback
	inspect   render.Hover // the keyboard's highlight (view.go), or none
	inspectAt [2]int       // where the pointer was when it moved

	last      time.Time
	lastEvent time.Time
	sentDone  bool
	skipped   int // loads dropped unbuilt since the last one built
	page      pageEvents

	// The pointer (events.go): the mouse, or the last tap on a touch screen.
	touches                    []ebiten.TouchID
	tapX, tapY, mouseX, mouseY int
	tapped                     bool

	// What the picture depends on, as prepared and as last drawn: Draw
	// skips a picture it has drawn already (the screen keeps its pixels), so
	// computing gets the time while nothing moves.
	key, drawn drawKey
	// frameCost is what a tick costs beside computing (preparing, drawing,
	// the browser's own work), measured between Updates.
	frameCost   time.Duration
	computeTook time.Duration
	loadedAt    time.Time // when the run playing was loaded

	firstFrame bool      // a picture has been drawn (final.go)
	warmed     bool      // the drawer's shaders have drawn (final.go)
	tel        telemetry // frame timing, for the stats command (telemetry.go)

	figures figureRequest // what to tell the page when the run is done (figures.go)
	ran     loadKey       // what the last load ran, but its price (reprice.go)
	frames  frameState    // frames on demand (frames.go)
	memory  memoryGrowth  // the WebAssembly memory grown ahead (memory.go)

	// Runs computed by the browser's workers (remote.go): by worker, the
	// last run_id given, and the runs whose first frame is still to come;
	// the picture shown meanwhile, with the size it was made for; the
	// workers' messages still to take, and how much a frame takes of them
	// (fromWorkers).
	runs       [2]*remoteRun
	runID      int
	waiting    []*remoteRun
	loadingPic *render.DisplayList
	loadingKey [2]float64
	arrivals   []arrival
	take       takeLimits
	drain      drainRate // how fast the page takes the workers' messages (timeLeft)
	// hold says this frame takes messages rather than draw (fromWorkers),
	// held that it holds a new picture back; pictureFrame is when the last
	// frame that could draw began.
	hold, held   bool
	pictureFrame time.Time

	quizPending bool // the lesson step shown has a quiz to answer (protocol.Quiz)
}

// controlsHeight is the embed page's playback bar, in CSS pixels.
const controlsHeight = 48

// drawKey is what a picture depends on.
type drawKey struct {
	layout          *render.Layout
	cur, prev, hist *snap.Snapshot
	nhist           int
	hover           render.Hover
	selected        int // the picked flow (render.Frame.Selected)
	errorPic        *render.DisplayList
	computing       render.Computing // rounded to what the bar shows
	tick            int64            // while computing: redrawEvery periods
	scale           float64
	cmp             compareKey // a comparison's picture (compare.go)
}

// layoutKey is what a layout depends on.
type layoutKey struct {
	w, h float64
	topo *topo.Topology
	opt  render.Options
}

func newGame(h host) (*Game, error) {
	d, err := ebitenrender.New()
	if err != nil {
		return nil, err
	}
	g := &Game{out: h, drawer: d, scale: 1, last: time.Now(), take: takeLimits{hold: takeHold, lag: takeLag}}
	q := h.query()
	// A wrong parameter is left out, with a notice: the rest plays.
	params, wrong := playback.ParseQueryKeeping(q)
	// Ready first: the page then sends what it queued, and every event about
	// the first scenario (loaded, error) comes after ready.
	h.event(protocol.Ready{})
	for _, err := range wrong {
		h.event(protocol.Error{Message: err.Error(), Notice: true})
	}
	g.params = params
	// A load the page sent before ready (a lesson's step) is the first run,
	// unless the address names one: incast is not built to be replaced at
	// once. With first=load (a lesson's canvas) the canvas waits for that
	// load, however late it comes. playback.FirstRun decides the same for
	// the worker's early run.
	first := params.NamesRun() || (!hasLoad(h) && !params.FirstLoad)
	switch {
	case params.Compare != nil && g.runsRemotely():
		g.loadCompareRemote(*params.Compare)
	case params.Compare != nil:
		g.loadCompare(*params.Compare)
	case first && g.runsRemotely():
		sc, err := params.Load()
		g.loadRemote(sc, err, params.Begin(), false) // params.Play is taken once it plays
	case first:
		g.load(params.Load())
	}
	return g, nil
}

// load replaces what plays. The old run, its frames and what was drawn from
// them are let go and collected first, so that the new run reuses their
// memory (WebAssembly memory only grows); in the browser a scenario too big
// for the tab is refused before anything is built.
func (g *Game) load(sc scenario.Scenario, err error) {
	g.release()
	b := g.begin(sc, err)
	if b == nil {
		return
	}
	for !b.Build(time.Hour) {
	}
	g.loaded(b)
}

// begin begins building sc, the old run gone; nil (the error shown) if it
// cannot be built.
func (g *Game) begin(sc scenario.Scenario, err error) *playback.Builder {
	if err == nil && g.out.browser() {
		err = playback.FitsBrowser(&sc)
	}
	if err != nil {
		g.fail(err)
		return nil
	}
	b, err := playback.Begin(sc)
	if err != nil {
		g.fail(err)
		return nil
	}
	return b
}

// loaded plays what b has built.
func (g *Game) loaded(b *playback.Builder) {
	p, err := b.Player()
	if err != nil {
		g.fail(err)
		return
	}
	p.SetHeapLimit(heapLimit)
	p.LookAhead(b.LookAheadBudget())
	g.playing(p)
}

// playing plays p, a new run, as the page's parameters say, and tells the page.
func (g *Game) playing(p *playback.Player) {
	sc := p.Scenario()
	g.p, g.failure, g.sentDone, g.loadedAt = p, "", false, time.Now()
	g.selected = 0 // a new run: its flows are others
	g.loadedEvents()
	if g.params.Speed > 0 {
		p.SetSpeed(g.params.Speed)
	}
	if g.params.Start > 0 {
		p.Seek(g.params.Start) // computes up to it, then goes there
	}
	if g.params.Play {
		p.Play()
	}
	g.out.event(protocol.Loaded{Name: sc.Name, Step: g.step, Skipped: g.skipped})
	g.skipped = 0
	g.sendTime()
}

// release drops the playing run and everything drawn from it, and collects.
// The scene builder goes too: its chart cache is keyed by the run's snapshots.
func (g *Game) release() {
	for i, r := range g.runs {
		if r != nil && (r.p == nil || !r.p.Done()) {
			g.out.(runner).toWorker(i, protocol.Cancel{RunID: r.id})
		}
	}
	g.runs, g.waiting, g.loadingPic = [2]*remoteRun{}, nil, nil
	g.p, g.frame, g.layout, g.layoutKey = nil, render.Frame{}, nil, layoutKey{}
	g.builder = render.Builder{}
	g.releaseCompare()
	runtime.GC()
}

// fail shows an error over the canvas and tells the page, in the page's
// language.
func (g *Game) fail(err error) {
	g.failure = i18n.Error(i18n.Lang(g.params.Lang), err)
	g.p, g.cmp = nil, nil
	g.out.event(protocol.Error{Message: g.failure})
}

// handleAll runs a batch of commands. The editor's are answered first
// (editor.go). A burst of loads builds only the last: earlier loads, and
// playback commands for the runs they would have built, are dropped before
// anything is built.
func (g *Game) handleAll(raws [][]byte) {
	type decoded struct {
		c   protocol.Command
		err error
	}
	cmds := make([]decoded, 0, len(raws))
	for _, raw := range raws {
		c, err := protocol.DecodeCommand(raw)
		if !g.editorCommand(c, err) {
			cmds = append(cmds, decoded{c, err})
		}
	}
	last := -1
	for i, dc := range cmds {
		if _, ok := dc.c.(protocol.Load); ok && dc.err == nil {
			last = i
		}
	}
	for i, dc := range cmds {
		if i < last && dc.err == nil && !aboutThePage(dc.c) {
			if _, ok := dc.c.(protocol.Load); ok {
				g.skipped++
			}
			continue
		}
		g.handle(dc.c, dc.err)
	}
}

// aboutThePage says c is not about a run (stats, presenter, the step's
// quiz): a later load does not drop it. A lesson sends quiz, then load, so
// both often arrive in one frame.
func aboutThePage(c protocol.Command) bool {
	switch c.(type) {
	case protocol.AskStats, protocol.Presenter, protocol.Quiz:
		return true
	}
	return false
}

func (g *Game) handle(c protocol.Command, err error) {
	if err != nil {
		g.out.event(protocol.ErrorFor(c, err))
		return
	}
	switch c := c.(type) {
	case protocol.Load:
		g.handleLoad(c)
		return
	case protocol.AskStats:
		g.stats()
		return
	case protocol.Presenter:
		g.params.Big = c.On
		return
	case protocol.Quiz:
		g.quizPending = c.Pending
		switch { // a time event, as after every command: the page's bar shows the end again, or not
		case g.cmp != nil:
			g.sendCompareTime()
		case g.p != nil:
			g.sendTime()
		}
		return
	case protocol.Keys:
		return // the page's own (embed.js)
	}
	if g.cmp != nil && g.handleCompare(c) {
		return
	}
	p := g.p
	if p == nil {
		if len(g.waiting) > 0 { // its first frame to come (remote.go): play, pause, Space, seek and reset then
			w := g.waiting[0]
			switch c := c.(type) {
			case protocol.Play:
				w.play = true
			case protocol.Pause:
				w.play = false
			case protocol.Toggle:
				w.play = !w.play
			case protocol.Seek:
				w.seek = unitMicros(c.TUs)
			case protocol.Reset:
				w.play, w.seek = false, 0
			}
		}
		return
	}
	g.handlePlayback(p, c)
	g.hold, g.held = false, false // what the learner asked for is drawn this frame (holdPicture)
	g.page.summaryDue, g.page.view.due = true, true
	g.sendTime()
}

// handleLoad loads what c asks for: a comparison, or a scenario (unless
// only its price changed: reprice.go).
func (g *Game) handleLoad(c protocol.Load) {
	if c.Left != nil {
		g.step = c.Step
		sides := [2]playback.Side{playback.Side(*c.Left), playback.Side(*c.Right)}
		if g.runsRemotely() {
			g.loadCompareRemote(sides)
			if len(g.waiting) > 0 {
				g.waiting[0].play = c.Play || g.params.Play
			}
			return
		}
		g.loadCompare(sides)
		if g.cmp != nil && c.Play {
			g.cmp.pair.Play()
		}
		return
	}
	if g.reprice(c) {
		return
	}
	g.step = c.Step
	g.figures = figureRequest{specs: c.Figures, step: c.Step, sets: c.Sets}
	g.ran = keyOf(c)
	sc, err := playback.LoadCommand(c)
	if g.runsRemotely() {
		g.loadRemote(sc, err, playback.LoadBegin(c, g.params.Lang), c.Play)
		return
	}
	g.load(sc, err)
	if g.p != nil && c.Play {
		g.p.Play()
	}
}

// handlePlayback runs a playback command on p.
func (g *Game) handlePlayback(p *playback.Player, c protocol.Command) {
	switch c := c.(type) {
	case protocol.Play:
		p.Play()
	case protocol.Pause:
		p.Pause()
	case protocol.Toggle:
		p.Toggle()
	case protocol.Step:
		p.Step()
	case protocol.Back:
		p.StepBack()
	case protocol.Reset:
		p.Reset()
	case protocol.Seek:
		p.Seek(unitMicros(c.TUs))
	case protocol.Faster:
		p.Faster()
	case protocol.Slower:
		p.Slower()
	case protocol.Speed:
		p.SetSpeed(unitMicros(c.UsPerS))
	case protocol.Tap: // a click or touch the page saw: none is lost between two frames
		if c.Touch {
			g.tapX, g.tapY, g.tapped = int(c.X*g.scale), int(c.Y*g.scale), true
			g.mouseX, g.mouseY = ebiten.CursorPosition()
		}
		if g.frame.Layout != nil && g.frame.Cur != nil {
			g.selected = render.PickFlow(&g.frame, render.HitTest(g.frame.Layout, c.X, c.Y))
		}
	case protocol.Inspect: // ↓ ↑ and Esc on the canvas
		g.inspectNext(int(c.Dir))
	case protocol.NextFlow, protocol.PrevFlow: // ] and [ as the page forwards them
		if g.frame.Layout != nil && g.frame.Cur != nil {
			d := 1
			if _, prev := c.(protocol.PrevFlow); prev {
				d = -1
			}
			g.selected = render.StepFlow(&g.frame, g.selected, d)
		}
	}
}

// sendTime tells the page where playback is: t_us is the time of the frame
// shown (what the canvas's header reads), end_us and computed_us how far the
// run is computed, progress the share computed (0…1, -1 while unknown) and
// eta_s the seconds of computing left (-1 while unknown), seek_us where a
// seek waits to go (absent when none).
func (g *Game) sendTime() {
	p := g.p
	if p == nil {
		return
	}
	g.lastEvent = time.Now()
	shown := p.At(p.Pos())
	if g.held && g.drawn.cur != nil {
		shown = g.drawn.cur // the picture held while messages are taken (holdPicture)
	}
	ev := protocol.Time{TUs: shown.Time.Micros(), EndUs: p.End().Micros(),
		Playing: p.Playing(), Done: p.Done(), SpeedUs: p.Speed().Micros(),
		ComputedUs: p.End().Micros(), Progress: round3(p.Progress()), EtaS: round3(p.ETA())}
	if t, ok := p.Seeking(); ok {
		us := t.Micros()
		ev.SeekUs = &us
	}
	g.out.event(ev)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// budget is the simulation work for this tick: waitBudget while playback
// waits for computing; while it plays frames computed ahead, twice what the
// rest of a tick costs (so computing keeps two thirds of the time), between
// playBudget and waitBudget.
func budget(p *playback.Player, frameCost time.Duration) time.Duration {
	_, seeking := p.Seeking()
	ahead := p.End() - p.Pos()
	if !p.Playing() || seeking || float64(ahead) < aheadSeconds*float64(p.Speed()) {
		return waitBudget
	}
	return max(playBudget, min(waitBudget, 2*frameCost))
}

// Update runs once per frame (ebiten.SyncWithFPS).
func (g *Game) Update() (err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer g.afterUpdate() // asks for the next frame when one is due (frames.go)
	defer func() {
		if r := recover(); r != nil {
			g.fail(errors.New(i18n.Tf(i18n.Lang(g.params.Lang), "viz.internal", r)))
		}
	}()
	now := time.Now()
	defer func() { g.tel.updates = keep(g.tel.updates, time.Since(now).Seconds()*1000) }()
	if !g.last.IsZero() {
		g.frameCost = max(0, now.Sub(g.last)-g.computeTook)
	}
	if g.p != nil && !g.p.Done() && !g.last.IsZero() && len(g.tel.ticks) < 1<<16 {
		g.tel.ticks = append(g.tel.ticks, now.Sub(g.last).Seconds()*1000)
	}
	real := g.sinceLast(math.Min(now.Sub(g.last).Seconds(), 0.1))
	g.last = now
	if g.drawErr != nil {
		g.fail(g.drawErr)
		g.drawErr = nil
	}
	g.fromWorkers() // remote.go
	cmds, dropped := g.out.commands().drain()
	if dropped > 0 {
		g.out.event(protocol.Error{Message: fmt.Sprintf(
			"%d commands dropped: more than %d MiB of commands came between two frames; wait for each command's event before sending more", dropped, maxQueued>>20)})
	}
	g.handleAll(cmds)
	if g.cmp != nil {
		g.updateCompare(real, now)
		g.holdPicture()
		return nil
	}
	if !g.out.browser() {
		g.keys()
	}
	p := g.p
	if p != nil {
		if !g.background {
			t0 := time.Now()
			p.Compute(budget(p, g.frameCost))
			g.computeTook = time.Since(t0)
		}
		if err := p.Err(); err != nil {
			g.release()
			g.fail(err)
			p = nil
		} else {
			p.Tick(real)
		}
	}
	x, y := g.pointer()
	g.prepare(float64(x)/g.scale, float64(y)/g.scale)
	g.pickFlow()
	g.holdPicture()
	if p == nil {
		return nil
	}
	g.events(now)
	return nil
}

// keys are the desktop window's shortcuts; in the browser the page handles keys.
func (g *Game) keys() {
	if g.p == nil {
		return
	}
	pressed := func(k ebiten.Key) bool { return inpututil.IsKeyJustPressed(k) }
	switch {
	case pressed(ebiten.KeySpace):
		g.p.Toggle()
	case pressed(ebiten.KeyPeriod), pressed(ebiten.KeyArrowRight):
		g.p.Step()
	case pressed(ebiten.KeyComma), pressed(ebiten.KeyArrowLeft):
		g.p.StepBack()
	case pressed(ebiten.KeyR):
		g.p.Reset()
	case pressed(ebiten.KeyEqual):
		g.p.Faster()
	case pressed(ebiten.KeyMinus):
		g.p.Slower()
	}
}

// prepare makes what Draw shows from the state: the error picture, or the
// layout (rebuilt only when the size, the scenario or the options change)
// and the frame at the playback position, with what is under the cursor at
// (cx, cy) in logical px.
func (g *Game) prepare(cx, cy float64) {
	w, h := g.w, g.h
	if g.failure != "" {
		pic := g.errorPic.picture(w, h, g.failure, render.Lang(g.params.Lang), g.params.Theme == "light")
		g.key = drawKey{errorPic: pic, scale: g.scale}
		return
	}
	g.errorPic.pic = nil
	p := g.p
	if p == nil {
		g.frame = render.Frame{}
		g.showLoading(w, h) // loading.go
		return
	}
	if g.out.browser() && g.params.Controls {
		h -= controlsHeight // the page's playback bar covers the bottom
	}
	key := layoutKey{w, h, p.Topology(), render.Options{Dark: g.params.Theme != "light", Presenter: g.params.Big, Title: p.Scenario().Name, Lang: render.Lang(g.params.Lang),
		Training: p.Scenario().Training.Model != "", SelectiveRepeat: selectiveRepeat(p.Scenario())}}
	if g.layout == nil || key != g.layoutKey {
		g.layout, g.layoutKey = render.NewLayout(key.topo, key.w, key.h, key.opt), key
		if g.inspect.Kind != render.HoverNone { // placed elsewhere now
			g.inspect, g.page.view.tooltipDue = render.Hover{}, true
		}
	}
	// Rates over the last twentieth of a second of playback read steadier than frame to frame.
	g.frame = render.Frame{Layout: g.layout, Cur: p.At(p.Pos()), Prev: p.At(p.Pos() - p.Speed()/20),
		History: p.History(historyFrames), Hover: g.inspected(cx, cy)}
	k := drawKey{layout: g.layout, cur: g.frame.Cur, prev: g.frame.Prev, nhist: len(g.frame.History), hover: g.frame.Hover, scale: g.scale}
	if n := len(g.frame.History); n > 1 {
		k.hist = g.frame.History[n-2]
	}
	if !p.Done() && !g.pageShowsProgress() {
		target, _ := p.Seeking()
		c := render.Computing{Progress: p.Progress(), ETA: p.ETA(), Computed: p.End(), Target: max(0, target)}
		g.frame.Computing = &c
		k.computing = render.Computing{Target: c.Target} // progress and time left: with the tick
		k.tick = time.Now().UnixNano() / int64(redrawEvery)
		// Playing at the computed end, each new frame would be drawn as it
		// comes (each costs the browser ~80 ms under SwiftShader): show
		// them with the progress bar, once a tick.
		if d := g.drawn; p.Playing() && p.Pos() >= p.End() && d.layout == k.layout && d.tick == k.tick &&
			d.hover == k.hover && d.scale == k.scale && d.computing == k.computing {
			k = d
		}
	}
	g.key = k
}

// Draw makes the picture Update prepared (the scene, or the error); it
// changes nothing but its own timings. DrawFinalScreen (final.go) draws it.
func (g *Game) Draw(screen *ebiten.Image) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			g.drawErr = fmt.Errorf("drawing failed (please report it): %v", r)
		}
	}()
	if g.key == g.drawn && g.firstFrame {
		return // the screen still shows it
	}
	g.drawn = g.key
	start := time.Now()
	g.pic, g.picScene = nil, false
	switch {
	case g.failure != "":
		g.pic = g.errorPic.pic
	case g.p == nil && g.loadingPic != nil: // loading.go
		g.pic = g.loadingPic
	case g.cmp != nil:
		g.pic, g.picScene = g.compareScene(), true
	case g.frame.Layout != nil:
		g.pic, g.picScene = g.builder.Scene(&g.frame), true
	}
	g.built, g.painted, g.inOffscreen = time.Since(start), false, false
	// A new picture: Ebitengine shows the screen again only if its
	// offscreen image changed, so change one pixel of it.
	screen.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).Clear()
}

// LayoutF sizes the canvas in device pixels so text stays crisp on HiDPI screens.
func (g *Game) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 {
		s = 1
	}
	g.scale, g.w, g.h = s, outsideWidth, outsideHeight
	return outsideWidth * s, outsideHeight * s
}

// Layout is required by ebiten.Game; LayoutF is used instead.
func (g *Game) Layout(w, h int) (int, int) { return w, h }

// pickFlow picks a flow for the routing view: a click or tap on a host, a
// link or a switch picks a flow there (again: the next one), on empty space
// none; ] and [ step through the flows. The pick stays while playback runs.
func (g *Game) pickFlow() {
	if g.frame.Layout == nil || g.frame.Cur == nil {
		return
	}
	f := &g.frame
	f.Selected = g.selected
	at := func(x, y int) {
		g.selected = render.PickFlow(f, render.HitTest(f.Layout, float64(x)/g.scale, float64(y)/g.scale))
	}
	if !g.out.browser() { // in the browser the page sends taps as commands
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
			at(ebiten.CursorPosition())
		}
		for _, id := range inpututil.AppendJustPressedTouchIDs(nil) {
			at(ebiten.TouchPosition(id))
		}
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketRight):
		g.selected = render.StepFlow(f, g.selected, +1)
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketLeft):
		g.selected = render.StepFlow(f, g.selected, -1)
	}
	f.Selected = g.selected
	g.key.selected = g.selected
}

// selectiveRepeat reports whether the header names sc's loss recovery: a
// packet-level run with network.recovery: sr (go-back-N goes unsaid).
func selectiveRepeat(sc *scenario.Scenario) bool {
	return sc.Sim.Fidelity == scenario.Packet && sc.Network.Recovery == scenario.RecoverySR
}
