package web_test

import (
	"encoding/json"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/web"
)

// compareSmall keeps the browser's work small: four senders of 1 MiB.
var compareSmall = []string{"topology.hosts=5", "traffic.senders=4", "traffic.bytes=1MiB"}

func nativeRun(t *testing.T, name string, sets []string) *metrics.Result {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	return r
}

// A comparison in the embed plays both sides on one clock; each side's
// totals in the done event are those of `fabriclab run --json` for its
// scenario (run here natively: the JSON is the same), the difference is
// the summary of the two, and playback commands move both.
func TestBrowserCompare(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	q := url.Values{"compare": {"1"}, "left": {"incast"}, "left.label": {"PFC alone"}, "right": {"incast-dcqcn"},
		"right.label": {"PFC + DCQCN"}, "left.set": compareSmall, "right.set": compareSmall, "play": {"1"}, "speed": {"200"}}
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
	start := time.Now()
	eval[bool](t, ctx, framed(q.Encode()))
	poll(t, ctx, `got.some((e) => e.fabriclab === "done" && e.compare)`, 2*time.Minute)
	t.Logf("both sides computed %.1f s after the page framed the canvas", time.Since(start).Seconds())
	loaded := lastEvent[protocol.CompareLoaded](t, ctx)
	assert.Equal(t, "PFC alone vs PFC + DCQCN", loaded.Name)
	assert.Equal(t, [2]string{"PFC alone", "PFC + DCQCN"}, loaded.Labels)

	done := lastEvent[protocol.CompareDone](t, ctx)
	left, right := nativeRun(t, "incast", compareSmall), nativeRun(t, "incast-dcqcn", compareSmall)
	for i, r := range []*metrics.Result{left, right} {
		got, tot := [2]protocol.SideTotals{done.Left, done.Right}[i], r.Totals
		label, name := [2]string{"PFC alone", "PFC + DCQCN"}[i], [2]string{"incast", "incast-dcqcn"}[i]
		want := protocol.SideTotals{Label: label, Name: name, SimTimeUs: tot.SimTimeUs, MaxFctUs: tot.MaxFctUs, Drops: tot.Drops,
			PauseFrames: tot.PauseFrames, GoodputGbps: got.GoodputGbps, FlowsFinished: tot.FlowsFinished}
		assert.Equal(t, want, got, "side %d", i)
	}
	assert.NotEqual(t, left.Totals.SimTimeUs, right.Totals.SimTimeUs, "the two sides differ")
	assert.Equal(t, playback.Summary([2]string{"PFC alone", "PFC + DCQCN"}, left, right), done.Difference)
	assert.Equal(t, max(left.Totals.SimTimeUs, right.Totals.SimTimeUs), done.SimTimeUs, "the shared end is the longer run's")

	// Played to the end of the longer run: both sides' ends in the time event.
	poll(t, ctx, `got.some((e) => e.fabriclab === "ended")`, time.Minute)
	last := lastEvent[protocol.CompareTime](t, ctx)
	assert.InDelta(t, left.Totals.SimTimeUs, last.LeftEndUs, 0.001)
	assert.InDelta(t, right.Totals.SimTimeUs, last.RightEndUs, 0.001)
	assert.InDelta(t, max(left.Totals.SimTimeUs, right.Totals.SimTimeUs), last.TUs, 0.001)
	summary := eval[string](t, ctx, `document.getElementById("embed").contentDocument.getElementById("summary").textContent`)
	assert.Contains(t, summary, "PFC alone: incast: 4 senders to 1")
	assert.Contains(t, summary, "PFC + DCQCN: incast-dcqcn: 4 senders to 1")
	assert.Contains(t, summary, done.Difference, "the screen reader hears the difference")

	eval[bool](t, ctx, `post({fabriclab: "stats"}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "stats")`, 10*time.Second)
	stats := eval[map[string]any](t, ctx, `got.find((e) => e.fabriclab === "stats")`)
	t.Logf("two panes: draw p50 %.1f ms, p95 %.1f ms; frame interval p50 %.1f ms",
		stats["draw_p50_ms"], stats["draw_p95_ms"], stats["interval_p50_ms"])

	// Seek goes to the same time on both sides; the one that ended holds its end.
	short := min(left.Totals.SimTimeUs, right.Totals.SimTimeUs)
	eval[bool](t, ctx, fmt.Sprintf(`post({fabriclab: "seek", t_us: %g}), true`, short+1))
	poll(t, ctx, fmt.Sprintf(`Math.abs(got.filter((e) => e.fabriclab === "time").pop().t_us - %g) < 0.01`, short+1), 10*time.Second)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "compare-framed.png", png)
	img := decode(t, png)
	// The iframe is 960×540 at the page's top left: both halves are drawn.
	for i, half := range []image.Rectangle{image.Rect(10, 40, 470, 480), image.Rect(490, 40, 950, 480)} {
		assert.Greater(t, spread(img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(half)), 0.05, "half %d is drawn", i)
	}

	// A load with left and right replaces what plays; a one-scenario load goes back.
	eval[bool](t, ctx, `post({fabriclab: "load", left: {scenario: "incast", set: ["until=20us"], label: "A"}, right: {scenario: "incast-lossy", set: ["until=20us"], label: "B"}}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "loaded" && e.name === "A vs B" && e.left === "incast" && e.right === "incast-lossy")`, time.Minute)
	eval[bool](t, ctx, `post({fabriclab: "load", scenario: "incast", set: ["until=20us"]}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "loaded" && e.name === "incast" && !e.compare)`, time.Minute)
	eval[bool](t, ctx, `post({fabriclab: "load", left: {scenario: "incast"}}), true`)
	poll(t, ctx, `got.some((e) => e.fabriclab === "error" && /needs both left and right/.test(e.message))`, 10*time.Second)
	assert.Empty(t, errors(console()), "the console shows no errors")
}

