package web_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserNCCLChannels: in the browser, where the worker computes the
// run and the canvas plays its frames (the routes travel in framewire), the
// canvas shows NCCL's ring channel 00 on 2 dgx nodes: the legend names it,
// and the badges number node 0's GPUs 1…8.
func TestBrowserNCCLChannels(t *testing.T) {
	ctx, base, console := browser(t)
	yaml := "name: rings\ntopology: {kind: dgx, nodes: 2}\ncollective: {op: allreduce, algo: ring, bytes: 256MiB}\nsim: {fidelity: flow}\n"
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(base+"/embed.html?yaml="+base64.RawURLEncoding.EncodeToString([]byte(yaml)))))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0 || !document.getElementById('error').hidden`, 90*time.Second)
	require.Equal(t, "", eval[string](t, ctx, `document.getElementById('error-text').textContent`))
	eval[bool](t, ctx, record)
	eval[bool](t, ctx, `postMessage({fabriclab: "snapshot", id: 7}, "*"); true`)
	poll(t, ctx, `fabriclabEvents.some((e) => e.fabriclab === "snapshot" && e.id === 7)`, 10*time.Second)
	svg := eval[string](t, ctx, `fabriclabEvents.find((e) => e.fabriclab === "snapshot" && e.id === 7).svg`)
	assert.True(t, strings.Contains(svg, "NCCL ring, channel 00/16: numbers are the GPU order"), "the legend names the channel")
	for _, n := range []string{">1</text>", ">8</text>"} {
		assert.True(t, strings.Contains(svg, n), "the GPUs' places: %s", n)
	}
	keep(t, "canvas-nccl-ring-1280x800.png", screenshot(t, ctx, "", "the ring's channel on the canvas"))
	assert.Empty(t, errors(console()))
}
