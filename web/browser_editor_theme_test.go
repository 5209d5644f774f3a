package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The editor, the Export menu and the playback bar follow theme=: light with
// theme=light, dark by default, as the canvas is.
func TestBrowserEditorTheme(t *testing.T) {
	ctx, base, _ := browser(t)
	bg := func(id string) string {
		return eval[string](t, ctx, `getComputedStyle(document.getElementById("`+id+`")).backgroundColor`)
	}
	for theme, want := range map[string][2]string{"light": {"rgb(246, 248, 250)", "rgb(255, 255, 255)"}, "dark": {"rgb(18, 23, 29)", "rgb(23, 29, 36)"}} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/embed.html?scenario=incast&set=traffic.senders=2&editor=1&theme="+theme)))
		poll(t, ctx, `document.getElementById("editor-state").textContent.includes("no problems")`, 60*time.Second)
		assert.Equal(t, want[0], bg("editor"), theme)
		assert.Equal(t, want[1], bg("share-menu"), theme)
		bar := eval[string](t, ctx, `getComputedStyle(document.querySelector(".controls")).backgroundColor`)
		assert.Equal(t, map[string]string{"light": "rgba(250, 250, 248, 0.9)", "dark": "rgba(15, 20, 26, 0.92)"}[theme], bar, "%s: the playback bar", theme)
		fg := eval[string](t, ctx, `getComputedStyle(document.getElementById("editor-text")).color`)
		assert.Equal(t, theme == "light", fg == "rgb(31, 35, 40)", "%s: the text is %s", theme, fg)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "editor-"+theme+"-1024.png", png)
	}
}
