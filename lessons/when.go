package lessons

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"fabriclab/lessons/figures"
)

// Conditional text: within one paragraph (or one emphasis, link, …),
//
//	{{ if collective.algo == tree }}the tree…{{ else if … }}…{{ else }}the ring…{{ end }}
//
// keeps every variant in the step's HTML; the build shows the first whose
// condition holds for the run at the knobs' defaults and hides the others,
// and the page, on each run a knob starts, shows the one that holds for
// that run (the canvas evaluates each condition as it computes figures).
// A condition is a figures.Condition.

// KindWhenMarker, KindWhen and KindWhenBranch are the node kinds of
// conditional text: a marker as parsed, and the group and branches the
// markers turn into.
var (
	KindWhenMarker = ast.NewNodeKind("WhenMarker")
	KindWhen       = ast.NewNodeKind("When")
	KindWhenBranch = ast.NewNodeKind("WhenBranch")
)

// WhenMarker is one of {{ if C }}, {{ else if C }}, {{ else }}, {{ end }}
// as parsed. Grouping turns well-placed markers into a When; a marker left
// in the tree has Err set (the build reports it).
type WhenMarker struct {
	ast.BaseInline
	Word   string // if, else if, else, end
	Cond   figures.Condition
	Raw    string
	Offset int
	Err    error
}

// Kind implements ast.Node.
func (n *WhenMarker) Kind() ast.NodeKind { return KindWhenMarker }

// Dump implements ast.Node.
func (n *WhenMarker) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Raw": n.Raw}, nil)
}

// When is a piece of conditional text: its children are WhenBranches, of
// which the page shows one (or none, when no condition holds and there is
// no {{ else }}).
type When struct {
	ast.BaseInline
	Offset int // of its {{ if }}
}

// Kind implements ast.Node.
func (n *When) Kind() ast.NodeKind { return KindWhen }

// Dump implements ast.Node.
func (n *When) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// WhenBranch is one variant: Cond nil for {{ else }}.
type WhenBranch struct {
	ast.BaseInline
	Cond   *figures.Condition
	Raw    string
	Offset int
	Err    error // the condition's syntax error
	Shown  bool  // set by the build: the variant that holds at the defaults
}

// Kind implements ast.Node.
func (n *WhenBranch) Kind() ast.NodeKind { return KindWhenBranch }

// Dump implements ast.Node.
func (n *WhenBranch) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Raw": n.Raw}, nil)
}

// whenMarker reads the inside of {{ … }} as a marker, or returns nil for a figure.
func whenMarker(inner string, raw []byte, offset int) ast.Node {
	s := strings.TrimSpace(inner)
	m := &WhenMarker{Raw: string(raw), Offset: offset}
	switch {
	case s == "else" || s == "end":
		m.Word = s
		return m
	case strings.HasPrefix(s, "if "):
		m.Word = "if"
		m.Cond, m.Err = figures.ParseCondition(s[3:])
	case strings.HasPrefix(s, "else if "):
		m.Word = "else if"
		m.Cond, m.Err = figures.ParseCondition(s[8:])
	default:
		return nil
	}
	if m.Err != nil {
		m.Err = fmt.Errorf("%s: %w", raw, m.Err)
	}
	return m
}

type whenGrouper struct{}

// Transform groups the markers of each parent into When nodes.
func (whenGrouper) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var parents []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if m, ok := n.(*WhenMarker); ok && entering && (len(parents) == 0 || parents[len(parents)-1] != m.Parent()) {
			parents = append(parents, m.Parent())
		}
		return ast.WalkContinue, nil
	})
	for _, p := range parents {
		groupWhen(p)
	}
}

// groupWhen moves what stands between the markers of p's children into
// branches. A misplaced marker stays, with Err set.
func groupWhen(p ast.Node) {
	var group *When
	var branch *WhenBranch
	var open *WhenMarker
	elsed := false
	for c := p.FirstChild(); c != nil; {
		next := c.NextSibling()
		m, ok := c.(*WhenMarker)
		switch {
		case !ok:
			if branch != nil {
				p.RemoveChild(p, c)
				branch.AppendChild(branch, c)
			}
		case m.Err != nil:
		case m.Word == "if" && group != nil:
			m.Err = fmt.Errorf("%s inside the {{ if }} of %s; conditions do not nest: end the first with {{ end }}", m.Raw, open.Raw)
		case m.Word != "if" && group == nil:
			m.Err = fmt.Errorf("%s without an {{ if … }} before it in the same paragraph; start with {{ if condition }}", m.Raw)
		case m.Word != "end" && elsed:
			m.Err = fmt.Errorf("%s after {{ else }}; {{ else }} is the last variant: move it to the end", m.Raw)
		default:
			if m.Word == "if" {
				group, open, elsed = &When{Offset: m.Offset}, m, false
				p.ReplaceChild(p, m, group)
			} else {
				p.RemoveChild(p, m)
			}
			branch = nil
			switch m.Word {
			case "end":
				group, elsed = nil, false
			case "else":
				elsed = true
				branch = &WhenBranch{Raw: m.Raw, Offset: m.Offset}
			default:
				cond := m.Cond
				branch = &WhenBranch{Cond: &cond, Raw: m.Raw, Offset: m.Offset}
			}
			if branch != nil {
				group.AppendChild(group, branch)
			}
		}
		c = next
	}
	if group != nil {
		// Unclosed: put the marker back, with the error, after the group.
		open.Err = fmt.Errorf("%s has no {{ end }} in the same paragraph; close it with {{ end }}", open.Raw)
		p.InsertAfter(p, group, open)
	}
}

func renderWhenMarker(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.Write(util.EscapeHTML([]byte(node.(*WhenMarker).Raw)))
	}
	return ast.WalkContinue, nil
}

// renderWhen writes <span class="lesson-when">, holding a
// <span class="lesson-when-branch" data-when="if …"> per variant (no
// data-when for {{ else }}), all but the shown one hidden.
func renderWhen(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(`<span class="lesson-when">`)
	} else {
		_, _ = w.WriteString(`</span>`)
	}
	return ast.WalkContinue, nil
}

func renderWhenBranch(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString(`</span>`)
		return ast.WalkContinue, nil
	}
	n := node.(*WhenBranch)
	_, _ = w.WriteString(`<span class="lesson-when-branch"`)
	if n.Cond != nil {
		fmt.Fprintf(w, ` data-when="%s"`, util.EscapeHTML([]byte(n.Cond.String())))
	}
	if !n.Shown {
		_, _ = w.WriteString(` hidden`)
	}
	_, _ = w.WriteString(`>`)
	return ast.WalkContinue, nil
}
