package lessons

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"

	"fabriclab/assets"
)

// KindCompare is the node kind of a ```compare block.
var KindCompare = ast.NewNodeKind("Compare")

// CompareBlock is a fenced ```compare block: it takes the place of a step's
// scenario block and shows two scenarios side by side, in lock-step on one
// time axis. Each side holds what a scenario block holds (a whole scenario,
// or use: and set:) plus a label:
//
//	left:
//	  label: ECMP
//	  use: ecmp-collisions
//	right:
//	  label: Adaptive routing
//	  use: ecmp-collisions
//	  set: [network.routing=adaptive]
//
// Figures in its step name the side: {{ left.totals.max_fct_us | us }}.
type CompareBlock struct {
	ast.BaseBlock
	// YAML is the block's content as written.
	YAML string
	// Offset is the byte offset of the fence in the parsed source.
	Offset int
	// Info is what follows "compare" on the fence line (an error when not empty).
	Info string
	// Labels and Names are the sides' labels and scenario names, once resolved.
	Labels, Names [2]string
}

// Kind implements ast.Node.
func (n *CompareBlock) Kind() ast.NodeKind { return KindCompare }

// Dump implements ast.Node.
func (n *CompareBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Left": n.Labels[0], "Right": n.Labels[1]}, nil)
}

// IsRaw implements ast.Node: the block's content is not Markdown.
func (n *CompareBlock) IsRaw() bool { return true }

// Compare is what the page receives for a compare step: each side's label
// and the YAML its half of the canvas loads.
type Compare struct {
	Left  CompareSide `json:"left"`
	Right CompareSide `json:"right"`
}

// CompareSide is one side of a comparison.
type CompareSide struct {
	Label        string `json:"label"`
	Scenario     string `json:"scenario"`      // the YAML the canvas loads
	ScenarioName string `json:"scenario_name"` // its name key
}

// MaxCompareLabel bounds a side's label (in characters): it heads half the canvas.
const MaxCompareLabel = 40

// compareSides are the block's keys, which are also the figures' side prefixes.
var compareSides = [2]string{"left", "right"}

type compareRenderer struct{ labels labels }

// render writes <p class="lesson-compare" data-left="NAME" data-right="NAME">▶ compare: LEFT vs RIGHT</p>.
func (r compareRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*CompareBlock)
	esc := func(s string) []byte { return util.EscapeHTML([]byte(s)) }
	_, _ = fmt.Fprintf(w, "<p class=\"lesson-compare\" data-left=\"%s\" data-right=\"%s\">▶ %s<b>%s</b>%s<b>%s</b></p>\n",
		esc(n.Names[0]), esc(n.Names[1]), esc(r.labels.Compare), esc(n.Labels[0]), esc(r.labels.Versus), esc(n.Labels[1]))
	return ast.WalkSkipChildren, nil
}

// resolvedCompare is a compare block read and validated.
type resolvedCompare struct {
	labels [2]string
	sides  [2]resolvedScenario
}

// compare is what the page receives.
func (c *resolvedCompare) compare() *Compare {
	side := func(i int) CompareSide {
		return CompareSide{Label: c.labels[i], Scenario: c.sides[i].yaml, ScenarioName: c.sides[i].parsed.Name}
	}
	return &Compare{Left: side(0), Right: side(1)}
}

// canonical is what the translations check compares: both sides' scenarios (labels are words, which differ).
func (c *resolvedCompare) canonical() string {
	return "compare\nleft:\n" + c.sides[0].canonical + "right:\n" + c.sides[1].canonical
}

