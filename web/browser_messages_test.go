package web_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A message the page cannot encode as JSON (a BigInt, a cycle), one too
// long, one that is not a command object: each is an error event naming the
// problem, never fatal, before the program is ready (when commands queue) and
// after; the canvas then loads, plays and answers as before. Messages that are
// not for the canvas are ignored, and an event handler of the page that
// throws does not stop the program.
func TestBrowserEmbedBadMessages(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
	eval[bool](t, ctx, framed("scenario=incast&set=until=30us"))
	errs := func() int { return eval[int](t, ctx, `got.filter((e) => e.fabriclab === "error").length`) }
	lastErrors := func(n int) []map[string]any {
		return eval[[]map[string]any](t, ctx, `got.filter((e) => e.fabriclab === "error").slice(-`+strconv.Itoa(n)+`)`)
	}
	bad := `post({fabriclab: "seek", t_us: 5n}); const o = {fabriclab: "seek", t_us: 1}; o.self = {up: o}; post(o)`

	// Before ready: embed.js listens, the program is still loading.
	poll(t, ctx, `typeof document.getElementById("embed").contentWindow.fabriclabExplain === "function"`, 60*time.Second)
	early := eval[bool](t, ctx, `(() => { const r = got.some((e) => e.fabriclab === "ready"); `+bad+`; return r; })()`)
	require.False(t, early, "the messages went before ready (the program loads for seconds)")
	poll(t, ctx, `got.some((e) => e.fabriclab === "loaded")`, 90*time.Second)
	require.GreaterOrEqual(t, errs(), 2)
	for i, e := range lastErrors(2) {
		assert.Nil(t, e["fatal"], "error %d is not fatal", i)
		assert.Equal(t, "seek", e["command"], "error %d is about a command", i)
	}
	before := eval[[]string](t, ctx, `got.filter((e) => e.fabriclab === "error").map((e) => e.message)`)
	assert.Contains(t, before[0], `Command "seek" not sent: its field command.t_us is a BigInt (5n)`)
	assert.Contains(t, before[0], "send a Number, e.g. 5")
	assert.Contains(t, before[1], "its field command.self.up holds an object it is part of (a cycle)")

	// After ready: the same, and more that are not commands the page can send.
	n := errs()
	eval[bool](t, ctx, bad+`; post({fabriclab: 7}); post('{"fabriclab": "play"}'); post({fabriclab: "load", yaml: "#".repeat(200000)});
		post("hello"); post({other: 1}); post(null); true`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "error").length >= `+strconv.Itoa(n+5), 30*time.Second)
	later := lastErrors(5)
	want := []string{"command.t_us is a BigInt", "(a cycle)", "fabriclab field is its name, a string", "send the object itself", "the canvas takes at most 128 KiB of JSON"}
	for i, e := range later {
		assert.Contains(t, e["message"], want[i])
		assert.Nil(t, e["fatal"], "error %d is not fatal", i)
		assert.Contains(t, e, "command", "error %d is about a command", i)
	}
	assert.Contains(t, later[3]["message"], `e.g. postMessage({"fabriclab": "play"}, "*")`, "the example is the command sent")
	assert.False(t, eval[bool](t, ctx, `overlayShown()`), "the canvas runs on")
	assert.True(t, eval[bool](t, ctx, `noticeShown()`), "a notice says what was wrong")

	// A page script that calls the program directly with a long string: the
	// program copies only what it needs to refuse it.
	eval[bool](t, ctx, `document.getElementById("embed").contentWindow.fabriclabCommand("x".repeat(1 << 20)), true`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "error").length >= `+strconv.Itoa(n+6), 30*time.Second)
	assert.Contains(t, lastErrors(1)[0]["message"], "command too long: at most 128 KiB")
	n++

	// A page script whose event handler throws: the program prints it and
	// runs on (it used to panic). The canvas plays, and loads the next scenario.
	eval[bool](t, ctx, `(() => { const w = document.getElementById("embed").contentWindow, f = w.fabriclabEvent;
		w.fabriclabEvent = (j) => { f(j); throw new Error("the page's handler failed"); }; return true; })()`)
	eval[bool](t, ctx, `post({fabriclab: "play"}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "time" && e.playing)`, 30*time.Second)
	eval[bool](t, ctx, `post({fabriclab: "load", scenario: "incast", set: ["until=30us", "name=after"]}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "loaded" && e.name === "after")`, 60*time.Second)
	poll(t, ctx, `!overlayShown()`, 5*time.Second)
	assert.Equal(t, n+5, errs(), "messages not for the canvas are ignored")
	assert.False(t, eval[bool](t, ctx, `got.some((e) => e.fatal)`), "nothing was fatal")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// A wrong command (an unknown name, a string where a number goes, a negative
