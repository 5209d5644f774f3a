package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
)

// parentPage frames embed.html?QUERY in the index page (the site's CSP lets it
// frame its own pages) and records every message the canvas posts to it:
// window.got. post(msg) sends the canvas a command.
const parentPage = `(() => {
	window.got = [];
	window.addEventListener("message", (e) => { if (e.data && e.data.fabriclab) got.push(e.data); });
	const f = document.createElement("iframe");
	f.id = "embed"; f.src = "embed.html?" + QUERY; f.width = 960; f.height = 540;
	document.body.prepend(f);
	window.post = (m) => f.contentWindow.postMessage(m, "*");
	window.overlayShown = () => !f.contentDocument.getElementById("error").hidden;
	window.noticeShown = () => !f.contentDocument.getElementById("notice").hidden;
	return true; })()`

func framed(query string) string {
	return "const QUERY = " + strconv.Quote(query) + "; " + parentPage
}

// send posts the framed canvas commands, as protocol writes them.
func send(t *testing.T, ctx context.Context, cmds ...protocol.Command) {
	t.Helper()
	js := ""
	for _, c := range cmds {
		data, err := protocol.EncodeCommand(c)
		require.NoError(t, err)
		js += "post(" + string(data) + "); "
	}
	eval[bool](t, ctx, js+"true")
}

// lastEvent is the last event the parent got whose name is T's, read by
// protocol as type T (a comparison's shape or one run's).
func lastEvent[T protocol.Event](t *testing.T, ctx context.Context) T {
	t.Helper()
	var want T
	data := eval[string](t, ctx, `JSON.stringify(got.filter((e) => e.fabriclab === "`+want.Event()+`").pop() || null)`)
	ev, err := protocol.DecodeEvent([]byte(data))
	require.NoError(t, err, "the parent got no %s event: %s", want.Event(), data)
	got, ok := ev.(T)
	require.True(t, ok, "the last %s event has the shape of %T, not %T: %s", want.Event(), ev, want, data)
	return got
}

// The parent sees ready before loaded; an error reaches the parent and shows
// over the canvas (a wrong command as a notice, bad YAML over the whole
// canvas), a good load clears it, and a later error still arrives; played to
// its end, the canvas says ended.
func TestBrowserEmbedEvents(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
	eval[bool](t, ctx, framed("scenario=incast&set=until=30us&speed=200"))
	poll(t, ctx, `got.some((e) => e.fabriclab === "loaded")`, 90*time.Second)
	order := eval[[]string](t, ctx, `got.map((e) => e.fabriclab).filter((k) => k === "ready" || k === "loaded")`)
	assert.Equal(t, []string{"ready", "loaded"}, order, "ready comes first, then the scenario loads")

	count := func(kind string) int {
		return eval[int](t, ctx, `got.filter((e) => e.fabriclab === "`+kind+`").length`)
	}
	loaded := func(name string) {
		t.Helper()
		poll(t, ctx, `got.some((e) => e.fabriclab === "loaded" && e.name === "`+name+`")`, 60*time.Second)
		poll(t, ctx, `!overlayShown()`, 5*time.Second)
	}
	for i, bad := range []string{`{fabriclab: "nosuch"}`, `{fabriclab: "load", yaml: "topology: {kind: [oops"}`, `{fabriclab: "seek", t_us: -1}`} {
		before := count("error")
		eval[bool](t, ctx, `post(`+bad+`), true`)
		poll(t, ctx, `got.filter((e) => e.fabriclab === "error").length > `+strconv.Itoa(before), 30*time.Second)
		if strings.Contains(bad, "yaml") {
			poll(t, ctx, `overlayShown()`, 5*time.Second)
		} else {
			poll(t, ctx, `noticeShown()`, 5*time.Second)
			assert.False(t, eval[bool](t, ctx, `overlayShown()`), bad)
		}
		name := "good-" + strconv.Itoa(i)
		eval[bool](t, ctx, `post({fabriclab: "load", scenario: "incast", set: ["until=30us", "name=`+name+`"]}), true`)
		loaded(name)
	}

	// The time events' rate while playing, over the next 20 once playing
	// (logged: the machine is shared, so no wall-clock assertion; the cadence
	// itself is TestTimeCadence's).
	n0 := count("time")
	send(t, ctx, protocol.Speed{UsPerS: 1}, protocol.Play{})
	poll(t, ctx, `got.filter((e) => e.fabriclab === "time").slice(`+strconv.Itoa(n0)+`).some((e) => e.playing)`, 30*time.Second)
	eval[bool](t, ctx, `post({fabriclab: "stats"}), true`) // restarts the frame counters
	poll(t, ctx, `got.filter((e) => e.fabriclab === "stats").length >= 1`, 10*time.Second)
	n1, start := count("time"), eval[float64](t, ctx, `performance.now()`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "time").length >= `+strconv.Itoa(n1+20), time.Minute)
	secs := (eval[float64](t, ctx, `performance.now()`) - start) / 1000
	rate := float64(count("time")-n1) / secs
	eval[bool](t, ctx, `post({fabriclab: "stats"}), true`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "stats").length >= 2`, 10*time.Second)
	frames := eval[float64](t, ctx, `got.filter((e) => e.fabriclab === "stats").pop().frames`)
	t.Logf("while playing: %.1f time events and %.1f frames a second", rate, frames/secs)
	send(t, ctx, protocol.Pause{}, protocol.Reset{})

	// Played to its end: done (computed) and then ended (shown), once each.
	send(t, ctx, protocol.Speed{UsPerS: 100}, protocol.Play{})
	poll(t, ctx, `got.some((e) => e.fabriclab === "ended")`, 60*time.Second)
	kinds := eval[[]string](t, ctx, `got.map((e) => e.fabriclab)`)
	last := func(k string) int {
		for i := len(kinds) - 1; i >= 0; i-- {
			if kinds[i] == k {
				return i
			}
		}
		return -1
	}
	assert.Less(t, last("done"), last("ended"), "computed before shown")
	assert.InDelta(t, 30, lastEvent[protocol.Ended](t, ctx).TUs, 0.01, "ended at the end of the run")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// inBar says whether the canvas table's toggle lies inside the playback bar.
