// Package lessons turns the Markdown lessons in content/ into HTML fragments
// and per-step data (the scenario the canvas shows at each step) for the site
// build. A lesson is content, not code: adding one needs no Go change.
//
// A lesson is a file <slug>.<lang>.md (lang en or zh) with YAML front matter
// and a body whose "## Title {#id}" headings start its steps. The additions
// to Markdown, each a goldmark extension in its own file, carry what the page
// needs: ```scenario blocks (scenario.go) set what the canvas shows, ```quiz
// blocks (quiz.go) ask the learner to predict, and {{ path | format }}
// figures (figure.go) quote numbers from running the step's scenario. A
// ```compare block (compare.go) takes a scenario block's place to show two
// scenarios side by side; its figures name their side. A ```drill block
// (drill.go) is a quiz about a fault hidden in the step's scenario, whose
// options are fixes the build checks (drill_build.go).
//
// A ```knob block (knob.go) is described once, by Knob, from Markdown to the
// re-run: parseKnob reads the block; the loader (knob_build.go, builder.knobs)
// applies each position's Sets to the step's scenario, and fills in Default,
// Changes (knobChanges: the run, or only the report) and Status (knobStatus:
// the status line's figures and sentences); knobRenderer writes the
// description into the page as JSON (data-knob, data-status), which
// web/static/lesson.js only shows. Moving the knob, the page sends the canvas a
// load with every knob's sets, the figures to compute and the settings that
// change only the report; the canvas (cmd/viz) runs the step again or, for
// those alone, works the report out again (reprice.go), and answers with the
// figures computed by lessons/figures, as the build computes them.
package lessons

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strings"

	"fabriclab/lessons/figures"
	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

//go:embed content
var content embed.FS

// Content returns the lessons that ship with fabriclab: the files of
// lessons/content, for Load.
func Content() fs.FS {
	sub, err := fs.Sub(content, "content")
	if err != nil {
		panic(fmt.Sprintf("lessons: embedded content: %v", err))
	}
	return sub
}

// Lesson is one lesson in one language, validated and rendered.
type Lesson struct {
	Slug     string `json:"slug"`     // from the file name: incast.en.md → incast
	Lang     string `json:"lang"`     // from the file name: en or zh
	Language string `json:"language"` // front matter: en or zh-Hans, for <html lang>
	Title    string `json:"title"`
	Summary  string `json:"summary"`
	Level    string `json:"level"` // beginner, intermediate or advanced
	Minutes  int    `json:"minutes"`
	Order    int    `json:"order"` // index position; lessons sort by order, then slug
	// Assumes are the slugs of the earlier lessons this one builds on
	// (front matter assumes:); nil when the front matter does not say.
	Assumes      []string `json:"assumes,omitempty"`
	assumesLines []int    // the file line of each, for errors
	assumesLine  int      // the file line of the key (0: none)
	// Intro is the HTML of the text before the first step.
	Intro template.HTML `json:"intro"`
	// IntroScenario is the YAML of a scenario block in the intro, if any;
	// the first step inherits it.
	IntroScenario string `json:"intro_scenario,omitempty"`
	Steps         []Step `json:"steps"`
	// Source is the file's path in the file system given to Load.
	Source string `json:"source"`
}

