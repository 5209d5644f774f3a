package web_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cspWatch records the page's content-security-policy violations in
// window.fabriclabCSP; it runs in every new document of the tab, iframes
// of the same origin included, before the page's own scripts.
const cspWatch = `(() => {
  if (window.fabriclabCSP) return;
  window.fabriclabCSP = [];
  document.addEventListener("securitypolicyviolation", (e) =>
    window.fabriclabCSP.push(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));
})()`

func watchCSP(t *testing.T, ctx context.Context) {
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch})
		return err
	})))
}

// securityMessages are the console's errors and its browser-security entries
// (where Chromium reports a blocked resource or frame).
func securityMessages(msgs []chromedp.ConsoleMessage) []string {
	var out []string
	for _, m := range msgs {
		if m.Source == "security" || strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "X-Frame-Options") {
			out = append(out, m.String())
		}
	}
	return out
}

// The lesson page, its canvas iframe and the embed page run under the
// site's content security policy without a single violation.
func TestBrowserPagesRunUnderCSP(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	watchCSP(t, ctx)

	resp, err := chromedp.RunResponse(ctx, chromedp.Navigate(base+"/incast.en.html"))
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprint(resp.Headers["Content-Security-Policy"]), "frame-ancestors 'self'", "the lesson is served with its policy")
	assert.Equal(t, "SAMEORIGIN", fmt.Sprint(resp.Headers["X-Frame-Options"]))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	poll(t, ctx, `document.getElementById('canvas').contentWindow.fabriclabFirstFrameMs > 0`, 30*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#next")))
	poll(t, ctx, `fabriclabCanvas.step !== ""`, 30*time.Second)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "csp-lesson.png", shot)
	assert.True(t, eval[bool](t, ctx, `Array.isArray(document.getElementById('canvas').contentWindow.fabriclabCSP)`), "the watch runs in the canvas iframe")
	assert.Empty(t, eval[[]string](t, ctx, `window.fabriclabCSP`), "violations on the lesson page")
	assert.Empty(t, eval[[]string](t, ctx, `document.getElementById('canvas').contentWindow.fabriclabCSP`), "violations in the canvas iframe")

	resp, err = chromedp.RunResponse(ctx, chromedp.Navigate(base+"/embed.html?scenario=incast&play=1"))
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprint(resp.Headers["Content-Security-Policy"]), "'wasm-unsafe-eval'", "the embed page is served with its policy")
	assert.NotContains(t, resp.Headers, "X-Frame-Options")
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	poll(t, ctx, `!document.getElementById('time').textContent.startsWith("0 µs")`, 30*time.Second)
	assert.Empty(t, eval[[]string](t, ctx, `window.fabriclabCSP`), "violations on the embed page")
	assert.True(t, eval[bool](t, ctx, `document.getElementById('error').hidden`), "no error over the canvas")

	assert.Empty(t, securityMessages(console()), "the console reports nothing blocked")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// hostHTML is a doc author's page that frames src and records the events
// the canvas posts to it.
func hostHTML(src string) string {
	return fmt.Sprintf(`<!doctype html><title>doc</title><iframe id="f" width="640" height="360" src="%s"></iframe>
<script>window.events = []; addEventListener("message", (e) => { if (e.data && e.data.fabriclab) events.push(e.data.fabriclab + (e.data.message ? ": " + e.data.message : "")); });</script>`,
		html.EscapeString(src))
}

// embed.html runs framed by a page of another origin, by a page opened from
// a file (an opaque origin: "frame-ancestors *" would refuse it), and in a
// sandboxed frame (an opaque origin of its own, which fetches viz.wasm
// across origins); the index and the lessons refuse to be framed by
// another origin.
func TestBrowserFramingAcrossOrigins(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("sandbox") != "" {
			w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, hostHTML(r.URL.Query().Get("src")))
	}))
	t.Cleanup(host.Close)
	hostPage := func(src string, sandbox bool) string {
		q := url.Values{"src": {src}}
		if sandbox {
			q.Set("sandbox", "1")
		}
		return host.URL + "/?" + q.Encode()
	}
	file := filepath.Join(t.TempDir(), "slides.html")
	require.NoError(t, os.WriteFile(file, []byte(hostHTML(base+"/embed.html?scenario=incast")), 0o644))

	for _, tc := range []struct{ name, url string }{
		{"other-origin", hostPage(base+"/embed.html?scenario=incast", false)},
		{"file", "file://" + filepath.ToSlash(file)},
		{"sandboxed", hostPage(base+"/embed.html?scenario=incast", true)},
	} {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(tc.url)))
		poll(t, ctx, `events.includes("frame") || events.some((e) => e.startsWith("error"))`, 90*time.Second)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "csp-embed-framed-"+tc.name+".png", shot)
		events := eval[[]string](t, ctx, "events")
		assert.Contains(t, events, "ready", tc.name)
		assert.Contains(t, events, "frame", tc.name)
	}

	for _, target := range []string{"/index.html", "/incast.en.html"} {
		before := len(securityMessages(console()))
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(hostPage(base+target, false))))
		poll(t, ctx, `document.readyState === "complete"`, 30*time.Second)
		tree, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (page.GetFrameTreeResult, error) {
			return cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		})
		require.NoError(t, err)
		require.Len(t, tree.FrameTree.ChildFrames, 1)
		child := tree.FrameTree.ChildFrames[0].Frame
		t.Logf("%s framed from another origin: url %q unreachable %q; console: %q", target, child.URL, child.UnreachableURL, securityMessages(console())[before:])
		assert.False(t, strings.HasPrefix(child.URL, base), "%s is not shown in another origin's frame", target)
	}
}
