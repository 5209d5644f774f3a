package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserComputeFrames measures, for BENCHMARKS.md, how long the canvas
// takes to compute scenarios and how long its frames take meanwhile (the
// intervals between Updates while the run computes, and between the page's
// animation frames: how long the page's thread was kept from drawing
// anything), and the CPU time the browser's renderer and GPU process took
// (from /proc, Linux only; it depends much less on the machine's load than
// wall time does). It asserts nothing about speed. Run it with FABRICLAB_BROWSER_BENCH=1; FABRICLAB_BENCH_ONLY
// takes a comma-separated list of scenarios, FABRICLAB_BENCH_PLAY=0 or 1
// measures only paused or playing. To compare builds back to back,
// FABRICLAB_BENCH_SITES lists sites as NAME=DIR (a site `fabriclab build`
// wrote) or NAME (this tree's), comma-separated, and FABRICLAB_BENCH_ROUNDS
// repeats the whole; each run ends with a "result" line. FABRICLAB_TRACE=DIR
// writes Chromium's performance trace of each run into DIR.
func TestBrowserComputeFrames(t *testing.T) {
	names := benchScenarios(t, "ring-allreduce-8", "perm-1024", "alltoall-moe")
	plays := []string{"0", "1"}
	if p := os.Getenv("FABRICLAB_BENCH_PLAY"); p != "" {
		plays = []string{p}
	}
	sites, rounds := benchSites(t)
	for round := 1; round <= rounds; round++ {
		for _, name := range names {
			for _, play := range plays {
				for _, st := range sites {
					computeFrames(t, st.name, st.dir, name, play, round)
				}
			}
		}
	}
}

