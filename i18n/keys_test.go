package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyUses is what a scan of the module found: keys used as they are (with
// where), and prefixes of keys built at run time ("role." + name).
type keyUses struct {
	keys     map[string]string // key → file:line
	prefixes []string
	byDir    map[string]int // uses per directory, to check the scan saw each
}

func (u *keyUses) add(key, where string, prefix bool) {
	if prefix {
		u.prefixes = append(u.prefixes, key)
	} else {
		u.keys[key] = where
	}
	u.byDir[filepath.Dir(where)]++
}

// Every key that the module's Go code (i18n.T, i18n.Tf, render's b.t and
// b.tf), web's templates ({{t "key"}}, data-t…="key") and page scripts
// (t("key")) use is in the catalogue, and every catalogue key is used
// somewhere (as it is, or by a prefix such as "role." + name).
func TestCatalogueKeys(t *testing.T) {
	u := &keyUses{keys: map[string]string{}, byDir: map[string]int{}}
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "i18n" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			scanGo(t, u, p)
		case strings.HasSuffix(p, ".html") && filepath.Base(filepath.Dir(p)) == "templates",
			strings.HasSuffix(p, ".js") && filepath.Base(filepath.Dir(p)) == "static":
			scanPage(t, u, p)
		}
		return nil
	})
	require.NoError(t, err)
	for _, dir := range []string{"render", "lessons", "playback", "cmd/viz", "web", "web/templates", "web/static"} {
		require.NotZero(t, u.byDir[filepath.Join(root, dir)], "the scan found no use of the catalogue in %s", dir)
	}
	for k, where := range u.keys {
		assert.True(t, Has(k), "%s: key %q is not in the catalogue", where, k)
	}
	for _, k := range Keys() {
		_, found := u.keys[k]
		for _, p := range u.prefixes {
			found = found || strings.HasPrefix(k, p)
		}
		assert.True(t, found, "catalogue key %q is used nowhere", k)
	}
}

// scanGo finds the keys a Go file passes to T, Tf, t or tf.
func scanGo(t *testing.T, u *keyUses, path string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	require.NoError(t, err)
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		arg := -1
		switch fn := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && x.Name == "i18n" && (fn.Sel.Name == "T" || fn.Sel.Name == "Tf") {
				arg = 1
			} else if fn.Sel.Name == "t" || fn.Sel.Name == "tf" {
				arg = 0
			}
		case *ast.Ident:
			if fn.Name == "t" || fn.Name == "tf" {
				arg = 0
			}
		}
		if arg < 0 || len(call.Args) <= arg {
			return true
		}
		e := call.Args[arg]
		where := func() string { p := fset.Position(e.Pos()); return p.Filename + ":" + strconv.Itoa(p.Line) }
		prefix := false
		for { // "lesson.key." + id + ".keys": the literal on the left is a prefix
			b, ok := e.(*ast.BinaryExpr)
			if !ok {
				break
			}
			e, prefix = b.X, true
		}
		if l, ok := e.(*ast.BasicLit); ok && l.Kind == token.STRING {
			k, _ := strconv.Unquote(l.Value)
			u.add(k, where(), prefix)
		}
		return true
	})
}

var (
	pageKeyRE    = regexp.MustCompile(`\{\{-?\s*t\s+"([^"]+)"|data-t(?:-title|-label)?="([^"]+)"|\bt\(\s*"([^"]+)"\s*([,)+])`)
	pageKeyLines = func(s string, i int) int { return strings.Count(s[:i], "\n") + 1 }
)

// scanPage finds the keys a template or a page script uses.
func scanPage(t *testing.T, u *keyUses, path string) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(data)
	for _, m := range pageKeyRE.FindAllStringSubmatchIndex(s, -1) {
		for g := 1; g <= 3; g++ {
			if m[2*g] < 0 {
				continue
			}
			prefix := g == 3 && s[m[8]:m[9]] == "+"
			u.add(s[m[2*g]:m[2*g+1]], path+":"+strconv.Itoa(pageKeyLines(s, m[0])), prefix)
		}
	}
}
