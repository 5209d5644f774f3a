package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// In the lesson's canvas frame: its document.
const frameDoc = `document.getElementById('canvas').contentDocument`

// The canvas as a table, on a lesson page driven by the keyboard: Tab
// reaches its disclosure (in presenter mode too); open, it has a caption and
// headers per table and rows of links and flows; playing updates it without
// moving the focus; ↓ ↑ on the canvas read out a node's and a link's
// tooltip, and Esc closes it (not the lesson's overview).
func TestBrowserCanvasTable(t *testing.T) { // a Chromium of its own: the focus moves into the frame
	ctx, base, console := ownBrowser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/incast.en.html")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	poll(t, ctx, lessonCanvas+`.fabriclabFirstFrameMs > 0`, 30*time.Second)
	eval[bool](t, ctx, `document.getElementById("presenter").click(); true`)
	poll(t, ctx, `document.body.classList.contains("presenter")`, 5*time.Second)

	// Tab from the canvas reaches the disclosure; Enter opens it.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#canvas")))
	poll(t, ctx, focused+` === "canvas:canvas"`, 5*time.Second)
	for range 15 {
		if moveFocus(t, ctx, kb.Tab) == "canvas:summary" {
			break
		}
	}
	require.Equal(t, "canvas:summary", eval[string](t, ctx, focused), "Tab reaches the table's disclosure")
	assert.True(t, eval[bool](t, ctx, `((d) => ((s, b) => s.top >= b.top && s.bottom <= b.bottom && s.right <= b.right)(
		d.querySelector("#canvas-table summary").getBoundingClientRect(), d.querySelector(".controls").getBoundingClientRect()))(`+frameDoc+`)`),
		"the toggle is in the playback bar, where it covers none of the canvas")
	press(t, ctx, kb.Enter)
	poll(t, ctx, frameDoc+`.getElementById("canvas-table").open`, 5*time.Second)
	poll(t, ctx, frameDoc+`.querySelectorAll("#canvas-table-tables table").length >= 3`, 30*time.Second)
	caption := func() string {
		return eval[string](t, ctx, frameDoc+`.querySelector("#canvas-table-tables caption").textContent`)
	}
	first := caption()
	assert.True(t, strings.HasPrefix(first, "Links at t = "), first)
	assert.Equal(t, "From", eval[string](t, ctx, frameDoc+`.querySelector("#canvas-table-tables thead th[scope=col]").textContent`))
	rows := eval[[]string](t, ctx, `Array.from(`+frameDoc+`.querySelectorAll("#canvas-table-tables table")[0].tBodies[0].rows).map((r) => r.cells[0].scope + " " + r.textContent)`)
	assert.Len(t, rows, 18, "incast's 18 links")
	assert.True(t, strings.HasPrefix(rows[0], "row "), rows[0])
	flows := eval[int](t, ctx, frameDoc+`.querySelectorAll("#canvas-table-tables table")[1].tBodies[0].rows.length`)
	assert.GreaterOrEqual(t, flows, 1, "the step's flows")
	assert.Contains(t, eval[string](t, ctx, frameDoc+`.getElementById("canvas-table-status").textContent`), "Tables updated: t = ")
	size := eval[float64](t, ctx, `parseFloat(getComputedStyle(`+frameDoc+`.querySelector("#canvas-table-tables td")).fontSize)`)
	assert.GreaterOrEqual(t, size, 18.0, "the tables are readable from the back in presenter mode")

	// Playing updates the tables; the focus stays on the disclosure.
	eval[bool](t, ctx, lessonCanvas+`.postMessage({fabriclab: "play"}, "*"); true`)
	poll(t, ctx, frameDoc+`.querySelector("#canvas-table-tables caption").textContent !== `+jsString(first), 30*time.Second)
	assert.Equal(t, "canvas:summary", eval[string](t, ctx, focused), "an update leaves the focus where it was")
	eval[bool](t, ctx, lessonCanvas+`.postMessage({fabriclab: "pause"}, "*"); true`)

	// ↓ ↑ on the canvas: the first node's tooltip, then the last link's; Esc closes it.
	eval[bool](t, ctx, frameDoc+`.querySelector("canvas").focus(); true`)
	focusIs(t, ctx, "canvas:canvas", "the canvas has the focus")
	status := frameDoc + `.getElementById("status").textContent`
	hash := eval[string](t, ctx, `location.hash`)
	press(t, ctx, kb.ArrowDown)
	poll(t, ctx, status+`.startsWith("switch · ")`, 10*time.Second)
	press(t, ctx, kb.ArrowUp, kb.ArrowUp)
	poll(t, ctx, status+`.includes("→") && `+status+`.includes("load ")`, 10*time.Second)
	assert.Equal(t, hash, eval[string](t, ctx, `location.hash`), "↓ ↑ on the canvas do not change the step")
	press(t, ctx, kb.Escape)
	poll(t, ctx, status+` === ""`, 10*time.Second)
	assert.False(t, eval[bool](t, ctx, `document.getElementById("overview").open`), "Esc closed the tooltip, not opened the overview")
	for _, m := range errors(console()) {
		t.Errorf("console: %s", m)
	}
}

// On a comparison step the canvas's tables cover both runs, each under its
// run's name (the compare block's labels), in its captions too.
func TestBrowserCanvasTableCompare(t *testing.T) {
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/incast.en.html#cost")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	eval[bool](t, ctx, frameDoc+`.querySelector("#canvas-table summary").click(); true`)
	poll(t, ctx, frameDoc+`.querySelectorAll("#canvas-table-tables h3").length === 2`, 90*time.Second)
	assert.Equal(t, []string{"PFC only", "PFC + DCQCN"}, eval[[]string](t, ctx, `Array.from(`+frameDoc+`.querySelectorAll("#canvas-table-tables h3")).map((h) => h.textContent)`))
	captions := eval[[]string](t, ctx, `Array.from(`+frameDoc+`.querySelectorAll("#canvas-table-tables caption")).map((c) => c.textContent)`)
	assert.Contains(t, captions[0], "PFC only: Links at t = ")
	var right bool
	for _, c := range captions {
		right = right || strings.HasPrefix(c, "PFC + DCQCN: Links at t = ")
	}
	assert.True(t, right, "the right run's links: %v", captions)
	for _, m := range errors(console()) {
		t.Errorf("console: %s", m)
	}
}
