package web

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// siteFiles is an earlier build's files: a page, and a directory of assets.
var siteFiles = map[string][]byte{"embed.html": []byte("<p>embed</p>"), "static/app.js": []byte("app()"), "static/fonts/a.ttf": []byte("font")}

// A symbolic link where a rebuild would write (a listed file, a directory of
// the site), inside the site or leading out of it, is refused by CheckOut,
// before the slow compile, naming the link and the fix; nothing is written
// through it, and what it points to is byte-identical afterwards.
func TestOutputRefusesLinksOnTheSitesPaths(t *testing.T) {
	for _, tc := range []struct {
		name   string
		link   string // in the site
		target func(site, outside string) string
	}{
		{"file link inside", "embed.html", func(site, _ string) string { return filepath.Join(site, "notes.txt") }},
		{"relative file link inside", "embed.html", func(_, _ string) string { return "notes.txt" }},
		{"relative directory link inside", "static", func(_, _ string) string { return "mine" }},
		{"directory link inside", "static", func(site, _ string) string { return filepath.Join(site, "mine") }},
		{"deeper directory link inside", "static/fonts", func(site, _ string) string { return filepath.Join(site, "mine") }},
		{"file link out", "embed.html", func(_, outside string) string { return filepath.Join(outside, "notes.txt") }},
		{"directory link out", "static", func(_, outside string) string { return filepath.Join(outside, "mine") }},
		{"relative link out", "static", func(_, _ string) string { return "../outside/mine" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			site, outside := filepath.Join(base, "site"), filepath.Join(base, "outside")
			require.NoError(t, Write(site, siteFiles, false))
			for _, d := range []string{site, outside} { // the user's files, in the site and out of it
				write(t, filepath.Join(d, "notes.txt"), "my notes")
				write(t, filepath.Join(d, "mine", "app.js"), "my app")
				write(t, filepath.Join(d, "mine", "a.ttf"), "my font")
			}
			link := filepath.Join(site, filepath.FromSlash(tc.link))
			require.NoError(t, os.RemoveAll(link))
			require.NoError(t, os.Symlink(tc.target(site, outside), link))
			before := tree(t, base)

			err := CheckOut(site)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "output directory "+site+" holds a symbolic link "+link+" (-> ")
			assert.Contains(t, err.Error(), "remove the link "+link+" (what it points to stays), or choose a new directory with --out")

			require.Error(t, Write(site, siteFiles, false))
			assert.Equal(t, before, tree(t, base), "nothing written, nothing removed")
			st, err := os.Lstat(link)
			require.NoError(t, err)
			assert.NotZero(t, st.Mode()&os.ModeSymlink, "the link is still there")
		})
	}
}

// A link at a path the earlier build did not write (so CheckOut has no reason
// to look at it) is replaced by the new file, never written through; a link
// planted at a temporary name is refused, never followed.
func TestOutputNeverWritesThroughALink(t *testing.T) {
	base := t.TempDir()
	site := filepath.Join(base, "site")
	require.NoError(t, Write(site, siteFiles, false))
	notes := filepath.Join(base, "notes.txt")
	write(t, notes, "my notes")
	write(t, filepath.Join(site, "notes.txt"), "my notes")

	require.NoError(t, os.Symlink("notes.txt", filepath.Join(site, "new.html"))) // inside the site
	require.NoError(t, os.Symlink(notes, filepath.Join(site, "new2.html")))      // out of it
	files := map[string][]byte{"new.html": []byte("new page"), "new2.html": []byte("new page 2")}
	for n, d := range siteFiles {
		files[n] = d
	}
	require.NoError(t, Write(site, files, false))
	assert.Equal(t, "my notes", tree(t, base)["notes.txt"])
	assert.Equal(t, "my notes", tree(t, site)["notes.txt"])
	for name, want := range map[string]string{"new.html": "new page", "new2.html": "new page 2"} {
		st, err := os.Lstat(filepath.Join(site, name))
		require.NoError(t, err)
		assert.True(t, st.Mode().IsRegular(), "the link itself was replaced by the page")
		assert.Equal(t, want, tree(t, site)[name])
	}

	// A link at the temporary name of a file the build writes.
	part := filepath.Join(site, "static", ".app.js.part")
	require.NoError(t, os.Symlink(notes, part))
	err := Write(site, files, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), part+" exists and was not written by fabriclab")
	assert.Equal(t, "my notes", tree(t, base)["notes.txt"])
	require.NoError(t, os.Remove(part))
	require.NoError(t, Write(site, files, false), "once the link is gone")

	// A directory link the earlier build had no file under: found as the
	// build writes, refused, not followed.
	mine := filepath.Join(site, "mine") // the user's, inside the site
	write(t, filepath.Join(mine, "x.html"), "my page")
	require.NoError(t, os.Symlink("mine", filepath.Join(site, "extra")))
	files["extra/x.html"] = []byte("new x")
	err = Write(site, files, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds a symbolic link "+filepath.Join(site, "extra")+" (-> mine)")
	assert.Equal(t, "my page", tree(t, mine)["x.html"])
}

