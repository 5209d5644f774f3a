package web_test

import (
	"encoding/base64"
	"strconv"
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

// TestBrowserNCCLChannelsOneNode: on one DGX node the canvas shows the
// ring every channel runs through the 8 GPUs, numbered 1…8, the legend
// naming the channel of 8 as NCCL prints it: the built-in ring-allreduce-8
// at 1280×720 in both languages, and the lesson step nvlink-vs-ib#node in
// a lesson's pane at 1024×768, in both languages.
func TestBrowserNCCLChannelsOneNode(t *testing.T) {
	ctx, base, console := browser(t)
	legend := map[string][2]string{
		"en": {"NCCL ring, channel ", "/08: numbers are the GPU order"},
		"zh": {"NCCL 环，通道 ", "/08：数字为 GPU 顺序"},
	}
	// snapshot asks the canvas in window win for its picture.
	snapshot := func(win string, id int) string {
		t.Helper()
		eval[bool](t, ctx, `((w) => { const f = w.fabriclabEvent; w.fabriclabEvents = [];
			w.fabriclabEvent = (j) => { w.fabriclabEvents.push(JSON.parse(j)); f(j); }; return true; })(`+win+`)`)
		eval[bool](t, ctx, win+`.postMessage({fabriclab: "snapshot", id: `+strconv.Itoa(id)+`}, "*"); true`)
		poll(t, ctx, win+`.fabriclabEvents.some((e) => e.fabriclab === "snapshot" && e.id === `+strconv.Itoa(id)+`)`, 20*time.Second)
		return eval[string](t, ctx, win+`.fabriclabEvents.find((e) => e.fabriclab === "snapshot" && e.id === `+strconv.Itoa(id)+`).svg`)
	}
	check := func(svg, lang, where string) {
		t.Helper()
		l := legend[lang]
		i := strings.Index(svg, l[0])
		require.GreaterOrEqual(t, i, 0, "%s: the legend names the channel", where)
		assert.Contains(t, svg[i:min(len(svg), i+len(l[0])+2+len(l[1]))], l[1], where)
		for g := 1; g <= 8; g++ {
			assert.True(t, strings.Contains(svg, ">"+strconv.Itoa(g)+"</text>"), "%s: GPU %d's place", where, g-1)
		}
	}
	for i, lang := range []string{"en", "zh"} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720),
			chromedp.Navigate(base+"/embed.html?scenario=ring-allreduce-8&lang="+lang)))
		poll(t, ctx, `window.fabriclabFirstFrameMs > 0 || !document.getElementById('error').hidden`, 90*time.Second)
		require.Equal(t, "", eval[string](t, ctx, `document.getElementById('error-text').textContent`))
		check(snapshot("window", 10+i), lang, "ring-allreduce-8 "+lang)
		keep(t, "canvas-nccl-one-node-"+lang+"-1280x720.png", screenshot(t, ctx, "", "the ring through one node"))

		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/nvlink-vs-ib."+lang+".html#node")))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "node" && fabriclabCanvas.loaded !== ""`, 90*time.Second)
		poll(t, ctx, lessonCanvas+`.fabriclabFirstFrameMs > 0`, 60*time.Second)
		check(snapshot(lessonCanvas, 20+i), lang, "nvlink-vs-ib#node "+lang)
		keep(t, "canvas-nccl-one-node-lesson-"+lang+"-1024x768.png", screenshot(t, ctx, "", "the ring through one node in a lesson"))
	}
	assert.Empty(t, errors(console()))
}

// TestBrowserNCCLChannelsGroups: 32 dgx nodes, drawn in 4 groups at
// 1280×720, show channel 00 of NCCL's rings as the rails its hops between
// nodes take, the legend saying so, in both languages.
func TestBrowserNCCLChannelsGroups(t *testing.T) {
	ctx, base, console := browser(t)
	yaml := "name: rings-32\ntopology: {kind: dgx, nodes: 32, fabric: ib, link_gbps: 400}\ncollective: {op: allreduce, algo: ring, bytes: 64MiB}\nsim: {fidelity: flow}\n"
	for i, c := range []struct{ lang, legend string }{
		{"en", "NCCL ring, channel 00/16: the rails it takes between nodes"},
		{"zh", "NCCL 环，通道 00/16：节点之间所走的轨道"},
	} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720),
			chromedp.Navigate(base+"/embed.html?lang="+c.lang+"&yaml="+base64.RawURLEncoding.EncodeToString([]byte(yaml)))))
		poll(t, ctx, `window.fabriclabFirstFrameMs > 0 || !document.getElementById('error').hidden`, 90*time.Second)
		require.Equal(t, "", eval[string](t, ctx, `document.getElementById('error-text').textContent`))
		eval[bool](t, ctx, record)
		id := strconv.Itoa(30 + i)
		eval[bool](t, ctx, `postMessage({fabriclab: "snapshot", id: `+id+`}, "*"); true`)
		poll(t, ctx, `fabriclabEvents.some((e) => e.fabriclab === "snapshot" && e.id === `+id+`)`, 20*time.Second)
		svg := eval[string](t, ctx, `fabriclabEvents.find((e) => e.fabriclab === "snapshot" && e.id === `+id+`).svg`)
		assert.True(t, strings.Contains(svg, c.legend), "%s: the legend says %q", c.lang, c.legend)
		keep(t, "canvas-nccl-groups-"+c.lang+"-1280x720.png", screenshot(t, ctx, "", "the ring's rails between node groups"))
	}
	assert.Empty(t, errors(console()))
}
