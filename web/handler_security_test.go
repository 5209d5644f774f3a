package web_test

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/web"
)

// serve answers one request from h.
func serve(h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// openDir serves dir as fabriclab serve does (confined by os.Root).
func openDir(t *testing.T, dir string) http.Handler {
	t.Helper()
	d, err := web.OpenDir(dir)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return web.Handler(d.FS())
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
}

// A symbolic link inside the site that leads out of it is not followed, for a
// file, a directory, or a compressed twin; links that stay inside work.
func TestHandlerConfinedToSite(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "passwd"), "root:x:0:0")
	writeFile(t, filepath.Join(outside, "etc", "index.html"), "outside index")
	writeFile(t, filepath.Join(outside, "etc", "passwd"), "root:x:0:0")
	writeFile(t, filepath.Join(outside, "app.js.br"), "outside twin")

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "index.html"), "site index")
	writeFile(t, filepath.Join(dir, "static", "site.css"), "body{}")
	writeFile(t, filepath.Join(dir, "app.js"), "inside js")
	for link, target := range map[string]string{
		"passwd":       filepath.Join(outside, "passwd"),
		"linkout":      filepath.Join(outside, "etc"),
		"up":           "..",
		"app.js.br":    filepath.Join(outside, "app.js.br"),
		"alias.css":    "static/site.css",
		"static/again": ".",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
	h := openDir(t, dir)

	for _, target := range []string{"/passwd", "/linkout/passwd", "/linkout/", "/linkout/index.html", "/up/" + filepath.Base(outside) + "/passwd"} {
		w := serve(h, http.MethodGet, target, nil)
		assert.Equal(t, http.StatusNotFound, w.Code, target)
		assert.NotContains(t, w.Body.String(), "root:x", target)
		assert.NotContains(t, w.Body.String(), "outside", target)
	}
	for target, body := range map[string]string{
		"/":                       "site index",
		"/static/site.css":        "body{}",
		"/alias.css":              "body{}",
		"/static/again/site.css":  "body{}",
		"/static/../index.html":   "site index",
		"/../../../../index.html": "site index",
	} {
		w := serve(h, http.MethodGet, target, nil)
		assert.Equal(t, http.StatusOK, w.Code, target)
		assert.Equal(t, body, w.Body.String(), target)
	}
	w := serve(h, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, "inside js", w.Body.String(), "a twin that leads outside is not there: the original is served")
	assert.Empty(t, w.Header().Get("Content-Encoding"))
}

func TestHandlerHidesMarker(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, web.Marker), "index.html\n")
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core]")
	writeFile(t, filepath.Join(dir, "index.html"), "site index")
	h := openDir(t, dir)
	assert.Equal(t, http.StatusNotFound, serve(h, http.MethodGet, "/"+web.Marker, nil).Code)
	assert.Equal(t, http.StatusNotFound, serve(h, http.MethodGet, "/.git/config", nil).Code)
	assert.Equal(t, http.StatusOK, serve(h, http.MethodGet, "/index.html", nil).Code)
}

// builtSite writes a small site as fabriclab build does and returns its
// directory and version (the ?v= on its asset URLs).
func builtSite(t *testing.T) (dir, version string) {
	files, err := web.Site(web.Inputs{VizWASM: bytes.Repeat([]byte("\x00asm wasm "), 200), WorkerWASM: []byte("\x00asm"), WasmExec: []byte("// wasm_exec")})
	require.NoError(t, err)
	dir = filepath.Join(t.TempDir(), "site")
	require.NoError(t, web.Write(dir, files, false))
	m := regexp.MustCompile(`static/modules\.js\?v=([0-9a-f]{12})"`).FindSubmatch(files["embed.html"])
	require.NotNil(t, m, "embed.html names its script with the version")
	return dir, string(m[1])
}

