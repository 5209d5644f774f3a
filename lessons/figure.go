package lessons

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"fabriclab/lessons/figures"
)

// KindFigure is the node kind of a {{ path | format }} figure.
var KindFigure = ast.NewNodeKind("Figure")

// FigureNode is a number quoted from the run of the step's scenario, written
// {{ path | format }} on one line, e.g. {{ totals.max_fct_us | ms }}. The
// path walks the JSON of `fabriclab run --json` (see Placeholder); the loader
// fills in Text. Write \{{ for literal braces.
type FigureNode struct {
	ast.BaseInline
	figures.Placeholder
	// Raw is the placeholder as written, braces included.
	Raw string
	// Offset is its byte offset in the parsed source.
	Offset int
	// Err is a syntax error in the placeholder.
	Err error
	// Value is the formatted value, once resolved.
	Value string
}

// Kind implements ast.Node.
func (n *FigureNode) Kind() ast.NodeKind { return KindFigure }

// Dump implements ast.Node.
func (n *FigureNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Raw": n.Raw, "Value": n.Value}, nil)
}

// MaxPlaceholderBytes bounds what may stand between {{ and }}.
const MaxPlaceholderBytes = 256

type figureExtension struct{}

func (figureExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(figureParser{}, 150)))
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(whenGrouper{}, 200)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(figureRenderer{}, 100)))
}

type figureParser struct{}

func (figureParser) Trigger() []byte { return []byte{'{'} }

// Parse reads "{{ … }}" on the current line; anything else is left as text.
func (figureParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("{{")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("}}"))
	if end < 0 || end > MaxPlaceholderBytes {
		return nil
	}
	raw := line[:end+4]
	block.Advance(len(raw))
	if m := whenMarker(string(raw[2:len(raw)-2]), raw, seg.Start); m != nil {
		return m
	}
	p, err := figures.Parse(string(raw[2 : len(raw)-2]))
	return &FigureNode{Placeholder: p, Raw: string(raw), Offset: seg.Start, Err: err}
}

type figureRenderer struct{}

func (figureRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindFigure, renderFigure)
	reg.Register(KindWhenMarker, renderWhenMarker)
	reg.Register(KindWhen, renderWhen)
	reg.Register(KindWhenBranch, renderWhenBranch)
}

// renderFigure writes <span class="lesson-figure" data-figure="SPEC" data-path="PATH">VALUE</span>;
// SPEC is the placeholder in one spelling (Placeholder.String), by which the
// page asks the canvas for the figure's value after a knob re-runs the step.
func renderFigure(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*FigureNode)
	text := n.Value
	if text == "" {
		text = n.Raw
	}
	fmt.Fprintf(w, `<span class="lesson-figure" data-figure="%s" data-path="%s">%s</span>`,
		util.EscapeHTML([]byte(n.String())), util.EscapeHTML([]byte(n.Path)), util.EscapeHTML([]byte(text)))
	return ast.WalkSkipChildren, nil
}

// Placeholder is the inside of {{ path | format }} (see package figures).
type Placeholder = figures.Placeholder

// ParsePlaceholder reads the text between {{ and }}.
func ParsePlaceholder(s string) (Placeholder, error) { return figures.Parse(s) }
