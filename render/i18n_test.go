package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font/sfnt"

	"fabriclab/assets"
)

// Every glyph of every catalogue string, in both languages and all weights,
// is in the Go font or in the CJK subset: a Chinese string with a character
// the subset lacks would draw as a box. (The fix: make fonts.)
func TestCatalogueGlyphs(t *testing.T) {
	var buf sfnt.Buffer
	for w := assets.Regular; w <= assets.Bold; w++ {
		latin, err := sfnt.Parse(assets.Font(w))
		require.NoError(t, err)
		cjk, err := sfnt.Parse(assets.CJKFont(w))
		require.NoError(t, err)
		has := func(f *sfnt.Font, r rune) bool {
			gi, err := f.GlyphIndex(&buf, r)
			return err == nil && gi != 0
		}
		for _, k := range Keys() {
			for _, s := range []string{T(EN, k), T(ZH, k)} {
				for _, r := range s {
					if r == ' ' || has(latin, r) {
						continue
					}
					assert.True(t, has(cjk, r), "%q (weight %d) has %q, which neither font draws: run make fonts", s, w, string(r))
				}
			}
		}
	}
}

// Both languages have every string, with the same format verbs.
func TestCatalogueComplete(t *testing.T) {
	verbs := func(s string) int { return strings.Count(s, "%") - 2*strings.Count(s, "%%") }
	for k, tx := range catalogue {
		assert.NotEmpty(t, tx.EN, k)
		assert.NotEmpty(t, tx.ZH, k)
		assert.Equal(t, verbs(tx.EN), verbs(tx.ZH), "%s: %q and %q take different arguments", k, tx.EN, tx.ZH)
	}
	assert.Equal(t, "队列深度（最忙的端口）", T(ZH, "chart.queues"))
	assert.Equal(t, "Queue depth, busiest ports", T("", "chart.queues"), "no language is English")
	assert.Equal(t, "no.such.key", T(ZH, "no.such.key"), "an unknown key draws as itself")
	assert.Equal(t, "8 条中已完成 3 条 · 中位数 1 µs · p99 2 µs", Tf(ZH, "chart.fct.figures", 3, 8, "1 µs", "2 µs"), "Chinese reorders the figures")
}

// Every key that render's code passes to T, Tf, b.t or b.tf as a literal is
// in the catalogue, and every catalogue key is used somewhere (by a literal,
// or a prefix such as "role." + name).
func TestCatalogueKeys(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	used := map[string]bool{}
	var prefixes []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch e := call.Fun.(type) {
			case *ast.Ident:
				fn = e.Name
			case *ast.SelectorExpr:
				fn = e.Sel.Name
			}
			arg := -1
			switch fn {
			case "T", "Tf":
				arg = 1
			case "t", "tf":
				arg = 0
			}
			if arg < 0 || len(call.Args) <= arg {
				return true
			}
			switch a := call.Args[arg].(type) {
			case *ast.BasicLit:
				k, _ := strconv.Unquote(a.Value)
				used[k] = true
				_, ok := catalogue[k]
				assert.True(t, ok, "%s: key %q is not in the catalogue", fset.Position(a.Pos()), k)
			case *ast.BinaryExpr: // "role." + r.String()
				if l, ok := a.X.(*ast.BasicLit); ok {
					p, _ := strconv.Unquote(l.Value)
					prefixes = append(prefixes, p)
				}
			}
			return true
		})
	}
	require.NotEmpty(t, used, "the walk found the calls")
	for k := range catalogue {
		if used[k] || k == "error.title" { // for cmd/viz
			continue
		}
		found := false
		for _, p := range prefixes {
			found = found || strings.HasPrefix(k, p)
		}
		assert.True(t, found, "catalogue key %q is used nowhere", k)
	}
}
