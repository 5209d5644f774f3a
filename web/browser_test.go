package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/web"
)

// browser opens a tab on a freshly built site: in the test binary's one
// headless Chromium (browserShared), in a browser context of its own (its own
// storage and cache, as a fresh browser has). With FABRICLAB_BROWSER_BENCH set,
// each call starts a Chromium of its own, so measurements see only their page.
// Without Chromium the browser tests skip — except under CI=true, where they
// must run.
func browser(t *testing.T) (ctx context.Context, base string, console func() []chromedp.ConsoleMessage) {
	t.Helper()
	return openBrowser(t, os.Getenv("FABRICLAB_BROWSER_BENCH") != "", "")
}

// browserAt is a Chromium of its own (a new profile, nothing cached) on the
// site in dir.
func browserAt(t *testing.T, dir string) (ctx context.Context, base string, console func() []chromedp.ConsoleMessage) {
	t.Helper()
	return openBrowser(t, true, dir)
}

// ownBrowser is browser in a Chromium of the test's own, for tests that move
// the focus between windows and frames (the browser has one focused window).
func ownBrowser(t *testing.T) (ctx context.Context, base string, console func() []chromedp.ConsoleMessage) {
	t.Helper()
	return openBrowser(t, true, "")
}

// openBrowser opens a tab on the site in dir ("": the one siteDir builds), in
// a Chromium of its own or in the shared one.
func openBrowser(t *testing.T, own bool, dir string) (context.Context, string, func() []chromedp.ConsoleMessage) {
	t.Helper()
	path := chromiumPath(t)
	if dir == "" {
		dir = siteDir(t)
	}
	srv := httptest.NewServer(web.Handler(os.DirFS(dir)))
	t.Cleanup(srv.Close)

	var tab context.Context
	var cancel func()
	if own {
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(path, t.TempDir())...)
		c, cancelB := chromedp.NewContext(actx)
		tab, cancel = c, func() { cancelB(); cancelA() }
	} else {
		tab, cancel = chromedp.NewContext(browserShared(t, path), chromedp.WithNewBrowserContext())
	}
	tab, cancelT := context.WithTimeout(tab, 4*time.Minute)
	t.Cleanup(func() { cancelT(); cancel() })
	return openTab(t, tab, srv.URL)
}

// openTab opens the tab of ctx on about:blank and records its console.
func openTab(t *testing.T, ctx context.Context, base string) (context.Context, string, func() []chromedp.ConsoleMessage) {
	t.Helper()
	var mu sync.Mutex
	var msgs []chromedp.ConsoleMessage
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	stream := chromedp.Console(ctx)
	go func() {
		for m, err := range stream {
			if err != nil {
				return
			}
			mu.Lock()
			msgs = append(msgs, m)
			mu.Unlock()
		}
	}()
	return ctx, base, func() []chromedp.ConsoleMessage {
		mu.Lock()
		defer mu.Unlock()
		return append([]chromedp.ConsoleMessage(nil), msgs...)
	}
}

// chromiumPath finds Chromium ($CHROMIUM, else on $PATH), or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if path := os.Getenv("CHROMIUM"); path != "" {
		return path
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but Chromium is missing: .ci/run must install it (apt-get install -y chromium)")
	}
	t.Skip("browser tests skipped: Chromium is not installed (apt-get install -y chromium)")
	return ""
}

// chromiumOptions are the flags of every test browser: headless, software
// WebGL, nothing fetched from outside, and no throttling of pages that are
// not in front (the shared browser runs tests side by side in windows of
// their own).
func chromiumOptions(path, userData string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.DisableGPU, chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-timer-throttling", true), chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(userData), chromedp.WindowSize(1280, 720),
	}
}

var (
	siteOnce sync.Once
	siteErr  error
	site     string
)

// siteDir builds the site once per test binary (compiling cmd/viz takes a while).
func siteDir(t *testing.T) string {
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fabriclab-site")
		if err != nil {
			siteErr = err
			return
		}
		site = filepath.Join(dir, "site")
		siteErr = web.BuildSite("..", site, io.Discard, false)
	})
	require.NoError(t, siteErr)
	return site
}

func errors(msgs []chromedp.ConsoleMessage) []string {
	var out []string
	for _, m := range msgs {
		if m.IsException() || m.Type == "error" || m.Type == "assert" {
			out = append(out, m.String())
		}
	}
	return out
}

func decode(t *testing.T, data []byte) image.Image {
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return img
}

// spread is the standard deviation of the image's brightness: 0 for a blank canvas.
func spread(img image.Image) float64 {
	b := img.Bounds()
	var sum, sq, n float64
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			v := float64(r+g+bl) / 3 / 65535
			sum += v
			sq += v * v
			n++
		}
	}
	m := sum / n
	return math.Sqrt(max(0, sq/n-m*m))
}

