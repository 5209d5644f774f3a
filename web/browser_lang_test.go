package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With lang=zh the embed page's own words (its buttons, the canvas's
// accessible name, the key list) are Chinese too, not only the canvas.
func TestBrowserEmbedSpeaksChinese(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?lang=zh&scenario=incast")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	assert.Equal(t, "zh-Hans", eval[string](t, ctx, `document.documentElement.lang`))
	assert.Equal(t, "回到开头", eval[string](t, ctx, `document.getElementById("reset").getAttribute("aria-label")`))
	poll(t, ctx, `document.querySelector("canvas").getAttribute("aria-label") === "模拟画布：incast"`, 10*time.Second)
	poll(t, ctx, `document.getElementById("play").getAttribute("aria-label") === "播放"`, 10*time.Second)
	assert.Equal(t, "快捷键", eval[string](t, ctx, `document.getElementById("keys-title").textContent`))
	assert.Equal(t, "播放或暂停", eval[string](t, ctx, `document.querySelector("#keys dd").textContent`))
	assert.Equal(t, "关闭", eval[string](t, ctx, `document.getElementById("keys-close").textContent`))

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=incast")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	assert.Equal(t, "Reset", eval[string](t, ctx, `document.getElementById("reset").getAttribute("aria-label")`), "English without lang")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