func TestHandlerSecurityHeaders(t *testing.T) {
	dir, version := builtSite(t)
	writeFile(t, filepath.Join(dir, "incast.en.html"), "<!doctype html>lesson")
	writeFile(t, filepath.Join(dir, "explain.zh.html"), "<!doctype html>explain")
	h := openDir(t, dir)
	const (
		page  = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src blob:; frame-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'self'"
		embed = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src blob:; form-action 'none'; base-uri 'none'; object-src 'none'"
		asset = "default-src 'none'"
		// the explain page starts the simulation's worker in itself
		explain = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src blob:; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'self'"
	)
	for _, tc := range []struct {
		target, csp, frame, cache string
	}{
		{"/", page, "SAMEORIGIN", "no-cache"},
		{"/index.html", page, "SAMEORIGIN", "no-cache"},
		{"/incast.en.html", page, "SAMEORIGIN", "no-cache"},
		{"/embed.html?scenario=incast", embed, "", "no-cache"},
		{"/explain.zh.html", explain, "SAMEORIGIN", "no-cache"},
		{"/embed.html?v=" + version, embed, "", "no-cache"},
		{"/viz.wasm?v=" + version, asset, "", "public, max-age=31536000, immutable"},
		{"/static/site.css?v=" + version, asset, "", "public, max-age=31536000, immutable"},
		{"/wasm_exec.js?v=" + version, asset, "", "public, max-age=31536000, immutable"},
		{"/worker.wasm?v=" + version, asset, "", "public, max-age=31536000, immutable"},
		{"/static/worker.js?v=" + version, asset, "", "public, max-age=31536000, immutable"},
		{"/viz.wasm", asset, "", "no-cache"},
		{"/viz.wasm?v=0123456789ab", asset, "", "no-cache"},
		{"/static/lesson.js?v=", asset, "", "no-cache"},
	} {
		w := serve(h, http.MethodGet, tc.target, map[string]string{"Accept-Encoding": "br, gzip"})
		require.Equal(t, http.StatusOK, w.Code, tc.target)
		hd := w.Header()
		assert.Equal(t, tc.csp, hd.Get("Content-Security-Policy"), tc.target)
		assert.Equal(t, tc.frame, hd.Get("X-Frame-Options"), tc.target)
		assert.Equal(t, tc.cache, hd.Get("Cache-Control"), tc.target)
		assert.Equal(t, "nosniff", hd.Get("X-Content-Type-Options"), tc.target)
		assert.Equal(t, "no-referrer", hd.Get("Referrer-Policy"), tc.target)
		if tc.csp == asset {
			assert.Equal(t, "*", hd.Get("Access-Control-Allow-Origin"), tc.target)
		} else {
			assert.Empty(t, hd.Get("Access-Control-Allow-Origin"), tc.target)
		}
	}
	for _, target := range []string{"/nosuch.html", "/viz.wasm.br"} {
		w := serve(h, http.MethodGet, target, nil)
		assert.Equal(t, http.StatusNotFound, w.Code, target)
		assert.Equal(t, "nosniff", w.Header().Get("X-Content-Type-Options"), target)
	}
}

// The version follows the files: after a rebuild changes an asset, the old
// ?v= is no longer the site's and is not cached as immutable.
func TestHandlerVersionFollowsRebuild(t *testing.T) {
	dir, version := builtSite(t)
	h := openDir(t, dir)
	target := "/viz.wasm?v=" + version
	require.Equal(t, "public, max-age=31536000, immutable", serve(h, http.MethodGet, target, nil).Header().Get("Cache-Control"))
	css := filepath.Join(dir, "static", "site.css")
	writeFile(t, css, "body{color:red}")
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(css, later, later))
	assert.Equal(t, "no-cache", serve(h, http.MethodGet, target, nil).Header().Get("Cache-Control"))
}

