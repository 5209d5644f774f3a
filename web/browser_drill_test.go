package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// TestBrowserDrill answers incast#drill with the keyboard alone, in each
// language, in presenter mode at 1024×768: the canvas runs the faulty
// scenario under the hidden name; a wrong fix is marked and says why it does
// not help, and the canvas stays as it is; the right one shows the faulty
// run beside the fixed one, panes named by run, with their difference under
// the explanation.
func TestBrowserDrill(t *testing.T) {
	ctx, base, console := browser(t)
	ls, err := shippedLessons()
	require.NoError(t, err)
	for _, lang := range []string{"en", "zh"} {
		l := lessons.Find(ls, "incast", lang)
		require.NotNil(t, l)
		var step lessons.Step
		for _, s := range l.Steps {
			if s.ID == "drill" {
				step = s
			}
		}
		require.NotNil(t, step.Drill, "incast#drill has a drill")
		sec := `document.querySelector('.step[data-step="drill"]')`
		form := sec + `.querySelector("form.lesson-drill")`

		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/incast."+lang+".html#drill")))
		eval[bool](t, ctx, `localStorage.clear(); true`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "drill" && fabriclabCanvas.summary !== ""`, 90*time.Second)
		if !eval[bool](t, ctx, `document.body.classList.contains("presenter")`) {
			press(t, ctx, "p")
		}
		poll(t, ctx, `document.body.classList.contains("presenter")`, 5*time.Second)
		assert.Equal(t, lessons.HiddenName, eval[string](t, ctx, `fabriclabCanvas.loaded`), "the canvas runs the hidden name")
		assert.False(t, eval[bool](t, ctx, `fabriclabCanvas.compare`))
		// Nothing the learner sees names the scenario: not the step, not the canvas's header line.
		for _, where := range []string{sec + `.innerText`, `fabriclabCanvas.summary`} {
			assert.NotContains(t, eval[string](t, ctx, where), "incast-lossy", where)
		}
		drillShot(t, ctx, form, fmt.Sprintf("drill-%s-open.png", lang))

		// The keyboard: the first option (a wrong fix), Space picks it, Enter checks.
		require.NoError(t, chromedp.Do(ctx, chromedp.Focus(`.step[data-step="drill"] form.lesson-drill input[value="0"]`)))
		press(t, ctx, " ", kb.Enter)
		poll(t, ctx, form+`.dataset.result === "wrong"`, 5*time.Second)
		hint := eval[string](t, ctx, form+`.querySelector(".lesson-quiz-hint").textContent`)
		why := eval[string](t, ctx, form+`.querySelector('input[value="0"]').dataset.why`)
		require.NotEmpty(t, why)
		assert.Contains(t, hint, strings.TrimRight(why, "。."), "a wrong fix says why it does not help")
		assert.True(t, eval[bool](t, ctx, form+`.querySelector(".lesson-quiz-explain").hidden`), "the explanation waits")
		assert.False(t, eval[bool](t, ctx, `fabriclabCanvas.compare`), "the fixed run waits for the right answer")
		drillShot(t, ctx, form, fmt.Sprintf("drill-%s-wrong.png", lang))

		// ↓ moves to the next option, the answer; Enter checks it.
		answer := eval[int](t, ctx, form+`.dataset.answer * 1`)
		require.Equal(t, 1, answer, "the test walks from option 0 to the answer with one ↓")
		press(t, ctx, kb.ArrowDown, kb.Enter)
		poll(t, ctx, form+`.dataset.result === "right"`, 5*time.Second)
		poll(t, ctx, `fabriclabCanvas.compare && fabriclabCanvas.difference !== ""`, 120*time.Second)
		assert.Equal(t, step.Drill.Left.Label+" vs "+step.Drill.Right.Label, eval[string](t, ctx, `fabriclabCanvas.loaded`), "the panes are named by run")
		assert.Contains(t, eval[string](t, ctx, sec+`.querySelector(".lesson-drill-beside").textContent`), eval[string](t, ctx, `fabriclabCanvas.difference`))
		assert.False(t, eval[bool](t, ctx, sec+`.querySelector(".lesson-after-quiz").hidden`), "the text after the drill shows")
		drillShot(t, ctx, form+`.querySelector(".lesson-drill-beside")`, fmt.Sprintf("drill-%s-right.png", lang))
	}
	assert.Empty(t, errors(console()))
}

// drillShot scrolls el into view and keeps a screenshot of the page under $FABRICLAB_SCREENSHOTS.
func drillShot(t *testing.T, ctx context.Context, el, name string) {
	t.Helper()
	eval[bool](t, ctx, `(() => { `+el+`.scrollIntoView({block: "center"}); return true; })()`)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, name, png)
}
