package lessons

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"fabriclab/i18n"
)

// Extension adds the lesson syntax to goldmark: ```scenario, ```compare, ```quiz, ```drill, ```knob and ```goal
// blocks, ::: more disclosures and {{ path | format }} figures, each with its own node kind and
// renderer. Lang (en or zh) picks the words of captions and buttons.
//
// The extension parses and renders; resolving the nodes (validating
// scenarios, filling in figures from a run) is the loader's job, between
// the two.
type Extension struct {
	Lang string
}

// Extend implements goldmark.Extender.
func (e Extension) Extend(m goldmark.Markdown) {
	l := labelsFor(e.Lang)
	fenceBlocks{"scenario", KindScenario, scenarioRenderer{l}.render, func(_ int, f fence) ast.Node {
		return &ScenarioBlock{YAML: f.text, Offset: f.offset, Info: f.info}
	}}.Extend(m)
	fenceBlocks{"compare", KindCompare, compareRenderer{l}.render, func(_ int, f fence) ast.Node {
		return &CompareBlock{YAML: f.text, Offset: f.offset, Info: f.info}
	}}.Extend(m)
	// A drill (drill.go) is a quiz whose options are fixes; both count as quizzes.
	fenceBlocks{"quiz drill", KindQuiz, quizRenderer{l}.render, func(i int, f fence) ast.Node {
		if f.lang == "drill" {
			q, d, err := ParseDrill([]byte(f.text))
			return &QuizBlock{Quiz: q, Drill: &d, Number: i + 1, Offset: f.offset, Info: f.info, Err: err}
		}
		q, err := ParseQuiz([]byte(f.text))
		return &QuizBlock{Quiz: q, Number: i + 1, Offset: f.offset, Info: f.info, Err: err}
	}}.Extend(m)
	figureExtension{}.Extend(m)
	moreExtension{l.More}.Extend(m)
	fenceBlocks{"knob", KindKnob, knobRenderer{l}.render, func(i int, f fence) ast.Node {
		k, at, err := parseKnob([]byte(f.text))
		if k.Control == "toggle" {
			k.Texts = []string{l.Off, l.On}
		}
		return &KnobBlock{Knob: k, Number: i + 1, Offset: f.offset, Info: f.info, Err: err,
			KeyLine: at.key, ValuesLine: at.values, DefaultLine: at.def, labels: l}
	}}.Extend(m)
	fenceBlocks{"goal", KindGoal, goalRenderer{l}.render, func(_ int, f fence) ast.Node {
		g, knob, want, err := parseGoal([]byte(f.text))
		return &GoalBlock{Goal: g, Offset: f.offset, Info: f.info, Err: err, KnobLine: knob, WantLine: want, labels: l}
	}}.Extend(m)
}

// fenceBlocks is one lesson block: a transformer that replaces every
// ```lang fence with node(i, fence) (i counts the fences from 0) and a
// renderer for the node's kind.
type fenceBlocks struct {
	lang   string // or several, separated by spaces
	kind   ast.NodeKind
	render renderer.NodeRendererFunc
	node   func(i int, f fence) ast.Node
}

func (b fenceBlocks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(b, 100)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(b, 100)))
}

func (b fenceBlocks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	for i, f := range fences(doc, reader.Source(), b.lang) {
		f.replace(b.node(i, f))
	}
}

func (b fenceBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(b.kind, b.render)
}

