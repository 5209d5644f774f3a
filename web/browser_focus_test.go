package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inDialog is true while the focus is inside the open modal dialog #keys.
const inDialog = `(() => { const k = document.getElementById("keys"); return k.open && k.contains(document.activeElement) })()`

// Single-key shortcuts act only on the lesson text or the canvas, and the ?
// list's switch turns them off; the ? list is a modal dialog that keeps Tab
// inside; Next handing the focus on at the last step (WCAG 2.1.4, 2.4.3).
func TestBrowserLessonShortcutsAndFocus(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/incast.en.html"), chromedp.WaitReady("body")))
	presenter := `document.body.classList.contains("presenter")`

	// On a step link, P does nothing; on the page it toggles presenter mode.
	eval[bool](t, ctx, `document.querySelector(".stepper ol a").focus(); true`)
	press(t, ctx, "p")
	animationFrames(t, ctx, "window", 3)
	assert.False(t, eval[bool](t, ctx, presenter), "P on a step link")
	eval[bool](t, ctx, `document.activeElement.blur(); true`)
	press(t, ctx, "p")
	poll(t, ctx, presenter, 5*time.Second)
	press(t, ctx, "p")
	poll(t, ctx, "!"+presenter, 5*time.Second)

	// The ? list is modal: Tab goes round inside it; Esc closes it.
	eval[bool](t, ctx, `((b) => { b.focus(); b.click(); return true })(document.getElementById("keys-button"))`)
	poll(t, ctx, inDialog, 5*time.Second)
	for range 4 {
		press(t, ctx, kb.Tab)
		assert.True(t, eval[bool](t, ctx, inDialog), "Tab stays in the dialog")
	}
	// Its switch turns single keys off, for the canvas too (one store).
	eval[bool](t, ctx, `document.getElementById("keys-single").click(); true`)
	assert.Equal(t, "off", eval[string](t, ctx, `localStorage.getItem("fabriclab.keys.single")`))
	press(t, ctx, kb.Escape)
	poll(t, ctx, `!document.getElementById("keys").open`, 5*time.Second)
	focusIs(t, ctx, "keys-button", "Esc gives the focus back")
	eval[bool](t, ctx, `document.activeElement.blur(); true`)
	press(t, ctx, "p")
	animationFrames(t, ctx, "window", 3)
	assert.False(t, eval[bool](t, ctx, presenter), "P with single keys turned off")
	press(t, ctx, kb.ArrowRight)
	poll(t, ctx, `document.getElementById("count").textContent.startsWith("2 /")`, 5*time.Second) // arrows still work
	eval[bool](t, ctx, `localStorage.removeItem("fabriclab.keys.single"); true`)

	// Next disables itself on the last step: the focus goes to Back, not the page.
	n := eval[int](t, ctx, `JSON.parse(document.getElementById("steps").textContent).length`)
	eval[bool](t, ctx, fmt.Sprintf(`((b) => { b.focus(); for (let i = 0; i < %d; i++) b.click(); return true })(document.getElementById("next"))`, n))
	poll(t, ctx, `document.getElementById("next").disabled`, 5*time.Second)
	focusIs(t, ctx, "prev", "the focus moves to Back")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// The embed: the ? list is modal; the Export menu closes when the focus
// leaves it; nothing under the error overlay takes the focus.
func TestBrowserEmbedFocus(t *testing.T) {
	t.Parallel()
	ctx, base, _ := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=incast")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	assert.False(t, eval[bool](t, ctx, `document.querySelector(".controls").inert`), "the bar works once loaded")

	eval[bool](t, ctx, `document.getElementById("help").click(); true`)
	poll(t, ctx, inDialog, 5*time.Second)
	for range 3 {
		press(t, ctx, kb.Tab)
		assert.True(t, eval[bool](t, ctx, inDialog), "Tab stays in the dialog")
	}
	press(t, ctx, kb.Escape)
	poll(t, ctx, `!document.getElementById("keys").open`, 5*time.Second)

	eval[bool](t, ctx, `document.getElementById("share").click(); true`)
	poll(t, ctx, `!document.getElementById("share-menu").hidden && document.activeElement.id === "share-png"`, 5*time.Second)
	for range 3 { // PNG, SVG, embed code, then out
		press(t, ctx, kb.Tab)
	}
	poll(t, ctx, `document.getElementById("share-menu").hidden`, 5*time.Second)
	assert.Equal(t, "false", eval[string](t, ctx, `document.getElementById("share").getAttribute("aria-expanded")`))

	// An error overlay covers the bar: it is inert. (An unknown scenario is a
	// notice now, over incast: a run too big for a browser stops the canvas.)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=perm-1024&set=topology.k=32")))
	poll(t, ctx, `!document.getElementById("error").hidden`, 90*time.Second)
	assert.True(t, eval[bool](t, ctx, `document.querySelector(".controls").inert`), "the bar under the error is inert")
}
