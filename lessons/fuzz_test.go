package lessons

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

func FuzzQuiz(f *testing.F) {
	f.Add("question: Q?\noptions: [{text: a, why: W}, b]\nanswer: 1\nexplain: E.\n")
	f.Add("question: Q?\noptions:\n  - text: a\n    why: 'W: x'\n  - {text: b}\n  - {why: w, text: c}\nanswer: 1\nexplain: E.\n")
	f.Add("question: Q?\noptions: [{text: a, why: W, x: y}, {text: b, why: V}]\nanswer: 1\nexplain: E.\n")
	f.Add("question: Q\noptions:\n  - a: b\nanswer: -1\n")
	f.Add("options: *x\n")
	f.Add("question: '  Q: two  '\noptions:\n  - 'null'\n  - \"x\\ny \"\n  - |\n    block\n    text\nanswer: +2\nexplain: \"#E\"\n")
	f.Add("question: Q\noptions: [a, b, c]\nanswer: 3\nexplain: E\n")
	f.Add("question: Q\nquestion: R\n")
	f.Fuzz(func(t *testing.T, in string) {
		q, err := ParseQuiz([]byte(in))
		if err != nil {
			// The line is in the block, and the message says what to write.
			assert.GreaterOrEqual(t, err.Line, 1, "%q: %v", in, err)
			// YAML breaks lines at \n, \r\n and a lone \r.
			breaks := strings.Count(strings.ReplaceAll(in, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(in, "\r\n", ""), "\r")
			assert.LessOrEqual(t, err.Line, breaks+2, "%q: %v", in, err)
			require.NotEmpty(t, err.Msg)
			noInternals(t, err.Msg, in)
			return
		}
		require.True(t, q.Answer >= 0 && q.Answer < len(q.Options), "a valid quiz's answer is an option")
		assert.True(t, len(q.Options) >= 2 && len(q.Options) <= MaxQuizOptions)
		texts := []string{q.Question, q.Explain}
		for i, o := range q.Options {
			texts = append(texts, o.Text)
			// Every wrong option says why; the answer does not.
			assert.Equal(t, i != q.Answer, o.Why != "", "option %d of %q", i, in)
			if o.Why != "" {
				texts = append(texts, o.Why)
			}
		}
		for _, s := range texts {
			assert.NotEmpty(t, s)
			assert.Equal(t, strings.TrimSpace(s), s, "texts are trimmed")
		}
		// A quiz written back as YAML reads the same.
		out, yerr := yaml.Marshal(q)
		require.NoError(t, yerr)
		again, err := ParseQuiz(out)
		require.Nil(t, err, "%q read as %+v, written as %q", in, q, out)
		assert.Equal(t, q, again, "%q written as %q", in, out)
	})
}

func FuzzDrill(f *testing.F) {
	f.Add(drillOK)
	f.Add("question: Q\nsymptom: totals.drops\noptions: [{text: a, fix: [x]}, b]\nanswer: 1\nexplain: E\nfixed: F\n")
	f.Add("question: Q\nsymptom: a > 1\noptions:\n  - {text: a, why: W, fix: {x: 1}}\n  - {text: b, fix: [y=2], fix: [z=3]}\nanswer: 1\nexplain: E\nfixed: \"x\\ny\"\n")
	f.Add("symptom: [a]\nfixed: ''\n")
	f.Fuzz(func(t *testing.T, in string) {
		q, d, err := ParseDrill([]byte(in))
		if err != nil {
			assert.GreaterOrEqual(t, err.Line, 1, "%q: %v", in, err)
			require.NotEmpty(t, err.Msg)
			noInternals(t, err.Msg, in)
			return
		}
		// A valid drill is a valid quiz with a fix for every option, a symptom and a label.
		require.Len(t, d.Fixes, len(q.Options), "%q", in)
		for i, fix := range d.Fixes {
			assert.NotEmpty(t, fix, "option %d of %q", i, in)
			for _, s := range fix {
				assert.Contains(t, s, "=")
			}
		}
		assert.NotEmpty(t, d.Symptom)
		assert.NotEmpty(t, d.Fixed)
		require.True(t, q.Answer >= 0 && q.Answer < len(q.Options))
	})
}

// noInternals checks that a message about input has no Go formatting
// mistakes or internals in it (unless the input itself does).
func noInternals(t *testing.T, msg, input string) {
	t.Helper()
	for _, bad := range []string{"%!", "<nil>", "Go struct", "Go value", "runtime error"} {
		if !strings.Contains(input, bad) {
			assert.NotContains(t, msg, bad, "input %q", input)
		}
	}
}

// fakeRun stands in for the simulation so that fuzzed lessons cannot ask
// for long runs.
func fakeRun(sc scenario.Scenario) (*metrics.Result, error) {
	if sc.Name == "fail" {
		return nil, errors.New("boom")
	}
	return &metrics.Result{Scenario: sc.Name, Flows: []metrics.Flow{{Gbps: 1}}}, nil
}

func FuzzLesson(f *testing.F) {
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\nIntro\n## A {#a}\n\n```scenario\nname: x\n```\n\n{{ flows[0].gbps | Gbps }}\n\n```quiz\nquestion: Q\noptions: [a, b]\nanswer: 0\nexplain: E\n```\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\nassumes: [x, x]\n---\n## A {#a}\n\n```scenario\nname: x\n```\n\n```quiz\nquestion: Q\noptions: [{text: a, why: W}, b]\nanswer: 1\nexplain: E\n```\n\nAfter {{ flows[0].gbps }}\n> ```quiz\n> question: Q\n> ```\n")
	f.Add("---\n---\n## {#}\n```scenario\nuse: incast\nset: [traffic.bytes=1]\n```\n{{")
	f.Add("---\ntitle: T\n---\n# H\n## B\n- ```quiz\n  x\n  ```\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\n---\nIntro\n## A {#a}\n\n```scenario\nname: fail\n```\n\n{{ flows[0].gbps }}\n## B {#b}\nText {{ flows[1].gbps }}\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: x\ntopology: {kind: star, hosts: 5}\ntraffic: {pattern: incast, senders: 2}\n```\n\n```knob\nkey: traffic.senders\nlabel: S\nrange: 1..4\n```\n```knob\nkey: network.routing\nlabel: R\nselect: [ecmp, spray]\ndefault: spray\n```\n{{ flows[0].gbps }}\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```compare\nleft:\n  label: L\n  use: incast\nright: {label: R, name: x}\n```\n\n{{ left.flows[0].gbps | Gbps }} {{ right.totals.drops }}\n## B {#b}\n{{ totals.drops }}\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: x\ntopology: {kind: star, hosts: 5}\ntraffic: {pattern: incast, senders: 2}\n```\n\n```knob\nkey: traffic.senders\nlabel: S\nrange: 1..4\n```\n\n```goal\nknob: traffic.senders\nwant: flows[0].gbps > 0.5\npick: any\nmeasure: \"{} Gb/s\"\nprompt: P\nfound: \"{} F\"\n```\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: x\n```\n::: more Why\n{{ totals.drops }}\n::: more\n## B {#b}\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: x\n```\n\n{{ if flows[0].gbps > 0 }}a {{ flows[0].bytes | bytes }}{{ else if scenario == x }}b{{ else }}c{{ end }} *{{ if totals.drops < 1 }}d{{ end }}* {{ end }}{{ else }}\n")
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: x\n```\n\n```drill\n" + drillOK + "```\n\n{{ flows[0].gbps }}\n## B {#b}\n")
	f.Fuzz(func(t *testing.T, in string) {
		// The translation is the same text with the language changed.
		zh := strings.Replace(in, "language: en\n", "language: zh-Hans\n", 1)
		fsys := fstest.MapFS{"x.en.md": {Data: []byte(in)}, "x.zh.md": {Data: []byte(zh)}}
		ls, err := load(fsys, fakeRun)
		lines := strings.Count(in, "\n") + 1
		if err != nil {
			require.Nil(t, ls)
			for _, e := range flatten(err) {
				var le *Error
				require.ErrorAs(t, e, &le, "every problem is an *Error: %v", e)
				assert.Contains(t, []string{"x.en.md", "x.zh.md"}, le.File, "the problem names its file")
				// The body starts on the line after the front matter, even
				// when the file ends with the front matter's ---.
				assert.True(t, le.Line >= 0 && le.Line <= lines+1, "%v: line %d of %d", le, le.Line, lines)
				assert.NotEmpty(t, le.Msg)
				noInternals(t, le.Msg, in)
			}
			return
		}
		require.Len(t, ls, 2, "a lesson and its translation")
		assert.Equal(t, []string{"en", "zh"}, []string{ls[0].Lang, ls[1].Lang}, "English first")
		assert.Equal(t, "x", ls[0].Slug)
		assert.Equal(t, stepIDs(ls[0]), stepIDs(ls[1]))
		assert.NotEmpty(t, ls[0].Steps, "a lesson has steps")
		for _, s := range ls[0].Steps {
			assert.True(t, s.Line >= 1 && s.Line <= lines, "step %q at line %d", s.ID, s.Line)
			// Nothing after a step's quiz shows a figure before it is answered.
			html := string(s.HTML)
			if end := strings.Index(html, "</form>"); end >= 0 && strings.Contains(html[:end], `class="lesson-quiz"`) {
				gate := strings.Index(html, `<div class="lesson-after-quiz"`)
				if fig := strings.LastIndex(html, `class="lesson-figure"`); fig > end {
					assert.True(t, gate > end && gate < fig, "step %q: a figure after the quiz is inside the gate: %s", s.ID, html)
				}
			}
		}
	})
}

// FuzzMore parses any Markdown with the lesson syntax: ::: more blocks
// never panic, and each renders as one <details> element, open and closed.
func FuzzMore(f *testing.F) {
	f.Add("::: more\ntext {{ totals.drops }}\n:::\n")
	f.Add("::: more Summary <b>\n- a\n- b\n\n```quiz\nq\n```\n:::\nafter\n")
	f.Add("::: more\n::: more\n:::\n:::\n")
	f.Add("> ::: more\n> quoted\n:::\n")
	f.Add("- ::: more\n  in a list\n  :::\n")
	f.Add("::: more\n```\n:::\n```\n")
	f.Add(":::more\n::: moreover\n    ::: more\n::: more\n## H {#h}\n")
	f.Fuzz(func(t *testing.T, in string) {
		md := newMarkdown("en")
		doc := md.Parser().Parse(text.NewReader([]byte(in)))
		blocks := 0
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if _, ok := n.(*MoreBlock); ok && entering {
				blocks++
			}
			return ast.WalkContinue, nil
		})
		var buf bytes.Buffer
		require.NoError(t, md.Renderer().Render(&buf, []byte(in), doc))
		out := buf.String()
		assert.Equal(t, blocks, strings.Count(out, `<details class="lesson-more">`), "%q: one <details> per block", in)
		assert.Equal(t, blocks, strings.Count(out, "</details>"), "%q: each closed", in)
	})
}
