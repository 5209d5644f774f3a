package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserFirstFrame measures BENCHMARKS.md's cold first frame: a fresh
// Chromium (empty cache) per run opens the embed and a lesson, and reports
// where the time went, in ms after navigation: viz.wasm downloaded, compiled
// and instantiated, the Go program ready, the scenario loaded, the first
// frame (and for a lesson's later step, its own scenario loaded: step); then the same page again in that profile (warm: the modules
// cached). Three runs each, then the medians. It asserts nothing about speed;
// run it with FABRICLAB_BROWSER_BENCH=1. FABRICLAB_FIRST_FRAME_SITES=dir,dir
// measures built sites instead, alternating them run by run (before and
// after a change, under the same load); FABRICLAB_FIRST_FRAME_RUNS=n runs
// each n times.
func TestBrowserFirstFrame(t *testing.T) {
	if os.Getenv("FABRICLAB_BROWSER_BENCH") == "" {
		t.Skip("set FABRICLAB_BROWSER_BENCH=1 to measure the first frame")
	}
	// The canvas's marks, converted to the top page's clock (a lesson's
	// canvas is an iframe with a clock of its own).
	const marks = `(() => {
	  const f = document.getElementById("canvas"), w = f && f.contentWindow ? f.contentWindow : window;
	  const off = w.performance.timeOrigin - performance.timeOrigin, out = {};
	  for (const m of w.performance.getEntriesByType("mark")) { const k = m.name.replace("fabriclab-", ""); if (!(k in out)) out[k] = off + m.startTime; out[k + "_last"] = off + m.startTime; }
	  if (!("frame" in out)) out.frame = off + w.fabriclabFirstFrameMs; // a site from before the marks
	  // viz.wasm's download: the canvas's, or (a lesson compiles it for its frame) the page's.
	  const find = (p) => p.getEntriesByType("resource").find((e) => /viz\.wasm/.test(e.name));
	  const r = find(w.performance), top = find(performance);
	  if (r) { out.wasm_start = off + r.startTime; out.wasm_done = off + r.responseEnd; out.wasm_bytes = r.transferSize; }
	  else if (top) { out.wasm_start = top.startTime; out.wasm_done = top.responseEnd; out.wasm_bytes = top.transferSize; }
	  return out;
	})()`
	cols := []string{"wasm_start", "wasm_done", "instantiated", "ready", "loaded", "frame", "shown", "step"}
	// Every mark of a run, in time order, with FABRICLAB_FIRST_FRAME_MARKS=1.
	allMarks := os.Getenv("FABRICLAB_FIRST_FRAME_MARKS") != ""
	printMarks := func(m map[string]float64) {
		if !allMarks {
			return
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]] < m[keys[j]] })
		var line []string
		for _, k := range keys {
			line = append(line, fmt.Sprintf("%s %.0f", k, m[k]))
		}
		fmt.Printf("  marks: %s\n", strings.Join(line, ", "))
	}
	nruns := 3
	if n, err := strconv.Atoi(os.Getenv("FABRICLAB_FIRST_FRAME_RUNS")); err == nil && n > 0 {
		nruns = n
	}
	sites := []string{""}
	if s := os.Getenv("FABRICLAB_FIRST_FRAME_SITES"); s != "" {
		sites = strings.Split(s, ",")
	}
	lessonFrame := `(() => { const w = document.getElementById("canvas").contentWindow; return !!w && w.fabriclabFirstFrameMs > 0; })()`
	for _, tc := range []struct{ name, page, frame, step string }{
		{"embed incast", "/embed.html?scenario=incast", `window.fabriclabFirstFrameMs > 0`, ""},
		{"embed compare", "/embed.html?compare=1&left=incast&right=ecmp-collisions", `window.fabriclabFirstFrameMs > 0 && performance.getEntriesByName("fabriclab-loaded").length > 0`, ""},
		{"lesson incast.en", "/incast.en.html", lessonFrame, ""},
		// step: when the canvas says it loaded the step's own scenario
		{"lesson incast.en#lossy", "/incast.en.html#lossy", lessonFrame, "incast-8to1-lossy"},
	} {
		if only := os.Getenv("FABRICLAB_FIRST_FRAME_ONLY"); only != "" && !strings.Contains(tc.name, only) {
			continue
		}
		// measure is the marks once the page shows its first frame (and its step's scenario).
		measure := func(ctx context.Context) map[string]float64 {
			poll(t, ctx, tc.frame, 90*time.Second)
			if tc.step != "" {
				poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.loaded === `+jsString(tc.step), 90*time.Second)
			}
			m := eval[map[string]float64](t, ctx, marks)
			if tc.step != "" {
				// The canvas's last loaded mark, as it told the lesson the
				// step's scenario had loaded (the poll sees it later, as
				// late as the page's busy thread answers: up to 2 s at load 16).
				m["step"] = m["loaded_last"]
				m["step_seen"] = eval[float64](t, ctx, `performance.now()`)
			}
			return m
		}
		runs := map[string]map[string][]float64{}
		for i := 0; i < nruns; i++ {
			for _, dir := range sites {
				ctx, base, _ := browserAt(t, dir) // a new profile: nothing cached
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+tc.page)))
				m := measure(ctx)
				if runs[dir] == nil {
					runs[dir] = map[string][]float64{}
				}
				var line []string
				for _, c := range cols {
					runs[dir][c] = append(runs[dir][c], m[c])
					line = append(line, fmt.Sprintf("%s %.0f", c, m[c]))
				}
				fmt.Printf("%s %s run %d: %s (%.0f bytes transferred)\n", tc.name, dir, i+1, strings.Join(line, ", "), m["wasm_bytes"])
				printMarks(m)
				// Warm: the same page again in the same profile (the HTTP
				// cache and V8's code cache hold the modules).
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
				stop := func() {}
				if tdir := os.Getenv("FABRICLAB_TRACE"); tdir != "" { // Chromium's trace of each warm load, into tdir
					stop = traceTo(t, ctx, filepath.Join(tdir, fmt.Sprintf("firstframe-%d-%s-%d.json", len(runs), filepath.Base(dir), i+1)))
				}
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+tc.page)))
				m = measure(ctx)
				stop()
				// The tab computes and plays on: leave it, so that it does
				// not take the next runs' CPU.
				require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
				warm := dir + " warm"
				if runs[warm] == nil {
					runs[warm] = map[string][]float64{}
				}
				line = line[:0]
				for _, c := range cols {
					runs[warm][c] = append(runs[warm][c], m[c])
					line = append(line, fmt.Sprintf("%s %.0f", c, m[c]))
				}
				fmt.Printf("%s %s run %d: %s (%.0f bytes transferred)\n", tc.name, warm, i+1, strings.Join(line, ", "), m["wasm_bytes"])
				printMarks(m)
			}
		}
		var names []string
		for _, dir := range sites {
			names = append(names, dir, dir+" warm")
		}
		for _, dir := range names {
			var line []string
			for _, c := range cols {
				v := runs[dir][c]
				sort.Float64s(v)
				line = append(line, fmt.Sprintf("%s %.0f", c, v[len(v)/2]))
			}
			fmt.Printf("%s %s median ms: %s\n", tc.name, dir, strings.Join(line, ", "))
		}
	}
}
