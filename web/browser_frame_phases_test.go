package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserFramePhases says where a slow frame's time goes while a run
// computes (issue 29's frame-interval goal, BENCHMARKS.md): the page's
// animation-frame intervals, and the canvas's own draws, in three phases
// of the same page: playing while the worker computes (from the first
// picture to done), playing the run once computed (reset, play), and
// paused (nothing drawn). Playing against computing is what the worker's
// messages and the second busy core cost; paused against playing is what
// drawing and presenting a picture costs. It asserts nothing about speed.
// FABRICLAB_BENCH_ONLY picks scenarios, FABRICLAB_BENCH_SITES and
// FABRICLAB_BENCH_ROUNDS compare builds (benchSites).
func TestBrowserFramePhases(t *testing.T) {
	cases := benchScenarios(t, "ecmp-collisions")
	sites, rounds := benchSites(t)
	for round := 1; round <= rounds; round++ {
		for _, q := range cases {
			for _, st := range sites {
				framePhases(t, q, st)
			}
		}
	}
}

func framePhases(t *testing.T, q string, st benchSite) {
	ctx, base, _ := openBrowserFor(t, true, st.dir, 10*time.Minute)
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: workerWatch})
		return err
	})))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario="+q+"&play=1")))
	poll(t, ctx, `performance.getEntriesByName("fabriclab-loaded").length > 0 || document.getElementById('error-text').textContent !== ""`, 5*time.Minute)
	require.Empty(t, eval[string](t, ctx, `document.getElementById('error-text').textContent`), q)
	stats := func() map[string]float64 {
		caughtUp(t, ctx, "window")
		return eval[map[string]float64](t, ctx, `(({fabriclab, workers, ...rest}) => rest)(fabriclabStats)`)
	}
	stats() // start the canvas's counters over
	pid := chromedp.FromContext(ctx).Browser.Process().Pid
	cpu := browserCPU(pid)
	from := eval[float64](t, ctx, `performance.getEntriesByName("fabriclab-loaded")[0].startTime`)
	poll(t, ctx, `!!window.lastDone`, 5*time.Minute)
	to := eval[float64](t, ctx, `benchTimes.find((e) => e[4])[0]`)
	phase := func(name string, from, to float64) {
		raf := eval[[]float64](t, ctx, `benchRAF`)
		var iv []float64
		for i := 1; i < len(raf); i++ {
			if raf[i-1] >= from && raf[i] <= to {
				iv = append(iv, raf[i]-raf[i-1])
			}
		}
		s := stats()
		now := browserCPU(pid)
		gpu, renderer := now["gpu-process"]-cpu["gpu-process"], now["renderer"]-cpu["renderer"]
		cpu = now
		fmt.Printf("phases %s %s %s (load %s): page frames %s ms (n %d, %.1f s); canvas draws %.0f, between draws p50 %.0f ms, in Go p50 / p95 %.0f / %.0f ms; Updates %.0f, p50 / p95 %.0f / %.0f ms; CPU: GPU process %.0f ms (%.1f a draw), renderer %.0f ms\n",
			st.name, q, name, loadAverage(), pcts(iv), len(iv), (to-from)/1000, s["frames"], s["interval_p50_ms"], s["draw_p50_ms"], s["draw_p95_ms"],
			s["updates"], s["update_p50_ms"], s["update_p95_ms"], gpu, gpu/max(1, s["frames"]), renderer)
	}
	phase("computing", from, to)
	wait := func(d time.Duration) (float64, float64) {
		a := eval[float64](t, ctx, `performance.now()`)
		time.Sleep(d)
		return a + 250, eval[float64](t, ctx, `performance.now()`)
	}
	eval[bool](t, ctx, `fabriclabCommand(JSON.stringify({fabriclab: "reset"})), fabriclabCommand(JSON.stringify({fabriclab: "play"})), true`)
	a, b := wait(4 * time.Second)
	phase("computed", a, b)
	require.True(t, eval[bool](t, ctx, `lastTime.playing`), "still playing: the phase measured frames that played")
	eval[bool](t, ctx, `fabriclabCommand(JSON.stringify({fabriclab: "pause"})), true`)
	a, b = wait(3 * time.Second)
	phase("paused", a, b)
}
