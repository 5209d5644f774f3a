package web_test

import (
	"image"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// TestBrowserPickFlow clicks a host on the canvas and steps with ] to the
// next flow: the picked flow's hosts are outlined in the pick's colour, and
// a click on empty space lets go.
func TestBrowserPickFlow(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?scenario=ecmp-collisions&t=150")))
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0 && document.getElementById('computing').hidden`, 90*time.Second)
	// The canvas's layout: the page less the 48 px playback bar, dark.
	require.Equal(t, 1.0, eval[float64](t, ctx, `window.devicePixelRatio`))
	w, h := eval[float64](t, ctx, `window.innerWidth`), eval[float64](t, ctx, `window.innerHeight`)
	sc, err := scenario.Load("ecmp-collisions", nil, nil)
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	tp := p.Topology
	L := render.NewLayout(tp, w, h-48, render.Options{Dark: true, Title: sc.Name})
	pick := func(img image.Image, ep int) bool { // the pick's outline left of endpoint ep's box
		nb := L.Nodes[tp.Endpoints[ep]]
		for dx := 0.0; dx <= 3*L.U; dx++ {
			r, g, b, _ := img.At(int(nb.X-dx), int(nb.Y+nb.H/2)).RGBA()
			if r>>8 > 0xe0 && g>>8 < 0x90 && b>>8 > 0xc0 { // #ff6ee8
				return true
			}
		}
		return false
	}
	shot := func(name string) image.Image {
		png := stillShot(t, ctx, "window", "")
		keep(t, name, png)
		return decode(t, png)
	}
	img := shot("embed-routing-none.png")
	require.False(t, pick(img, 5), "nothing picked yet")
	x, y := L.Nodes[tp.Endpoints[5]].Center()
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(x, y)))
	img = shot("embed-routing-host5.png")
	assert.True(t, pick(img, 5), "a click on host 5 picks its flow: the sender is outlined")
	assert.True(t, pick(img, 64+5), "and its receiver")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("]")))
	img = shot("embed-routing-next.png")
	assert.True(t, pick(img, 6), "] steps to the next flow")
	assert.False(t, pick(img, 5))
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseClickXY(L.Area.X+L.Area.W/2, L.Area.Y+L.Area.H*0.45)))
	img = shot("embed-routing-cleared.png")
	assert.False(t, pick(img, 6), "a click on empty space lets go")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
