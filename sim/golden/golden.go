// Package golden compares a test's output with a file under testdata/ and,
// run with -update, rewrites the file instead: go test ./render -update.
// Every package's golden files go through it, so there is one -update flag.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the tests produce")

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }

// Equal checks that got equals the file at path. Under -update it first writes
// got to path (creating its directory), so the check passes and the diff shows
// in git. msgAndArgs are added to the failure message.
func Equal(t testing.TB, path string, got []byte, msgAndArgs ...any) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "%s is missing: run go test with -update to create it, then read it", path)
	if len(msgAndArgs) == 0 {
		msgAndArgs = []any{"%s differs: if the change is intended, go test -update and read the diff", path}
	}
	assert.Equal(t, string(want), string(got), msgAndArgs...)
}

// File is one file of a txtar archive ("-- NAME --" lines start each file).
type File struct{ Name, Text string }

// Archive splits a txtar archive into its comment (the text before the
// first file) and its files, in order.
func Archive(data string) (comment string, files []File) {
	for line := range strings.Lines(data) {
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- "); ok && strings.HasSuffix(name, " --") {
			files = append(files, File{Name: strings.TrimSuffix(name, " --")})
			continue
		}
		if len(files) == 0 {
			comment += line
		} else {
			files[len(files)-1].Text += line
		}
	}
	return comment, files
}
