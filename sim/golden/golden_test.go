package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that records failures instead of stopping the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; panic(r) }
func (r *recorder) Helper()               {}

func check(t *testing.T, path string, got []byte) (failed bool) {
	r := &recorder{TB: t}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		failed = r.failed
	}()
	Equal(r, path, got)
	return r.failed
}

func TestEqual(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	require.NoError(t, os.WriteFile(path, []byte("same\n"), 0o644))
	assert.False(t, check(t, path, []byte("same\n")), "equal content passes")
	assert.True(t, check(t, path, []byte("other\n")), "different content fails")
	assert.True(t, check(t, filepath.Join(dir, "missing.golden"), []byte("x")), "a missing file fails")
}

func TestUpdateWrites(t *testing.T) {
	*update = true
	defer func() { *update = false }()
	path := filepath.Join(t.TempDir(), "sub", "b.golden")
	assert.False(t, check(t, path, []byte("new\n")))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(data))
}

func TestArchive(t *testing.T) {
	comment, files := Archive("a note\n-- a.yaml --\nx: 1\n-- a.err --\nbad\nline\n")
	assert.Equal(t, "a note\n", comment)
	assert.Equal(t, []File{{Name: "a.yaml", Text: "x: 1\n"}, {Name: "a.err", Text: "bad\nline\n"}}, files)
}
