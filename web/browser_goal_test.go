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

// TestBrowserGoal: on incast#lossy, in each language, the goal box stays
// quiet until the learner moves the knob; the buffer knob at the goal's
// answer shows the found line, one position below says how close it is.
func TestBrowserGoal(t *testing.T) {
	ctx, base, console := browser(t)
	ls, err := shippedLessons()
	require.NoError(t, err)
	for _, lang := range []string{"en", "zh"} {
		l := lessons.Find(ls, "incast", lang)
		require.NotNil(t, l)
		var g lessons.Goal
		for _, s := range l.Steps {
			if s.ID == "lossy" {
				require.Len(t, s.Goals, 1)
				g = s.Goals[0]
			}
		}
		require.Equal(t, len(g.Positions)-1, g.Answer, "the answer is the buffer knob's last position")
		answer := g.Positions[g.Answer].Text
		found := strings.Replace(g.Words.FoundIt, "{}", strings.Replace(g.Found, "{}", answer, 1), 1)

		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/incast."+lang+".html#lossy")))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "lossy"`, 90*time.Second)
		poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1 && !fabriclabKnobs.pending`, 60*time.Second)
		// The knob and its goal follow the step's quiz: they show once it is answered.
		eval[bool](t, ctx, `(() => { document.querySelector('.step[data-step="lossy"] .lesson-quiz-show').click(); return true; })()`)
		goal := `document.querySelector('.step[data-step="lossy"] .lesson-goal')`
		poll(t, ctx, goal+`.offsetParent !== null`, 10*time.Second)
		assert.Equal(t, "", eval[string](t, ctx, goal+`.querySelector(".lesson-goal-status").textContent`), "the step's own run is not an attempt")
		eval[bool](t, ctx, `(() => { `+goal+`.scrollIntoView({block: "center"}); return true; })()`)
		goalShot(t, ctx, fmt.Sprintf("goal-%s-start.png", lang))

		slider := `.step[data-step="lossy"] .lesson-knob input[type=range]`
		require.NoError(t, chromedp.Do(ctx, chromedp.Focus(slider)))
		press(t, ctx, kb.End)
		poll(t, ctx, goal+`.dataset.result === "found"`, 60*time.Second)
		assert.Equal(t, found, eval[string](t, ctx, goal+`.querySelector(".lesson-goal-status").textContent`))
		eval[bool](t, ctx, `(() => { `+goal+`.scrollIntoView({block: "center"}); return true; })()`)
		goalShot(t, ctx, fmt.Sprintf("goal-%s-found.png", lang))

		press(t, ctx, kb.ArrowLeft)
		poll(t, ctx, goal+`.dataset.result === "not-yet"`, 60*time.Second)
		status := eval[string](t, ctx, goal+`.querySelector(".lesson-goal-status").textContent`)
		below := g.Positions[g.Answer-1].Text
		assert.Contains(t, status, below, "the line names the setting")
		assert.Equal(t, strings.NewReplacer("{value}", below, "{measure}", strings.Replace(g.Measure, "{}", eval[string](t, ctx, `fabriclabKnobs.last.values["totals.drops"]`), 1)).Replace(g.Words.NotYet), status)
		eval[bool](t, ctx, `(() => { `+goal+`.scrollIntoView({block: "center"}); return true; })()`)
		goalShot(t, ctx, fmt.Sprintf("goal-%s-notyet.png", lang))
	}
	assert.Empty(t, errors(console()))
}

// goalShot keeps a screenshot of the page under $FABRICLAB_SCREENSHOTS.
func goalShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, name, png)
}
