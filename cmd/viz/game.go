package main

import (
	"fmt"
	"image/color"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"fabriclab/cmd/viz/player"
	"fabriclab/render"
	"fabriclab/render/ebitenrender"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// host is where the program runs: the browser page or a desktop window.
type host interface {
	query() string
	commands() *commandQueue
	event(ev map[string]any)
	browser() bool
}

// commandQueue carries commands from JavaScript callbacks to Update.
type commandQueue struct {
	mu    sync.Mutex
	items [][]byte
}

func (q *commandQueue) push(b []byte) {
	q.mu.Lock()
	q.items = append(q.items, b)
	q.mu.Unlock()
}

func (q *commandQueue) drain() [][]byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}

const (
	computeBudget = 6 * time.Millisecond // simulation work per tick, so frames stay smooth
	eventEvery    = 100 * time.Millisecond
	historyFrames = 240
)

// Game is the Ebitengine game: Update drains commands, computes ahead,
// advances playback and prepares the frame; Draw only draws it; LayoutF
// only sizes.
type Game struct {
	out     host
	params  player.Params
	p       *player.Player
	step    string // the lesson step whose scenario is loaded
	failure string
	drawErr error // a panic in Draw, for Update to report

	drawer  *ebitenrender.Drawer
	builder render.Builder
	scale   float64 // device px per logical px
	w, h    float64 // the window in logical px

	// What Draw shows, prepared by Update.
	layout    *render.Layout
	layoutKey layoutKey
	frame     render.Frame
	errorPic  *render.DisplayList // the failure, when there is one
	errorKey  [2]float64          // the size errorPic was made for
	selected  int                 // the flow the learner picked (render.Frame.Selected), kept through playback

	last      time.Time
	lastEvent time.Time
	sentDone  bool
	skipped   int // loads dropped unbuilt since the last one built
	page      pageEvents

	// The pointer (events.go): the mouse, or the last tap on a touch screen.
	touches                    []ebiten.TouchID
	tapX, tapY, mouseX, mouseY int
	tapped                     bool

	// Frame timing, for the page's benchmarks: intervals between draws and
	// the time spent in Draw, in milliseconds.
	lastDraw   time.Time
	intervals  []float64
	drawTimes  []float64
	firstFrame bool
}

// errorList pictures an error message: the canvas never goes blank. (In the
// browser the page also shows it over the canvas.)
func errorList(w, h float64, msg string, lang render.Lang) *render.DisplayList {
	dl := &render.DisplayList{}
	dl.Reset(float32(w), float32(h))
	dl.Prims = append(dl.Prims, render.Prim{Kind: render.KindRect, W: float32(w), H: float32(h), Fill: color.RGBA{0x1c, 0x12, 0x14, 0xff}})
	y := float32(40)
	add := func(s string, size float32, c color.RGBA) {
		dl.Prims = append(dl.Prims, render.Prim{Kind: render.KindText, Layer: render.LayerLabel, X: 24, Y: y, Size: size, Fill: c, Str: s})
		y += size * 1.6
	}
	add(render.T(lang, "error.title"), 20, color.RGBA{0xff, 0x7b, 0x72, 0xff})
	width := max(20, int((w-48)/8))
	for _, line := range strings.Split(msg, "\n") {
		for len(line) > width {
			cut := strings.LastIndex(line[:width], " ")
			if cut <= 0 {
				cut = width
			}
			add(line[:cut], 14, color.RGBA{0xff, 0xd8, 0xd3, 0xff})
			line = strings.TrimLeft(line[cut:], " ")
		}
		add(line, 14, color.RGBA{0xff, 0xd8, 0xd3, 0xff})
	}
	return dl
}

const keptFrames = 600

// controlsHeight is the embed page's playback bar, in CSS pixels.
const controlsHeight = 48

func keep(v []float64, x float64) []float64 {
	if len(v) >= keptFrames {
		copy(v, v[1:])
		v = v[:keptFrames-1]
	}
	return append(v, x)
}

