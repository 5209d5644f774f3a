package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/web"
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

// A build killed mid-write (the marker written first, a 0-byte .gz, a
// temporary file) is out of date: serve rebuilds it instead of serving it.
func TestStaleWhenInterrupted(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, web.Write(dir, map[string][]byte{"index.html": []byte(strings.Repeat("<p>hi</p>", 100))}, false))
	assert.False(t, stale(root, dir), "a finished build, newer than the sources")

	// What a build leaves when killed after its first writes: the marker
	// listing the old and new files, a .gz not yet written.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html.gz"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".index.html.br.part"), []byte("half"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, web.Marker), []byte(
		"# written by fabriclab build: a rebuild replaces and removes only the files listed below\n"+
			"index.html\nindex.html.br\nindex.html.gz\n.index.html.br.part\n"), 0o644))
	assert.True(t, stale(root, dir), "an interrupted build is rebuilt")
}

// build and serve resolve a relative --out alike: from the current directory.
func TestOutRelativeToWorkingDirectory(t *testing.T) {
	// A source tree (go.mod declares module fabriclab) and a directory in it
	// where go.mod is a directory of someone's files.
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module fabriclab\n"), 0o644))
	cwd := filepath.Join(root, "sub")
	require.NoError(t, os.MkdirAll(filepath.Join(cwd, "go.mod"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "go.mod", "thesis.txt"), []byte("years of work"), 0o644))
	t.Chdir(cwd)
	for _, args := range [][]string{
		{"build", "--fast", "--out", "go.mod"},
		{"serve", "--addr", "localhost:0", "--out", "go.mod"},
	} {
		code, _, errOut := cli(args...)
		assert.Equal(t, 1, code, args[0])
		assert.Contains(t, errOut, "output directory "+filepath.Join(cwd, "go.mod")+" is not empty (thesis.txt)", args[0])
	}
}

// Without --out, build and serve use dist/site in the source tree; a
// relative --out is taken from the current directory.
func TestSiteDir(t *testing.T) {
	cwd, err := os.Getwd()
	require.NoError(t, err)
	for _, tc := range []struct{ out, want string }{
		{"", filepath.Join("/src", "dist", "site")},
		{"site", filepath.Join(cwd, "site")},
		{"../x/./y", filepath.Join(filepath.Dir(cwd), "x", "y")},
		{"/abs/site", "/abs/site"},
	} {
		got, err := siteDir("/src", tc.out)
		require.NoError(t, err, tc.out)
		assert.Equal(t, tc.want, got, tc.out)
	}
}
