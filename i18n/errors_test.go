package i18n

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errorSources are where the messages errorWords says in Chinese are made:
// every package of the simulation but nccltests and nodefile (the command
// line's readers of nccl-tests output and of a node's topology file, which no
// page shows), and playback's messages that the
// canvas shows for a scenario (too big for the browser).
var errorSources = []string{"../sim", "../playback"}

// errorFormat is a message format found in the source, and where.
type errorFormat struct{ format, at string }

// errorFormats scans the source for the formats of the messages the page may
// show: in sim, the format (a string literal) of every fail and Fail (the
// checkers'), newError (scenario's), msg.F and msg.Errorf; in playback, of msg.F and msg.Errorf. It
// also lists the errors made without a kept format (fmt.Errorf, errors.New)
// in sim.
func errorFormats(t *testing.T) (formats []errorFormat, plain []string) {
	fset := token.NewFileSet()
	for _, root := range errorSources {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "nccltests" || d.Name() == "nodefile" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "sim/msg/") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			inSim := strings.HasPrefix(path, "../sim")
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				pkg, name := "", ""
				switch fun := call.Fun.(type) {
				case *ast.SelectorExpr:
					name = fun.Sel.Name
					if id, ok := fun.X.(*ast.Ident); ok {
						pkg = id.Name
					}
				case *ast.Ident:
					name = fun.Name
				}
				at := fset.Position(call.Pos()).String()
				switch {
				case pkg == "msg" && (name == "F" || name == "Errorf"):
					if len(call.Args) > 0 {
						if s, ok := literal(call.Args[0]); ok {
							formats = append(formats, errorFormat{s, at})
						}
					}
				case inSim && (name == "fail" || name == "Fail" || name == "newError"):
					// The format is the first literal with a space or a verb
					// in it: a key path has neither.
					for _, a := range call.Args {
						if s, ok := literal(a); ok && strings.ContainsAny(s, " %") {
							formats = append(formats, errorFormat{s, at})
							break
						}
					}
				case inSim && (pkg == "fmt" && name == "Errorf" || pkg == "errors" && name == "New"):
					plain = append(plain, at)
				}
				return true
			})
			return nil
		})
		require.NoError(t, err)
	}
	return formats, plain
}

// literal is the string a string literal (or a sum of them) holds.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, ok1 := literal(e.X)
			y, ok2 := literal(e.Y)
			return x + y, ok1 && ok2
		}
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// wordless says whether a format has no words to translate ("%s", "%s %s",
// ""). One with only keys and values ("topology.kind: star") has its Chinese,
// the same text.
func wordless(format string) bool {
	return !strings.ContainsFunc(verbRE.ReplaceAllString(format, ""), unicode.IsLetter)
}

