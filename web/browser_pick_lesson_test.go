package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// [ and ] on a lesson page (the text has the focus) reach the canvas, and
// the focus stays on the page; both ? lists name them.
func TestBrowserLessonPicksFlows(t *testing.T) {
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/incast.en.html")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.loaded !== ""`, 90*time.Second)
	poll(t, ctx, `document.getElementById('canvas').contentWindow.fabriclabFirstFrameMs > 0`, 30*time.Second)
	picks := `document.getElementById('canvas').contentWindow.fabriclabPicks`
	require.Equal(t, 0.0, eval[float64](t, ctx, picks))
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#next")))
	press(t, ctx, "]")
	poll(t, ctx, picks+` === 1`, 5*time.Second)
	press(t, ctx, "[")
	poll(t, ctx, picks+` === 2`, 5*time.Second)
	assert.Equal(t, "next", eval[string](t, ctx, focused), "the page keeps the focus")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("keys").textContent`), "next flow", "the lesson's ? list")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById('canvas').contentDocument.getElementById("keys").textContent`), "next flow", "the canvas's ? list")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