// Step is one "## Title {#id}" section of a lesson.
type Step struct {
	ID    string `json:"id"`    // the heading's {#id}; the same in every language
	Title string `json:"title"` // the heading's text
	// HTML is the step rendered, starting with its <h2 id="…"> heading.
	HTML template.HTML `json:"html"`
	// Scenario is the YAML the canvas loads in this step: the step's own
	// scenario block or, without one, the previous step's. Empty when no
	// step so far has one.
	Scenario string `json:"scenario"`
	// ScenarioName is the scenario's name key.
	ScenarioName string `json:"scenario_name"`
	// Compare, in a step with a compare block (or after one, without a
	// block of its own), is the comparison the canvas shows instead of
	// Scenario (empty then).
	Compare *Compare `json:"compare,omitempty"`
	// Line is the heading's line in the lesson file.
	Line int `json:"line"`
	// Knobs are the step's knob blocks, in order, with their defaults.
	Knobs []Knob `json:"knobs,omitempty"`
	// Goals are the step's goal blocks, with their answers.
	Goals []Goal `json:"goals,omitempty"`
	// Drill, in a step with a drill block (drill.go), is what the canvas
	// shows once the drill is answered: the run as found beside the fixed run.
	Drill       *Compare `json:"drill,omitempty"`
	drill       *Drill
	drillAnswer int
	drillHides  string // the name of the scenario the drill hides
}

// Error is one problem with a lesson file. It prints as
// "incast.en.md:12: what is wrong; how to fix it".
type Error struct {
	File string
	Line int // 1-based; 0 when the problem is with the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// MaxFileBytes bounds one lesson file.
const MaxFileBytes = 1 << 20

// Languages maps a file name's language to the front matter's language tag.
var Languages = map[string]string{"en": "en", "zh": "zh-Hans"}

// Levels are the values front matter's level takes.
var Levels = []string{"beginner", "intermediate", "advanced"}

var fileName = lazyRegexp(`^([a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z]+)\.md$`)

// Load reads, validates and renders every lesson file (*.md) at the top of
// fsys, running each scenario a figure quotes (once per distinct scenario).
// Lessons come back sorted by order, then slug, then language (en first).
// All problems are reported, joined, each as an *Error.
func Load(fsys fs.FS) ([]*Lesson, error) {
	return load(fsys, runScenario)
}

// runScenario runs a validated scenario natively.
func runScenario(sc scenario.Scenario) (*metrics.Result, error) { return sim.Run(sc) }

func load(fsys fs.FS, run func(scenario.Scenario) (*metrics.Result, error)) ([]*Lesson, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading lessons: %w", err)
	}
	b := &builder{run: run, results: make(map[string]figures.Source)}
	var lessons []*Lesson
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".md" {
			continue
		}
		if l := b.file(fsys, e.Name()); l != nil {
			lessons = append(lessons, l)
		}
	}
	b.crossCheck(lessons)
	b.checkAssumes(lessons)
	if len(b.errs) > 0 {
		return nil, errors.Join(b.errs...)
	}
	slices.SortFunc(lessons, func(a, c *Lesson) int {
		if a.Order != c.Order {
			return a.Order - c.Order
		}
		if a.Slug != c.Slug {
			return strings.Compare(a.Slug, c.Slug)
		}
		return strings.Compare(langRank(a.Lang), langRank(c.Lang))
	})
	return lessons, nil
}

// langRank puts English, the reference language, first.
func langRank(lang string) string {
	if lang == "en" {
		return ""
	}
	return lang
}

// Langs groups lessons by language (en, zh), keeping their order.
func Langs(ls []*Lesson) map[string][]*Lesson {
	m := make(map[string][]*Lesson)
	for _, l := range ls {
		m[l.Lang] = append(m[l.Lang], l)
	}
	return m
}

// Find returns the lesson with slug in lang, or nil.
func Find(ls []*Lesson, slug, lang string) *Lesson {
	for _, l := range ls {
		if l.Slug == slug && l.Lang == lang {
			return l
		}
	}
	return nil
}