// TestErrorWordsComplete: every message format the simulation shows has its
// Chinese, with the same verbs, and every Chinese is of a format in use.
func TestErrorWordsComplete(t *testing.T) {
	formats, plain := errorFormats(t)
	require.NotEmpty(t, formats)
	assert.Empty(t, plain, "errors made with fmt.Errorf or errors.New keep no format to say in Chinese: use msg.Errorf")
	words := errorWords()
	used := map[string]bool{}
	var missing []string
	for _, f := range formats {
		used[f.format] = true
		if wordless(f.format) {
			continue
		}
		zh, ok := words[f.format]
		if !ok {
			missing = append(missing, strconv.Quote(f.format)+": \"\", // "+f.at)
			continue
		}
		assert.Equal(t, verbs(f.format), verbs(zh), "%s: %q and %q take different arguments", f.at, f.format, zh)
		assert.True(t, zh == f.format || strings.ContainsFunc(zh, chinese),
			"%q: the Chinese %q has no Chinese in it (write the English again when there is nothing to translate)", f.format, zh)
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	assert.Empty(t, missing, "error formats with no Chinese in errorWords (i18n/errors_zh.go):\n%s", strings.Join(missing, "\n"))
	for en := range words {
		assert.True(t, used[en], "errorWords has %q, which no message uses: remove it", en)
	}
}

// text and placedError stand for sim/msg's Text and scenario.Error, which
// i18n does not import.
type text struct {
	format string
	args   []any
}

func (t text) Message() (string, []any) { return t.format, t.args }
func (t text) Error() string            { return fmt.Sprintf(strings.ReplaceAll(t.format, "%w", "%v"), t.args...) }

type placedError struct{ text }

func (e placedError) At(message string) string { return "x.yaml:4: network.routing: " + message }
func (e placedError) Error() string            { return e.At(e.text.Error()) }

// Error says a message in Chinese with its phrases, the errors it wraps and
// those joined to it, at its place; English is the error's own text; a
// format the catalogue lacks stays English.
func TestErrorSaysPhrases(t *testing.T) {
	routing := placedError{text{"%q is not %s; use %s", []any{"zigzag", text{"a routing mode", nil},
		text{"%s or %s", []any{text{"%s, %s", []any{"static", "ecmp"}}, "spray"}}}}}
	assert.Equal(t, `x.yaml:4: network.routing: "zigzag" 不是有效的路由方式；可用 static、ecmp 或 spray`, Error(ZH, routing))
	assert.Equal(t, routing.Error(), Error(EN, routing))
	assert.Equal(t, `x.yaml:4: network.routing: "zigzag" is not a routing mode; use static, ecmp or spray`, Error("", routing))

	wrapped := text{"training.algo: %w", []any{text{"unknown algorithm %q; use one of %s", []any{"rign", "ring, tree"}}}}
	assert.Equal(t, `training.algo: 未知的算法 "rign"；可用 ring, tree 之一`, Error(ZH, wrapped))

	joined := errors.Join(routing, text{"… and %d more", []any{3}}, errors.New("plain"), text{"no such format %d", []any{1}})
	assert.Equal(t, "x.yaml:4: network.routing: \"zigzag\" 不是有效的路由方式；可用 static、ecmp 或 spray\n…… 还有 3 个\nplain\nno such format 1", Error(ZH, joined))
	assert.Empty(t, Error(ZH, nil))

	// A phrase joins the Chinese around it without a space; beside a key
	// or a value the space stays.
	star := text{"%s gives %d endpoints; at most %d are allowed", []any{text{"a star of %d hosts", []any{2000}}, 2000, 1024}}
	assert.Equal(t, "2000 台主机的星形拓扑共有 2000 个端点；最多允许 1024 个", Error(ZH, star))
	fits := text{"%s, or %s", []any{text{"training.sharding: %s (%.0f GB)", []any{"zero2", 70.0}}, text{"a smaller batch (at most %d %ss per GPU)", []any{3, "token"}}}}
	assert.Equal(t, "training.sharding: zero2（70 GB），或更小的 batch（每张 GPU 最多 3 个 token）", Error(ZH, fits))
	dcqcn := text{"%q is not %s; use %s", []any{"firmware", text{"a DCQCN profile", nil}, text{"%s or %s", []any{"nic", "paper"}}}}
	assert.Equal(t, `"firmware" 不是有效的 DCQCN 配置；可用 nic 或 paper`, Error(ZH, dcqcn), "a space between Chinese and Latin")
	marking := text{"%s is not allowed: %s must be at least %d (e.g. %s: %d)", []any{"0", text{"marking_rate (mark 1 in this many packets)", nil}, 1, "marking_rate", 1}}
	assert.Equal(t, "0 无效：marking_rate（每这么多个数据包标记 1 个）至少为 1（例如 marking_rate: 1）", Error(ZH, marking))
	quoted := text{"%q is not %s; use %s", []any{"中 文", text{"a fabric", nil}, "ib"}}
	assert.Equal(t, `"中 文" 不是有效的网络类型；可用 ib`, Error(ZH, quoted), "a value from the input keeps its spaces")
}