func TestHandlerConditionalAndRange(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "viz.wasm"), "0123456789abcdef")
	writeFile(t, filepath.Join(dir, "viz.wasm.br"), "BROTLI-BYTES")
	writeFile(t, filepath.Join(dir, "index.html"), "<!doctype html>index")
	h := openDir(t, dir)
	br := map[string]string{"Accept-Encoding": "br"}

	plain := serve(h, http.MethodGet, "/viz.wasm", nil)
	require.Equal(t, http.StatusOK, plain.Code)
	tag := plain.Header().Get("ETag")
	assert.Regexp(t, `^"[0-9a-z]+-[0-9a-z]+"$`, tag)
	assert.NotEmpty(t, plain.Header().Get("Last-Modified"))
	assert.Equal(t, "bytes", plain.Header().Get("Accept-Ranges"))

	comp := serve(h, http.MethodGet, "/viz.wasm", br)
	require.Equal(t, "BROTLI-BYTES", comp.Body.String())
	brTag := comp.Header().Get("ETag")
	assert.NotEqual(t, tag, brTag, "the twin has its own ETag")
	assert.Equal(t, "application/wasm", comp.Header().Get("Content-Type"))
	assert.Equal(t, "br", comp.Header().Get("Content-Encoding"))
	assert.Equal(t, "12", comp.Header().Get("Content-Length"), "a twin goes out with its length, not chunked")
	part := serve(h, http.MethodGet, "/viz.wasm", map[string]string{"Range": "bytes=0-5", "Accept-Encoding": "br"})
	assert.Equal(t, "6", part.Header().Get("Content-Length"))
	assert.Equal(t, "bytes 0-5/12", part.Header().Get("Content-Range"))
	assert.Equal(t, "br", part.Header().Get("Content-Encoding"))

	for _, tc := range []struct {
		name   string
		header map[string]string
		code   int
		body   string
	}{
		{"same ETag", map[string]string{"If-None-Match": tag}, http.StatusNotModified, ""},
		{"another ETag", map[string]string{"If-None-Match": `"other"`}, http.StatusOK, "0123456789abcdef"},
		{"the twin's ETag for the original", map[string]string{"If-None-Match": brTag}, http.StatusOK, "0123456789abcdef"},
		{"twin, its ETag", map[string]string{"If-None-Match": brTag, "Accept-Encoding": "br"}, http.StatusNotModified, ""},
		{"not modified since", map[string]string{"If-Modified-Since": plain.Header().Get("Last-Modified")}, http.StatusNotModified, ""},
		{"modified since", map[string]string{"If-Modified-Since": "Mon, 02 Jan 2006 15:04:05 GMT"}, http.StatusOK, "0123456789abcdef"},
		{"range", map[string]string{"Range": "bytes=2-5"}, http.StatusPartialContent, "2345"},
		{"range of the twin", map[string]string{"Range": "bytes=0-5", "Accept-Encoding": "br"}, http.StatusPartialContent, "BROTLI"},
		{"range if unchanged", map[string]string{"Range": "bytes=10-", "If-Range": tag}, http.StatusPartialContent, "abcdef"},
		{"range if changed", map[string]string{"Range": "bytes=10-", "If-Range": `"old"`}, http.StatusOK, "0123456789abcdef"},
		{"range past the end", map[string]string{"Range": "bytes=100-"}, http.StatusRequestedRangeNotSatisfiable, ""},
	} {
		w := serve(h, http.MethodGet, "/viz.wasm", tc.header)
		assert.Equal(t, tc.code, w.Code, tc.name)
		if tc.code != http.StatusRequestedRangeNotSatisfiable {
			assert.Equal(t, tc.body, w.Body.String(), tc.name)
		}
	}
	assert.Equal(t, "bytes 2-5/16", serve(h, http.MethodGet, "/viz.wasm", map[string]string{"Range": "bytes=2-5"}).Header().Get("Content-Range"))

	page := serve(h, http.MethodGet, "/", nil)
	require.Equal(t, http.StatusOK, page.Code)
	again := serve(h, http.MethodGet, "/", map[string]string{"If-None-Match": page.Header().Get("ETag")})
	assert.Equal(t, http.StatusNotModified, again.Code, "a page revalidates to 304")
}

// countingFS counts the bytes read from its files.
type countingFS struct {
	fs.FS
	read *int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{f.(seekFile), c.read}, nil
}

type seekFile interface {
	fs.File
	io.Seeker
}

type countingFile struct {
	seekFile
	read *int64
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.seekFile.Read(p)
	*c.read += int64(n)
	return n, err
}

// A file is streamed: a range request reads its range, not the file.
func TestHandlerStreamsFiles(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789"), 400_000) // 4 MB
	require.NoError(t, os.WriteFile(filepath.Join(dir, "viz.wasm"), big, 0o644))
	d, err := web.OpenDir(dir)
	require.NoError(t, err)
	defer d.Close()
	var read int64
	h := web.Handler(countingFS{d.FS(), &read})

	w := serve(h, http.MethodGet, "/viz.wasm", map[string]string{"Range": "bytes=1000000-1000009"})
	require.Equal(t, http.StatusPartialContent, w.Code)
	assert.Equal(t, "0123456789", w.Body.String())
	assert.LessOrEqual(t, read, int64(64<<10), "read %d bytes of a %d-byte file for 10 bytes", read, len(big))

	read = 0
	head := serve(h, http.MethodHead, "/viz.wasm", nil)
	require.Equal(t, http.StatusOK, head.Code)
	assert.Equal(t, "4000000", head.Header().Get("Content-Length"))
	assert.Zero(t, read, "HEAD reads nothing")
}
