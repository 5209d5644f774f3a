package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The canvas as a table lists a down link first, with its state in a Fault
// column, in English and Chinese (link-down: leaf0–spine0 down from 20 µs).
func TestBrowserCanvasTableFaults(t *testing.T) {
	ctx, base, console := browser(t)
	for _, c := range []struct{ lang, fault, down string }{{"en", "Fault", "down: carries nothing (faults)"}, {"zh", "故障", "链路已断开：不传任何数据"}} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/embed.html?scenario=link-down&lang="+c.lang)))
		poll(t, ctx, `document.getElementById("summary").textContent !== ""`, 90*time.Second)
		eval[bool](t, ctx, `document.getElementById("canvas-table").open = true; window.postMessage({fabriclab: "seek", t_us: 100}, "*"); true`)
		poll(t, ctx, `document.querySelectorAll("#canvas-table-tables table").length >= 2 && document.querySelector("#canvas-table-tables thead").textContent.includes(`+jsString(c.fault)+`)`, 60*time.Second)
		heads := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#canvas-table-tables table")[0].tHead.rows[0].cells).map((c) => c.textContent)`)
		assert.Equal(t, c.fault, heads[len(heads)-1], c.lang)
		rows := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll("#canvas-table-tables table")[0].tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent))`)
		require.GreaterOrEqual(t, len(rows), 3)
		assert.Equal(t, c.down, rows[0][len(rows[0])-1], "%s: the down link first: %v", c.lang, rows[0])
		assert.Equal(t, c.down, rows[1][len(rows[1])-1], "%s: its other direction", c.lang)
		assert.NotEqual(t, c.down, rows[2][len(rows[2])-1], c.lang)
	}
	assert.Empty(t, errors(console()))
}
