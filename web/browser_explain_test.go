package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/nccltests"
)

// explainSample is an all_reduce_perf output of 2 nodes × 8 H100 as
// nccl-tests prints it, a row per size at the busbw given (GB/s): from
// 64 MiB about half what a healthy cluster gives.
func explainSample() string {
	var b strings.Builder
	b.WriteString("# Collective test starting: all_reduce_perf\n# nThread 1 nGpus 1 minBytes 1024 maxBytes 1073741824 step: 8(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	for r := range 16 {
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6d on gpu-%d device %2d [0x%02x] NVIDIA H100 80GB HBM3\n", r, 7000+r, r/8, r%8, 0x18+r%8)
	}
	b.WriteString("#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n")
	for _, r := range []struct {
		size  int64
		busbw float64
	}{{1 << 10, 0.05}, {8 << 10, 0.41}, {64 << 10, 3.3}, {512 << 10, 17.5}, {4 << 20, 98}, {32 << 20, 300}, {256 << 20, 228}, {1 << 30, 230}} {
		alg := r.busbw / 1.875
		us := float64(r.size) / alg / 1e3
		fmt.Fprintf(&b, "%12d  %12d     float     sum      -1  %7.2f  %6.2f  %6.2f      0  %7.2f  %6.2f  %6.2f      0\n", r.size, r.size/4, us, alg, r.busbw, us, alg, r.busbw)
	}
	b.WriteString("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 109.7\n#\n")
	return b.String()
}

