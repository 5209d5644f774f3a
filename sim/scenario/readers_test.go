package scenario

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileReads are the functions that open or read a file by its name: import
// path → names. A *os.Root reads too; it is listed where it is opened
// (os.OpenRoot). os.OpenFile opening only to write (O_WRONLY) is not a read.
var fileReads = map[string][]string{
	"os":                    {"ReadFile", "Open", "OpenFile", "DirFS", "OpenRoot", "OpenInRoot"},
	"io/ioutil":             {"ReadFile"},
	"syscall":               {"Open", "Openat"},
	"golang.org/x/sys/unix": {"Open", "Openat", "Openat2"},
	"html/template":         {"ParseFiles", "ParseGlob"},
	"text/template":         {"ParseFiles", "ParseGlob"},
	"net/http":              {"Dir", "ServeFile"},
}

// theReader are the files of the one reader of the user's files: ReadUserFile
// (and ReadFile, UserDir on it).
var theReader = []string{"sim/scenario/file.go", "sim/scenario/open_linux.go", "sim/scenario/open_other.go"}

// readsAllowed are the reads outside the one reader ("file: call in
// function"), each with why what it reads is not the user's.
var readsAllowed = map[string]string{
	"web/site.go: os.ReadFile in BuildSite":                          "wasm_exec.js of the Go installation (GOROOT)",
	"web/site.go: os.ReadFile in compileWASM":                        "the WebAssembly the build has just compiled into its own temporary directory",
	"web/output.go: os.OpenRoot in writeFiles":                       "the output directory, opened to write the site into it",
	"web/server.go: os.OpenRoot in OpenDir":                          "the site serve serves, read through os.Root with the server's limits",
	"cmd/fabriclab/srctree.go: os.ReadFile in moduleRoot":            "go.mod of the directories at and above the working directory, to find the source tree",
	"cmd/cjkchars/main.go: os.ReadFile in run":                       "a go generate tool (subset.sh): the repository's margin file",
	"sim/golden/golden.go: os.ReadFile in Equal":                     "a test helper: the repository's golden files",
	"sim/network/networktest/networktest.go: os.ReadFile in Builtin": "a test helper: loads built-in scenarios (no file is read)",
}

// Every file the project reads from the user goes through ReadUserFile, which
// refuses devices, FIFOs and sockets and reads no more than a limit: this
// lists every other read of a file by name in the module's (non-test) Go files,
// and fails unless it is in readsAllowed with why it is not the user's.
func TestEveryUserFileIsReadByReadUserFile(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(gomod), "module fabriclab\n"), "the module's root")

	found, err := fileReadsIn(root)
	require.NoError(t, err)
	require.NotEmpty(t, found, "the scan finds the reads listed as allowed")
	seen := map[string]bool{}
	for _, f := range found {
		seen[f.key] = true
		_, ok := readsAllowed[f.key]
		assert.True(t, ok, "%s reads a file by name: read the user's files through scenario.ReadUserFile (or ReadFile, UserDir), "+
			"or add %q to readsAllowed with why it is not the user's", f.pos, f.key)
	}
	for key := range readsAllowed {
		assert.True(t, seen[key], "readsAllowed lists %q, which is no longer in the tree: remove it", key)
	}
}

// A read found by fileReadsIn.
type fileRead struct {
	key string // "file: pkg.Name in Func"
	pos string // file:line
}

// fileReadsIn lists the uses (calls, and functions passed as values) of
// fileReads in the non-test Go files under root, outside theReader, test
// data and other modules.
func fileReadsIn(root string) ([]fileRead, error) {
	var found []fileRead
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || slices.Contains(theReader, rel) {
			return nil
		}
		reads, err := fileReadsOf(path, rel)
		found = append(found, reads...)
		return err
	})
	sort.Slice(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	return found, err
}

// fileReadsOf lists the uses of fileReads in one Go file.
func fileReadsOf(path, rel string) ([]fileRead, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imports := map[string]string{} // name in the file → import path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = p
	}
	var found []fileRead
	for _, decl := range f.Decls {
		fn := "(package level)"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && writeOnly(call, imports) {
				for _, a := range call.Args {
					ast.Inspect(a, func(n ast.Node) bool { found = append(found, readsIn(n, imports, fset, rel, fn)...); return true })
				}
				return false // the open itself only writes
			}
			found = append(found, readsIn(n, imports, fset, rel, fn)...)
			return true
		})
	}
	return found, nil
}

// readsIn is the read n names, if it names one of fileReads.
func readsIn(n ast.Node, imports map[string]string, fset *token.FileSet, rel, fn string) []fileRead {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || imports[x.Name] == "" || !slices.Contains(fileReads[imports[x.Name]], sel.Sel.Name) {
		return nil
	}
	return []fileRead{{
		key: fmt.Sprintf("%s: %s.%s in %s", rel, x.Name, sel.Sel.Name, fn),
		pos: fmt.Sprintf("%s:%d", rel, fset.Position(sel.Pos()).Line),
	}}
}

// writeOnly reports whether call is os.OpenFile with O_WRONLY in its flags.
func writeOnly(call *ast.CallExpr, imports map[string]string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) < 2 {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || imports[x.Name] != "os" || sel.Sel.Name != "OpenFile" {
		return false
	}
	wronly := false
	ast.Inspect(call.Args[1], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "O_WRONLY" {
			wronly = true
		}
		return true
	})
	return wronly
}

// The scan finds a read however it is written: called, passed as a value,
// under another import name; an open only to write is not a read.
func TestFileReadsOf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.go")
	require.NoError(t, os.WriteFile(path, []byte(`package x

import (
	"html/template"
	xos "os"
	"syscall"
)

var open = xos.Open

func Load(p string) {
	xos.ReadFile(p)
	use(xos.ReadFile)
	xos.OpenFile(p, xos.O_WRONLY|xos.O_CREATE|xos.O_TRUNC, 0o644)
	xos.OpenFile(xos.Args[1], xos.O_RDWR, 0)
	syscall.Open(p, syscall.O_RDONLY, 0)
	template.ParseFiles(p)
	xos.Stat(p)
	xos.WriteFile(p, nil, 0o644)
}
`), 0o644))
	found, err := fileReadsOf(path, "x.go")
	require.NoError(t, err)
	var keys []string
	for _, f := range found {
		keys = append(keys, f.pos+" "+f.key)
	}
	assert.Equal(t, []string{
		"x.go:9 x.go: xos.Open in (package level)",
		"x.go:12 x.go: xos.ReadFile in Load",
		"x.go:13 x.go: xos.ReadFile in Load",
		"x.go:15 x.go: xos.OpenFile in Load",
		"x.go:16 x.go: syscall.Open in Load",
		"x.go:17 x.go: template.ParseFiles in Load",
	}, keys)
}
