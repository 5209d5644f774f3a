package lessons

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindMore is the node kind of a ::: more block.
var KindMore = ast.NewNodeKind("More")

// MoreBlock is a "more" disclosure: material a presenter can leave out,
// closed on the page until a learner opens it. It holds ordinary lesson
// Markdown (figures, lists, quizzes), between a line "::: more" (optionally
// followed by its summary) and a line ":::".
type MoreBlock struct {
	ast.BaseBlock
	Summary string // what the closed block shows; "" for the default
	Offset  int    // byte offset of the opening line
	Closed  bool   // its closing ::: was found
}

// Kind implements ast.Node.
func (*MoreBlock) Kind() ast.NodeKind { return KindMore }

// Dump implements ast.Node.
func (n *MoreBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Summary": n.Summary}, nil)
}

// moreFence reads a ::: line: ok if it is one (at most three spaces of
// indent), with what follows the colons.
func moreFence(line []byte, offset int) (rest string, ok bool) {
	w, pos := util.IndentWidth(line, offset)
	if w > 3 || !strings.HasPrefix(string(line[pos:]), ":::") {
		return "", false
	}
	return strings.TrimSpace(string(line[pos+3:])), true
}

// moreParser is the block parser of ::: more. Its lines go to the usual
// parsers until a line ":::" closes it (even inside a code fence: the
// block ends at the first such line).
type moreParser struct{}

func (moreParser) Trigger() []byte { return []byte{':'} }

func (moreParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	rest, ok := moreFence(line, reader.LineOffset())
	if !ok || (rest != "more" && !strings.HasPrefix(rest, "more ") && !strings.HasPrefix(rest, "more\t")) {
		return nil, parser.NoChildren
	}
	n := &MoreBlock{Summary: strings.TrimSpace(strings.TrimPrefix(rest, "more")), Offset: seg.Start}
	reader.AdvanceToEOL()
	return n, parser.HasChildren
}

func (moreParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if rest, ok := moreFence(line, reader.LineOffset()); ok && rest == "" {
		node.(*MoreBlock).Closed = true
		reader.AdvanceToEOL()
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (moreParser) Close(ast.Node, text.Reader, parser.Context) {}
func (moreParser) CanInterruptParagraph() bool                 { return true }
func (moreParser) CanAcceptIndentedLine() bool                 { return false }

// moreExtension adds ::: more blocks: the parser, and a renderer that
// writes <details class="lesson-more"><summary>…</summary>…</details>.
type moreExtension struct{ label string }

func (e moreExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithBlockParsers(util.Prioritized(moreParser{}, 90)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(e, 100)))
}

func (e moreExtension) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindMore, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			_, _ = w.WriteString("</details>\n")
			return ast.WalkContinue, nil
		}
		summary := n.(*MoreBlock).Summary
		if summary == "" {
			summary = e.label
		}
		_, _ = fmt.Fprintf(w, "<details class=\"lesson-more\"><summary>%s</summary>\n", html.EscapeString(summary))
		return ast.WalkContinue, nil
	})
}

// checkMore reports a ::: more block left open, one inside another, and a
// step heading (## or #) inside one (the step would vanish into it).
func (b *builder) checkMore(f *lessonFile, doc ast.Node) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		m, ok := n.(*MoreBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		line := f.line(m.Offset)
		nested := false
		for p := m.Parent(); p != nil; p = p.Parent() {
			_, in := p.(*MoreBlock)
			nested = nested || in
		}
		switch {
		case nested: // its ::: closed the outer block
			b.fail(f.name, line, "a ::: more block inside another; close the first with ::: before opening the next")
		case !m.Closed:
			b.fail(f.name, line, "a ::: more block is not closed; end it with a line ::: before the next step")
		}
		for c := m.FirstChild(); c != nil; c = c.NextSibling() {
			if h, ok := c.(*ast.Heading); ok && h.Level <= 2 {
				b.fail(f.name, f.line(headingOffset(h)), "a step heading inside the ::: more block of line %d; close the block with ::: before the heading (### and smaller may stay)", line)
			}
		}
		return ast.WalkContinue, nil
	})
}
