package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// [ and ] on a lesson page, with the focus on the text, pick flows on the
// canvas (the routing view's pick colour appears, and goes again), the
// focus stays on the page, and both ? lists name the keys.
func TestBrowserLessonPicksFlows(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/incast.en.html#dcqcn")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "dcqcn"`, 90*time.Second)
	poll(t, ctx, `document.getElementById('canvas').contentWindow.fabriclabFirstFrameMs > 0`, 30*time.Second)
	// The page has the focus (single-key shortcuts act there, not on a button: WCAG 2.1.4).
	eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur && document.activeElement.blur(), true)`)
	// picked counts the pixels in the pick's colour (light or dark theme)
	picked := func(name string) int {
		png := stillShot(t, ctx, lessonCanvas, "")
		keep(t, name, png)
		img := decode(t, png)
		near := func(a uint32, b int) bool { d := int(a>>8) - b; return d > -28 && d < 28 }
		n := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if near(r, 0xff) && near(g, 0x6e) && near(b, 0xe8) || near(r, 0xb0) && near(g, 0x2c) && near(b, 0x9e) {
					n++
				}
			}
		}
		return n
	}
	before := picked("lesson-pick-none.png")
	press(t, ctx, "]")
	first := picked("lesson-pick-next.png")
	assert.Greater(t, first, before+40, "] on the page picks a flow on the canvas (%d pick-coloured pixels before)", before)
	assert.Equal(t, "body", eval[string](t, ctx, focused), "the page keeps the focus")
	press(t, ctx, "[") // from the first flow to the last
	assert.Greater(t, picked("lesson-pick-prev.png"), before+40, "[ picks another flow")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("keys").textContent`), "next flow", "the lesson's ? list")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById('canvas').contentDocument.getElementById("keys").textContent`), "next flow", "the canvas's ? list")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