// crossCheck makes sure every translation has an English original with the
// same step ids, in the same order, showing the same scenarios.
func (b *builder) crossCheck(lessons []*Lesson) {
	en := make(map[string]*Lesson)
	for _, l := range lessons {
		if l.Lang == "en" {
			en[l.Slug] = l
		}
	}
	for _, l := range lessons {
		if l.Lang == "en" {
			continue
		}
		ref, ok := en[l.Slug]
		if !ok {
			b.fail(l.Source, 1, "no English original %s.en.md; every lesson is written in English first, translations follow its steps", l.Slug)
			continue
		}
		ids, refIDs := stepIDs(l), stepIDs(ref)
		if !slices.Equal(ids, refIDs) {
			line := 1
			for i, s := range l.Steps {
				if i >= len(ref.Steps) || s.ID != ref.Steps[i].ID {
					line = s.Line
					break
				}
			}
			b.fail(l.Source, line, "step ids [%s] differ from %s's [%s]; a translation has the same steps with the same {#id}s in the same order",
				strings.Join(ids, " "), ref.Source, strings.Join(refIDs, " "))
			continue
		}
		if b.canon[l.Source+"#"] != b.canon[ref.Source+"#"] {
			b.fail(l.Source, 1, "the intro's scenario differs from %s's; a translation shows the same scenarios", ref.Source)
		}
		for i, s := range l.Steps {
			if b.canon[l.Source+"#"+s.ID] != b.canon[ref.Source+"#"+s.ID] {
				b.fail(l.Source, s.Line, "step %q shows a different scenario from %s:%d; a translation shows the same scenarios (copy the block)",
					s.ID, ref.Source, ref.Steps[i].Line)
			}
			if !sameKnobs(s.Knobs, ref.Steps[i].Knobs) {
				b.fail(l.Source, s.Line, "step %q has other knobs than %s:%d; a translation has the same knobs (keys, values, defaults; only the labels change)",
					s.ID, ref.Source, ref.Steps[i].Line)
			}
			if r := ref.Steps[i]; !sameDrill(s.drill, r.drill, s.drillAnswer, r.drillAnswer) {
				b.fail(l.Source, s.Line, "step %q has another drill than %s:%d; a translation has the same drill (symptom, fixes, answer; only the words change)",
					s.ID, ref.Source, r.Line)
			}
			if !sameGoals(s.Goals, ref.Steps[i].Goals) {
				b.fail(l.Source, s.Line, "step %q has other goals than %s:%d; a translation has the same goals (knob, want, pick, show; only the words change)",
					s.ID, ref.Source, ref.Steps[i].Line)
			}
		}
	}
}

// checkAssumes makes sure every lesson a lesson assumes exists and comes
// before it in the order (order, then slug), and that a translation assumes
// what its English original does.
func (b *builder) checkAssumes(lessons []*Lesson) {
	en := make(map[string]*Lesson)
	for _, l := range lessons {
		if l.Lang == "en" || en[l.Slug] == nil {
			en[l.Slug] = l
		}
	}
	before := func(a, c *Lesson) bool { return a.Order < c.Order || a.Order == c.Order && a.Slug < c.Slug }
	for _, l := range lessons {
		for i, slug := range l.Assumes {
			line := l.assumesLines[i]
			other, ok := en[slug]
			switch {
			case !ok:
				b.fail(l.Source, line, "assumes: %q is not a lesson here; use the slug of an earlier lesson (a file name without .en.md)", slug)
			case slug == l.Slug:
				b.fail(l.Source, line, "assumes: a lesson cannot assume itself; remove %q", slug)
			case !before(other, l):
				b.fail(l.Source, line, "assumes: %q (order %d) does not come before this lesson (order %d); a lesson assumes only earlier ones: change the orders or remove %q",
					slug, other.Order, l.Order, slug)
			}
		}
		if ref := en[l.Slug]; ref != nil && ref != l && !slices.Equal(ref.Assumes, l.Assumes) {
			b.fail(l.Source, max(1, l.assumesLine), "assumes: [%s] differs from %s's [%s]; a translation assumes the same lessons",
				strings.Join(l.Assumes, ", "), ref.Source, strings.Join(ref.Assumes, ", "))
		}
	}
}

func stepIDs(l *Lesson) []string {
	ids := make([]string, len(l.Steps))
	for i, s := range l.Steps {
		ids[i] = s.ID
	}
	return ids
}