// speed) is a notice over the canvas, which plays on, never the stopped
// canvas; each message's example is of its own command; Esc dismisses it.
func TestBrowserWrongCommandsAreNotices(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
	eval[bool](t, ctx, framed("scenario=ecmp-collisions&speed=5&play=1"))
	poll(t, ctx, `got.some((e) => e.fabriclab === "time" && e.playing && e.t_us > 0)`, 3*time.Minute)
	eval[bool](t, ctx, `post({fabriclab: "dance"}); post({fabriclab: "seek", t_us: "3"}); post({fabriclab: "speed", us_per_s: -2}); true`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "error").length >= 3`, 30*time.Second)
	errs := eval[[]map[string]any](t, ctx, `got.filter((e) => e.fabriclab === "error")`)
	require.Len(t, errs, 3)
	assert.Equal(t, "", errs[0]["command"])
	assert.Contains(t, errs[0]["message"], `unknown command "dance"; use one of load,`)
	for _, name := range []string{"check", "source", "snapshot"} {
		assert.Contains(t, errs[0]["message"], " "+name+",", "the list of commands is complete")
	}
	assert.Equal(t, "seek", errs[1]["command"])
	assert.Contains(t, errs[1]["message"], `seek: field "t_us" is a JSON string; give a number, e.g. {"fabriclab": "seek", "t_us": 12.5}`)
	assert.Equal(t, "speed", errs[2]["command"])
	assert.Contains(t, errs[2]["message"], `speed needs us_per_s above 0`)
	assert.Contains(t, errs[2]["message"], `e.g. {"fabriclab": "speed", "us_per_s": 50}`)

	const doc = `document.getElementById("embed").contentDocument`
	poll(t, ctx, `noticeShown() && `+doc+`.querySelectorAll("#notice-list li").length === 3`, 10*time.Second)
	assert.False(t, eval[bool](t, ctx, `overlayShown()`), "not the stopped canvas")
	// The canvas plays on under the notice.
	t0 := eval[float64](t, ctx, `got.filter((e) => e.fabriclab === "time").pop().t_us`)
	poll(t, ctx, `got.filter((e) => e.fabriclab === "time").pop().t_us > `+strconv.FormatFloat(t0, 'g', -1, 64), 30*time.Second)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "embed-notice-commands.png", shot)

	eval[bool](t, ctx, `document.getElementById("embed").contentDocument.body.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true})), true`)
	poll(t, ctx, `!noticeShown()`, 5*time.Second)
	assert.Equal(t, 0, eval[int](t, ctx, doc+`.querySelectorAll("#notice-list li").length`))
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// A wrong parameter of the address is left out with a notice, in the page's
// language, and the rest plays; the notice's × dismisses it.
func TestBrowserWrongParameterIsANotice(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=ecmp-collisions&speed=-5&theme=pink&lang=zh&play=1")))
	poll(t, ctx, `!document.getElementById("notice").hidden && document.getElementById("notice-list").children.length === 2`, 90*time.Second)
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	items := eval[[]string](t, ctx, `[...document.querySelectorAll("#notice-list li")].map((li) => li.textContent)`)
	assert.Contains(t, items[0], `parameter speed="-5"`)
	assert.Contains(t, items[1], `parameter theme="pink": use light or dark`)
	assert.Equal(t, "以下内容有误，已略过，画布照常运行：", eval[string](t, ctx, `document.querySelector("#notice strong").textContent`))
	assert.True(t, eval[bool](t, ctx, `document.getElementById("error").hidden`), "the rest plays")
	poll(t, ctx, `document.getElementById("status").textContent.includes("ecmp-collisions")`, 30*time.Second)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "embed-notice-parameters.png", shot)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#notice-close")))
	poll(t, ctx, `document.getElementById("notice").hidden`, 5*time.Second)
	assert.Empty(t, errors(console()), "the console shows no errors")
}
