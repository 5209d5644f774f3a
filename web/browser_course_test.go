package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// TestBrowserCourse opens every lesson in every language (found with
// lessons.Load, so new lessons join by themselves), walks its steps with →,
// and on each checks that the canvas loaded that step's scenario without an
// error, that every figure in the step's text is filled in, and that it
// starts to play. It does not wait for runs to end. No console errors.
func TestBrowserCourse(t *testing.T) {
	ls, err := lessons.Load(lessons.Content())
	require.NoError(t, err)
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)))
	for _, l := range ls {
		page := l.Slug + "." + l.Lang + ".html"
		began := time.Now()
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready`, 90*time.Second)
		// Keys go to the page (not a focused button, which Space would press).
		eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur(), true)`)
		from := 0 // the step that loaded the scenario on show: the first of a run of steps with the same one
		for i, s := range l.Steps {
			if i > 0 {
				press(t, ctx, kb.ArrowRight)
				if s.Scenario != l.Steps[i-1].Scenario {
					from = i
				}
			}
			where := fmt.Sprintf("%s#%s", page, s.ID)
			poll(t, ctx, fmt.Sprintf(`document.querySelector(".step.current").dataset.step === %q`, s.ID), 10*time.Second)
			if s.Scenario == "" {
				continue
			}
			want := l.Steps[from].ID
			poll(t, ctx, fmt.Sprintf(`fabriclabCanvas.step === %q || fabriclabCanvas.error !== ""`, want), 60*time.Second)
			assert.Empty(t, eval[string](t, ctx, "fabriclabCanvas.error"), "%s: the canvas loaded the step's scenario", where)
			if s.ScenarioName != "" {
				assert.Equal(t, s.ScenarioName, eval[string](t, ctx, "fabriclabCanvas.loaded"), where)
			}
			empty := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".step.current .lesson-figure"))
				.filter((f) => f.textContent.trim() === "" || f.textContent.includes("{{")).map((f) => f.dataset.path)`)
			assert.Empty(t, empty, "%s: every figure is filled", where)
			if !eval[bool](t, ctx, "fabriclabCanvas.playing") {
				press(t, ctx, " ")
				poll(t, ctx, `fabriclabCanvas.playing === true || fabriclabCanvas.ended > 0 || fabriclabCanvas.error !== ""`, 30*time.Second)
			}
			assert.Empty(t, eval[string](t, ctx, "fabriclabCanvas.error"), "%s: plays without an error", where)
			t.Logf("%s: %.1fs", where, time.Since(began).Seconds())
		}
		assert.Empty(t, errors(console()), "%s: the console shows no errors", page)
	}
}
