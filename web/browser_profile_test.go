package web_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserCanvasProfile takes a CPU profile (Chrome's Profiler domain)
// of the page while a run computes in its worker, from the first picture
// to done, for BENCHMARKS.md's issue 29 section: where the page's thread
// goes (the canvas's Update and Draw, decoding the worker's frames, Go's
// collector, V8's own). The site's viz.wasm is rebuilt with its function
// names (the site's build strips them). It prints the functions that took
// the most and the shares of the canvas's parts; FABRICLAB_PROFILE=DIR
// also writes the .cpuprofile (Chrome's DevTools and speedscope open it).
// It asserts nothing about speed. FABRICLAB_BENCH_ONLY picks scenarios.
func TestBrowserCanvasProfile(t *testing.T) {
	cases := benchScenarios(t, "ecmp-collisions")
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(siteDir(t))))
	for _, ext := range []string{"", ".gz", ".br"} {
		require.NoError(t, os.Remove(filepath.Join(dir, "viz.wasm"+ext)))
	}
	build := exec.Command("go", "build", "-trimpath", "-tags=webfonts", "-o", filepath.Join(dir, "viz.wasm"), "./cmd/viz")
	build.Dir, build.Env = "..", append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, q := range cases {
		ctx, base, _ := openBrowserFor(t, true, dir, 30*time.Minute)
		openHooked(t, ctx, base, "scenario="+q+"&play=1")
		poll(t, ctx, `performance.getEntriesByName("fabriclab-loaded").length > 0 || document.getElementById('error-text').textContent !== ""`, 5*time.Minute)
		tgt := chromedp.FromContext(ctx).Target
		_, err := cdp.Call(ctx, tgt, profiler.Enable, cdp.Empty{})
		require.NoError(t, err)
		_, err = cdp.Call(ctx, tgt, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 500})
		require.NoError(t, err)
		_, err = cdp.Call(ctx, tgt, profiler.Start, cdp.Empty{})
		require.NoError(t, err)
		poll(t, ctx, `!!(window.lastTime && lastTime.done) || document.getElementById('error-text').textContent !== ""`, 20*time.Minute)
		res, err := cdp.Call(ctx, tgt, profiler.Stop, cdp.Empty{})
		require.NoError(t, err)
		require.Empty(t, eval[string](t, ctx, `document.getElementById('error-text').textContent`), q)
		if out := os.Getenv("FABRICLAB_PROFILE"); out != "" {
			data, err := json.Marshal(res.Profile)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(out, "page-"+strings.NewReplacer("&", "_", "=", "_", "%", "_").Replace(q)+".cpuprofile"), data, 0o644))
		}
		frames := eval[float64](t, ctx, `fabriclabWorkerCounts.frames`) // Decode's time a frame is its share over these
		fmt.Printf("page profile of %s while it computes (load %s; %.0f frames came):\n%s", q, loadAverage(), frames, profileShares(res.Profile,
			"main.__Game_.Update", "main.__Game_.Draw", "main.__Game_.fromWorkers", "framewire.__Decoder_.Decode", "syscall_js.CopyBytesToGo",
			"playback.__Player_.Append", "playback.__Player_.Halve", "render.", "ebiten", "runtime.gcBgMarkWorker", "runtime.gcDrain", "runtime.mallocgc",
			"(garbage collector)", "(program)", "(idle)"))
	}
}

// profileShares is the functions of p that took the most samples by
// themselves, and then the time under each function whose name contains
// one of parts (its callees included, each sample counted once a part).
func profileShares(p *profiler.Profile, parts ...string) string {
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	took := map[int64]float64{} // ms a node was on top
	var total float64
	for i, id := range p.Samples {
		if i < len(p.TimeDeltas) {
			ms := float64(p.TimeDeltas[i]) / 1000
			took[id] += ms
			total += ms
		}
	}
	self, under := map[string]float64{}, map[string]float64{}
	for id, ms := range took {
		self[byID[id].CallFrame.FunctionName] += ms
		seen := map[string]bool{}
		for x, ok := id, true; ok; x, ok = parent[x] {
			name := byID[x].CallFrame.FunctionName
			for _, part := range parts {
				if strings.Contains(name, part) && !seen[part] {
					seen[part] = true
					under[part] += ms
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %.0f ms sampled\n  by themselves:\n", total)
	names := make([]string, 0, len(self))
	for n := range self {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, c string) int { return cmp.Compare(self[c], self[a]) })
	for _, n := range names[:min(20, len(names))] {
		fmt.Fprintf(&b, "  %8.0f ms %5.1f %%  %s\n", self[n], 100*self[n]/total, n)
	}
	b.WriteString("  with what they call:\n")
	for _, part := range parts {
		fmt.Fprintf(&b, "  %8.0f ms %5.1f %%  %s\n", under[part], 100*under[part]/total, part)
	}
	return b.String()
}