// changed is the share of pixels that differ noticeably between two images.
func changed(a, b image.Image) float64 {
	r := a.Bounds().Intersect(b.Bounds())
	var diff, n float64
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
			if d > 3*0.08*65535 {
				diff++
			}
			n++
		}
	}
	return diff / n
}

// keep writes a screenshot to $FABRICLAB_SCREENSHOTS, for people to look at.
func keep(t *testing.T, name string, png []byte) {
	if dir := os.Getenv("FABRICLAB_SCREENSHOTS"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, expr)
	return v
}

func poll(t *testing.T, ctx context.Context, expr string, within time.Duration) {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for {
		_, err := chromedp.Run(pctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(within)))
		// A page that is still navigating replaces its execution context
		// under the poll: ask the new one.
		if err != nil && strings.Contains(err.Error(), "Cannot find context with specified id") && pctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		require.NoError(t, err, "waiting for %s", expr)
		return
	}
}

func TestBrowserIndexAndLesson(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
	title := eval[string](t, ctx, "document.title")
	assert.Contains(t, title, "fabriclab")
	lessons := eval[int](t, ctx, `document.querySelectorAll('.card a[href$=".html"]').length`)
	assert.Positive(t, lessons, "the index lists lessons")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "index-1280.png", shot)

	// The lesson loads, the Go program signals ready, the canvas draws.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/incast.en.html")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	poll(t, ctx, `document.getElementById('canvas').contentWindow.fabriclabFirstFrameMs > 0`, 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	before, err := chromedp.Run(ctx, chromedp.Screenshot("#canvas"))
	require.NoError(t, err)
	keep(t, "lesson-paused.png", before)
	a := decode(t, before)
	assert.Greater(t, spread(a), 0.05, "the canvas is not blank")

	// Space plays; the links change colour as traffic flows.
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
	poll(t, ctx, `fabriclabCanvas.playing === true`, 10*time.Second)
	time.Sleep(2 * time.Second)
	after, err := chromedp.Run(ctx, chromedp.Screenshot("#canvas"))
	require.NoError(t, err)
	keep(t, "lesson-playing.png", after)
	assert.Greater(t, changed(a, decode(t, after)), 0.005, "playing changes the picture (link colours, packets, charts)")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
	poll(t, ctx, `fabriclabCanvas.playing === false`, 10*time.Second)

	// The next-step control changes the scenario.
	first := eval[string](t, ctx, "fabriclabCanvas.loaded")
	steps := eval[[]map[string]any](t, ctx, `JSON.parse(document.getElementById('steps').textContent)`)
	require.GreaterOrEqual(t, len(steps), 5, "the lesson has at least five steps")
	next := -1
	for i := 1; i < len(steps); i++ {
		if steps[i]["scenario"] != steps[0]["scenario"] && steps[i]["scenario"] != "" {
			next = i
			break
		}
	}
	require.Positive(t, next, "a later step shows another scenario")
	for range next {
		require.NoError(t, chromedp.Do(ctx, chromedp.Click("#next")))
	}
	id := steps[next]["id"].(string)
	poll(t, ctx, fmt.Sprintf(`fabriclabCanvas.step === %q`, id), 30*time.Second)
	assert.NotEqual(t, first, eval[string](t, ctx, "fabriclabCanvas.loaded"), "the step loaded another scenario")
	assert.True(t, strings.HasSuffix(eval[string](t, ctx, "location.hash"), id), "the address links to the step")
	assert.Empty(t, eval[string](t, ctx, "fabriclabCanvas.error"))

	// The Chinese lesson loads too.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/incast.zh.html#"+id)))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	assert.Equal(t, "zh-Hans", eval[string](t, ctx, "document.documentElement.lang"))
	shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "lesson-zh.png", shot)

	assert.Empty(t, errors(console()), "the console shows no errors")
}

func TestBrowserBadParameterShowsError(t *testing.T) {
	t.Parallel()
	ctx, base, _ := browser(t)
	text := shownError(t, ctx, base+"/embed.html?scenario=nosuch", "embed-error.png")
	assert.Contains(t, text, `scenario="nosuch" is not a built-in scenario`)
}

// A congestion-control scenario plays in the browser: DCQCN on the victim-flow
// fabric draws marked packets, CNPs and rate gauges without errors.
func TestBrowserCongestionScenario(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=victim-flow&set=network.cc=dcqcn&play=1")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	time.Sleep(3 * time.Second)
	assert.True(t, eval[bool](t, ctx, `document.getElementById('error').hidden`), "no error over the canvas")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "embed-victim-dcqcn.png", shot)
	assert.Greater(t, spread(decode(t, shot)), 0.05, "the canvas is not blank")
	assert.NotContains(t, eval[string](t, ctx, `document.getElementById('time').textContent`), "0.000 µs /", "playback moved")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
