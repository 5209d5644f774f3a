package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// presenting opens page (after base) at w×h in presenter mode, and waits for the lesson's script.
func presenting(t *testing.T, ctx context.Context, base, page string, w, h int64) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(base+"/index.html")))
	eval[bool](t, ctx, `localStorage.setItem("fabriclab.presenter", "1"), true`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)))
	poll(t, ctx, `document.body.classList.contains("presenter") && document.querySelector(".step.current") !== null`, 30*time.Second)
}

// stepScreens is how many screens the current step's text takes in the
// text pane: 1 if it fits, 2 if one PageDown reaches its end, and so on.
const stepScreens = `(() => {
  const text = document.getElementById("text"), bar = text.querySelector(".stepper").getBoundingClientRect().height;
  const page = Math.max(80, text.clientHeight - bar - 48); // as presenter.js scrolls
  const over = text.scrollHeight - text.clientHeight;
  return over <= 2 ? 1 : 1 + Math.ceil((over - 2) / page);
})()`

// Every step of every lesson, in both languages, fits in two screens in
// presenter mode at 1024×768 (what does not moves into a "more" disclosure).
func TestBrowserPresenterStepsFit(t *testing.T) {
	ls, err := shippedLessons()
	require.NoError(t, err)
	ctx, base, console := browser(t)
	for _, l := range ls {
		page := l.Slug + "." + l.Lang + ".html"
		presenting(t, ctx, base, page, 1024, 768)
		for i, s := range l.Steps {
			eval[bool](t, ctx, fmt.Sprintf(`location.hash = %q, true`, "#"+s.ID))
			poll(t, ctx, fmt.Sprintf(`document.querySelectorAll(".step")[%d].classList.contains("current")`, i), 5*time.Second)
			n := eval[int](t, ctx, stepScreens)
			h := eval[float64](t, ctx, `document.getElementById("text").scrollHeight`)
			t.Logf("%s#%s: %d screens (%.0f px)", page, s.ID, n, h)
			assert.LessOrEqual(t, n, 2, "%s#%s: the step takes %d screens in presenter mode at 1024×768: move some of it into a ```more block", page, s.ID, n)
		}
	}
	assert.Empty(t, errors(console()), "the console shows no errors")
}
