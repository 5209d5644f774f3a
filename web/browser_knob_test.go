package web_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
	"fabriclab/lessons/figures"
	"fabriclab/sim/scenario"
	"fabriclab/web"
)

// knobSite is the built site with the test lesson of testdata/knob-lesson
// in place of the shipped ones, served; it returns the server's address.
// FABRICLAB_KNOB_SITE=DIR keeps a copy there, to look at by hand.
func knobSite(t *testing.T) (string, *lessons.Lesson) {
	t.Helper()
	dir := siteDir(t)
	wasm, err := os.ReadFile(filepath.Join(dir, "viz.wasm"))
	require.NoError(t, err)
	worker, err := os.ReadFile(filepath.Join(dir, "worker.wasm"))
	require.NoError(t, err)
	execJS, err := os.ReadFile(filepath.Join(dir, "wasm_exec.js"))
	require.NoError(t, err)
	ls, err := lessons.Load(os.DirFS("testdata/knob-lesson"))
	require.NoError(t, err)
	files, err := web.Site(web.Inputs{Lessons: ls, Scenarios: scenario.Builtins(), VizWASM: wasm, WorkerWASM: worker, WasmExec: execJS})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "site")
	if keepDir := os.Getenv("FABRICLAB_KNOB_SITE"); keepDir != "" {
		out = keepDir
	}
	require.NoError(t, web.Write(out, files, false))
	srv := httptest.NewServer(web.Handler(os.DirFS(out)))
	t.Cleanup(srv.Close)
	return srv.URL, ls[0]
}

// fabriclabRun is `fabriclab run FILE --set … --json` on a step's scenario,
// with the figure spec looked up and formatted as the build does.
func fabriclabRun(t *testing.T, yaml string, sets []string, spec string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "step.yaml")
	require.NoError(t, os.WriteFile(file, []byte(yaml), 0o644))
	args := []string{"run", "./cmd/fabriclab", "run", file, "--json"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	src, err := figures.Decode(out)
	require.NoError(t, err)
	p, err := figures.Parse(spec)
	require.NoError(t, err)
	v, err := p.Lookup(src)
	require.NoError(t, err)
	return v
}

const figureSpec = "totals.max_fct_us | us 1"

// figureText is the first figure of a step as the page shows it.
const figureText = `document.querySelector('.step[data-step="senders"] .lesson-figure[data-figure="totals.max_fct_us | us 1"]').textContent`