// resolveCompare reads a compare block of file whose content starts on line
// first (its fence is on first−1). Each side goes through resolveScenario,
// so its problems are reported at their lines in the lesson file.
func resolveCompare(src, file string, first int) (resolvedCompare, []error) {
	fence := first - 1
	var r resolvedCompare
	at := func(n *yaml.Node) int { return first + n.Line - 1 }
	fail := func(line int, format string, args ...any) []error {
		return []error{&Error{file, line, "compare block: " + fmt.Sprintf(format, args...)}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		line := fence
		var n int
		if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &n); e == nil && n > 0 {
			line = first + n - 1
		}
		return r, fail(line, "not YAML (%s); write left: and right:, each with a label: and a scenario", yamlReason(err))
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return r, fail(fence, "write two keys, left: and right:, each with a label: and a scenario (use: NAME, or a whole scenario)")
	}
	m := doc.Content[0]
	var found [2]*yaml.Node
	var keyLine [2]int
	var errs []error
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		s := -1
		for j, name := range compareSides {
			if k.Value == name {
				s = j
			}
		}
		switch {
		case s < 0:
			errs = append(errs, fail(at(k), "%q is not a key of a compare block; it takes left: and right:, each with a label: and a scenario", k.Value)...)
		case found[s] != nil:
			errs = append(errs, fail(at(k), "%s: is given twice (first at line %d); give each side once", k.Value, keyLine[s])...)
		default:
			found[s], keyLine[s] = v, at(k)
		}
	}
	for s, v := range found {
		if v == nil && len(errs) == 0 {
			errs = append(errs, fail(fence, "no %s: side; a comparison has two sides, left: and right:, each with a label: and a scenario", compareSides[s])...)
		}
	}
	if len(errs) > 0 {
		return r, errs
	}
	lines := strings.SplitAfter(src, "\n")
	for s, v := range found {
		label, text, es := splitSide(v, lines, m, file, first, keyLine[s], compareSides[s])
		if len(es) > 0 {
			errs = append(errs, es...)
			continue
		}
		sc, es := resolveScenario(text, file, first)
		for _, e := range es {
			if le, ok := e.(*Error); ok {
				le.Msg = strings.Replace(le.Msg, "scenario block: ", "compare block: "+compareSides[s]+" side's scenario: ", 1)
			}
		}
		if len(es) > 0 {
			errs = append(errs, es...)
			continue
		}
		sc.yaml = strings.TrimLeft(sc.yaml, "\n")
		r.labels[s], r.sides[s] = label, sc
	}
	return r, errs
}

// splitSide takes one side of a compare block apart: its label, and the
// rest as the text of a scenario block, at the same lines (earlier lines and
// the label's line left blank) so that its problems are reported where they
// are.
func splitSide(v *yaml.Node, lines []string, top *yaml.Node, file string, first, keyLine int, name string) (string, string, []error) {
	fail := func(line int, format string, args ...any) (string, string, []error) {
		return "", "", []error{&Error{file, line, "compare block: " + name + ": " + fmt.Sprintf(format, args...)}}
	}
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		return fail(keyLine, "write the side's label: and its scenario under it, indented, e.g. label: ECMP and use: ecmp-collisions")
	}
	var label *yaml.Node
	var labelKey *yaml.Node
	rest := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Value == "label" {
			if label != nil {
				return fail(first+k.Line-1, "label: is given twice; give each side one label")
			}
			label, labelKey = val, k
			continue
		}
		rest.Content = append(rest.Content, k, val)
	}
	if label == nil {
		return fail(keyLine, "no label:; give the side a short label in the lesson's language, e.g. label: ECMP")
	}
	at := first + labelKey.Line - 1
	if label.Kind != yaml.ScalarNode || label.Tag == "!!null" || strings.TrimSpace(label.Value) == "" {
		return fail(at, "label: takes a short text, e.g. label: Adaptive routing")
	}
	text := strings.TrimSpace(label.Value)
	if label.Line != labelKey.Line || strings.ContainsAny(text, "\n\r") {
		return fail(at, "label: is one line of text; shorten it")
	}
	if n := utf8.RuneCountInString(text); n > MaxCompareLabel {
		return fail(at, "label: is %d characters; at most %d fit over half the canvas: shorten it", n, MaxCompareLabel)
	}
	if m := assets.Missing(text); len(m) > 0 {
		return fail(at, "label: the canvas's font cannot draw %q (its Chinese font is a subset); use other words, or add them to assets/fonts/margin.txt and run make fonts", string(m))
	}
	if len(rest.Content) == 0 {
		return fail(keyLine, "no scenario beside the label; add use: NAME (and set: [...]) or a whole scenario's keys")
	}
	// A block-style side is cut out of the text, line for line; a flow-style
	// one ({label: …, use: …}) is written out again, its lines at the side's.
	if v.Style&yaml.FlowStyle != 0 {
		out, err := yaml.Marshal(rest)
		if err != nil {
			return fail(keyLine, "cannot read the side (%v); write it in block style, one key a line", err)
		}
		return text, strings.Repeat("\n", max(0, v.Line-1)) + string(out), nil
	}
	start := v.Content[0].Line // the side's first key
	end := len(lines)          // the line after the side
	for i := 0; i < len(top.Content); i += 2 {
		if l := top.Content[i].Line; l > start && l-1 < end {
			end = l - 1
		}
	}
	indent := v.Content[0].Column - 1
	var b strings.Builder
	for i := 1; i <= len(lines); i++ {
		line := lines[i-1]
		switch {
		case i < start || i > end || i == labelKey.Line:
			if strings.HasSuffix(line, "\n") {
				b.WriteByte('\n')
			}
		default:
			cut := 0
			for cut < indent && cut < len(line) && line[cut] == ' ' {
				cut++
			}
			b.WriteString(line[cut:])
		}
	}
	return text, b.String(), nil
}

