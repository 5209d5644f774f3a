package web

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A WebAssembly-like file: repetitive but not trivially so, where brotli 11
// beats 9.
func wasmLike() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 160<<10; i++ {
		fmt.Fprintf(&b, "func_%d(local.get %d) i64.const %d call %d\x00\x01", i%977, i%13, i*7919%104729, i%311)
	}
	return b.Bytes()
}

func unbrotli(t *testing.T, data []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(data)))
	require.NoError(t, err)
	return out
}

// serve's quick build, then Recompress: viz.wasm.br becomes brotli 11 (smaller,
// the same bytes decoded), the marker lists the site's files and no more, and the
// cache lets the next run skip the work.
func TestRecompress(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	dir, cache := filepath.Join(t.TempDir(), "site"), t.TempDir()
	raw := wasmLike()
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": raw, "index.html": []byte("<!doctype html><title>x</title>" + string(bytes.Repeat([]byte("<p>hi</p>"), 100)))}, false))
	marker, err := os.ReadFile(filepath.Join(dir, Marker))
	require.NoError(t, err)
	quick, err := os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	html, err := os.ReadFile(filepath.Join(dir, "index.html.br"))
	require.NoError(t, err)

	var log bytes.Buffer
	require.NoError(t, Recompress(dir, cache, &log))
	best, err := os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	assert.Less(t, len(best), len(quick), "brotli 11 is smaller than 9")
	assert.Equal(t, raw, unbrotli(t, best), "and decodes to the same file")
	assert.Contains(t, log.String(), "viz.wasm.br: brotli 11")
	after, err := os.ReadFile(filepath.Join(dir, Marker))
	require.NoError(t, err)
	assert.Equal(t, string(marker), string(after), "the marker lists the same files")
	assert.NoFileExists(t, filepath.Join(dir, ".viz.wasm.br.part"))
	again, err := os.ReadFile(filepath.Join(dir, "index.html.br"))
	require.NoError(t, err)
	assert.Equal(t, html, again, "only WebAssembly is recompressed")
	cached, err := filepath.Glob(filepath.Join(cache, "brotli11w24-*.br"))
	require.NoError(t, err)
	require.Len(t, cached, 1)

	// A second build of the same program: the cache answers, without compressing
	// (the cache holds a quality-10 encoding here, which compressing would not give).
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": raw}, false))
	var q10 bytes.Buffer
	w := brotli.NewWriterLevel(&q10, 10)
	_, err = w.Write(raw)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NotEqual(t, best, q10.Bytes())
	require.NoError(t, os.WriteFile(cached[0], q10.Bytes(), 0o644))
	require.NoError(t, Recompress(dir, cache, io.Discard))
	got, err := os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	assert.Equal(t, q10.Bytes(), got, "the cached encoding, not a new one")

	// A damaged cache file is not used.
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": raw}, false))
	require.NoError(t, os.WriteFile(cached[0], []byte("not brotli"), 0o644))
	require.NoError(t, Recompress(dir, cache, io.Discard))
	got, err = os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	assert.Equal(t, raw, unbrotli(t, got))
	assert.Less(t, len(got), len(quick))

	// A directory fabriclab did not write is refused, untouched.
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "viz.wasm"), raw, 0o644))
	require.Error(t, Recompress(other, cache, io.Discard))
}

// An interrupted install leaves a temporary file the marker lists, so the
// next build removes it.
func TestInstallPartIsCleanedUp(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": wasmLike()}, false))
	st, err := outState(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, Marker), formatMarker(append(st.files, ".viz.wasm.br.part"), true), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".viz.wasm.br.part"), []byte("half"), 0o644))
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": wasmLike()}, false))
	assert.NoFileExists(t, filepath.Join(dir, ".viz.wasm.br.part"))
}

// A site build wrote at brotli 11 leaves its encoding in the cache, so that
// serve, recompressing, finds it there and changes nothing.
func TestKeepBrotli(t *testing.T) {
	dir, cache := filepath.Join(t.TempDir(), "site"), t.TempDir()
	raw := wasmLike()
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": raw}, true))
	br, err := os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	require.NoError(t, KeepBrotli(dir, cache))
	sum := sha256.Sum256(raw)
	kept, err := os.ReadFile(cacheFile(cache, sum))
	require.NoError(t, err)
	assert.Equal(t, br, kept)
	// Recompress takes the cache's answer: the same bytes, so nothing to replace.
	var log bytes.Buffer
	require.NoError(t, Recompress(dir, cache, &log))
	assert.Empty(t, log.String())
	got, err := os.ReadFile(filepath.Join(dir, "viz.wasm.br"))
	require.NoError(t, err)
	assert.Equal(t, br, got)
	assert.NoError(t, KeepBrotli(dir, ""), "no cache directory: nothing to do")
}

// A build that is not complete (interrupted, or being written) is left alone.
func TestRecompressSkipsAnUnfinishedBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": wasmLike()}, false))
	st, err := outState(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, Marker), formatMarker(st.files, false), 0o644))
	before := tree(t, dir)
	var log bytes.Buffer
	require.NoError(t, Recompress(dir, "", &log))
	assert.Empty(t, log.String())
	assert.Equal(t, before, tree(t, dir))
}