func percentile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func (g *Game) stats() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	var frameBytes int64
	if g.p != nil {
		frameBytes = g.p.FrameBytes()
	}
	g.out.event(map[string]any{"fabriclab": "stats", "frames": len(g.intervals),
		"heap_bytes": m.HeapAlloc, "sys_bytes": m.Sys, "frame_bytes": frameBytes,
		"interval_p50_ms": percentile(g.intervals, 0.5), "interval_p95_ms": percentile(g.intervals, 0.95),
		"draw_p50_ms": percentile(g.drawTimes, 0.5), "draw_p95_ms": percentile(g.drawTimes, 0.95)})
	g.intervals, g.drawTimes = g.intervals[:0], g.drawTimes[:0]
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
	g := &Game{out: h, drawer: d, scale: 1, last: time.Now()}
	q := h.query()
	params, err := player.ParseQuery(q)
	// Ready first: the page then sends what it queued, and every event about
	// the first scenario (loaded, error) comes after ready.
	h.event(map[string]any{"fabriclab": "ready"})
	if err != nil {
		g.fail(err)
	} else {
		g.params = params
		if q != "" || !hasLoad(h) {
			g.load(params.Load())
		}
	}
	return g, nil
}

func hasLoad(h host) bool {
	q := h.commands()
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) > 0
}

// load replaces what plays. The old run, its frames and what was drawn from
// them are let go and collected first, so that the new run reuses their
// memory (WebAssembly memory only grows); in the browser a scenario too big
// for the tab is refused before anything is built.
func (g *Game) load(sc scenario.Scenario, err error) {
	g.release()
	if err == nil && g.out.browser() {
		err = player.FitsBrowser(&sc)
	}
	if err != nil {
		g.fail(err)
		return
	}
	p, err := player.New(sc)
	if err != nil {
		g.fail(err)
		return
	}
	g.p, g.failure, g.sentDone = p, "", false
	g.selected = 0 // a new run: its flows are others
	g.loadedEvents()
	if g.params.Speed > 0 {
		p.SetSpeed(g.params.Speed)
	}
	if g.params.Start > 0 {
		p.Compute(50 * time.Millisecond)
		p.Seek(g.params.Start)
	}
	if g.params.Play {
		p.Play()
	}
	g.out.event(map[string]any{"fabriclab": "loaded", "name": sc.Name, "step": g.step, "skipped": g.skipped})
	g.skipped = 0
	g.sendTime()
}

// release drops the playing run and everything drawn from it, and collects.
// The scene builder goes too: its chart cache is keyed by the run's snapshots.
func (g *Game) release() {
	g.p, g.frame, g.layout, g.layoutKey = nil, render.Frame{}, nil, layoutKey{}
	g.builder = render.Builder{}
	runtime.GC()
}

// fail shows an error over the canvas and tells the page.
func (g *Game) fail(err error) {
	g.failure = err.Error()
	g.p = nil
	g.out.event(map[string]any{"fabriclab": "error", "message": g.failure})
}

// handleAll runs a batch of commands. A burst of loads builds only the last:
// earlier loads, and playback commands for the runs they would have built,
// are dropped before anything is built.
func (g *Game) handleAll(raws [][]byte) {
	type parsed struct {
		c   player.Command
		err error
	}
	cmds := make([]parsed, len(raws))
	last := -1
	for i, raw := range raws {
		c, err := player.ParseCommand(raw)
		cmds[i] = parsed{c, err}
		if err == nil && c.Op == "load" {
			last = i
		}
	}
	for i, pc := range cmds {
		if i < last && pc.err == nil && pc.c.Op != "stats" && pc.c.Op != "presenter" {
			if pc.c.Op == "load" {
				g.skipped++
			}
			continue
		}
		g.handle(pc.c, pc.err)
	}
}

func (g *Game) handle(c player.Command, err error) {
	if err != nil {
		g.out.event(map[string]any{"fabriclab": "error", "message": err.Error()})
		return
	}
	if c.Op == "load" {
		g.step = c.Step
		g.load(c.Load())
		if g.p != nil && c.Play {
			g.p.Play()
		}
		return
	}
	switch c.Op {
	case "stats":
		g.stats()
		return
	case "presenter":
		g.params.Big = c.On
		return
	}
	p := g.p
	if p == nil {
		return
	}
	switch c.Op {
	case "play":
		p.Play()
	case "pause":
		p.Pause()
	case "toggle":
		p.Toggle()
	case "step":
		p.Step()
	case "back":
		p.StepBack()
	case "reset":
		p.Reset()
	case "seek":
		p.Seek(unit.Time(c.TUs * float64(unit.Microsecond)))
	case "faster":
		p.Faster()
	case "slower":
		p.Slower()
	case "speed":
		p.SetSpeed(unit.Time(c.SpeedUs * float64(unit.Microsecond)))
	case "nextflow", "prevflow": // ] and [ as the page forwards them
		if g.frame.Layout != nil && g.frame.Cur != nil {
			d := 1
			if c.Op == "prevflow" {
				d = -1
			}
			g.selected = render.StepFlow(&g.frame, g.selected, d)
		}
	}
	g.page.summaryDue = true
	g.sendTime()
}