// Recompress's swap goes through a temporary file it creates itself: links
// planted at the temporary names (the old one and the new) are never followed.
func TestRecompressNeverWritesThroughALink(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	base := t.TempDir()
	site := filepath.Join(base, "site")
	require.NoError(t, Write(site, map[string][]byte{"viz.wasm": wasmLike()}, false))
	notes := filepath.Join(base, "notes.txt")
	write(t, notes, "my notes")
	require.NoError(t, os.Symlink(notes, filepath.Join(site, "viz.wasm.br.part")))
	require.NoError(t, os.Symlink(notes, filepath.Join(site, ".viz.wasm.br.part")))

	err := Recompress(site, "", io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(site, ".viz.wasm.br.part")+" exists and was not written by fabriclab")
	assert.Equal(t, "my notes", tree(t, base)["notes.txt"])
}

// A build marks itself complete only at its end: one stopped midway leaves
// a marker saying so (Complete is false, serve rebuilds) and no half file
// under a site's name; the next build removes its temporary files and a
// 0-byte twin an older build left, and touches nothing of the user's.
func TestOutputInterruptedBuildIsRedone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	assert.False(t, Complete(dir), "no site")
	require.NoError(t, Write(dir, siteFiles, false))
	assert.True(t, Complete(dir))
	write(t, filepath.Join(dir, "mine.txt"), "user file")

	// A file where the new build needs a directory stops it after its first files.
	write(t, filepath.Join(dir, "b"), "in the way")
	next := map[string][]byte{"a.html": []byte("new a"), "embed.html": []byte("new embed"), "b/page.html": []byte("page")}
	err := Write(dir, next, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(dir, "b")+" is a file where the site has a directory")
	assert.False(t, Complete(dir), "stopped midway: not complete")
	st, err := outState(dir)
	require.NoError(t, err)
	assert.Subset(t, st.files, []string{".a.html.part", "b/.page.html.part", ".embed.html.part", "static/app.js"},
		"the marker lists the temporary files before they exist, and the old files")
	got := tree(t, dir)
	assert.Equal(t, "new a", got["a.html"], "whole files written before the stop")
	assert.Equal(t, "<p>embed</p>", got["embed.html"], "old files not yet replaced stay whole")

	// What a build killed mid-write left before files were renamed into place:
	// a 0-byte twin, and a temporary file the marker lists.
	write(t, filepath.Join(dir, "embed.html.gz"), "")
	write(t, filepath.Join(dir, "static", ".app.js.part"), "half")
	st, err = outState(dir)
	require.NoError(t, err)
	write(t, filepath.Join(dir, Marker), string(formatMarker(append(st.files, "embed.html.gz", "static/.app.js.part"), false)))
	assert.False(t, Complete(dir))

	require.NoError(t, os.Remove(filepath.Join(dir, "b")))
	require.NoError(t, Write(dir, next, false))
	assert.True(t, Complete(dir))
	got = tree(t, dir)
	delete(got, Marker)
	assert.Equal(t, map[string]string{"a.html": "new a", "embed.html": "new embed", "b/page.html": "page", "mine.txt": "user file"}, got,
		"the old build's files, the temporary ones and the 0-byte twin are gone; the user's file stays")

	// A marker from before builds said they were complete is redone once.
	write(t, filepath.Join(dir, Marker), markerHeader+"a.html\n")
	assert.False(t, Complete(dir))
}
