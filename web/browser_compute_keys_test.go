package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// While perm-1024 computes (about ten seconds, in slices between frames) the
// canvas answers the keyboard on a 1024×768 projector: Space plays and
// pauses, . steps, a seek past what is computed waits there, and the
// progress bar moves (screenshots to $FABRICLAB_SCREENSHOTS: from the
// start-up, which builds perm-1024 in a turn of its own, to the end).
func TestBrowserKeysWhileComputing(t *testing.T) {
	ctx, base, console := ownBrowser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768)))
	openHooked(t, ctx, base, "scenario=perm-1024")
	shot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, name, png)
	}
	poll(t, ctx, `performance.getEntriesByName("fabriclab-ready").length > 0`, 90*time.Second)
	shot("keys-starting.png")
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	shot("keys-computing-first.png")
	require.False(t, eval[bool](t, ctx, `lastTime.done`), "perm-1024 still computes")
	progress := eval[float64](t, ctx, `lastTime.progress`)
	eval[bool](t, ctx, `document.querySelector("canvas").focus(), true`)

	press(t, ctx, " ")
	poll(t, ctx, `lastTime.playing`, 30*time.Second)
	press(t, ctx, " ")
	poll(t, ctx, `!lastTime.playing`, 30*time.Second)
	t0 := eval[float64](t, ctx, `lastTime.t_us`)
	press(t, ctx, ".")
	poll(t, ctx, fmt.Sprintf(`lastTime.t_us > %g || lastTime.done`, t0), 30*time.Second)
	if !eval[bool](t, ctx, `lastTime.done`) {
		// A seek past what is computed waits there (seek_us), then goes.
		eval[bool](t, ctx, `window.fabriclabCommand(JSON.stringify({fabriclab: "seek", t_us: lastTime.end_us * 4})), true`)
		poll(t, ctx, `lastTime.seek_us > 0 || lastTime.done`, 30*time.Second)
		poll(t, ctx, fmt.Sprintf(`lastTime.progress > %g || lastTime.done`, progress), 60*time.Second)
		shot("keys-computing-seek.png")
		assert.NotEmpty(t, eval[string](t, ctx, `document.getElementById('computing-bar').style.width`), "the page's bar shows the progress")
	}
	poll(t, ctx, `lastTime.done`, 3*time.Minute)
	shot("keys-computed.png")
	assert.Empty(t, errors(console()))
}