// labels are the few words the extension writes into a page.
type labels struct {
	Scenario string // caption of a scenario block, with its colon
	Compare  string // caption of a compare block, with its colon
	Versus   string // between its two labels
	Check    string // a quiz's button
	More     string // a ::: more block's summary when it gives none
	Right    string // verdicts the page's script shows
	Wrong    string
	// A quiz's other words: its Show me button, the hint after a wrong
	// answer, the verdict after Show me, and the marks on the options.
	ShowMe, Again, Shown, Mark, Tried string
	// A drill's (drill.go): the line under its explanation, and the run as found's label on the canvas.
	DrillBeside, DrillFound string
	// Knobs (knob.go): the group's name, its button, a toggle's states,
	// and the status line's sentences ({} is a value; Said joins a knob, its value and the outcome).
	TryIt, Reset, On, Off, Running, Failed, Said string
	Outcome                                      map[string]string // by what the step runs (knobStatus)
	Unfinished                                   string            // the flows outcome when some flows did not finish
	// Goals (goal.go): the box's name, its lead word and the goal line's sentences.
	Goal, GoalLead string
	GoalWords      GoalWords
	GoalOver       map[string]string // by pick
}

// labelsFor returns the labels in lang, from the catalogue (package i18n).
func labelsFor(lang string) labels {
	l := i18n.Lang(lang)
	return labels{Scenario: i18n.T(l, "block.scenario"), Compare: i18n.T(l, "block.compare"), Versus: i18n.T(l, "block.versus"),
		More:  i18n.T(l, "block.more"),
		Check: i18n.T(l, "quiz.check"), Right: i18n.T(l, "quiz.right"), Wrong: i18n.T(l, "quiz.wrong"),
		ShowMe: i18n.T(l, "quiz.show"), Again: i18n.T(l, "quiz.again"), Shown: i18n.T(l, "quiz.shown"),
		Mark: i18n.T(l, "quiz.mark"), Tried: i18n.T(l, "quiz.tried"),
		DrillBeside: i18n.T(l, "drill.beside"), DrillFound: i18n.T(l, "drill.found"),
		TryIt: i18n.T(l, "knob.try"), Reset: i18n.T(l, "knob.reset"), On: i18n.T(l, "knob.on"), Off: i18n.T(l, "knob.off"),
		Running: i18n.T(l, "knob.running"), Failed: i18n.T(l, "knob.failed"), Said: i18n.T(l, "knob.said"),
		Outcome: map[string]string{"flows": i18n.T(l, "knob.outcome.flows"), "collective": i18n.T(l, "knob.outcome.collective"),
			"training": i18n.T(l, "knob.outcome.training"), "mixed": i18n.T(l, "knob.outcome.mixed"), "inference": i18n.T(l, "knob.outcome.inference")},
		Unfinished: i18n.T(l, "knob.unfinished"),
		Goal:       i18n.T(l, "goal.label"), GoalLead: i18n.T(l, "goal.lead"),
		GoalWords: GoalWords{FoundIt: i18n.T(l, "goal.found"), NotYet: i18n.T(l, "goal.notyet"), Other: i18n.T(l, "goal.other")},
		GoalOver:  map[string]string{"smallest": i18n.T(l, "goal.over.smallest"), "largest": i18n.T(l, "goal.over.largest")}}
}

// fence is a fenced code block of a given language, found anywhere in a document.
type fence struct {
	node   *ast.FencedCodeBlock
	lang   string // the fence's language
	text   string // content
	info   string // the fence line after the language
	offset int    // byte offset of the fence line's info (or first content line)
}

// replace puts n where the fence was.
func (f fence) replace(n ast.Node) {
	f.node.Parent().ReplaceChild(f.node.Parent(), f.node, n)
}

// fences lists the fenced blocks whose language is one of langs (separated by spaces).
func fences(doc ast.Node, source []byte, langs string) []fence {
	var found []fence
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fc, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		lang := string(fc.Language(source))
		if !slices.Contains(strings.Fields(langs), lang) {
			return ast.WalkContinue, nil
		}
		f := fence{node: fc, lang: lang}
		if fc.Info != nil {
			info := fc.Info.Segment
			f.offset = info.Start
			f.info = strings.TrimSpace(strings.TrimPrefix(string(info.Value(source)), lang))
		}
		var b strings.Builder
		lines := fc.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			b.Write(seg.Value(source))
		}
		f.text = b.String()
		found = append(found, f)
		return ast.WalkSkipChildren, nil
	})
	return found
}
