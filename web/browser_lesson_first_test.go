package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A lesson opened at a step sends the step's load as soon as the canvas
// page's script runs; its canvas's address says first=load, so the canvas
// waits for that load and makes it its first run, however late it comes:
// its worker is asked for one run, the step's, never for incast first. The
// worker began that run early, from the embed page, before the canvas had
// started, and the canvas's begin took it over (begun says early). The
// canvas's WebAssembly is the one the lesson page started compiling (issue
// 29: a step's figures within 1 s of a warm load).
func TestBrowserLessonStepIsTheFirstRun(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/incast.en.html#lossy")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.loaded === "incast-8to1-lossy"`, 90*time.Second)
	poll(t, ctx, lessonCanvas+`.fabriclabFirstFrameMs > 0`, 30*time.Second)
	assert.Equal(t, 1, eval[int](t, ctx, lessonCanvas+`.fabriclabWorkerCounts.commands`), "one command to the worker: the step's run")
	assert.Equal(t, 1, eval[int](t, ctx, lessonCanvas+`.fabriclabWorkerCounts.early`), "the step's run begun early")
	assert.Equal(t, 1, eval[int](t, ctx, lessonCanvas+`.fabriclabWorkerCounts.made`), "one worker")
	// That worker is the one the lesson page started, before the canvas
	// page's script ran (worker-client.js, data-spare); the lesson sent the
	// step's load as that script asked, not at the frame's load event.
	assert.True(t, eval[bool](t, ctx, `window.fabriclabSpareWorker() === null`), "the lesson's worker was taken")
	assert.True(t, eval[bool](t, ctx, `(() => { const f = document.getElementById("canvas").contentWindow, off = f.performance.timeOrigin - performance.timeOrigin;
		return performance.getEntriesByName("fabriclab-worker-spare")[0].startTime < off + f.performance.getEntriesByName("fabriclab-script")[0].startTime; })()`), "the lesson's worker made before the canvas page's script ran")
	assert.Equal(t, "script", eval[string](t, ctx, `fabriclabCanvas.firstLoad`))
	assert.Equal(t, 1, eval[int](t, ctx, lessonCanvas+`.performance.getEntriesByName("fabriclab-loaded").length`), "one run loaded")
	assert.Equal(t, "lossy", eval[string](t, ctx, `fabriclabCanvas.step`))
	// The canvas's begin took the early run over.
	eval[bool](t, ctx, lessonCanvas+`.fabriclabStats = null, document.getElementById("canvas").contentWindow.postMessage({fabriclab: "stats"}, "*"), true`)
	poll(t, ctx, `!!`+lessonCanvas+`.fabriclabStats`, 30*time.Second)
	assert.True(t, eval[bool](t, ctx, `(`+lessonCanvas+`.fabriclabStats.workers || []).some((w) => w.run_id === 1 && w.early)`), "run 1, begun early")
	// viz.wasm is fetched and compiled once, by the lesson page, for its frame (modules.js).
	const fetched = `.performance.getEntriesByType("resource").filter((e) => /viz\.wasm/.test(e.name)).length`
	assert.Equal(t, 1, eval[int](t, ctx, `window`+fetched), "the lesson page fetched viz.wasm")
	assert.Equal(t, 0, eval[int](t, ctx, lessonCanvas+fetched), "the canvas took the lesson's module")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// The embed alone begins the address's run in its worker before the canvas
// has started, and the canvas's begin takes it over. With first=load (a
// lesson's frame) nothing is begun until the parent's load comes, however
// late: the loading notice shows meanwhile, then that load is the first run,
// begun early all the same.
func TestBrowserEmbedFirstRunBegunEarly(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=ecmp-collisions&lang=zh")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	assert.Equal(t, 1, eval[int](t, ctx, `fabriclabWorkerCounts.early`), "begun early")
	assert.Equal(t, 1, eval[int](t, ctx, `fabriclabWorkerCounts.commands`), "one begin")
	eval[bool](t, ctx, `window.fabriclabStats = null, postMessage({fabriclab: "stats"}, "*"), true`)
	poll(t, ctx, `!!window.fabriclabStats`, 30*time.Second)
	assert.True(t, eval[bool](t, ctx, `(fabriclabStats.workers || []).some((w) => w.run_id === 1 && w.early)`), "run 1 taken over")

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/embed.html?controls=1&lang=en&first=load")))
	poll(t, ctx, `performance.getEntriesByName("fabriclab-ready").length === 1`, 90*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond))) // a while after ready: still nothing
	assert.Equal(t, 0, eval[int](t, ctx, `fabriclabWorkerCounts.commands`), "no run begun before the load")
	assert.Equal(t, 0, eval[int](t, ctx, `performance.getEntriesByName("fabriclab-loaded").length`), "nothing loaded")
	assert.False(t, eval[bool](t, ctx, `document.getElementById("loading").hidden`), "the loading notice shows meanwhile")
	eval[bool](t, ctx, `postMessage({fabriclab: "load", scenario: "ecmp-collisions", step: "s"}, "*"), true`)
	poll(t, ctx, `performance.getEntriesByName("fabriclab-loaded").length === 1`, 60*time.Second)
	assert.Equal(t, 1, eval[int](t, ctx, `fabriclabWorkerCounts.commands`), "one begin: the load's")
	// The first load goes to the worker early however late it comes (the
	// canvas, waiting, has made none): whether it came before ready or
	// after, the lesson's step is always begun early and taken over.
	assert.Equal(t, 1, eval[int](t, ctx, `fabriclabWorkerCounts.early`), "the load begun early")
	eval[bool](t, ctx, `window.fabriclabStats = null, postMessage({fabriclab: "stats"}, "*"), true`)
	poll(t, ctx, `!!window.fabriclabStats`, 30*time.Second)
	assert.True(t, eval[bool](t, ctx, `(fabriclabStats.workers || []).some((w) => w.run_id === 1 && w.early)`), "taken over")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// A comparison's sides are begun early too, each in its worker (left in
