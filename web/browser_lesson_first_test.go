package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A lesson opened at a step sends the step's load as soon as the canvas
// page's script runs, and the canvas makes it its first run: its worker is
// asked for one run, the step's, never for incast first; and the canvas's
// WebAssembly is the one the lesson page started compiling (issue 29: a
// step's figures within 1 s of a warm load).
func TestBrowserLessonStepIsTheFirstRun(t *testing.T) {
	t.Parallel()
	ctx, base, console := browser(t)
	// The step's load races the canvas's start (sent once the frame's page
	// has loaded; the canvas is ready once its program has started): on a
	// loaded machine the program can win, and incast is begun and replaced
	// as before. A few loads, one of which must send one command; broken,
	// none does.
	commands := 0
	for try := 0; try < 3 && commands != 1; try++ {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/incast.en.html#lossy")))
		poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.loaded === "incast-8to1-lossy"`, 90*time.Second)
		poll(t, ctx, lessonCanvas+`.fabriclabFirstFrameMs > 0`, 30*time.Second)
		commands = eval[int](t, ctx, lessonCanvas+`.fabriclabWorkerCounts.commands`)
		t.Logf("load %d: %d commands to the worker", try+1, commands)
	}
	assert.Equal(t, 1, commands, "one command to the worker: the step's run")
	assert.Equal(t, 1, eval[int](t, ctx, lessonCanvas+`.performance.getEntriesByName("fabriclab-loaded").length`), "one run loaded")
	assert.Equal(t, "lossy", eval[string](t, ctx, `fabriclabCanvas.step`))
	// viz.wasm is fetched and compiled once, by the lesson page, for its frame (modules.js).
	const fetched = `.performance.getEntriesByType("resource").filter((e) => /viz\.wasm/.test(e.name)).length`
	assert.Equal(t, 1, eval[int](t, ctx, `window`+fetched), "the lesson page fetched viz.wasm")
	assert.Equal(t, 0, eval[int](t, ctx, lessonCanvas+fetched), "the canvas took the lesson's module")
	assert.Empty(t, errors(console()), "the console shows no errors")
}
