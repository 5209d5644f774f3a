package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scaling lesson's price knob, by keyboard on a 1024×768 projector: one
// arrow key re-runs the cost step and its cost figures become what `fabriclab
// run --set training.gpu_hour_price=…` gives. One node (from the address)
// keeps the runs short.
func TestBrowserPriceKnob(t *testing.T) {
	ctx, base, console := browser(t)
	const spec = "training.cost.per_1b_samples.cost | 0"
	for _, tc := range []struct {
		lang, key, price string // the key moves the price from 2 to price
	}{{"en", kb.ArrowRight, "2.5"}, {"zh", kb.End, "12"}} {
		figure := `document.querySelector('.step[data-step="cost"] .lesson-figure[data-figure="` + spec + `"]')`
		slider := `.step[data-step="cost"] .lesson-knob[data-key="training.gpu_hour_price"] input`

		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768),
			chromedp.Navigate(base+"/scaling."+tc.lang+".html?topology.nodes=1#cost")))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "cost"`, 90*time.Second)
		poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1 && !fabriclabKnobs.pending`, 90*time.Second)
		// the scenario the page gives the canvas (Load would build every lesson)
		yaml := eval[string](t, ctx, `JSON.parse(document.getElementById("steps").textContent).find(s => s.id === "cost").scenario`)
		require.Contains(t, yaml, "gpu_hour_price: 2", tc.lang)
		at2 := []string{"topology.nodes=1", "training.gpu_hour_price=2"}
		assert.Equal(t, at2, eval[[]string](t, ctx, `fabriclabKnobs.last.set`), tc.lang)
		before := eval[string](t, ctx, figure+`.textContent`)
		assert.Equal(t, fabriclabRun(t, yaml, at2, spec), before, "%s: one node at 2 USD", tc.lang)

		eval[bool](t, ctx, `(fabriclabCanvas.loaded = "(not loaded again)", true)`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Focus(slider)))
		press(t, ctx, tc.key)
		poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending`, 90*time.Second)
		moved := []string{"topology.nodes=1", "training.gpu_hour_price=" + tc.price}
		assert.Equal(t, moved, eval[[]string](t, ctx, `fabriclabKnobs.last.set`), tc.lang)
		after := eval[string](t, ctx, figure+`.textContent`)
		assert.NotEqual(t, before, after, "%s: the price moved the cost", tc.lang)
		assert.Equal(t, fabriclabRun(t, yaml, moved, spec), after, "%s: the figure is fabriclab run's", tc.lang)
		assert.Equal(t, "(not loaded again)", eval[string](t, ctx, `fabriclabCanvas.loaded`), "%s: a price prices the run on screen, it does not run it again", tc.lang)
		assert.Contains(t, eval[string](t, ctx, `location.search`), "training.gpu_hour_price="+tc.price, tc.lang)
		// The knobs, then the figures list in view, for the screenshots.
		eval[bool](t, ctx, `(document.querySelector('.step[data-step="cost"] .lesson-knobs').scrollIntoView({block: "center"}), true)`)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "price-knob-"+tc.lang+"-knobs.png", png)
		eval[bool](t, ctx, `(`+figure+`.scrollIntoView({block: "center"}), true)`)
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "price-knob-"+tc.lang+".png", png)
	}
	var msgs []string
	for _, m := range errors(console()) {
		if !strings.Contains(m, "favicon") {
			msgs = append(msgs, m)
		}
	}
	assert.Empty(t, msgs, "the console shows no errors")
}
