package web

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree lists every file under dir (slash paths) with its contents.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	}))
	return out
}

func write(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

var small = map[string][]byte{"index.html": []byte("<p>hi</p>"), "lessons/a.html": []byte("a")}

func TestWriteMissingAndEmptyDirs(t *testing.T) {
	for _, name := range []string{"missing/deeper", "empty"} {
		dir := filepath.Join(t.TempDir(), name)
		if name == "empty" {
			require.NoError(t, os.Mkdir(dir, 0o755))
		}
		require.NoError(t, Write(dir, small, false), name)
		got := tree(t, dir)
		assert.Equal(t, "<p>hi</p>", got["index.html"], name)
		assert.Equal(t, "a", got["lessons/a.html"], name)
		assert.Equal(t, markerHeader+markerComplete+"index.html\nlessons/a.html\n", got[Marker], name)
	}
}

// A directory with someone else's files is refused before anything is written
// or removed, whatever it holds, including the checkout one level up.
func TestWriteRefusesForeignDirectories(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "thesis.txt"), "years of work")
	write(t, filepath.Join(dir, "sub", "notes.md"), "more")
	write(t, filepath.Join(dir, "index.html"), "mine")
	before := tree(t, dir)

	err := Write(dir, small, false)
	require.Error(t, err)
	assert.Equal(t, "output directory "+dir+" is not empty (index.html, sub/, thesis.txt) and was not written by fabriclab, "+
		"so nothing was written or removed: choose a new or empty directory with --out, or empty this one yourself", err.Error())
	assert.Equal(t, before, tree(t, dir))

	// A directory that holds a fabriclab build among other things is not one.
	inside := filepath.Join(dir, "site")
	require.NoError(t, Write(inside, small, false))
	require.Error(t, Write(filepath.Join(inside, ".."), small, false))
	assert.Equal(t, "years of work", tree(t, dir)["thesis.txt"])
}

func TestWriteRefusesFilesAndLinks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.pdf")
	write(t, file, "pdf")
	err := Write(file, small, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "report.pdf is a file, not a directory: choose a new directory with --out")
	assert.Equal(t, "pdf", tree(t, dir)["report.pdf"])

	target := filepath.Join(dir, "real")
	require.NoError(t, os.Mkdir(target, 0o755))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(target, link))
	err = Write(link, small, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a symbolic link")
	entries, _ := os.ReadDir(target)
	assert.Empty(t, entries)
}

// A rebuild replaces its own files, removes those it no longer writes (and
// directories that leaves empty), and keeps what the user added.
func TestRewriteRemovesOnlyItsOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Write(dir, map[string][]byte{
		"index.html": []byte("v1"), "old/gone.html": []byte("x"), "lessons/a.html": []byte("a1"),
	}, false))
	write(t, filepath.Join(dir, "lessons", "mine.txt"), "user file")
	write(t, filepath.Join(dir, "extra.txt"), "user file")

	require.NoError(t, Write(dir, map[string][]byte{"index.html": []byte("v2"), "lessons/a.html": []byte("a2")}, false))
	got := tree(t, dir)
	delete(got, Marker)
	assert.Equal(t, map[string]string{
		"index.html": "v2", "lessons/a.html": "a2", "lessons/mine.txt": "user file", "extra.txt": "user file",
	}, got)
	_, err := os.Stat(filepath.Join(dir, "old"))
	assert.True(t, os.IsNotExist(err), "the directory only the old build used is gone")
}

// A marker edited to point outside the site (or at a directory) removes
// nothing there; one that lists symbolic links is refused, untouched.
func TestMarkerCannotReachOutside(t *testing.T) {
	base := t.TempDir()
	write(t, filepath.Join(base, "precious.txt"), "keep")
	dir := filepath.Join(base, "site")
	require.NoError(t, Write(dir, small, false))
	write(t, filepath.Join(dir, "keepdir", "k.txt"), "keep")
	write(t, filepath.Join(dir, Marker), markerHeader+"../precious.txt\n/etc/passwd\nkeepdir\nindex.html\n")
	require.NoError(t, Write(dir, small, false))
	assert.Equal(t, "keep", tree(t, base)["precious.txt"])
	assert.Equal(t, "keep", tree(t, dir)["keepdir/k.txt"])

	require.NoError(t, os.Mkdir(filepath.Join(dir, "out"), 0o755))
	require.NoError(t, os.Symlink(base, filepath.Join(dir, "out", "up")))
	require.NoError(t, os.Symlink(filepath.Join(base, "precious.txt"), filepath.Join(dir, "lnk")))
	for _, listed := range []string{"lnk", "out/up/precious.txt"} {
		write(t, filepath.Join(dir, Marker), markerHeader+listed+"\nindex.html\n")
		err := Write(dir, small, false)
		require.Error(t, err, listed)
		assert.Contains(t, err.Error(), "holds a symbolic link", listed)
		assert.Equal(t, "keep", tree(t, base)["precious.txt"], listed)
		_, err = os.Lstat(filepath.Join(dir, "lnk"))
		assert.NoError(t, err, "a symbolic link is not a file fabriclab wrote")
	}
}

func TestParseMarker(t *testing.T) {
	got := parseMarker(markerHeader + "a.html\n\n../x\n/abs\nsub/../y\n./z\nsub/b.js\n" + Marker + "\n")
	sort.Strings(got)
	assert.Equal(t, []string{"a.html", "sub/b.js"}, got)
}

func TestCompressedTwinsAreListed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	big := make([]byte, 4096)
	require.NoError(t, Write(dir, map[string][]byte{"app.js": big}, true))
	got := tree(t, dir)
	assert.Equal(t, markerHeader+markerComplete+"app.js\napp.js.br\napp.js.gz\n", got[Marker])
}
