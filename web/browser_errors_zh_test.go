package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a Chinese page the scenario's errors are Chinese, with their place and
// the keys and values they quote kept: over the canvas (a --set value out
// of range) and in the editor, which lists every problem in the order of
// the text.
func TestBrowserErrorsInChinese(t *testing.T) {
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/embed.html?lang=zh&scenario=incast&set=topology.hosts=0")))
	poll(t, ctx, `!document.getElementById("error").hidden`, 90*time.Second)
	assert.Equal(t, "--set topology.hosts=0: topology.hosts: 0 无效：星形拓扑至少需要 2 台主机（例如 hosts: 9）",
		eval[string](t, ctx, `document.getElementById("error-text").textContent`))
	keep(t, "error-zh.png", screenshot(t, ctx, "", ""))

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?lang=zh&scenario=incast&editor=1")))
	pollEditor(t, ctx, `document.getElementById("editor-text").value.includes("senders: 8")`, 90*time.Second)
	eval[bool](t, ctx, `(() => { const e = document.getElementById("editor-text");
		e.value = e.value.replace("senders: 8", "senderz: 8").replace("hosts: 9", "hosts: 0"); e.dispatchEvent(new Event("input")); return true; })()`)
	pollEditor(t, ctx, `document.querySelectorAll("#editor-problems li, #editor-problems > *").length >= 2`, 30*time.Second)
	problems := eval[[]string](t, ctx, `Array.from(document.getElementById("editor-problems").children, (e) => e.textContent)`)
	require.Len(t, problems, 2)
	assert.Equal(t, "第 6 行 topology.hosts: 0 无效：星形拓扑至少需要 2 台主机（例如 hosts: 9）", problems[0], "in the order of the text")
	assert.Contains(t, problems[1], "第 18 行 traffic.senderz: 未知的键；traffic 可用 pattern, senders")
	keep(t, "editor-zh.png", screenshot(t, ctx, "", ""))
	assert.Empty(t, errors(console()), "the console shows no errors")
}
