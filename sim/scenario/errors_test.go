package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

// caseFile is a txtar archive: a comment, then files, each starting at a
// "-- name --" line.
type caseFile struct {
	comment string
	files   []caseText
}

type caseText struct{ name, text string }

func parseCaseFile(data string) caseFile {
	comment, files := golden.Archive(data)
	cf := caseFile{comment: comment}
	for _, f := range files {
		cf.files = append(cf.files, caseText{name: f.Name, text: f.Text})
	}
	return cf
}

func (cf caseFile) String() string {
	var b strings.Builder
	b.WriteString(cf.comment)
	for _, f := range cf.files {
		b.WriteString("-- " + f.name + " --\n" + f.text)
	}
	return b.String()
}

// setsOf reads the "# --set key=value" lines a case input starts with.
func setsOf(doc string) []string {
	var sets []string
	for line := range strings.Lines(doc) {
		set, ok := strings.CutPrefix(line, "# --set ")
		if !ok {
			break
		}
		sets = append(sets, strings.TrimSpace(set))
	}
	return sets
}

// errorCases lists the inputs of every case in testdata/errors.
func errorCases(tb testing.TB) []caseText {
	paths, err := filepath.Glob("testdata/errors/*.txtar")
	require.NoError(tb, err)
	var ins []caseText
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(tb, err)
		for _, f := range parseCaseFile(string(data)).files {
			if strings.HasSuffix(f.name, ".yaml") {
				ins = append(ins, f)
			}
		}
	}
	return ins
}

// TestErrorCases pins the loader's error messages word for word. Each
// testdata/errors/*.txtar holds cases as file pairs: NAME.yaml, a scenario
// that may start with "# --set key=value" lines, and NAME.err, the whole error
// ParseWith gives for it with NAME.yaml as the source. A case that ParseWith
// accepts is one of the checks that need an algorithm, which sim/plan makes
// (its TestErrorCases runs every case through ParseWith and plan.Resolve).
// Refresh with: go test ./sim/scenario -run TestErrorCases -update
func TestErrorCases(t *testing.T) {
	paths, err := filepath.Glob("testdata/errors/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			cf := parseCaseFile(string(data))
			var differ []string
			for i := 0; i < len(cf.files); i += 2 {
				in := cf.files[i]
				base, ok := strings.CutSuffix(in.name, ".yaml")
				require.True(t, ok, "%s: %s should be an input, NAME.yaml", path, in.name)
				if i+1 == len(cf.files) || cf.files[i+1].name != base+".err" {
					cf.files = append(cf.files[:i+1], append([]caseText{{name: base + ".err"}}, cf.files[i+1:]...)...)
				}
				_, err := ParseWith([]byte(in.text), in.name, setsOf(in.text))
				if err == nil {
					continue // sim/plan's
				}
				var e *Error
				require.True(t, errors.As(err, &e), "%s: %T is not an *Error", in.name, err)
				if got := err.Error() + "\n"; got != cf.files[i+1].text {
					differ = append(differ, in.name)
					cf.files[i+1].text = got
				}
			}
			golden.Equal(t, path, []byte(cf.String()), "%s: the messages of %s differ", path, strings.Join(differ, ", "))
		})
	}
}

func TestTooBig(t *testing.T) {
	_, err := Parse([]byte("name: "+strings.Repeat("x", MaxSourceBytes)), "t.yaml")
	require.Error(t, err)
	assert.Equal(t, "t.yaml: is 8388614 bytes; a scenario may have at most 8388608", err.Error())
}