const inBar = `((s, b) => s.top >= b.top && s.bottom <= b.bottom && s.left >= b.left && s.right <= b.right)(
	document.querySelector("#canvas-table summary").getBoundingClientRect(), document.querySelector(".controls").getBoundingClientRect())`

// On a 390 px phone the playback bar fits with its buttons big enough to
// tap; ? lists the keys; with reduced motion play=1 waits, with a hint, for
// a click; a time event with progress fields shows the computing bar.
func TestBrowserEmbedPhoneAndMotion(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 700, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		}),
		chromedp.Navigate(base+"/embed.html?scenario=incast&play=1")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	poll(t, ctx, `!document.getElementById("play-hint").hidden`, 10*time.Second)
	assert.NotContains(t, eval[string](t, ctx, `location.search`), "play", "play=1 left the address before the program read it")
	caughtUp(t, ctx, "window") // a play would have started by now
	animationFrames(t, ctx, "window", 3)
	assert.Equal(t, "0.000 µs", eval[string](t, ctx, `document.getElementById("time").textContent.split(" / ")[0]`), "nothing played")
	assert.LessOrEqual(t, eval[float64](t, ctx, `document.querySelector(".controls").scrollWidth`), 390.0, "the bar fits")
	narrow := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".controls button, .controls summary")).filter((b) => b.offsetParent && b.getBoundingClientRect().width < 28).map((b) => b.id)`)
	assert.Empty(t, narrow, "every button is wide enough to tap")
	right := eval[float64](t, ctx, `Math.max(...Array.from(document.querySelectorAll(".controls > *")).filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect().right))`)
	assert.LessOrEqual(t, right, 390.0, "nothing hangs off the right edge")
	assert.True(t, eval[bool](t, ctx, inBar), "the table's toggle is in the bar, not over the canvas")
	assert.Equal(t, "Simulation canvas: incast", eval[string](t, ctx, `document.querySelector("canvas").getAttribute("aria-label")`))
	assert.Equal(t, "0", eval[string](t, ctx, `document.querySelector("canvas").getAttribute("tabindex")`))
	shot := stillShot(t, ctx, "window", "")
	keep(t, "embed-390-reduced-motion.png", shot)

	// A tap shows what hover shows (here host 0's tooltip), and it stays.
	tap(t, ctx, 36, 349)                                                // host 0, above the legend
	tapped := changedShot(t, ctx, "window", "", decode(t, shot), 0.003) // the tooltip shows
	keep(t, "embed-390-tap.png", tapped)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#play-hint")))
	poll(t, ctx, `document.getElementById("play-hint").hidden`, 5*time.Second)
	poll(t, ctx, `document.getElementById("time").textContent.split(" / ")[0] !== "0.000 µs"`, 10*time.Second)
	poll(t, ctx, `document.getElementById("summary").textContent.startsWith("incast: 8 senders to 1, t = ")`, 10*time.Second)

	// The progress fields of the time event (computed_us, progress, eta_s).
	// (Read at once: the program's own time events follow within 100 ms.)
	shown := eval[[]string](t, ctx, `fabriclabEvent(JSON.stringify({fabriclab: "time", t_us: 5, end_us: 20, playing: false, done: false, speed_us: 10, computed_us: 20, progress: 0.4, eta_s: 7.2})),
		[String(document.getElementById("computing").hidden), document.getElementById("computing-bar").style.width, document.getElementById("time").textContent, document.getElementById("computing-status").textContent]`)
	assert.Equal(t, []string{"false", "40%", "5.000 µs / 20.0 µs", "computing 40 % · 8 s left"}, shown, "the time, and the computing status on its own line")
	assert.LessOrEqual(t, eval[float64](t, ctx, `document.querySelector(".controls").scrollWidth`), 390.0, "the bar fits while it says the time left (a phone hides it)")
	eval[bool](t, ctx, `document.querySelector("canvas").focus(), true`)
	press(t, ctx, "?")
	poll(t, ctx, `fabriclabKeysShown()`, 5*time.Second)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "embed-390-keys.png", shot)
	press(t, ctx, "?")
	poll(t, ctx, `!fabriclabKeysShown()`, 5*time.Second)
	assert.Equal(t, "CANVAS", eval[string](t, ctx, `document.activeElement.tagName`), "closing gives the canvas its focus back")
	assert.True(t, eval[bool](t, ctx, `fabriclabEvent(JSON.stringify({fabriclab: "time", t_us: 5, end_us: 20, playing: false, done: false, speed_us: 10})),
		document.getElementById("computing").hidden`), "no progress fields, no bar")

	// The full-screen button, and F, go in and out of full screen.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#fullscreen")))
	poll(t, ctx, `document.fullscreenElement !== null && document.getElementById("fullscreen").getAttribute("aria-pressed") === "true"`, 5*time.Second)
	eval[bool](t, ctx, `document.querySelector("canvas").focus(), true`) // F is a single-key shortcut: from the canvas, not the button
	press(t, ctx, "f")
	poll(t, ctx, `document.fullscreenElement === null`, 5*time.Second)
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// A crash says what happened and what to try, never only "exited".
func TestBrowserCrashExplained(t *testing.T) {
	t.Parallel()
	ctx, base, _ := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=incast")))
	poll(t, ctx, `typeof fabriclabExplain === "function"`, 30*time.Second)
	panicked := eval[string](t, ctx, `fabriclabExplain("RuntimeError: unreachable", 0)`)
	assert.Contains(t, panicked, "crashed")
	assert.Contains(t, panicked, "please report it")
	oom := eval[string](t, ctx, `fabriclabExplain("", 2) + "|" + (fs.writeSync(2, new TextEncoder().encode("fatal error: out of memory\n")), fabriclabExplain("", 2))`)
	before, after, _ := strings.Cut(oom, "|")
	assert.Contains(t, before, "exited with code 2 without saying why")
	assert.Contains(t, before, "sim.fidelity: flow")
	assert.Contains(t, after, "ran out of memory")
	assert.Contains(t, after, "sim.fidelity: flow")
	assert.Contains(t, after, "fatal error: out of memory", "what the Go runtime said")
}

// tap touches the page at (x, y) CSS px and lets go.
func tap(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{
			Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{
			Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		return err
	})))
}
