package web_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// TestBrowserCourse opens every lesson in every language (found with
// lessons.Load, so new lessons join by themselves), walks its steps with →
// as a learner does, and on each checks that the canvas loaded that step's
// scenario without an error, that every figure in the step's text is filled
// in, and presses play. In a step with a quiz it checks that nothing gives
// the answer away before it is answered (the explanation, the text after the
// quiz, the knob status lines the canvas fills in: checkQuiz), answers wrong
// then right, and checks that all of it shows. A step without a quiz is
// finished once its canvas reaches the end of the run (the walk seeks there)
// or, for a recap, once shown: the walk ends with every step finished, and
// the index says so. No console errors. Each page gets its own tab (and so
// its own time budget), beside the other browser tests.
func TestBrowserCourse(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: the full suite (make test) runs it")
	}
	t.Parallel()
	ls, err := shippedLessons()
	require.NoError(t, err)
	for _, l := range ls {
		t.Run(l.Slug+"."+l.Lang, func(t *testing.T) {
			t.Parallel()
			// The walk lets every run reach its end: a big lesson's runs take minutes beside the others.
			ctx, base, console := openBrowserFor(t, false, "", 30*time.Minute)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)))
			walkLesson(t, ctx, base, l)
			assert.Empty(t, errors(console()), "%s.%s: the console shows no errors", l.Slug, l.Lang)
		})
	}
}

// stepState is what TestBrowserCourse reads from the page after each step.
type stepState struct {
	Error, Loaded string
	Figures       int
	Empty         []string // figures without a value
	Playing       bool
}

const stepStateJS = `(() => {
  const figs = Array.from(document.querySelectorAll(".step.current .lesson-figure"));
  return { Error: fabriclabCanvas.error, Loaded: fabriclabCanvas.loaded, Figures: figs.length, Playing: fabriclabCanvas.playing,
    Empty: figs.filter((f) => f.textContent.trim() === "" || f.textContent.includes("{{")).map((f) => f.dataset.path) };
})()`

