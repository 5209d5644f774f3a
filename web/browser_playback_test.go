package web_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookTime keeps the latest "time" and "done" events the canvas sends in
// window.lastTime and window.lastDone, and the progress values the time
// events said, each change once, in window.progressSeen (the page's own
// handler still runs).
const hookTime = `(() => {
	if (window.fabriclabEvent.hooked) return true;
	const page = window.fabriclabEvent;
	window.progressSeen = [];
	window.fabriclabEvent = (json) => {
		const ev = JSON.parse(json);
		if (ev.fabriclab === "time") {
			const p = ev.progress ?? -3;
			if (progressSeen.length === 0 || progressSeen[progressSeen.length - 1] !== p) progressSeen.push(p);
			window.lastTime = ev;
		}
		if (ev.fabriclab === "done") window.lastDone = ev;
		page(json);
	};
	window.fabriclabEvent.hooked = true;
	return true;
})()`

// openHooked opens the embed page with query q and hooks its events.
func openHooked(t *testing.T, ctx context.Context, base, q string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?"+q)))
	poll(t, ctx, `typeof window.fabriclabEvent === "function"`, 30*time.Second)
	eval[bool](t, ctx, hookTime)
}

type timeEvent struct {
	TUs        float64 `json:"t_us"`
	EndUs      float64 `json:"end_us"`
	ComputedUs float64 `json:"computed_us"`
	Progress   float64 `json:"progress"`
	ETA        float64 `json:"eta_s"`
	Done       bool    `json:"done"`
	Playing    bool    `json:"playing"`
}

// incast played to its end shows its last frame: the time event says the
// frame shown is at the run's end (what the header reads), the page's
// readout agrees, and all eight flows finished; t= beyond what is computed
// computes up to it and goes there (before, it opened at 25.6 µs), and t= past the run's end goes to the end.
func TestBrowserPlaybackReachesTheEnd(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	openHooked(t, ctx, base, "scenario=incast&play=1&speed=5000")
	poll(t, ctx, `!!(window.lastTime && lastTime.done && !lastTime.playing && lastTime.t_us === lastTime.end_us)`, 120*time.Second)
	ev := eval[timeEvent](t, ctx, `lastTime`)
	assert.Equal(t, 1.0, ev.Progress)
	assert.Equal(t, ev.EndUs, ev.ComputedUs)
	poll(t, ctx, `!!window.lastDone`, 10*time.Second)
	assert.Equal(t, 8.0, eval[float64](t, ctx, `lastDone.flows_finished`), "all eight finished")
	assert.InDelta(t, ev.EndUs, eval[float64](t, ctx, `lastDone.sim_time_us`), 0.001, "the run report rounds to ns")
	readout := eval[string](t, ctx, `document.getElementById('time').textContent`)
	assert.Regexp(t, `^([0-9.]+ [µm]?s) / ([0-9.]+ [µm]?s)$`, readout)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "playback-incast-end.png", shot)

	// A seek from the page's slider at its right end lands on the last frame.
	eval[bool](t, ctx, `postMessage({fabriclab: "seek", t_us: 0}, "*"), postMessage({fabriclab: "seek", t_us: lastTime.end_us * 1000 / 1000}, "*"), true`)
	poll(t, ctx, `lastTime.t_us === lastTime.end_us && lastTime.done`, 10*time.Second)

	// t= past what is computed at load: it computes up to 3 ms, then goes there.
	openHooked(t, ctx, base, "scenario=incast&t=3000")
	// The frame shown is the one at or before 3 ms (frames are some µs apart).
	poll(t, ctx, `!!window.lastTime && lastTime.t_us <= 3000 && lastTime.t_us > 2950`, 120*time.Second)
	ev = eval[timeEvent](t, ctx, `lastTime`)
	assert.GreaterOrEqual(t, ev.ComputedUs, 3000.0)
	assert.False(t, ev.Playing)

	// t= past the run's end: the end, finished.
	openHooked(t, ctx, base, "scenario=incast&t=1000000")
	poll(t, ctx, `!!window.lastTime && lastTime.done && lastTime.t_us === lastTime.end_us`, 120*time.Second)
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// TestBrowserComputeTime measures how long the canvas takes to compute
// scenarios, paused and playing, for BENCHMARKS.md; it asserts nothing
// about speed. Run it with FABRICLAB_BROWSER_BENCH=1.
func TestBrowserComputeTime(t *testing.T) {
	for _, name := range benchScenarios(t, "ring-allreduce-8", "perm-1024", "alltoall-moe") {
		for _, play := range []string{"0", "1"} {
			ctx, base, _ := browser(t) // a browser each: each has 4 minutes
			start := time.Now()
			openHooked(t, ctx, base, "scenario="+name+"&play="+play)
			poll(t, ctx, `!!(window.lastTime && lastTime.done)`, 4*time.Minute)
			took := time.Since(start)
			progress := eval[[]float64](t, ctx, `progressSeen`)
			eval[bool](t, ctx, `window.fabriclabStats = null; postMessage({fabriclab: "stats"}, "*"); true`)
			poll(t, ctx, `window.fabriclabStats !== null`, 30*time.Second)
			computeS, runS := eval[float64](t, ctx, `fabriclabStats.compute_s ?? -1`), eval[float64](t, ctx, `fabriclabStats.run_s ?? -1`)
			fmt.Printf("%s play=%s: computed in %.1f s (navigation to done; %.1f s from load, %.1f s of it computing); progress seen: %v\n",
				name, play, took.Seconds(), runS, computeS, progress[:min(len(progress), 8)])
		}
	}
}

// TestBrowserBigScenarios plays the built-ins that ran out of WebAssembly
// memory (4.27 GB) before frames shared unchanged flows, and prints how long
// they took and the memory they used. Run it with FABRICLAB_BROWSER_BENCH=1.
func TestBrowserBigScenarios(t *testing.T) {
	if os.Getenv("FABRICLAB_BROWSER_BENCH") == "" {
		t.Skip("set FABRICLAB_BROWSER_BENCH=1 to play the big scenarios")
	}
	ctx, base, console := browser(t)
	for _, q := range []string{"scenario=dp-llama3-8b-1024&play=1", "scenario=perm-1024&set=topology.k%3D32&set=sim.fidelity%3Dflow&play=1"} {
		start := time.Now()
		openHooked(t, ctx, base, q)
		poll(t, ctx, `!!(window.lastTime && lastTime.done) || document.getElementById('error-text').textContent !== ""`, 4*time.Minute)
		took := time.Since(start)
		require.Empty(t, eval[string](t, ctx, `document.getElementById('error-text').textContent`), q)
		heap, frames, mem := statsNow(t, ctx)
		fmt.Printf("%s: computed in %.1f s; heap %.0f MiB, frames %.0f MiB, WebAssembly memory %.0f MiB\n", q, took.Seconds(), heap/(1<<20), frames/(1<<20), mem/(1<<20))
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "playback-"+q[len("scenario="):len("scenario=")+9]+".png", shot)
	}
	assert.Empty(t, errors(console()), "the console shows no errors")
}
