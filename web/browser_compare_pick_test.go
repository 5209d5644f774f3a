package web_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
	"fabriclab/sim"
	"fabriclab/sim/scenario"
)

// In compare mode a click on a host of one pane picks a flow there: both
// panes draw its path (the routing view's pick colour appears in each half).
func TestBrowserComparePick(t *testing.T) {
	ctx, base, console := browser(t)
	small := []string{"topology.leaves=2", "topology.hosts_per_leaf=4", "topology.spines=4", "traffic.bytes=256KiB"}
	q := url.Values{"compare": {"1"}, "left": {"permutation"}, "left.label": {"ECMP"}, "right": {"permutation"}, "right.label": {"Adaptive"},
		"left.set": small, "right.set": append(small[:len(small):len(small)], "network.routing=adaptive"), "t": {"3"}}
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/embed.html?"+q.Encode())))
	poll(t, ctx, `document.getElementById("summary").textContent.includes("finished") || !document.getElementById("error").hidden`, 3*time.Minute)
	require.True(t, eval[bool](t, ctx, `document.getElementById("error").hidden`), "the comparison runs")

	// Where the right pane draws host 2, as the canvas lays it out (1280×672 above the bar).
	sc, err := scenario.Load("permutation", nil, append(small, "network.routing=adaptive"))
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	split := render.SplitCanvas(1280, 672, false)
	pane := split.Panes[1]
	L := render.NewLayout(st.Model.Topology(), pane.W, pane.H, render.Options{Dark: true, Title: "Adaptive", Charts: render.PaneCharts(pane, false)})
	x, y := L.Nodes[L.Topo.Endpoints[2]].Center()

	// picked counts the pick-coloured pixels in each half.
	picked := func(name string) [2]int {
		png := stillShot(t, ctx, "window", "")
		keep(t, name, png)
		img := decode(t, png)
		near := func(a uint32, b int) bool { d := int(a>>8) - b; return d > -28 && d < 28 }
		var n [2]int
		b := img.Bounds()
		for py := b.Min.Y; py < b.Max.Y; py++ {
			for px := b.Min.X; px < b.Max.X; px++ {
				r, g, bl, _ := img.At(px, py).RGBA()
				if near(r, 0xff) && near(g, 0x6e) && near(bl, 0xe8) {
					n[min(1, px*2/b.Dx())]++
				}
			}
		}
		return n
	}
	before := picked("compare-pick-none.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(pane.X+x, pane.Y+y)))
	after := picked("compare-pick-host.png")
	assert.Greater(t, after[1], before[1]+40, "the right pane draws the picked flow's path (%v before, %v after)", before, after)
	assert.Greater(t, after[0], before[0]+40, "so does the left, for the same flow (%v before, %v after)", before, after)
	assert.Empty(t, errors(console()), "the console shows no errors")
}