// TestBrowserExplainPage: an output pasted into explain.html is explained
// in the page (the worker, no server): the chart's two curves, the table
// whose expected column is what fabriclab explain prints for the same
// text, the NICs' finding, and a link to the canvas with the healthy
// cluster at the size where they part; a cut output shows the CLI's error,
// naming the line. Both indexes link the page.
func TestBrowserExplainPage(t *testing.T) {
	ctx, base, console := browser(t)
	text := explainSample()
	o, s, err := nccltests.Read([]byte(text), nccltests.Options{})
	require.NoError(t, err)
	rep, err := nccltests.Compare(o, s)
	require.NoError(t, err)
	require.Len(t, rep.Lines, 8)

	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/explain.html"), chromedp.WaitReady("#explain-run")))
	assert.Equal(t, "Is my number normal?", eval[string](t, ctx, `document.querySelector("h1").textContent`))
	paste := func(s string) {
		t.Helper()
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const o = document.getElementById("explain-output"); o.value = %q; o.dispatchEvent(new Event("input")); return true })()`, s))
		require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-run")))
	}
	paste(text)
	poll(t, ctx, `!document.getElementById("explain-result").hidden && document.querySelectorAll("#explain-table tbody tr").length === 8 && document.querySelectorAll("#explain-chart svg .series polyline").length === 2`, time.Minute)

	// The table: what fabriclab explain prints for the same text.
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll("#explain-table tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent))`)
	for i, l := range rep.Lines {
		assert.True(t, strings.HasPrefix(rows[i][0], fmt.Sprint(int64(l.Size))+" "), "row %d: %q", i, rows[i][0])
		assert.Equal(t, fmt.Sprintf("%.2f", l.Expected.TimeUs), rows[i][2], "expected time at %d", l.Size)
		assert.Equal(t, fmt.Sprintf("%.2f", l.Measured.BusBw), rows[i][3], "measured busbw at %d", l.Size)
		assert.Equal(t, fmt.Sprintf("%.2f", l.Expected.BusBw), rows[i][4], "expected busbw at %d", l.Size)
		assert.Equal(t, fmt.Sprintf("%.2f", l.Ratio), rows[i][5], "ratio at %d", l.Size)
		assert.Equal(t, rep.Pick(l), rows[i][6], "NCCL's pick at %d", l.Size)
	}
	assert.Equal(t, "nics", eval[string](t, ctx, `document.querySelector("#explain-findings li[data-kind=nics]")?.dataset.kind || ""`), "half the busbw from 64 MiB: the NICs")
	header := rep.Header(o)
	assert.Equal(t, header, eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-header li")].map((li) => li.textContent)`))

	// The chart: a point per size on each curve, named, with a text alternative.
	assert.Equal(t, 8, eval[int](t, ctx, `document.querySelectorAll("#explain-chart svg > .series.measured circle").length`))
	assert.Equal(t, 8, eval[int](t, ctx, `document.querySelectorAll("#explain-chart svg > .series.expected rect").length`))
	assert.Equal(t, "busbw by message size", eval[string](t, ctx, `document.getElementById(document.querySelector("#explain-chart svg").getAttribute("aria-labelledby")).textContent`))
	desc := eval[string](t, ctx, `document.getElementById("explain-chart-desc").textContent`)
	assert.Contains(t, desc, "8 sizes from 1 KiB to 1 GiB")

	// The canvas's link: the healthy cluster at the size where they part.
	href := eval[string](t, ctx, `document.getElementById("explain-open").href`)
	u, err := url.Parse(href)
	require.NoError(t, err)
	assert.Equal(t, "/embed.html", u.Path)
	q := u.Query()
	part, parted := rep.Parting()
	assert.Equal(t, []string{fmt.Sprintf("collective.bytes=%d", int64(part))}, q["set"])
	assert.Equal(t, parted, strings.Contains(eval[string](t, ctx, `document.querySelector("#explain-chart .part text").textContent`), "part the most"),
		"the chart's mark says the curves part only where they do")
	yaml, err := base64.RawURLEncoding.DecodeString(q.Get("yaml"))
	require.NoError(t, err)
	assert.Equal(t, s.YAML(""), string(yaml))

	top := `(() => { document.getElementById("explain-result").scrollIntoView({block: "start"}); return true })()`
	eval[bool](t, ctx, top)
	keep(t, "explain-1280x720.png", screenshot(t, ctx, "", "the explain page"))
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768)))
	keep(t, "explain-1024x768-full.png", eval2(t, ctx, chromedp.FullScreenshot(100)))
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	})))
	eval[bool](t, ctx, top)
	keep(t, "explain-1024x768-dark.png", screenshot(t, ctx, "", "the explain page, dark"))
	assert.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), 1024, "nothing wider than the window at 1024×768")

	// The link opens the canvas on that scenario.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-open")))
	poll(t, ctx, `location.pathname === "/embed.html" && (window.fabriclabFirstFrameMs > 0 || !document.getElementById("error").hidden)`, 90*time.Second)
	assert.Equal(t, "", eval[string](t, ctx, `document.getElementById("error-text").textContent`))
	assert.Equal(t, "Loaded scenario explain", eval[string](t, ctx, `document.getElementById("status").textContent`))
	keep(t, "explain-canvas-1024x768.png", screenshot(t, ctx, "", "the canvas"))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/explain.html"), chromedp.WaitReady("#explain-run")))

	// A cut output: the CLI's message, naming the line, and no result.
	cut := text[:strings.Index(text, "   268435456 ")+40]
	_, _, cliErr := nccltests.Read([]byte(cut), nccltests.Options{})
	require.ErrorContains(t, cliErr, "line 30: a result row of")
	paste(cut)
	poll(t, ctx, `!document.getElementById("explain-error").hidden`, time.Minute)
	assert.Equal(t, cliErr.Error(), eval[string](t, ctx, `document.querySelector("#explain-error p").textContent`))
	assert.True(t, eval[bool](t, ctx, `document.getElementById("explain-result").hidden`))

	// The Chinese page, and both indexes' links.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/explain.zh.html"), chromedp.WaitReady("#explain-run")))
	assert.Equal(t, "我的数字正常吗？", eval[string](t, ctx, `document.querySelector("h1").textContent`))
	assert.Equal(t, "解读", eval[string](t, ctx, `document.getElementById("explain-run").textContent`))
	// The example is healthy.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-example")))
	poll(t, ctx, `document.getElementById("explain-output").value.startsWith("# Collective test starting: all_reduce_perf")`, 30*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-run")))
	poll(t, ctx, `!document.getElementById("explain-result").hidden`, time.Minute)
	kinds := eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-findings li")].map((li) => li.dataset.kind)`)
	assert.Contains(t, kinds, "bandwidth")
	assert.NotContains(t, kinds, "nics")
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("#explain-findings li[data-kind=bandwidth]").textContent`), "the bandwidth is healthy")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("explain-open").href`), "&lang=zh")
	// Every size within 15 %: the mark and the link's hint do not say the curves part.
	assert.Equal(t, "处处相差不到 15% · 最大的消息", eval[string](t, ctx, `document.querySelector("#explain-chart .part text").textContent`))
	assert.Equal(t, "健康集群的场景，消息大小取最大值：你的结果处处都在它的 15% 以内。", eval[string](t, ctx, `document.getElementById("explain-open-hint").textContent`))
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("explain-chart-desc").textContent`), "每个大小的实测都在预期的 15% 以内")
	eval[bool](t, ctx, top)
	keep(t, "explain-zh-1024x768-dark.png", screenshot(t, ctx, "", "the Chinese page"))
	for page, link := range map[string]string{"index.html": "explain.html", "index.zh.html": "explain.zh.html"} {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+page), chromedp.WaitReady("body")))
		assert.True(t, eval[bool](t, ctx, `!!document.querySelector('a[href="`+link+`"]')`), "%s links %s", page, link)
		keep(t, "explain-link-"+page+".png", screenshot(t, ctx, "", page))
	}
	assert.Empty(t, errors(console()))
}

// eval2 runs an action that returns a value.
func eval2[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	require.NoError(t, err)
	return v
}