var stepsJSON = regexp.MustCompile(`(?s)(<script type="application/json" id="steps">)(.*?)(</script>)`)

// A lesson step with a compare loads both sides into the canvas with the
// compare load, and the difference shows under its caption. (The shipped
// lessons may have no compare step: the test gives incast's first step one.)
func TestBrowserLessonCompare(t *testing.T) {
	t.Parallel()
	ctx, _, console := browser(t)
	dir := siteDir(t)
	page, err := os.ReadFile(filepath.Join(dir, "incast.en.html"))
	require.NoError(t, err)
	m := stepsJSON.FindSubmatch(page)
	require.NotNil(t, m)
	var steps []map[string]any
	require.NoError(t, json.Unmarshal(m[2], &steps))
	side := func(label, name string) map[string]any {
		sc, err := scenario.Load(name, nil, compareSmall)
		require.NoError(t, err)
		return map[string]any{"label": label, "scenario": scenarioYAML(t, sc), "scenario_name": name}
	}
	steps[0]["compare"] = map[string]any{"left": side("Alone", "incast"), "right": side("With DCQCN", "incast-dcqcn")}
	js, err := json.Marshal(steps)
	require.NoError(t, err)
	js = []byte(strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(string(js)))
	page = stepsJSON.ReplaceAll(page, append(append([]byte("${1}"), js...), []byte("${3}")...))
	page = []byte(strings.Replace(string(page), "</h2>", `</h2><p class="lesson-compare">▶ compare: Alone vs With DCQCN</p>`, 1))
	site := web.Handler(os.DirFS(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/compare-lesson.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(page)
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/compare-lesson.html")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.compare && fabriclabCanvas.loaded === "Alone vs With DCQCN"`, time.Minute)
	assert.Equal(t, steps[0]["id"], eval[string](t, ctx, `fabriclabCanvas.step`))
	poll(t, ctx, `fabriclabCanvas.difference !== ""`, 2*time.Minute)
	want := playback.Summary([2]string{"Alone", "With DCQCN"}, nativeRun(t, "incast", compareSmall), nativeRun(t, "incast-dcqcn", compareSmall))
	assert.Equal(t, want, eval[string](t, ctx, `document.querySelector(".step.current .lesson-compare-diff").textContent`))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "compare-lesson.png", png)
	// The next step has its own scenario: the canvas leaves compare mode.
	eval[bool](t, ctx, `document.getElementById("next").click(), true`)
	poll(t, ctx, `!fabriclabCanvas.compare && fabriclabCanvas.loaded !== ""`, time.Minute)
	assert.Empty(t, errors(console()), "the console shows no errors")
}

func scenarioYAML(t *testing.T, sc scenario.Scenario) string {
	t.Helper()
	data, err := yaml.Marshal(sc)
	require.NoError(t, err)
	return string(data)
}

// TestBrowserCompareScreenshots writes comparisons at a laptop's and a
// projector's size to $FABRICLAB_SCREENSHOTS, for people to look at.
func TestBrowserCompareScreenshots(t *testing.T) {
	t.Parallel()
	if os.Getenv("FABRICLAB_SCREENSHOTS") == "" {
		t.Skip("set FABRICLAB_SCREENSHOTS=DIR to write screenshots of comparisons")
	}
	ctx, base, _ := browser(t)
	views := map[string]string{
		"ecmp-adaptive": "compare=1&left=ecmp-collisions&left.label=ECMP&left.set=traffic.bytes%3D4MiB&right=ecmp-collisions&right.label=Adaptive+routing&right.set=network.routing%3Dadaptive&right.set=traffic.bytes%3D4MiB&t=70",
		"incast-dcqcn":  "compare=1&left=incast&left.label=PFC+alone&right=incast-dcqcn&right.label=PFC+%2B+DCQCN&t=3000",
	}
	for _, size := range [][2]int64{{1280, 720}, {1024, 768}} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])))
		for name, q := range views {
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?"+q)))
			poll(t, ctx, `document.getElementById("summary").textContent.includes("sooner") || !document.getElementById("error").hidden`, 3*time.Minute)
			png := stillShot(t, ctx, "window", "")
			keep(t, fmt.Sprintf("compare-%s-%d.png", name, size[0]), png)
		}
	}
}
