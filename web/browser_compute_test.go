package web_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

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
// measures only paused or playing.
func TestBrowserComputeFrames(t *testing.T) {
	names := benchScenarios(t, "ring-allreduce-8", "perm-1024", "alltoall-moe")
	plays := []string{"0", "1"}
	if p := os.Getenv("FABRICLAB_BENCH_PLAY"); p != "" {
		plays = []string{p}
	}
	for _, name := range names {
		for _, play := range plays {
			ctx, base, _ := browser(t)
			pid := chromedp.FromContext(ctx).Browser.Process().Pid
			cpu0 := browserCPU(pid)
			start := time.Now()
			openHooked(t, ctx, base, "scenario="+name+"&play="+play)
			eval[bool](t, ctx, `window.fabriclabRAF = []; (function f(t) { if (!(window.lastTime && lastTime.done)) { fabriclabRAF.push(t); requestAnimationFrame(f) } })(performance.now()), true`)
			shot := false
			for !eval[bool](t, ctx, `!!(window.lastTime && lastTime.done)`) {
				require.Empty(t, eval[string](t, ctx, `document.getElementById('error-text').textContent`), name)
				require.Less(t, time.Since(start), 4*time.Minute, name)
				if !shot && eval[float64](t, ctx, `window.lastTime ? lastTime.progress : 0`) > 0.4 {
					png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
					require.NoError(t, err)
					keep(t, "computing-"+name+"-play"+play+".png", png)
					shot = true
				}
				time.Sleep(200 * time.Millisecond)
			}
			took := time.Since(start)
			cpu1 := browserCPU(pid)
			eval[bool](t, ctx, `window.fabriclabStats = null; postMessage({fabriclab: "stats"}, "*"); true`)
			poll(t, ctx, `window.fabriclabStats !== null`, 30*time.Second)
			s := eval[map[string]float64](t, ctx, `(({fabriclab, ...rest}) => rest)(fabriclabStats)`)
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
			fmt.Printf("%s play=%s (load %s): page frames while computing: %d, p50 %.0f ms, p95 %.0f ms, max %.0f ms, %d over 100 ms; %.0f canvas frames asked for, the longest slice %.0f ms; the last %.0f turns between slices: p50 %.1f ms, p95 %.1f ms; CPU from navigation to done: renderer %.1f s, GPU process %.1f s\n",
				name, play, loadAverage(), len(iv), q(0.5), q(0.95), q(1), over, s["frames_asked"], s["slice_max_ms"], s["turns"], s["turn_p50_ms"], s["turn_p95_ms"],
				(cpu1["renderer"]-cpu0["renderer"])/1000, (cpu1["gpu-process"]-cpu0["gpu-process"])/1000)
			fmt.Printf("%s play=%s: the frames over 100 ms ended at %s; the canvas loaded at %.0f ms\n", name, play, strings.Join(overAt, ", "),
				eval[float64](t, ctx, `(performance.getEntriesByName("fabriclab-loaded")[0] || {startTime: 0}).startTime`)-raf[0])
			fmt.Printf("%s play=%s: done %.1f s after navigation, %.1f s after load, %.1f s of it computing, %.1f s between slices; GC %.1f s (%.0f collections); %.0f frames while computing: p50 %.0f ms, p95 %.0f ms, max %.0f ms; the last %.0f draws: p50 %.0f ms, p95 %.0f ms; the last %.0f Updates: p50 %.0f ms, p95 %.0f ms\n",
				name, play, took.Seconds(), s["run_s"], s["compute_s"], s["yield_s"], s["gc_cpu_s"], s["gcs"], s["computing_ticks"], s["computing_tick_p50_ms"], s["computing_tick_p95_ms"], s["computing_tick_max_ms"],
				s["frames"], s["draw_p50_ms"], s["draw_p95_ms"], s["updates"], s["update_p50_ms"], s["update_p95_ms"])
		}
	}
}