// worker 0, right in worker 1), from the address or from a lesson's first
// load of two sides, and the canvas's two begins take them over.
func TestBrowserComparisonBegunEarly(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	bothEarly := func(what string) {
		t.Helper()
		assert.Equal(t, 1, eval[int](t, ctx, `fabriclabWorkerCounts.early`), what)
		assert.Equal(t, 2, eval[int](t, ctx, `fabriclabWorkerCounts.commands`), "%s: two begins, a side each", what)
		assert.Equal(t, 2, eval[int](t, ctx, `fabriclabWorkerCounts.made`), "%s: two workers", what)
		eval[bool](t, ctx, `window.fabriclabStats = null, postMessage({fabriclab: "stats"}, "*"), true`)
		poll(t, ctx, `!!window.fabriclabStats`, 30*time.Second)
		assert.Equal(t, []bool{true, true}, eval[[]bool](t, ctx, `(fabriclabStats.workers || []).map((w) => !!w.early)`), "%s: both sides taken over", what)
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?compare=1&left=incast&right=ecmp-collisions&lang=zh")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0 && performance.getEntriesByName("fabriclab-loaded").length === 1`, 90*time.Second)
	bothEarly("the address's comparison")

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/embed.html?controls=1&lang=en&first=load")))
	poll(t, ctx, `performance.getEntriesByName("fabriclab-ready").length === 1`, 90*time.Second)
	eval[bool](t, ctx, `postMessage({fabriclab: "load", left: {scenario: "incast", label: "PFC"}, right: {scenario: "incast", set: ["traffic.senders=2"], label: "two"}, step: "cmp"}, "*"), true`)
	poll(t, ctx, `performance.getEntriesByName("fabriclab-loaded").length === 1`, 60*time.Second)
	bothEarly("a lesson's comparison")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