// Moving a knob re-runs the step in the canvas with every knob's setting, and
// the step's figure becomes exactly what `fabriclab run --set …` gives for
// that setting; the address keeps the setting, a deep link restores it, and
// reset puts the defaults back. All by keyboard.
func TestBrowserKnobs(t *testing.T) { // alone, in a Chromium of its own, as before the shared browser: it races the page (a key's effect within seconds, a state between two frames)
	ctx, _, console := ownBrowser(t)
	base, lesson := knobSite(t)
	step := lesson.Steps[0]
	require.Equal(t, "senders", step.ID)
	require.Len(t, step.Knobs, 3)

	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/knobs.en.html#senders")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "senders"`, 90*time.Second)
	poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1`, 60*time.Second)
	built := eval[string](t, ctx, figureText)
	defaults := []string{"traffic.senders=2", "traffic.bytes=256KiB", "topology.link_gbps=100"}
	assert.Equal(t, fabriclabRun(t, step.Scenario, defaults, figureSpec), built, "the build's figure is the run at the defaults")
	assert.Equal(t, defaults, eval[[]string](t, ctx, `fabriclabKnobs.last.set`), "the canvas ran the step with every knob's setting")
	assert.Equal(t, built, eval[string](t, ctx, `fabriclabKnobs.last.values["totals.max_fct_us | us 1"]`), "the canvas computes the figure as the build does")
	shoot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, name, png)
	}
	shoot("knobs-default.png")

	// The keyboard: focus the senders slider, End takes it to 4. The run may
	// end before a screenshot does, so an observer notes the pending class
	// whenever it comes and goes.
	eval[bool](t, ctx, `(() => {
		const el = document.querySelector('.step[data-step="senders"] .lesson-figure');
		window.sawPending = false;
		new MutationObserver((recs) => {
			for (const r of recs) {
				if (r.target.classList.contains("pending") || (r.oldValue || "").split(" ").includes("pending")) window.sawPending = true;
			}
		}).observe(el, {attributes: true, attributeFilter: ["class"], attributeOldValue: true});
		return true;
	})()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-1")))
	press(t, ctx, kb.End)
	assert.Equal(t, "4", eval[string](t, ctx, `document.getElementById("knob-1").getAttribute("aria-valuetext")`))
	assert.Equal(t, "knob-1", eval[string](t, ctx, focused), "the slider keeps the focus")
	shoot("knobs-pending.png")
	poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending`, 60*time.Second)
	assert.True(t, eval[bool](t, ctx, `window.sawPending`), "while the run computes, the figures show as pending")
	four := []string{"traffic.senders=4", "traffic.bytes=256KiB", "topology.link_gbps=100"}
	assert.Equal(t, four, eval[[]string](t, ctx, `fabriclabKnobs.last.set`), "the canvas loaded the new setting")
	want := fabriclabRun(t, step.Scenario, four, figureSpec)
	assert.NotEqual(t, built, want, "four senders take longer than two")
	assert.Equal(t, want, eval[string](t, ctx, figureText), "the figure is fabriclab run's for senders=4")
	status := eval[string](t, ctx, `document.querySelector('.step[data-step="senders"] .lesson-knobs-status').textContent`)
	// Under a millisecond the sentence gives µs.
	assert.Equal(t, "Senders: 4 — last flow finished at "+fabriclabRun(t, step.Scenario, four, "totals.max_fct_us | us"), status, "the live region says what changed")
	assert.Equal(t, "?traffic.senders=4", eval[string](t, ctx, `location.search`), "the address keeps the setting")
	assert.Equal(t, "#senders", eval[string](t, ctx, `location.hash`))
	shoot("knobs-moved.png")

	// A second knob by arrow key: the bytes slider one step down (256 KiB → 64 KiB).
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-2")))
	press(t, ctx, kb.ArrowLeft)
	poll(t, ctx, `fabriclabKnobs.runs >= 3 && !fabriclabKnobs.pending`, 60*time.Second)
	two := []string{"traffic.senders=4", "traffic.bytes=64KiB", "topology.link_gbps=100"}
	assert.Equal(t, two, eval[[]string](t, ctx, `fabriclabKnobs.last.set`))
	assert.Equal(t, fabriclabRun(t, step.Scenario, two, figureSpec), eval[string](t, ctx, figureText))
	link := eval[string](t, ctx, `location.href`)
	assert.Contains(t, link, "traffic.bytes=64KiB")
	assert.Equal(t, "/knobs.zh.html?traffic.senders=4&traffic.bytes=64KiB#senders",
		eval[string](t, ctx, `(() => { const a = document.querySelector("[data-alternate]"); return a.pathname + a.search + a.hash; })()`),
		"the translation's link keeps the settings")

	// The deep link restores both settings.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link)))
	poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1 && !fabriclabKnobs.pending`, 90*time.Second)
	assert.Equal(t, "3", eval[string](t, ctx, `document.getElementById("knob-1").value`), "senders=4 is the slider's fourth position")
	assert.Equal(t, "64\u00a0KiB", eval[string](t, ctx, `document.getElementById("knob-2").getAttribute("aria-valuetext")`))
	assert.Equal(t, two, eval[[]string](t, ctx, `fabriclabKnobs.last.set`))
	assert.Equal(t, fabriclabRun(t, step.Scenario, two, figureSpec), eval[string](t, ctx, figureText))

	// Reset (Tab to it, Enter) puts the defaults back, in the controls, the canvas, the text and the address.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(`.step[data-step="senders"] .lesson-knobs-reset`)))
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)))
	poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending && location.search === ""`, 60*time.Second)
	assert.Equal(t, defaults, eval[[]string](t, ctx, `fabriclabKnobs.last.set`))
	assert.Equal(t, built, eval[string](t, ctx, figureText))
	assert.Equal(t, "1", eval[string](t, ctx, `document.getElementById("knob-1").value`))

	// One sender (Home): a figure of the second sender's has nothing to show, and says why.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-1"), chromedp.KeyEvent(kb.Home)))
	poll(t, ctx, `fabriclabKnobs.runs >= 3 && !fabriclabKnobs.pending`, 60*time.Second)
	second := `document.querySelector('.step[data-step="senders"] .lesson-figure[data-figure="flows[1].gbps | Gbps"]')`
	assert.Equal(t, "—", eval[string](t, ctx, second+`.textContent`))
	assert.Contains(t, eval[string](t, ctx, second+`.title`), "flows has 1 items")
	assert.True(t, eval[bool](t, ctx, second+`.classList.contains("failed")`))
	shoot("knobs-missing-figure.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(`.step[data-step="senders"] .lesson-knobs-reset`), chromedp.KeyEvent(kb.Enter)))
	poll(t, ctx, `fabriclabKnobs.runs >= 4 && !fabriclabKnobs.pending && location.search === ""`, 60*time.Second)
	assert.False(t, eval[bool](t, ctx, second+`.classList.contains("failed")`), "back at the defaults the figure is there again")

	// The next step has its own knob (a select) and its settings; the last has none.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#next")))
	press(t, ctx, kb.ArrowRight)
	poll(t, ctx, `fabriclabCanvas.step === "routing" && fabriclabKnobs.runs >= 5 && !fabriclabKnobs.pending`, 60*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-4"), chromedp.KeyEvent(kb.ArrowDown)))
	poll(t, ctx, `location.search === "?network.routing=spray" && fabriclabKnobs.runs >= 6 && !fabriclabKnobs.pending`, 60*time.Second)
	assert.Equal(t, []string{"network.routing=spray"}, eval[[]string](t, ctx, `fabriclabKnobs.last.set`))
	shoot("knobs-select.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#next"), chromedp.KeyEvent(kb.ArrowRight)))
	poll(t, ctx, `fabriclabCanvas.step === "plain"`, 30*time.Second)
	assert.Equal(t, "", eval[string](t, ctx, `location.search`), "a step without knobs has no settings in the address")

	// A run stopped by until: before its flows finished says how many did, not "finished at 0 ms".
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/knobs.en.html#short")))
	poll(t, ctx, `window.fabriclabKnobs && fabriclabCanvas.step === "short" && fabriclabKnobs.runs >= 1 && !fabriclabKnobs.pending`, 60*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-5"), chromedp.KeyEvent(kb.End)))
	poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending`, 60*time.Second)
	short := lesson.Steps[3]
	require.Equal(t, "short", short.ID)
	sets := []string{"traffic.senders=4"}
	require.Equal(t, sets, eval[[]string](t, ctx, `fabriclabKnobs.last.set`))
	assert.Equal(t, "Senders: 4 — "+fabriclabRun(t, short.Scenario, sets, "totals.flows_finished")+" of 4 flows finished in "+
		fabriclabRun(t, short.Scenario, sets, "totals.sim_time_us | us"),
		eval[string](t, ctx, `document.querySelector('.step[data-step="short"] .lesson-knobs-status').textContent`))

	// Presenter mode (big text) on the 1024×768 projector: P is a single-key
	// shortcut, so it acts from the lesson text, not from a knob (WCAG 2.1.4).
	eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur && document.activeElement.blur(), true)`)
	press(t, ctx, "p")
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/knobs.en.html#senders")))
	poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1 && document.body.classList.contains("presenter")`, 60*time.Second)
	shoot("knobs-presenter.png")
	press(t, ctx, "p")
	// In Chinese the status line is Chinese.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/knobs.zh.html#senders")))
	poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1`, 60*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus("#knob-1"), chromedp.KeyEvent(kb.End)))
	poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending`, 60*time.Second)
	assert.Equal(t, "发送方：4，最后一个流在 "+fabriclabRun(t, step.Scenario, four, "totals.max_fct_us | us")+" 完成",
		eval[string](t, ctx, `document.querySelector('.step[data-step="senders"] .lesson-knobs-status').textContent`))
	assert.Equal(t, "动手试试", eval[string](t, ctx, `document.querySelector(".lesson-knobs").getAttribute("aria-label")`))
	shoot("knobs-zh.png")

	var msgs []string
	for _, m := range errors(console()) {
		if !strings.Contains(m, "favicon") {
			msgs = append(msgs, m)
		}
	}
	assert.Empty(t, msgs, "the console shows no errors")
}