// computeFrames is one run of TestBrowserComputeFrames: scenario name on the
// site in dir ("" for this tree's), paused or playing.
func computeFrames(t *testing.T, siteName, dir, name, play string, round int) {
	ctx, base, _ := browserAt(t, dir)
	pid := chromedp.FromContext(ctx).Browser.Process().Pid
	cpu0 := browserCPU(pid)
	if dir := os.Getenv("FABRICLAB_TRACE"); dir != "" { // Chromium's trace of each run, into dir
		stop := traceTo(t, ctx, filepath.Join(dir, fmt.Sprintf("%s-%s-play%s-%d.json", siteName, name, play, round)))
		defer stop()
	}
	// The page's animation frames from its start (an evaluation after the
	// navigation waits for the start-up's long tasks: it saw none of them).
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.fabriclabRAF = []; (function f(t) { if (!(window.lastTime && lastTime.done)) { fabriclabRAF.push(t); requestAnimationFrame(f) } })(performance.now())`})
		return err
	})))
	start := time.Now()
	openHooked(t, ctx, base, "scenario="+name+"&play="+play)
	// Long tasks from the page's start (buffered).
	eval[bool](t, ctx, `window.fabriclabLong = []; new PerformanceObserver((l) => fabriclabLong.push(...l.getEntries().map((e) => [e.startTime, e.duration]))).observe({type: "longtask", buffered: true}), true`)
	const failed = `document.getElementById('error-text').textContent !== ""`
	poll(t, ctx, `!!window.lastTime && (lastTime.progress > 0.4 || lastTime.done) || `+failed, 4*time.Minute)
	if !eval[bool](t, ctx, `!!(window.lastTime && lastTime.done)`) {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "computing-"+siteName+"-"+name+"-play"+play+".png", png)
	}
	poll(t, ctx, `!!(window.lastTime && lastTime.done) || `+failed, 4*time.Minute)
	took := time.Since(start)
	require.Empty(t, eval[string](t, ctx, `document.getElementById('error-text').textContent`), name)
	cpu1 := browserCPU(pid)
	eval[bool](t, ctx, `window.fabriclabStats = null; postMessage({fabriclab: "stats"}, "*"); true`)
	poll(t, ctx, `window.fabriclabStats !== null`, 30*time.Second)
	s := eval[map[string]float64](t, ctx, `(({fabriclab, workers, ...rest}) => rest)(fabriclabStats)`)
	raf := eval[[]float64](t, ctx, `fabriclabRAF`)
	var iv []float64
	over := 0
	var overAt []string // when each frame over 100 ms ended, from the first page frame
	for i := 1; i < len(raf); i++ {
		iv = append(iv, raf[i]-raf[i-1])
		if iv[len(iv)-1] > 100 {
			over++
			overAt = append(overAt, fmt.Sprintf("%.0f ms (%.0f ms long)", raf[i]-raf[0], raf[i]-raf[i-1]))
		}
	}
	slices.Sort(iv)
	q := func(f float64) float64 {
		if len(iv) == 0 {
			return 0
		}
		return iv[min(len(iv)-1, int(f*float64(len(iv))))]
	}
	fmt.Printf("%s play=%s (load %s): page frames while computing: %d, p50 %.0f ms, p95 %.0f ms, max %.0f ms, %d over 100 ms; %.0f canvas frames asked for; CPU from navigation to done: renderer %.1f s, GPU process %.1f s\n",
		name, play, loadAverage(), len(iv), q(0.5), q(0.95), q(1), over, s["frames_asked"],
		(cpu1["renderer"]-cpu0["renderer"])/1000, (cpu1["gpu-process"]-cpu0["gpu-process"])/1000)
	mark := func(m string) float64 {
		return eval[float64](t, ctx, `(performance.getEntriesByName("fabriclab-`+m+`")[0] || {startTime: 0}).startTime`) - raf[0]
	}
	loaded, first := mark("loaded"), mark("frame")
	fmt.Printf("%s play=%s: the frames over 100 ms ended at %s; WebAssembly instantiated at %.0f ms, Go ready at %.0f ms, the canvas loaded at %.0f ms, drew its first picture at %.0f ms\n", name, play, strings.Join(overAt, ", "),
		mark("instantiated"), mark("ready"), loaded, first)
	// The start-up: the longest frame up to the one with the first
	// picture; after it, the frames that start once it is drawn.
	var startup, firstFrame, afterMax float64
	after := 0
	for i := 1; i < len(raf); i++ {
		d, from, to := raf[i]-raf[i-1], raf[i-1]-raf[0], raf[i]-raf[0]
		switch {
		case to <= first:
			startup = max(startup, d)
		case from <= first:
			firstFrame = d
		default:
			afterMax = max(afterMax, d)
			if d > 100 {
				after++
			}
		}
	}
	// The start-up's longest task: up to the end of the first picture's;
	// and the longest that starts after Go is ready (building the scenario
	// and its first picture, not instantiating and starting Go).
	var startTask, readyTask float64
	ready := mark("ready")
	for _, lt := range eval[[][2]float64](t, ctx, `fabriclabLong`) {
		if lt[0] <= first+raf[0] {
			startTask = max(startTask, lt[1])
			if lt[0] > ready+raf[0] {
				readyTask = max(readyTask, lt[1])
			}
		}
	}
	fmt.Printf("result site=%s round=%d scenario=%s play=%s load=%s after_over_100=%d after_max_ms=%.0f first_picture_frame_ms=%.0f startup_frame_ms=%.0f first_picture_at_ms=%.0f startup_task_ms=%.0f after_ready_task_ms=%.0f grows=%.0f grow_max_ms=%.0f run_s=%.2f compute_s=%.2f\n",
		siteName, round, name, play, loadAverage(), after, afterMax, firstFrame, startup, first, startTask, readyTask, s["grows"], s["grow_max_ms"], s["run_s"], s["compute_s"])
	fmt.Printf("%s play=%s: done %.1f s after navigation, %.1f s after load, %.1f s of it computing in the canvas; GC %.1f s (%.0f collections); %.0f frames while computing: p50 %.0f ms, p95 %.0f ms, max %.0f ms; the last %.0f draws: p50 %.0f ms, p95 %.0f ms; the last %.0f Updates: p50 %.0f ms, p95 %.0f ms\n",
		name, play, took.Seconds(), s["run_s"], s["compute_s"], s["gc_cpu_s"], s["gcs"], s["computing_ticks"], s["computing_tick_p50_ms"], s["computing_tick_p95_ms"], s["computing_tick_max_ms"],
		s["frames"], s["draw_p50_ms"], s["draw_p95_ms"], s["updates"], s["update_p50_ms"], s["update_p95_ms"])
}
