package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workerStats is what the page and the canvas say of the runs' workers.
type workerStats struct {
	Made     int `json:"made"`   // workers made (worker-client.js)
	Received int `json:"frames"` // frames received from them
	Stats    struct {
		ComputeS float64 `json:"compute_s"`
		Workers  []struct {
			RunID  int  `json:"run_id"`
			Frames int  `json:"frames"`
			Bytes  int  `json:"bytes"`
			Done   bool `json:"done"`
		} `json:"workers"`
	} `json:"stats"`
}

// askWorkerStats waits for the run's report, then asks the canvas for its stats.
func askWorkerStats(t *testing.T, ctx context.Context) workerStats {
	t.Helper()
	poll(t, ctx, `!!window.lastDone`, 3*time.Minute)
	eval[bool](t, ctx, `window.fabriclabStats = null, postMessage({fabriclab: "stats"}, "*"), true`)
	poll(t, ctx, `!!window.fabriclabStats`, 30*time.Second)
	return eval[workerStats](t, ctx, `({made: fabriclabWorkerCounts.made, frames: fabriclabWorkerCounts.frames, stats: fabriclabStats})`)
}

// The page computes in Web Workers: the canvas only plays the frames a
// worker sends (it computes nothing itself), as served by fabriclab serve
// and by a plain static file server over the same site; a comparison's
// sides are two workers.
func TestBrowserComputesInAWorker(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	static := httptest.NewServer(http.FileServer(http.Dir(siteDir(t)))) // no CSP, no CORS header: a plain host
	t.Cleanup(static.Close)
	for _, site := range []struct{ name, base string }{{"serve", base}, {"static", static.URL}} {
		openHooked(t, ctx, site.base, "scenario=incast&play=1")
		st := askWorkerStats(t, ctx)
		assert.Equal(t, 1, st.Made, site.name)
		assert.Positive(t, st.Received, site.name)
		assert.Zero(t, st.Stats.ComputeS, "%s: the canvas computed nothing", site.name)
		require.Len(t, st.Stats.Workers, 1, site.name)
		assert.True(t, st.Stats.Workers[0].Done, site.name)
		assert.Equal(t, st.Received, st.Stats.Workers[0].Frames, "%s: every frame sent reached the canvas", site.name)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "worker-incast-"+site.name+".png", shot)
		assert.Greater(t, spread(decode(t, shot)), 0.08, "%s: the run drawn, not the loading picture", site.name)
	}

	openHooked(t, ctx, base, "compare=1&left=incast&right=incast&right.set=network.cc%3Ddcqcn&play=1")
	st := askWorkerStats(t, ctx)
	assert.Equal(t, 2, st.Made, "one worker a side")
	require.Len(t, st.Stats.Workers, 2)
	assert.True(t, st.Stats.Workers[0].Done && st.Stats.Workers[1].Done)
	assert.NotEqual(t, st.Stats.Workers[0].RunID, st.Stats.Workers[1].RunID)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "worker-compare.png", shot)
	assert.Greater(t, spread(decode(t, shot)), 0.08, "both panes drawn, not the loading picture")
	assert.Empty(t, errors(console()))
}

// In a sandboxed frame that allows scripts only (an opaque origin, which may
// not start a worker from the site's URL) the run is computed in a worker
// made from a blob: URL, to its end; a comparison's two sides in two, both
// begun before the canvas started.
func TestBrowserWorkerInASandbox(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, hostHTML(r.URL.Query().Get("src")))
	}))
	t.Cleanup(host.Close)
	for lang, q := range map[string]string{"en": "scenario=incast", "zh": "scenario=incast", "zh-compare": "compare=1&left=incast&right=ecmp-collisions"} {
		src := base + "/embed.html?" + q + "&play=1&speed=20000&lang=" + lang[:2]
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(host.URL+"/?"+url.Values{"src": {src}}.Encode())))
		poll(t, ctx, `events.includes("done") || events.some((e) => e.startsWith("error"))`, 3*time.Minute)
		events := eval[[]string](t, ctx, "events")
		assert.Contains(t, events, "done", "%s: computed to its end: %q", lang, events)
		assert.Contains(t, events, "loaded", lang)
		poll(t, ctx, `events.includes("ended")`, time.Minute)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "worker-sandboxed-"+lang+".png", shot)
	}
	assert.Empty(t, errors(console()))
}