// yamlReason is a YAML error without its "yaml: line N:" prefix.
func yamlReason(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if _, rest, ok := strings.Cut(s, ": "); ok && strings.HasPrefix(s, "line ") {
		return rest
	}
	return s
}

// compareFigure is what a figure in a compare step quotes: the side it
// names and the placeholder with the side taken off its path.
func compareFigure(n *FigureNode) (int, Placeholder, error) {
	p := n.Placeholder
	for s, name := range compareSides {
		if len(p.Steps) > 1 && p.Steps[0] == name {
			p.Steps = p.Steps[1:]
			p.Path = strings.TrimPrefix(p.Path, name+".")
			return s, p, nil
		}
	}
	return 0, p, fmt.Errorf("%s: this step compares two runs; name the side, e.g. {{ left.%s }} or {{ right.%s }}", n.Raw, p.Path, p.Path)
}

// compareBlock resolves a step's compare block; ownLine is the line of a
// block the step already has (0: none). ok says the block is the step's
// (r nil when it has problems, reported).
func (b *builder) compareBlock(f *lessonFile, cb *CompareBlock, ownLine int) (r *resolvedCompare, ok bool) {
	line := f.line(cb.Offset)
	if ownLine > 0 {
		b.fail(f.name, line, "a second scenario or compare block in this step (the first is at line %d); the canvas shows one per step: start a new step", ownLine)
		return nil, false
	}
	if cb.Info != "" {
		b.fail(f.name, line, "```compare takes nothing after its name (found %q); write left: and right: inside the block", cb.Info)
	}
	c, errs := resolveCompare(cb.YAML, f.name, line+1)
	b.errs = append(b.errs, errs...)
	if len(errs) > 0 {
		return nil, true
	}
	cb.Labels = c.labels
	cb.Names = [2]string{c.sides[0].parsed.Name, c.sides[1].parsed.Name}
	return &c, true
}

// sideFigure resolves one {{ left.… }} or {{ right.… }} against that side's run.
func (b *builder) sideFigure(f *lessonFile, n *FigureNode, c *resolvedCompare) {
	line := f.line(n.Offset)
	if n.Err != nil {
		b.fail(f.name, line, "%s", n.Err)
		return
	}
	s, p, err := compareFigure(n)
	if err != nil {
		b.fail(f.name, line, "%v", err)
		return
	}
	result, err := b.result(c.sides[s])
	if err != nil {
		b.fail(f.name, line, "%s: running the %s side's scenario failed: %v", n.Raw, compareSides[s], err)
		return
	}
	text, err := p.Lookup(result)
	if err != nil {
		b.fail(f.name, line, "%s: %s.%v", n.Raw, compareSides[s], err)
		return
	}
	n.Value = text
}
