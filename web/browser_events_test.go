package web_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	return true; })()`

func framed(query string) string {
	return "const QUERY = " + strconv.Quote(query) + "; " + parentPage
}

// The parent sees ready before loaded; an error (an unknown command, bad YAML)
// shows over the canvas and reaches the parent, a good load clears it, and a
// later error still arrives; played to its end, the canvas says ended.
func TestBrowserEmbedEvents(t *testing.T) {
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
		poll(t, ctx, `overlayShown()`, 5*time.Second)
		name := "good-" + strconv.Itoa(i)
		eval[bool](t, ctx, `post({fabriclab: "load", scenario: "incast", set: ["until=30us", "name=`+name+`"]}), true`)
		loaded(name)
	}

	// Played to its end: done (computed) and then ended (shown), once each.
	eval[bool](t, ctx, `post({fabriclab: "speed", us_per_s: 100}), post({fabriclab: "play"}), true`)
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
	end := eval[map[string]any](t, ctx, `got.filter((e) => e.fabriclab === "ended").pop()`)
	assert.InDelta(t, 30, end["t_us"], 0.01, "ended at the end of the run")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
