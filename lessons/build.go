package lessons

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"fabriclab/lessons/figures"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

// builder loads lesson files, collecting problems and caching runs.
type builder struct {
	run     func(scenario.Scenario) (*metrics.Result, error)
	results map[string]figures.Source // canonical scenario → its run's result
	runErrs map[string]error
	canon   map[string]string // "file#step" → canonical scenario the step shows ("file#" for the intro)
	errs    []error
}

func (b *builder) fail(file string, line int, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

var stepID = lazyRegexp(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)

// lessonFile is one file being built.
type lessonFile struct {
	name     string
	body     []byte
	bodyLine int   // file line of body[0]
	lines    []int // byte offsets in body where each line starts
}

// line is the file line of byte offset off in the body.
func (f *lessonFile) line(off int) int {
	return f.bodyLine + sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
}

// file loads one lesson; nil when it has problems (recorded in b.errs).
func (b *builder) file(fsys fs.FS, name string) *Lesson {
	if b.canon == nil {
		b.canon = make(map[string]string)
	}
	m := fileName().FindStringSubmatch(name)
	if m == nil {
		b.fail(name, 0, "is not a lesson file name; name it <slug>.<lang>.md with a slug of lower-case letters, digits and dashes (e.g. incast.en.md, incast.zh.md)")
		return nil
	}
	slug, lang := m[1], m[2]
	if _, ok := Languages[lang]; !ok {
		b.fail(name, 0, "language %q in the file name is not one of ours; name it %s.en.md or %s.zh.md", lang, slug, slug)
		return nil
	}
	data, err := fs.ReadFile(fsys, name)
	var notRegular *scenario.NotRegularError
	switch {
	case errors.As(err, &notRegular): // a directory of the user's, read by scenario.UserDir
		b.fail(name, 0, "is %s, not a regular file: a lesson is a regular .md file; replace it with one or remove it", notRegular.Kind)
		return nil
	case errors.Is(err, scenario.ErrTooBig):
		b.fail(name, 0, "has more than %d bytes, the most a lesson may have: split it into two lessons", MaxFileBytes)
		return nil
	case err != nil:
		b.errs = append(b.errs, fmt.Errorf("%s: %w", name, err))
		return nil
	}
	if len(data) > MaxFileBytes {
		b.fail(name, 0, "is %d bytes; a lesson may have at most %d: split it into two lessons", len(data), MaxFileBytes)
		return nil
	}
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		b.fail(name, line, "is not UTF-8 text; save the file as UTF-8")
		return nil
	}
	yml, body, bodyLine, problem := splitFrontMatter(data)
	if problem != "" {
		b.fail(name, 1, "%s", problem)
		return nil
	}
	fm, ok := b.parseFrontMatter(name, lang, yml)
	l := &Lesson{Slug: slug, Lang: lang, Language: fm.Language, Title: fm.Title, Summary: fm.Summary,
		Level: fm.Level, Minutes: fm.Minutes, Order: fm.Order, Assumes: fm.Assumes, assumesLines: fm.AssumesLines, assumesLine: fm.AssumesLine, Source: name}
	f := &lessonFile{name: name, body: body, bodyLine: bodyLine, lines: []int{0}}
	for i, c := range body {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	before := len(b.errs)
	b.build(l, f)
	if !ok || len(b.errs) > before {
		return nil
	}
	return l
}

// section is the intro (heading nil) or one step: a heading and the blocks up to the next.
type section struct {
	heading *ast.Heading
	blocks  []ast.Node
}

// build parses the body, resolves scenarios and figures step by step, and renders.
func (b *builder) build(l *Lesson, f *lessonFile) {
	md := newMarkdown(l.Lang)
	doc := md.Parser().Parse(text.NewReader(f.body))
	b.checkMore(f, doc)
	sections := b.splitSections(f, doc)
	seen := map[string]int{}
	var in inForce
	for i, s := range sections {
		step, key := b.stepHeading(f, s, seen)
		b.readScenario(f, s, &in)
		b.canon[key] = in.current.canonical
		b.drill(f, s, &in, &step) // drill_build.go: checks the drill and hides the scenario's name
		step.Scenario, step.ScenarioName = in.current.yaml, in.current.parsed.Name
		// Knobs (knob_build.go); figures quote the scenario with the knobs at their defaults.
		shown, knobs := b.knobs(f, s, in.current, in.broken)
		step.Knobs = knobs
		step.Goals = b.goals(f, s, in.current, in.broken, knobs) // goal_build.go
		if in.cmp != nil {
			b.canon[key], step.Compare = in.cmp.canonical(), in.cmp.compare()
		}
		b.resolveFigures(f, s, in, shown)
		if s.heading != nil {
			step.Title = plainText(s.heading, f.body) // now with its figures
		}
		step.HTML = b.renderSection(md, f, s, step.Line)
		b.checkHidden(f, step)
		if i == 0 {
			l.Intro, l.IntroScenario = step.HTML, step.Scenario
			continue
		}
		l.Steps = append(l.Steps, step)
	}
}

// newMarkdown is the lesson parser and renderer for language lang.
func newMarkdown(lang string) goldmark.Markdown {
	opts := []goldmark.Option{
		goldmark.WithExtensions(Extension{Lang: lang}),
		goldmark.WithParserOptions(parser.WithHeadingAttribute()),
	}
	if lang == "zh" {
		// A line break between two Chinese characters is dropped, not shown as a space.
		// (What goldmark/extension's CJK does; that package is not imported because its
		// init compiles a dozen regexps, 0.7 ms of every start of the CLI.)
		opts = append(opts, goldmark.WithRendererOptions(html.WithEastAsianLineBreaks(html.EastAsianLineBreaksSimple)))
	}
	return goldmark.New(opts...)
}

// splitSections cuts the document at its level-2 headings: the intro, then
// one section per step.
func (b *builder) splitSections(f *lessonFile, doc ast.Node) []section {
	sections := []section{{}}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= 2 {
			if h.Level == 1 {
				b.fail(f.name, f.line(headingOffset(h)), "a level-1 heading (# …): the title comes from the front matter; start steps with ## Title {#id}")
				continue
			}
			sections = append(sections, section{heading: h})
			continue
		}
		sections[len(sections)-1].blocks = append(sections[len(sections)-1].blocks, n)
	}
	if len(sections) == 1 {
		b.fail(f.name, f.bodyLine, "no steps; each step starts with a heading ## Title {#id}")
	}
	return sections
}