func walkLesson(t *testing.T, ctx context.Context, base string, l *lessons.Lesson) {
	page := l.Slug + "." + l.Lang + ".html"
	began := time.Now()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready`, 90*time.Second)
	// Keys go to the page (not a focused button, which Space would press).
	eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur(), true)`)
	loads := loadingSteps(l.Steps)
	for i, s := range l.Steps {
		if i > 0 {
			press(t, ctx, kb.ArrowRight)
		}
		from := loads[i]
		where := fmt.Sprintf("%s#%s", page, s.ID)
		if s.Scenario == "" {
			poll(t, ctx, fmt.Sprintf(`document.querySelector(".step.current").dataset.step === %q`, s.ID), 10*time.Second)
			finishStep(t, ctx, s, where)
			continue
		}
		poll(t, ctx, fmt.Sprintf(`document.querySelector(".step.current").dataset.step === %q && (fabriclabCanvas.step === %q || fabriclabCanvas.error !== "")`,
			s.ID, l.Steps[from].ID), 120*time.Second)
		st := eval[stepState](t, ctx, stepStateJS)
		assert.Empty(t, st.Error, "%s: the canvas loaded the step's scenario", where)
		if s.ScenarioName != "" {
			assert.Equal(t, s.ScenarioName, st.Loaded, where)
		}
		assert.Equal(t, strings.Count(string(s.HTML), `class="lesson-figure"`), st.Figures, "%s: the page shows the step's figures", where)
		assert.Empty(t, st.Empty, "%s: every figure is filled", where)
		if !st.Playing {
			press(t, ctx, " ")
		}
		finishStep(t, ctx, s, where)
		if os.Getenv("FABRICLAB_SCREENSHOTS") != "" { // to look at: a moment of play
			animationFrames(t, ctx, lessonCanvas, 90)
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			keep(t, fmt.Sprintf("course-%s-%s-%02d-%s.png", l.Slug, l.Lang, i+1, s.ID), png)
		}
	}
	// The last play started without an error (a big run may still be computing: not waited for).
	caughtUp(t, ctx, lessonCanvas)       // an error would have come by now
	animationFrames(t, ctx, "window", 3) // and reached the page
	assert.Empty(t, eval[string](t, ctx, "fabriclabCanvas.error"), "%s: plays without an error", page)
	ids := make([]string, len(l.Steps))
	for i, s := range l.Steps {
		ids[i] = s.ID
	}
	assert.ElementsMatch(t, ids, eval[[]string](t, ctx, "fabriclabProgress.finished()"), "%s: walked through, every step is finished", page)
	index := "index.html"
	if l.Lang != "en" {
		index = "index." + l.Lang + ".html"
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+index)))
	assert.True(t, eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('.card[data-slug=%q]').classList.contains("finished")`, l.Slug)),
		"%s: the index shows the lesson finished", page)
	t.Logf("%s: %d steps in %.1fs", page, len(l.Steps), time.Since(began).Seconds())
}

// finishStep does what finishes step s as a learner would: answers its quiz
// (checking on the way that nothing gave the answer away), or lets its canvas
// reach the end of the run (seeking there), or, for a recap, nothing; then
// waits until the page counts the step finished.
func finishStep(t *testing.T, ctx context.Context, s lessons.Step, where string) {
	t.Helper()
	if strings.Contains(string(s.HTML), `class="lesson-quiz"`) {
		checkQuiz(t, ctx, where)
	} else if !eval[bool](t, ctx, fmt.Sprintf(`fabriclabProgress.finished().includes(%q)`, s.ID)) {
		eval[bool](t, ctx, `(document.getElementById("canvas").contentWindow.postMessage({ fabriclab: "seek", t_us: 1e8 }, "*"), true)`)
	}
	poll(t, ctx, fmt.Sprintf(`fabriclabProgress.finished().includes(%q)`, s.ID), 10*time.Minute) // a 1,024-GPU run computes for minutes beside the other pages
}

// quizView is what checkQuiz reads from the current step: the texts that
// must wait for the answer, sorted by whether the step's visible text
// (innerText) shows them, and the quiz's state.
type quizView struct {
	Shown, Hidden       []string
	Result, Hint, Right string
	Marked              string // the visible mark on the answer's option
}

const quizViewJS = `(() => {
  const sec = document.querySelector(".step.current"), form = sec.querySelector("form.lesson-quiz");
  const norm = (s) => s.replace(/\s+/g, " ").trim();
  const seen = norm(sec.innerText);
  const items = [["explain", form.querySelector(".lesson-quiz-explain p:last-child").textContent], ["verdict", form.dataset.right]];
  sec.querySelectorAll(".lesson-knobs-status, .lesson-compare-diff").forEach((p) => items.push(["status", p.textContent]));
  // The text after the quiz, as it reads: without the branches of a conditional sentence that do
  // not hold (hidden), and without what waits in a closed "more" disclosure for the learner to open.
  const reads = (p) => { const c = p.cloneNode(true); c.querySelectorAll(".lesson-when-branch[hidden]").forEach((b) => b.remove()); return c.textContent; };
  sec.querySelectorAll(".lesson-after-quiz p, .lesson-after-quiz li").forEach((p) => {
    if (!p.closest("details:not([open])")) items.push(["after", norm(reads(p)).slice(0, 60)]);
  });
  const said = items.map(([k, s]) => [k, norm(s)]).filter(([, s]) => s !== "");
  const answer = form.querySelector("input[value='" + form.dataset.answer + "']").closest("label");
  const mark = answer.querySelector(".lesson-quiz-mark");
  return { Shown: said.filter(([, s]) => seen.includes(s)).map(([k, s]) => k + ": " + s),
    Hidden: said.filter(([, s]) => !seen.includes(s)).map(([k, s]) => k + ": " + s),
    Result: form.dataset.result || "", Hint: norm(form.querySelector(".lesson-quiz-hint").innerText), Right: form.dataset.right,
    Marked: mark && seen.includes(norm(answer.innerText)) ? norm(mark.innerText) : "" };
})()`

// checkQuiz: before the answer the step's visible text shows none of what
// answers its quiz (once the canvas has filled in the knob status lines); a
// wrong answer shows its why and nothing more; the right one shows it all
// and marks the answer.
func checkQuiz(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	poll(t, ctx, `Array.from(document.querySelectorAll(".step.current .lesson-knobs-status")).every((p) => p.textContent.trim() !== "" && p.textContent !== JSON.parse(p.dataset.status).running)`, 10*time.Minute)
	before := eval[quizView](t, ctx, quizViewJS)
	assert.Empty(t, before.Shown, "%s: nothing gives the answer away before it is answered", where)
	const barTime = lessonCanvas + `.document.getElementById("time").textContent`
	if !waitFor(t, ctx, barTime+`.includes(" / ?")`, 30*time.Second) {
		assert.Contains(t, eval[string](t, ctx, barTime), " / ?", "%s: the bar keeps the run's end back (often the answer)", where)
	}
	why := eval[string](t, ctx, `(() => {
	  const wrong = document.querySelector(".step.current form.lesson-quiz input[data-why]");
	  wrong.click(); document.querySelector(".step.current .lesson-quiz-check").click();
	  return wrong.dataset.why; })()`)
	wrong := eval[quizView](t, ctx, quizViewJS)
	assert.Equal(t, "wrong", wrong.Result, where)
	assert.Contains(t, wrong.Hint, why, "%s: a wrong answer says why", where)
	assert.Empty(t, wrong.Shown, "%s: a wrong answer gives nothing else away", where)
	eval[bool](t, ctx, `(() => {
	  const form = document.querySelector(".step.current form.lesson-quiz");
	  form.querySelector("input[value='" + form.dataset.answer + "']").click(); form.querySelector(".lesson-quiz-check").click();
	  return true; })()`)
	right := eval[quizView](t, ctx, quizViewJS)
	assert.Equal(t, "right", right.Result, where)
	assert.Empty(t, right.Hidden, "%s: answered, the explanation, the verdict, the status lines and the text after the quiz show", where)
	assert.True(t, strings.HasPrefix(right.Marked, "✓ "), "%s: the answer is marked: %q", where, right.Marked)
	assert.Empty(t, right.Hint, "%s: the hint goes once answered", where)
	if !waitFor(t, ctx, `!`+barTime+`.includes(" / ?")`, 30*time.Second) {
		assert.NotContains(t, eval[string](t, ctx, barTime), " / ?", "%s: answered, the bar shows the run's end", where)
	}
}

// loadingSteps gives, for each step, the step whose load the canvas shows
// when the lesson is walked forward with every knob at its default. As the
// page does it: a step loads when its scenario, comparison or knobs differ
// from what was loaded last, except that a step without knobs after one
// with the same scenario keeps the canvas (the recap after a knob step).
func loadingSteps(steps []lessons.Step) []int {
	from := make([]int, len(steps))
	loadedKey, loadedPlain, at := "", "", 0
	for i, s := range steps {
		key := s.Scenario
		switch {
		case s.Compare != nil:
			key = fmt.Sprintf("compare %+v", *s.Compare)
		case len(s.Knobs) > 0:
			key = s.Scenario
			for _, k := range s.Knobs { // what the page sends: what each knob sets at its default
				key += "\n" + strings.Join(k.SetsOf(k.Default), "\n")
			}
		}
		plain := s.Compare == nil && len(s.Knobs) == 0
		if s.Scenario != "" || s.Compare != nil {
			if key != loadedKey && !(plain && loadedPlain == s.Scenario) {
				loadedKey, at = key, i
				loadedPlain = ""
				if s.Compare == nil {
					loadedPlain = s.Scenario
				}
			}
		}
		from[i] = at
	}
	return from
}

// TestBrowserCourseProgress: answering a quiz finishes its step, a step whose
// run played to the end finishes too, and the index counts them and links to
// the first unfinished step, in both languages. Without localStorage nothing
// breaks: the lesson keeps its progress in the page, the index shows none.
func TestBrowserCourseProgress(t *testing.T) {
	t.Parallel()
	ls, err := shippedLessons()
	require.NoError(t, err)
	l := lessons.Find(ls, "scaling", "en")
	require.NotNil(t, l)
	quiz := -1
	for i, s := range l.Steps {
		if strings.Contains(string(s.HTML), `class="lesson-quiz"`) && i > 0 {
			quiz = i
			break
		}
	}
	require.Positive(t, quiz, "a later step has a quiz")
	answer := func(ctx context.Context) {
		t.Helper()
		answer := eval[string](t, ctx, `document.querySelector(".step.current form.lesson-quiz").dataset.answer`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(".step.current form.lesson-quiz input[type=radio][value='"+answer+"']"),
			chromedp.Click(".step.current button.lesson-quiz-check")))
		poll(t, ctx, `document.querySelector(".step.current form.lesson-quiz").dataset.result === "right"`, 10*time.Second)
	}

	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/scaling.en.html#"+l.Steps[quiz].ID)))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready`, 90*time.Second)
	assert.Empty(t, eval[[]string](t, ctx, "fabriclabProgress.finished()"), "nothing is finished on arrival")
	answer(ctx)
	assert.Equal(t, []string{l.Steps[quiz].ID}, eval[[]string](t, ctx, `JSON.parse(localStorage.getItem("fabriclab.progress.scaling"))`))
	// The first step's run played to the end.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/scaling.en.html#"+l.Steps[0].ID)))
	poll(t, ctx, fmt.Sprintf(`document.querySelector(".step.current").dataset.step === %q && fabriclabCanvas.loaded !== ""`, l.Steps[0].ID), 90*time.Second)
	eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur(), true)`)
	press(t, ctx, " ")
	poll(t, ctx, `fabriclabCanvas.ended > 0`, 90*time.Second)
	assert.ElementsMatch(t, []string{l.Steps[0].ID, l.Steps[quiz].ID}, eval[[]string](t, ctx, "fabriclabProgress.finished()"))

	next := l.Steps[1].ID
	if quiz == 1 {
		next = l.Steps[2].ID
	}
	for _, index := range []string{"index.html", "index.zh.html"} {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+index)))
		card := `document.querySelector('.card[data-slug="scaling"]')`
		poll(t, ctx, card+` && !`+card+`.querySelector(".course-progress").hidden`, 10*time.Second)
		done := eval[string](t, ctx, card+`.querySelector(".course-progress .done").textContent`)
		assert.Contains(t, done, "2", index)
		assert.Contains(t, done, fmt.Sprint(len(l.Steps)), index)
		assert.True(t, strings.HasSuffix(eval[string](t, ctx, card+`.querySelector(".continue").href`), "#"+next), "%s: continue at the first unfinished step", index)
		assert.True(t, eval[bool](t, ctx, `document.querySelector('.card[data-slug="incast"] .course-progress').hidden`), "%s: a lesson not begun shows no progress", index)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, "course-progress-"+index+".png", png)
	}
	assert.Equal(t, "已完成 2 / "+fmt.Sprint(len(l.Steps))+" 步", eval[string](t, ctx, `document.querySelector('.card[data-slug="scaling"] .course-progress .done').textContent`))
	assert.Empty(t, errors(console()), "the console shows no errors")

	// Without localStorage (every access throws, as in a sandboxed frame).
	ctx2, base2, console2 := browser(t)
	require.NoError(t, chromedp.Do(ctx2, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });`})
		return err
	})))
	require.NoError(t, chromedp.Do(ctx2, chromedp.Navigate(base2+"/scaling.en.html#"+l.Steps[quiz].ID)))
	poll(t, ctx2, `window.fabriclabCanvas && fabriclabCanvas.ready`, 90*time.Second)
	answer(ctx2)
	assert.Equal(t, []string{l.Steps[quiz].ID}, eval[[]string](t, ctx2, "fabriclabProgress.finished()"), "kept in the page")
	require.NoError(t, chromedp.Do(ctx2, chromedp.Navigate(base2+"/index.html")))
	assert.Positive(t, eval[int](t, ctx2, `document.querySelectorAll(".card[data-slug]").length`))
	assert.Zero(t, eval[int](t, ctx2, `document.querySelectorAll(".card .course-progress:not([hidden])").length`))
	assert.Empty(t, errors(console2()), "no errors without localStorage")
}
