package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// build and serve refuse an output directory that holds someone else's files,
// at once (before compiling anything) and without touching it.
func TestSiteOutRefusesUserFiles(t *testing.T) {
	for _, args := range [][]string{
		{"build", "--fast", "--out"},
		{"serve", "--addr", "localhost:0", "--out"},
	} {
		dir := t.TempDir()
		thesis := filepath.Join(dir, "thesis.txt")
		require.NoError(t, os.WriteFile(thesis, []byte("years of work"), 0o644))
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))

		code, _, errOut := cli(append(args, dir)...)
		assert.Equal(t, 1, code, args[0])
		assert.Contains(t, errOut, "output directory "+dir+" is not empty (sub/, thesis.txt) and was not written by fabriclab", args[0])
		data, err := os.ReadFile(thesis)
		require.NoError(t, err, args[0])
		assert.Equal(t, "years of work", string(data), args[0])
		assert.DirExists(t, filepath.Join(dir, "sub"), args[0])
	}
}

// The checkout's parent directory is never a build target.
func TestBuildOutParentOfCheckout(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	code, _, errOut := cli("build", "--fast", "--out", filepath.Join(root, ".."))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "was not written by fabriclab, so nothing was written or removed")
	assert.FileExists(t, filepath.Join(root, "go.mod"))
}
