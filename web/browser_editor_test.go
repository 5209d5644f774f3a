package web_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scenario editor (editor=1) as a learner uses it: the built-in's YAML
// shows beside the canvas; a bad value is marked at its line as they type;
// fixing it clears the mark; Ctrl+Enter runs it on the canvas; Copy link
// carries the YAML, and the link opens the same text. Tab indents, Esc then
// Tab leaves. The Export menu downloads the frame as SVG and PNG and gives
// the iframe code for what is on screen.
func TestBrowserEditor(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/embed.html?scenario=incast&set=traffic.senders=4&editor=1")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	pollEditor(t, ctx, `document.getElementById("editor-state").textContent.includes("no problems")`, 60*time.Second)
	require.True(t, eval[bool](t, ctx, record))
	text := func() string { return eval[string](t, ctx, `document.getElementById("editor-text").value`) }
	assert.Contains(t, text(), "# Eight senders overwhelm one receiver", "the built-in's own file, comments and all")
	assert.Contains(t, text(), "senders: 4", "set= is written into the YAML to edit")
	assert.NotContains(t, text(), "  senders: 8")

	// The editor sits beside the canvas, which keeps the rest of the window.
	layout := eval[map[string]float64](t, ctx, `(() => { const c = document.querySelector("canvas").getBoundingClientRect(),
		e = document.getElementById("editor").getBoundingClientRect(), b = document.querySelector(".controls").getBoundingClientRect();
		return {canvasRight: c.right, canvasW: c.width, editorLeft: e.left, editorW: e.width, barRight: b.right}; })()`)
	assert.LessOrEqual(t, layout["canvasRight"], layout["editorLeft"]+0.5, "the canvas is not under the editor")
	assert.LessOrEqual(t, layout["barRight"], layout["editorLeft"]+0.5, "the playback bar stays under the canvas")
	assert.Greater(t, layout["editorW"], 300.0)
	assert.Greater(t, layout["canvasW"], 700.0)

	// Type a bad value on line 6 (hosts: 9 → hosts: 0).
	line := func(n int) string { return strings.Split(text(), "\n")[n-1] }
	require.Equal(t, "  hosts: 9", line(6))
	caretAfter := func(s string) {
		t.Helper()
		require.True(t, eval[bool](t, ctx, `(() => { const e = document.getElementById("editor-text"), i = e.value.indexOf(`+jsString(s)+`);
			if (i < 0) return false; e.focus(); e.setSelectionRange(i + `+jsNum(len(s))+`, i + `+jsNum(len(s))+`); return true; })()`))
	}
	caretAfter("hosts: 9")
	press(t, ctx, kb.Backspace, "0")
	assert.Equal(t, "  hosts: 0", line(6), "typed into the editor: no key went to the canvas")
	poll(t, ctx, `document.querySelector('#editor-marks .editor-mark[data-line="6"]') !== null`, 10*time.Second)
	problems := eval[string](t, ctx, `document.getElementById("editor-problems").textContent`)
	assert.Contains(t, problems, "Line 6")
	assert.Contains(t, problems, "topology.hosts: 0 is not allowed")
	assert.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll("#editor-marks .editor-mark").length`), "only the bad line is marked")
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById("editor-text").getAttribute("aria-invalid")`))
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("editor-state").textContent`), "1 problem")
	// The mark sits on line 6 of the text: 5 lines of 20 px under the 8 px padding.
	assert.InDelta(t, 8+5*20, eval[float64](t, ctx, `parseFloat(document.querySelector("#editor-marks .editor-mark").style.top)`), 0.5)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "editor-error-1280.png", shot)

	// Run with the error does not load it.
	loads := `fabriclabEvents.filter((e) => e.fabriclab === "loaded").length`
	press(t, ctx, kb.Enter) // a new line: Enter alone edits
	press(t, ctx, kb.Backspace)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))))
	poll(t, ctx, `document.getElementById("editor-note").textContent.includes("Not run")`, 10*time.Second)
	assert.Zero(t, eval[int](t, ctx, loads))

	// Fix it: the mark goes; Ctrl+Enter loads it on the canvas.
	press(t, ctx, kb.Backspace, "1", "2")
	poll(t, ctx, `document.querySelectorAll("#editor-marks .editor-mark").length === 0 && document.getElementById("editor-state").textContent.includes("no problems")`, 10*time.Second)
	assert.Empty(t, eval[string](t, ctx, `document.getElementById("editor-problems").textContent`))
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))))
	poll(t, ctx, loads+` === 1`, 30*time.Second)
	assert.False(t, eval[bool](t, ctx, `document.getElementById("editor-text").value.includes("\n\n  hosts")`), "Ctrl+Enter inserted no line")
	// The canvas shows 12 hosts: ask it for the frame as SVG.
	eval[bool](t, ctx, `postMessage({fabriclab: "snapshot", id: 99}, "*"); true`)
	poll(t, ctx, `fabriclabEvents.some((e) => e.fabriclab === "snapshot" && e.id === 99)`, 10*time.Second)
	svg := eval[string](t, ctx, `fabriclabEvents.find((e) => e.fabriclab === "snapshot" && e.id === 99).svg`)
	assert.Contains(t, svg, ">h11</text>", "the edited scenario (12 hosts) is on the canvas")
	assert.Contains(t, svg, "12 hosts")

	// Tab indents; Esc then Tab leaves the text area.
	caretAfter("name: incast")
	press(t, ctx, kb.Tab)
	assert.Equal(t, "name: incast  ", line(2), "Tab inserts two spaces")
	focusIs(t, ctx, "editor-text", "Tab stays in the editor")
	press(t, ctx, kb.Backspace, kb.Backspace, kb.Escape, kb.Tab)
	focusIs(t, ctx, "editor-run", "Esc, then Tab, moves on to Run")
	shiftTab(t, ctx)
	focusIs(t, ctx, "editor-text", "Shift+Tab comes back")

	// Copy link carries the YAML; the link opens the editor with the same text.
	yaml := text()
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#editor-link")))
	poll(t, ctx, `typeof window.fabriclabLastLink === "string"`, 5*time.Second)
	poll(t, ctx, `/copied|Copy the link/.test(document.getElementById("editor-note").textContent)`, 5*time.Second)
	link := eval[string](t, ctx, `fabriclabLastLink`)
	u, err := url.Parse(link)
	require.NoError(t, err)
	assert.Equal(t, "1", u.Query().Get("editor"))
	data, err := base64.RawURLEncoding.DecodeString(u.Query().Get("yaml"))
	require.NoError(t, err)
	assert.Equal(t, yaml, string(data), "the link's yaml= is the editor's text")

	// The Export menu, by keyboard: the frame as SVG and PNG, and the embed code.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#share")))
	press(t, ctx, kb.Enter)
	focusIs(t, ctx, "share-png", "the menu opens on its first item")
	press(t, ctx, kb.Tab)
	focusIs(t, ctx, "share-svg", "")
	press(t, ctx, kb.Enter)
	poll(t, ctx, `window.fabriclabLastExport && fabriclabLastExport.format === "svg"`, 10*time.Second)
	canvasW := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().width`)
	assert.InDelta(t, canvasW, eval[float64](t, ctx, `fabriclabLastExport.width`), 1, "the SVG is the canvas's size")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#share-png")))
	poll(t, ctx, `fabriclabLastExport.format === "png"`, 20*time.Second)
	assert.InDelta(t, 2*canvasW, eval[float64](t, ctx, `fabriclabLastExport.width`), 2, "the PNG is drawn at twice the size")
	assert.Greater(t, eval[float64](t, ctx, `fabriclabLastExport.bytes`), 5000.0, "a PNG with a picture in it")
	// The PNG's text is in the canvas's fonts, not the system's: it differs from the same SVG drawn without them.
	assert.Equal(t, 5.0, eval[float64](t, ctx, `fabriclabLastExport.fonts`), "the canvas's five fonts go into the picture")
	fontPixels, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(async () => {
	  const e = fabriclabLastExport, w = e.width, h = e.height;
	  const pixels = (img) => {
	    const c = document.createElement("canvas"); c.width = w; c.height = h;
	    const g = c.getContext("2d"); g.drawImage(img, 0, 0, w, h); return g.getImageData(0, 0, w, h).data;
	  };
	  const svg = new Image(); svg.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(e.svg); await svg.decode();
	  const a = pixels(await createImageBitmap(e.blob)), b = pixels(svg);
	  let n = 0;
	  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
	  return n;
	})()`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Greater(t, fontPixels, 2000.0, "the text's pixels are the canvas's fonts'")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("share-status").textContent`), "Downloaded incast-")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#share-embed")))
	poll(t, ctx, `document.getElementById("share-code").value.startsWith("<iframe")`, 5*time.Second)
	code := eval[string](t, ctx, `document.getElementById("share-code").value`)
	assert.Contains(t, code, `/embed.html?yaml=`, "the edited YAML, not the built-in")
	assert.Contains(t, code, `allow="fullscreen"`)
	shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "editor-export-menu-1280.png", shot)
	press(t, ctx, kb.Escape)
	focusIs(t, ctx, "share", "Esc closes the menu, focus back on its button")
	assert.True(t, eval[bool](t, ctx, `document.getElementById("share-menu").hidden`))

	// The link opens the same YAML in the editor, and the canvas runs it.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(link)))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0 && document.getElementById("editor-text").value.length > 0`, 90*time.Second)
	assert.Equal(t, yaml, text(), "copy link round-trips the YAML")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("status").textContent`), "Loaded scenario incast")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// The editor at a projector's 1024×768 and on a 390 px phone (under the
// canvas), and in Chinese.
func TestBrowserEditorSizes(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	for _, tc := range []struct {
		w, h   int
		query  string
		beside bool
	}{
		{1024, 768, "scenario=ecmp-collisions&editor=1", true},
		{390, 844, "scenario=incast&editor=1", false},
		{1280, 720, "scenario=ring-allreduce-8&editor=1&lang=zh", true},
	} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(tc.w), int64(tc.h)), chromedp.Navigate(base+"/embed.html?"+tc.query)))
		poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
		pollEditor(t, ctx, `document.getElementById("editor-text").value.length > 0 && document.getElementById("editor-state").textContent !== ""`, 60*time.Second)
		r := eval[map[string]float64](t, ctx, `(() => { const c = document.querySelector("canvas").getBoundingClientRect(),
			e = document.getElementById("editor").getBoundingClientRect(), b = document.querySelector(".controls").getBoundingClientRect(),
			run = document.getElementById("editor-run").getBoundingClientRect();
			return {cr: c.right, cb: c.bottom, cw: c.width, ch: c.height, el: e.left, et: e.top, eb: e.bottom, bb: b.bottom, br: b.right, runB: run.bottom, runR: run.right}; })()`)
		if tc.beside {
			assert.LessOrEqual(t, r["cr"], r["el"]+0.5, "%s: the editor beside the canvas", tc.query)
			assert.LessOrEqual(t, r["br"], r["el"]+0.5, "%s", tc.query)
		} else {
			assert.LessOrEqual(t, r["cb"], r["et"]+0.5, "%s: the editor under the canvas", tc.query)
			assert.LessOrEqual(t, r["bb"], r["et"]+0.5, "%s: the bar at the canvas's bottom", tc.query)
			assert.Greater(t, r["ch"], 300.0, "%s: the canvas keeps room", tc.query)
		}
		assert.LessOrEqual(t, r["runB"], float64(tc.h), "%s: Run is on screen", tc.query)
		assert.LessOrEqual(t, r["runR"], float64(tc.w), "%s", tc.query)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		name := "editor-" + strings.SplitN(strings.TrimPrefix(tc.query, "scenario="), "&", 2)[0] + "-" + jsNum(tc.w) + "x" + jsNum(tc.h) + ".png"
		keep(t, name, shot)
		if strings.Contains(tc.query, "lang=zh") {
			assert.Equal(t, "运行", eval[string](t, ctx, `document.getElementById("editor-run").textContent`))
			assert.Equal(t, "导出", eval[string](t, ctx, `document.getElementById("share").getAttribute("aria-label")`))
			assert.Contains(t, eval[string](t, ctx, `document.getElementById("editor-state").textContent`), "没有问题")
		}
	}
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// pollEditor is poll that, on failing, says what the editor shows.
func pollEditor(t *testing.T, ctx context.Context, expr string, within time.Duration) {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	if _, err := chromedp.Run(pctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
		state := eval[string](t, ctx, `JSON.stringify({text: document.getElementById("editor-text").value.slice(0, 80), state: document.getElementById("editor-state").textContent,
			note: document.getElementById("editor-note").textContent, status: document.getElementById("status").textContent, error: document.getElementById("error-text").textContent, href: location.href})`)
		require.NoError(t, err, "waiting for %s; the page shows %s", expr, state)
	}
}

func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func jsNum(n int) string { return strconv.Itoa(n) }
