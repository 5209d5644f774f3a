package web_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// gpus64 is a 64-GPU leaf-spine: 8 HGX nodes, NIC i of each on leaf i, doing a
// hierarchical all-reduce.
const gpus64 = `name: leafspine-64gpu
topology: {kind: leafspine, leaves: 8, hosts_per_leaf: 8, spines: 8, gpus_per_node: 8, rail_optimized: true, fabric: ib, link_gbps: 400}
collective: {op: allreduce, algo: hierarchical, bytes: 64MiB}
`

// TestBrowserBenchmarks measures what BENCHMARKS.md records: time from
// navigation to the first frame, frame times while playing, and the
// WebAssembly's transfer size. It prints figures and asserts nothing about
// speed (machines here are shared); run it with FABRICLAB_BROWSER_BENCH=1.
// benchScenarios skips t unless FABRICLAB_BROWSER_BENCH is set, and returns
// the scenarios to measure: FABRICLAB_BENCH_ONLY's comma-separated list, else names.
func benchScenarios(t *testing.T, names ...string) []string {
	t.Helper()
	if os.Getenv("FABRICLAB_BROWSER_BENCH") == "" {
		t.Skip("set FABRICLAB_BROWSER_BENCH=1 to measure the browser figures")
	}
	if only := os.Getenv("FABRICLAB_BENCH_ONLY"); only != "" {
		return strings.Split(only, ",")
	}
	return names
}

// benchSite is a site to measure: NAME=DIR (a site `fabriclab build` wrote)
// or NAME alone (this tree's, dir "").
type benchSite struct{ name, dir string }

// benchSites reads FABRICLAB_BENCH_SITES (comma-separated benchSites, to
// compare builds back to back; this tree's site by default) and
// FABRICLAB_BENCH_ROUNDS (how many times to measure them in turn; 1).
func benchSites(t *testing.T) ([]benchSite, int) {
	sites := []benchSite{{"this", ""}}
	if list := os.Getenv("FABRICLAB_BENCH_SITES"); list != "" {
		sites = nil
		for _, item := range strings.Split(list, ",") {
			name, dir, _ := strings.Cut(item, "=")
			sites = append(sites, benchSite{name, dir})
		}
	}
	rounds := 1
	if r := os.Getenv("FABRICLAB_BENCH_ROUNDS"); r != "" {
		_, err := fmt.Sscan(r, &rounds)
		require.NoError(t, err, "FABRICLAB_BENCH_ROUNDS=%s: give a number of rounds", r)
	}
	return sites, rounds
}

func TestBrowserBenchmarks(t *testing.T) {
	if os.Getenv("FABRICLAB_BROWSER_BENCH") == "" {
		t.Skip("set FABRICLAB_BROWSER_BENCH=1 to measure the browser figures")
	}
	ctx, base, _ := browser(t)
	dir := siteDir(t)
	for _, ext := range []string{"", ".gz", ".br"} {
		st, err := os.Stat(filepath.Join(dir, "viz.wasm"+ext))
		require.NoError(t, err)
		fmt.Printf("viz.wasm%s: %d bytes (%.2f MB)\n", ext, st.Size(), float64(st.Size())/1e6)
	}
	for _, tc := range []struct{ name, query string }{
		{"incast", "scenario=incast&play=1"},
		{"64-GPU leaf-spine", "yaml=" + base64.RawURLEncoding.EncodeToString([]byte(gpus64)) + "&play=1"},
	} {
		for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/embed.html?"+tc.query)))
			poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
			first := eval[float64](t, ctx, "fabriclabFirstFrameMs")
			eval[bool](t, ctx, `window.fabriclabCommand(JSON.stringify({fabriclab: "stats"})), true`) // reset the counters
			start := eval[float64](t, ctx, `performance.now()`)
			animationFrames(t, ctx, "window", 480) // 8 s at 60 a second
			secs := (eval[float64](t, ctx, `performance.now()`) - start) / 1000
			eval[bool](t, ctx, `delete window.fabriclabStats; window.fabriclabCommand(JSON.stringify({fabriclab: "stats"})), true`)
			poll(t, ctx, `window.fabriclabStats !== undefined`, 10*time.Second)
			s := eval[map[string]float64](t, ctx, `(({fabriclab, workers, ...rest}) => rest)(fabriclabStats)`)
			fmt.Printf("%s %dx%d: first frame %.0f ms after navigation; %.0f frames in %.1f s; frame interval p50 %.1f ms, p95 %.1f ms; Draw p50 %.1f ms, p95 %.1f ms\n",
				tc.name, size[0], size[1], first, s["frames"], secs, s["interval_p50_ms"], s["interval_p95_ms"], s["draw_p50_ms"], s["draw_p95_ms"])
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			keep(t, fmt.Sprintf("embed-%s-%d.png", map[string]string{"incast": "incast", "64-GPU leaf-spine": "leafspine64"}[tc.name], size[0]), shot)
		}
	}
}