// stepHeading reads a step's line, title and id from its heading (none for
// the intro), checks the id against those seen, and returns the step and
// its key in b.canon.
func (b *builder) stepHeading(f *lessonFile, s section, seen map[string]int) (Step, string) {
	step := Step{}
	key := f.name + "#"
	if s.heading == nil {
		return step, key
	}
	step.Line = f.line(headingOffset(s.heading))
	step.Title = plainText(s.heading, f.body)
	id, ok := s.heading.AttributeString("id")
	idText, _ := id.([]byte)
	step.ID = string(idText)
	switch {
	case !ok:
		b.fail(f.name, step.Line, "step %q has no id; end the heading with one, e.g. ## %s {#%s}", step.Title, step.Title, suggestID(step.Title))
	case !stepID().MatchString(step.ID):
		b.fail(f.name, step.Line, "step id %q has characters other than lower-case letters, digits and dashes; write e.g. {#predict}, starting with a letter", step.ID)
	case seen[step.ID] > 0:
		b.fail(f.name, step.Line, "step id %q is already used at line %d; give each step its own id", step.ID, seen[step.ID])
	default:
		seen[step.ID] = step.Line
	}
	return step, key + step.ID
}

// inForce is what the canvas shows so far, carried from step to step.
type inForce struct {
	current resolvedScenario
	cmp     *resolvedCompare // or the comparison it shows (compare.go)
	broken  bool             // the scenario in force has errors (already reported)
}