// The sharing lesson's neighbour toggle sets several keys: switched off by
// keyboard, the canvas runs the step with all of them, the address names the
// toggle, and the step's figures become the run without the neighbour's
// writes (no pause frames).
func TestBrowserKnobToggleSetsSeveralKeys(t *testing.T) {
	ctx, base, console := browser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(base+"/sharing.en.html#try")))
	poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step === "try"`, 90*time.Second)
	poll(t, ctx, `window.fabriclabKnobs && fabriclabKnobs.runs >= 1 && !fabriclabKnobs.pending`, 120*time.Second)
	assert.Equal(t, []string{"collective.class=training"}, eval[[]string](t, ctx, `fabriclabKnobs.last.set`), "on, the toggle sets nothing")
	pauses := `document.querySelector('.step[data-step="try"] .lesson-figure[data-figure="totals.pause_frames"]').textContent`
	require.NotEqual(t, "0", eval[string](t, ctx, pauses), "the neighbour's incast pauses the fabric")

	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(`.step[data-step="try"] .lesson-knob[data-key="neighbour"] input`)))
	press(t, ctx, " ")
	poll(t, ctx, `fabriclabKnobs.runs >= 2 && !fabriclabKnobs.pending`, 120*time.Second)
	assert.Equal(t, []string{"collective.class=training", "traffic.pattern=none", "traffic.bytes=", "traffic.class=", "traffic.flows="},
		eval[[]string](t, ctx, `fabriclabKnobs.last.set`), "off, it sets every key of its list")
	assert.Equal(t, "?neighbour=false", eval[string](t, ctx, `location.search`))
	assert.Equal(t, "0", eval[string](t, ctx, pauses), "without the neighbour nothing pauses")
	assert.Contains(t, eval[string](t, ctx, `document.querySelector('.step[data-step="try"] .lesson-knobs-status').textContent`),
		"The neighbour's writes: off — the collective took ")
	eval[bool](t, ctx, `(document.querySelector('.step[data-step="try"] .lesson-knobs').scrollIntoView({block: "center"}), true)`)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "knob-toggle-sets.png", png)
	var msgs []string
	for _, m := range errors(console()) {
		if !strings.Contains(m, "favicon") {
			msgs = append(msgs, m)
		}
	}
	assert.Empty(t, msgs, "the console shows no errors")
}