func (g *Game) sendTime() {
	if g.p == nil {
		return
	}
	g.lastEvent = time.Now()
	g.out.event(map[string]any{"fabriclab": "time", "t_us": g.p.Pos().Micros(), "end_us": g.p.End().Micros(),
		"playing": g.p.Playing(), "done": g.p.Done(), "speed_us": g.p.Speed().Micros()})
}

// Update runs at 60 ticks per second.
func (g *Game) Update() (err error) {
	defer func() {
		if r := recover(); r != nil {
			g.fail(fmt.Errorf("internal error (please report it): %v", r))
		}
	}()
	now := time.Now()
	real := math.Min(now.Sub(g.last).Seconds(), 0.1)
	g.last = now
	if g.drawErr != nil {
		g.fail(g.drawErr)
		g.drawErr = nil
	}
	g.handleAll(g.out.commands().drain())
	if !g.out.browser() {
		g.keys()
	}
	p := g.p
	if p != nil {
		p.Compute(computeBudget)
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
		if k := [2]float64{w, h}; g.errorPic == nil || k != g.errorKey {
			g.errorPic, g.errorKey = errorList(w, h, g.failure, render.Lang(g.params.Lang)), k
		}
		return
	}
	g.errorPic = nil
	p := g.p
	if p == nil {
		g.frame = render.Frame{}
		return
	}
	if g.out.browser() && g.params.Controls {
		h -= controlsHeight // the page's playback bar covers the bottom
	}
	key := layoutKey{w, h, p.Topology(), render.Options{Dark: g.params.Theme != "light", Presenter: g.params.Big, Title: p.Scenario().Name, Lang: render.Lang(g.params.Lang),
		Training: p.Scenario().Training.Model != ""}}
	if g.layout == nil || key != g.layoutKey {
		g.layout, g.layoutKey = render.NewLayout(key.topo, key.w, key.h, key.opt), key
	}
	// Rates over the last twentieth of a second of playback read steadier than frame to frame.
	g.frame = render.Frame{Layout: g.layout, Cur: p.At(p.Pos()), Prev: p.At(p.Pos() - p.Speed()/20),
		History: p.History(historyFrames), Hover: render.HitTest(g.layout, cx, cy)}
}

// Draw draws what Update prepared; it changes nothing but its own timings.
func (g *Game) Draw(screen *ebiten.Image) {
	defer func() {
		if r := recover(); r != nil {
			g.drawErr = fmt.Errorf("drawing failed (please report it): %v", r)
		}
	}()
	if g.failure != "" {
		if g.errorPic != nil {
			g.drawer.Draw(screen, g.errorPic, g.scale)
		}
		return
	}
	if g.frame.Layout == nil {
		return
	}
	start := time.Now()
	g.drawer.Draw(screen, g.builder.Scene(&g.frame), g.scale)
	end := time.Now()
	if !g.lastDraw.IsZero() {
		g.intervals = keep(g.intervals, end.Sub(g.lastDraw).Seconds()*1000)
	}
	g.drawTimes = keep(g.drawTimes, end.Sub(start).Seconds()*1000)
	g.lastDraw = end
	if !g.firstFrame {
		g.firstFrame = true
		g.out.event(map[string]any{"fabriclab": "frame"})
	}
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
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		at(ebiten.CursorPosition())
	}
	for _, id := range inpututil.AppendJustPressedTouchIDs(nil) {
		at(ebiten.TouchPosition(id))
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketRight):
		g.selected = render.StepFlow(f, g.selected, +1)
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketLeft):
		g.selected = render.StepFlow(f, g.selected, -1)
	}
	f.Selected = g.selected
}