// readScenario applies the section's own scenario or compare block, if any,
// to in: it holds for all of the section's figures.
func (b *builder) readScenario(f *lessonFile, s section, in *inForce) {
	ownLine := 0 // the line of the step's scenario or compare block
	for _, n := range s.blocks {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if cb, ok := n.(*CompareBlock); ok && entering {
				if r, ok := b.compareBlock(f, cb, ownLine); ok {
					*in, ownLine = inForce{cmp: r, broken: r == nil}, f.line(cb.Offset)
				}
				return ast.WalkSkipChildren, nil
			}
			sb, ok := n.(*ScenarioBlock)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			line := f.line(sb.Offset)
			if ownLine > 0 {
				b.fail(f.name, line, "a second scenario block in this step (the first is at line %d); the canvas shows one scenario per step: start a new step", ownLine)
				return ast.WalkContinue, nil
			}
			ownLine, in.cmp = line, nil
			if sb.Info != "" {
				b.fail(f.name, line, "```scenario takes nothing after its name (found %q); write the scenario's keys inside the block", sb.Info)
			}
			r, errs := resolveScenario(sb.YAML, f.name, line+1)
			b.errs = append(b.errs, errs...)
			in.current, in.broken = r, len(errs) > 0
			sb.Name = r.parsed.Name
			return ast.WalkSkipChildren, nil
		})
	}
}

// resolveFigures checks the section's quizzes and resolves its figures
// against the scenario (shown: with the knobs at their defaults) or the
// comparison in force.
func (b *builder) resolveFigures(f *lessonFile, s section, in inForce, shown resolvedScenario) {
	walked := s.blocks
	if s.heading != nil {
		walked = append([]ast.Node{s.heading}, s.blocks...)
	}
	for _, n := range walked {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *QuizBlock:
				line, kind := f.line(n.Offset), "quiz"
				if n.Drill != nil {
					kind = "drill"
				}
				if n.Info != "" {
					b.fail(f.name, line, "```%s takes nothing after its name (found %q); write the question's keys inside the block", kind, n.Info)
				}
				if n.Err != nil {
					b.fail(f.name, line+n.Err.Line, "%s block: %s", kind, n.Err.Msg)
				}
			case *WhenMarker:
				b.fail(f.name, f.line(n.Offset), "%s", n.Err)
			case *When:
				if !in.broken {
					b.when(f, n, in, shown)
				}
			case *FigureNode:
				switch {
				case in.broken:
				case in.cmp != nil:
					b.sideFigure(f, n, in.cmp)
				default:
					b.figure(f, n, shown)
				}
			}
			return ast.WalkContinue, nil
		})
	}
}

// renderSection renders the heading and its blocks, moved into a document
// of their own. In a step with a quiz, what follows the quiz is wrapped in
// <div class="lesson-after-quiz" data-quiz="N" hidden>, and the knobs'
// status lines are hidden with data-quiz="N": the page reveals them once
// the quiz is answered, so nothing gives the answer away before.
func (b *builder) renderSection(md goldmark.Markdown, f *lessonFile, s section, line int) template.HTML {
	part := ast.NewDocument()
	if s.heading != nil {
		part.AppendChild(part, s.heading)
	}
	quiz, at := firstQuiz(s.blocks)
	var after *ast.Document
	for i, n := range s.blocks {
		if k, ok := n.(*KnobBlock); ok && quiz != nil {
			k.Quiz = quiz.Number
		}
		if quiz != nil && i > at {
			if after == nil {
				after = ast.NewDocument()
			}
			after.AppendChild(after, n)
			continue
		}
		part.AppendChild(part, n)
	}
	var buf bytes.Buffer
	if err := render(md, &buf, f.body, part); err != nil {
		b.fail(f.name, line, "rendering: %v", err)
	}
	if after != nil {
		fmt.Fprintf(&buf, "<div class=\"lesson-after-quiz\" data-quiz=\"%d\" hidden>\n", quiz.Number)
		if err := render(md, &buf, f.body, after); err != nil {
			b.fail(f.name, line, "rendering: %v", err)
		}
		buf.WriteString("</div>\n")
	}
	return template.HTML(buf.String())
}

