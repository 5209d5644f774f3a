package web_test

import (
	"bytes"
	"context"
	goerrors "errors"
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
	return openBrowserFor(t, own, dir, 4*time.Minute)
}

// openBrowserFor is openBrowser with a tab that lives at most within.
func openBrowserFor(t *testing.T, own bool, dir string, within time.Duration) (context.Context, string, func() []chromedp.ConsoleMessage) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: the full suite (make test) runs it")
	}
	path := chromiumPath(t)
	if dir == "" {
		dir = siteDir(t)
	}
	srv := httptest.NewServer(web.Handler(os.DirFS(dir)))
	t.Cleanup(srv.Close)

	var tab context.Context
	var cancel func()
	if own {
		// A Chromium of its own; started again if it could not start (its
		// zygote could not fork on a host whose processes ran short, while
		// other tests' browsers ran: a CI run failed on that alone).
		for try := 1; ; try++ {
			actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(path, t.TempDir())...)
			c, cancelB := chromedp.NewContext(actx)
			tab, cancel = c, func() { cancelB(); cancelA() }
			err := chromedp.Do(tab, chromedp.Navigate("about:blank"))
			if err == nil || try == 3 || !strings.Contains(err.Error(), "chrome failed to start") {
				break
			}
			cancel()
			time.Sleep(time.Duration(try) * 2 * time.Second)
		}
	} else {
		tab, cancel = chromedp.NewContext(browserShared(t, path), chromedp.WithNewBrowserContext())
	}
	tab, cancelT := context.WithTimeout(tab, within)
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
	if testing.Short() {
		t.Skip("builds the site: the full suite (make test) runs it")
	}
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
		if err != nil && (strings.Contains(err.Error(), "Cannot find context with specified id") || strings.Contains(err.Error(), "Inspected target navigated or closed")) && pctx.Err() == nil {
			require.NoError(t, chromedp.Do(pctx, chromedp.WaitReady("body")), "waiting for the new page")
			continue
		}
		require.NoError(t, err, "waiting for %s", expr)
		return
	}
}

// lessonCanvas is the window the canvas runs in on a lesson page; on an
// embed page it is window.
const lessonCanvas = `document.getElementById('canvas').contentWindow`

// animationFrames waits for n animation frames of the window win (a
// JavaScript expression): the canvas updates and draws in them.
func animationFrames(t *testing.T, ctx context.Context, win string, n int) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`((w, n) => new Promise((done) => {
		const f = () => --n > 0 ? w.requestAnimationFrame(f) : done(true);
		w.requestAnimationFrame(f);
	}))(%s, %d)`, win, n), chromedp.EvalAwaitPromise))
	require.NoError(t, err)
}

// caughtUp waits until the canvas in win has handled every key and message
// sent to it before: it answers a stats command posted after them.
func caughtUp(t *testing.T, ctx context.Context, win string) {
	t.Helper()
	eval[bool](t, ctx, `((w) => { w.fabriclabStats = null; w.postMessage({fabriclab: "stats"}, "*"); return true })(`+win+`)`)
	poll(t, ctx, win+`.fabriclabStats !== null`, 30*time.Second)
}

// waitFor is poll for a caller that says itself what went wrong: false if
// expr is still false after within.
func waitFor(t *testing.T, ctx context.Context, expr string, within time.Duration) bool {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	_, err := chromedp.Run(pctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(within)))
	if ctx.Err() == nil && (goerrors.Is(err, chromedp.ErrPollingTimeout) || pctx.Err() != nil) {
		return false
	}
	require.NoError(t, err, "waiting for %s", expr)
	return true
}

// stillShot is a screenshot of the page (of the element sel, if not "")
// once the canvas in win has caught up with what it was sent and its
// picture has stopped changing: two shots some frames apart the same.
func stillShot(t *testing.T, ctx context.Context, win, sel string) []byte {
	t.Helper()
	caughtUp(t, ctx, win)
	var last []byte
	for {
		animationFrames(t, ctx, win, 3)
		shot := screenshot(t, ctx, sel, "the picture kept changing")
		if bytes.Equal(shot, last) {
			return shot
		}
		last = shot
	}
}

// screenshot is a PNG of the page, or of the element sel if not "";
// msg says what a failure was waiting for.
func screenshot(t *testing.T, ctx context.Context, sel, msg string) []byte {
	t.Helper()
	var shot []byte
	var err error
	if sel == "" {
		shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	} else {
		shot, err = chromedp.Run(ctx, chromedp.Screenshot(sel))
	}
	require.NoError(t, err, msg)
	return shot
}

// changedShot is the first screenshot of the page (of sel, if not "") whose
// share of changed pixels from the picture from is more than share, taken a
// few frames of the canvas in win apart: a change the canvas draws on its
// next frame, later on a loaded machine.
func changedShot(t *testing.T, ctx context.Context, win, sel string, from image.Image, share float64) []byte {
	t.Helper()
	for {
		animationFrames(t, ctx, win, 3)
		shot := screenshot(t, ctx, sel, fmt.Sprintf("waiting for the picture to change by more than %g", share))
		if changed(from, decode(t, shot)) > share {
			return shot
		}
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
	poll(t, ctx, lessonCanvas+`.fabriclabFirstFrameMs > 0`, 30*time.Second)
	before := stillShot(t, ctx, lessonCanvas, "#canvas")
	keep(t, "lesson-paused.png", before)
	a := decode(t, before)
	assert.Greater(t, spread(a), 0.05, "the canvas is not blank")

	// Space plays; the links change colour as traffic flows.
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
	poll(t, ctx, `fabriclabCanvas.playing === true`, 10*time.Second)
	after := changedShot(t, ctx, lessonCanvas, "#canvas", a, 0.005) // playing changes the picture (link colours, packets, charts)
	keep(t, "lesson-playing.png", after)
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

// A congestion-control scenario plays in the browser: DCQCN on the victim-flow
// fabric draws marked packets, CNPs and rate gauges without errors.
func TestBrowserCongestionScenario(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=victim-flow&set=network.cc=dcqcn&play=1")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	poll(t, ctx, `!document.getElementById('time').textContent.startsWith("0.000 µs /")`, time.Minute) // playback moved
	caughtUp(t, ctx, "window")
	animationFrames(t, ctx, "window", 3)
	assert.True(t, eval[bool](t, ctx, `document.getElementById('error').hidden`), "no error over the canvas")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "embed-victim-dcqcn.png", shot)
	assert.Greater(t, spread(decode(t, shot)), 0.05, "the canvas is not blank")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
