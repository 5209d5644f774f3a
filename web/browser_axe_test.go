package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// axePath is where .ci/run installs axe-core (npm install --prefix .ci/axe);
// $FABRICLAB_AXE names another axe.min.js.
const axePath = "../.ci/axe/node_modules/axe-core/axe.min.js"

// axeSource is axe-core's script, or a skip when it is not installed —
// except under CI=true, where the test must run.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("FABRICLAB_AXE")
	if path == "" {
		path = axePath
	}
	data, err := os.ReadFile(path)
	if err == nil {
		return string(data)
	}
	abs, _ := filepath.Abs(path)
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but axe-core is missing at %s: .ci/run must install it (npm install --prefix .ci/axe axe-core@4.14.1)", abs)
	}
	t.Skipf("axe-core is not installed at %s: npm install --prefix .ci/axe axe-core@4.14.1 (or set FABRICLAB_AXE)", abs)
	return ""
}

// axeAudit runs axe-core on the pages and states a learner meets, and
// collects every violation it reports.
type axeAudit struct {
	t      *testing.T
	ctx    context.Context
	src    string
	runs   int
	failed []string
}

// theme sets prefers-color-scheme for the tab ("light" or "dark").
func (a *axeAudit) theme(name string) {
	a.t.Helper()
	require.NoError(a.t, chromedp.Do(a.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: name}}})
		return err
	})))
}

// check runs axe on the page as it stands (its own document, not its
// frames: the canvas's page is checked on its own) and records the
// violations under the name state.
func (a *axeAudit) check(state string) {
	a.t.Helper()
	if !eval[bool](a.t, a.ctx, `typeof window.axe === "object"`) {
		eval[any](a.t, a.ctx, a.src+";true")
	}
	out, err := chromedp.Run(a.ctx, chromedp.Evaluate[string](`axe.run(document, {iframes: false, resultTypes: ["violations"]}).then((r) =>
		JSON.stringify(r.violations.map((v) => ({id: v.id, help: v.help,
			nodes: v.nodes.map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ").slice(0, 240))}))))`,
		chromedp.EvalAwaitPromise))
	require.NoError(a.t, err, state)
	var vs []struct {
		ID, Help string
		Nodes    []string
	}
	require.NoError(a.t, json.Unmarshal([]byte(out), &vs))
	a.runs++
	for _, v := range vs {
		a.failed = append(a.failed, fmt.Sprintf("%s: %s (%s)\n\t%s", state, v.ID, v.Help, strings.Join(v.Nodes, "\n\t")))
	}
}

// open navigates to path and waits until the page's scripts have run.
func (a *axeAudit) open(url string) {
	a.t.Helper()
	require.NoError(a.t, chromedp.Do(a.ctx, chromedp.Navigate(url), chromedp.WaitReady("body")))
}

// TestBrowserAxe runs axe-core on every page and state, in both themes and
// languages: the index, every lesson (every step shown at once, its quizzes
// answered wrong and answered right), presenter mode and the
// keys dialog, the canvas's page (its table open, keys dialog, Export menu,
// editor, light theme). It fails on any violation, listed with its target.
func TestBrowserAxe(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	ls, err := shippedLessons()
	require.NoError(t, err)
	start := time.Now()
	runs := 0
	// Each part has a tab of its own (and the tab's time limit).
	part := func(name string, f func(a *axeAudit, base string)) {
		t.Run(name, func(t *testing.T) {
			ctx, base, _ := browser(t)
			a := &axeAudit{t: t, ctx: ctx, src: src}
			began := time.Now()
			f(a, base)
			t.Logf("%d axe runs in %s", a.runs, time.Since(began).Round(time.Second))
			runs += a.runs
			assert.Empty(t, a.failed, "axe-core found violations:\n%s", strings.Join(a.failed, "\n"))
		})
	}
	part("index", func(a *axeAudit, base string) {
		for _, theme := range []string{"light", "dark"} {
			a.theme(theme)
			for _, page := range []string{"index.html", "index.zh.html"} {
				a.open(base + "/" + page)
				a.check(theme + " " + page)
			}
		}
	})
	for _, lang := range []string{"en", "zh"} {
		part("lessons-"+lang, func(a *axeAudit, base string) {
			for _, l := range ls {
				if l.Lang == lang {
					a.lesson(base, fmt.Sprintf("%s.%s.html", l.Slug, l.Lang))
				}
			}
		})
	}
	part("presenter", func(a *axeAudit, base string) {
		for _, page := range []string{"incast.en.html", "incast.zh.html"} {
			a.open(base + "/" + page)
			eval[bool](a.t, a.ctx, `document.getElementById("presenter").click(); document.getElementById("keys-button").click(); true`)
			for _, theme := range []string{"light", "dark"} {
				a.theme(theme)
				a.check(theme + " " + page + " presenter, keys dialog")
			}
		}
	})
	part("embed", func(a *axeAudit, base string) {
		for _, q := range []string{"", "&theme=light", "&lang=zh", "&lang=zh&theme=light"} {
			a.open(base + "/embed.html?scenario=incast" + q)
			poll(a.t, a.ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
			a.check("embed" + q)
			eval[bool](a.t, a.ctx, `document.querySelector("#canvas-table summary").click(); true`)
			poll(a.t, a.ctx, `document.querySelectorAll("#canvas-table-tables table").length >= 3`, 60*time.Second)
			a.check("embed" + q + " canvas as a table")
			eval[bool](a.t, a.ctx, `document.querySelector("#canvas-table summary").click(); true`)
			eval[bool](a.t, a.ctx, `document.getElementById("help").click(); true`)
			a.check("embed" + q + " keys dialog")
			eval[bool](a.t, a.ctx, `document.getElementById("keys-close").click(); document.getElementById("share").click(); true`)
			a.check("embed" + q + " export menu")
			a.open(base + "/embed.html?editor=1&scenario=incast" + q)
			poll(a.t, a.ctx, `window.fabriclabFirstFrameMs > 0`, 90*time.Second)
			a.check("editor" + q)
		}
	})
	t.Logf("%d axe runs in %s", runs, time.Since(start).Round(time.Second))
}

// lesson checks a lesson page with every step shown at once, its quizzes
// answered wrong and then right, in both themes.
func (a *axeAudit) lesson(base, page string) {
	a.t.Helper()
	a.open(base + "/" + page)
	// The canvas is checked on its own page: here it need not start.
	eval[bool](a.t, a.ctx, `document.getElementById("canvas").src = "about:blank"; true`)
	eval[bool](a.t, a.ctx, `document.head.insertAdjacentHTML("beforeend", "<style>.text .step { display: block }</style>"); true`)
	for _, answer := range []string{"wrong", "right"} {
		eval[bool](a.t, a.ctx, fmt.Sprintf(`document.querySelectorAll("form.lesson-quiz").forEach((f) => {
			const opts = Array.from(f.querySelectorAll("input[type=radio]"));
			const pick = opts.find((o) => (o.value === f.dataset.answer) === %t) || opts[0];
			pick.checked = true; f.requestSubmit();
		}); true`, answer == "right"))
		for _, theme := range []string{"light", "dark"} {
			a.theme(theme)
			a.check(fmt.Sprintf("%s %s quiz=%q", theme, page, answer))
		}
	}
}