// firstQuiz is a section's first quiz without errors and the index of the
// block that holds it (nil, -1: none).
func firstQuiz(blocks []ast.Node) (*QuizBlock, int) {
	for i, n := range blocks {
		var found *QuizBlock
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if q, ok := n.(*QuizBlock); ok && entering && q.Err == nil {
				found = q
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		})
		if found != nil {
			return found, i
		}
	}
	return nil, -1
}

// figure resolves one {{ … }} against the scenario in force.
func (b *builder) figure(f *lessonFile, n *FigureNode, sc resolvedScenario) {
	line := f.line(n.Offset)
	if n.Err != nil {
		b.fail(f.name, line, "%s", n.Err)
		return
	}
	if sc.canonical == "" {
		b.fail(f.name, line, "%s quotes a run, but no scenario is in force here; add a ```scenario block to this step or one before it", n.Raw)
		return
	}
	result, err := b.result(sc)
	if err != nil {
		b.fail(f.name, line, "%s: running the step's scenario failed: %v", n.Raw, err)
		return
	}
	text, err := n.Lookup(result)
	if err != nil {
		b.fail(f.name, line, "%s: %v", n.Raw, err)
		return
	}
	n.Value = text
}

// when shows the first branch of n whose condition holds for the run in
// force (in a compare step, conditions name their side: left.…, right.…).
func (b *builder) when(f *lessonFile, n *When, in inForce, sc resolvedScenario) {
	var result figures.Source
	var err error
	switch {
	case in.cmp != nil:
		var l, r figures.Source
		if l, err = b.result(in.cmp.sides[0]); err == nil {
			r, err = b.result(in.cmp.sides[1])
		}
		result = map[string]any{"left": l, "right": r}
	case sc.canonical == "":
		b.fail(f.name, f.line(n.Offset), "{{ if … }} asks about a run, but no scenario is in force here; add a ```scenario block to this step or one before it")
		return
	default:
		result, err = b.result(sc)
	}
	if err != nil {
		b.fail(f.name, f.line(n.Offset), "{{ if … }}: running the step's scenario failed: %v", err)
		return
	}
	shown := false
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		br := c.(*WhenBranch)
		holds := br.Cond == nil
		if !holds {
			holds, err = br.Cond.Eval(result)
			if err != nil {
				b.fail(f.name, f.line(br.Offset), "%s: %v", br.Raw, err)
				return
			}
		}
		br.Shown = holds && !shown
		shown = shown || holds
	}
}

// result runs sc once per build.
func (b *builder) result(sc resolvedScenario) (figures.Source, error) {
	if r, ok := b.results[sc.canonical]; ok {
		return r, nil
	}
	if err, ok := b.runErrs[sc.canonical]; ok {
		return nil, err
	}
	if b.runErrs == nil {
		b.runErrs = make(map[string]error)
	}
	res, err := b.run(sc.parsed)
	var v figures.Source
	if err == nil {
		var data []byte
		if data, err = json.Marshal(res); err == nil {
			v, err = figures.Decode(data)
		}
	}
	if err != nil {
		b.runErrs[sc.canonical] = err
		return nil, err
	}
	b.results[sc.canonical] = v
	return v, nil
}

// headingOffset is the byte offset of a heading's text (or 0).
func headingOffset(h *ast.Heading) int {
	if lines := h.Lines(); lines.Len() > 0 {
		return lines.At(0).Start
	}
	for c := h.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	return 0
}

// plainText is a heading's text without markup.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(source))
			if n.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *FigureNode:
			if n.Value != "" {
				b.WriteString(n.Value)
			} else {
				b.WriteString(n.Raw)
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// suggestID turns a title into an id for messages: "Predict the queue" → predict-the-queue.
func suggestID(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	if b.Len() == 0 || b.String()[0] < 'a' {
		return "step"
	}
	return b.String()
}

// firstInvalid is the offset of the first byte that is not valid UTF-8.
func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// render renders a step, turning a panic inside goldmark into an error: a
// lesson must fail the build with its place, never crash it.
func render(md goldmark.Markdown, w *bytes.Buffer, src []byte, n ast.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the Markdown renderer failed (%v); simplify this step's text", r)
		}
	}()
	return md.Renderer().Render(w, src, n)
}
