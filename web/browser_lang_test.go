package web_test

import (
	"os"
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
	assert.Equal(t, "运行", eval[string](t, ctx, `document.getElementById("editor-run").textContent`), "the editor's words too")
	assert.Equal(t, "导出：图片或嵌入代码", eval[string](t, ctx, `document.getElementById("share").title`))
	assert.Equal(t, "正在加载模拟…", eval[string](t, ctx, `document.querySelector("#loading .box").firstChild.textContent`))
	assert.True(t, eval[bool](t, ctx, `fabriclabExplain("out of memory").startsWith("仿真内存不足")`), "the page's own messages when the canvas stops")

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=incast")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	assert.Equal(t, "Reset", eval[string](t, ctx, `document.getElementById("reset").getAttribute("aria-label")`), "English without lang")
	assert.Empty(t, errors(console()), "the console shows no errors")
}

// TestBrowserChineseShots writes the Chinese index, a Chinese lesson and the
// Chinese canvas page with its key list at 1024×768 to $FABRICLAB_SCREENSHOTS,
// for people to look at.
func TestBrowserChineseShots(t *testing.T) {
	t.Parallel()
	if os.Getenv("FABRICLAB_SCREENSHOTS") == "" {
		t.Skip("set FABRICLAB_SCREENSHOTS=DIR to write screenshots of the Chinese pages")
	}
	ctx, base, console := browser(t)
	shot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, name, png)
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768)))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.zh.html")))
	shot("zh-index-1024.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/incast.zh.html#lossy")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step !== ""`, 60*time.Second)
	shot("zh-lesson-1024.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("?")))
	poll(t, ctx, `!document.getElementById("keys").hidden`, 5*time.Second)
	shot("zh-lesson-keys-1024.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?lang=zh&editor=1&scenario=incast")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("?")))
	poll(t, ctx, `!document.getElementById("keys").hidden`, 5*time.Second)
	shot("zh-embed-keys-1024.png")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
