package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandler(t *testing.T) {
	site := fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html>index")},
		"viz.wasm":        {Data: []byte("\x00asm plain")},
		"viz.wasm.br":     {Data: []byte("brotli bytes")},
		"viz.wasm.gz":     {Data: []byte("gzip bytes")},
		"static/site.css": {Data: []byte("body{}")},
		"static/embed.js": {Data: []byte("js")},
		"wasm_exec.js":    {Data: []byte("go")},
		"wasm_exec.js.gz": {Data: []byte("gz js")},
		"incast.en.html":  {Data: []byte("lesson")},
	}
	h := Handler(site)
	get := func(method, path, enc string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, nil)
		if enc != "" {
			r.Header.Set("Accept-Encoding", enc)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct {
		path, enc, body, ctype, cenc string
	}{
		{"/", "", "<!doctype html>index", "text/html; charset=utf-8", ""},
		{"/viz.wasm", "gzip, deflate, br", "brotli bytes", "application/wasm", "br"},
		{"/viz.wasm", "gzip", "gzip bytes", "application/wasm", "gzip"},
		{"/viz.wasm", "br;q=0, gzip", "gzip bytes", "application/wasm", "gzip"},
		{"/viz.wasm", "", "\x00asm plain", "application/wasm", ""},
		{"/wasm_exec.js", "br, gzip", "gz js", "text/javascript; charset=utf-8", "gzip"},
		{"/static/site.css", "br", "body{}", "text/css; charset=utf-8", ""},
		{"/static/../incast.en.html", "", "lesson", "text/html; charset=utf-8", ""},
	} {
		w := get(http.MethodGet, tc.path, tc.enc)
		require.Equal(t, http.StatusOK, w.Code, tc.path)
		assert.Equal(t, tc.body, w.Body.String(), tc.path+" "+tc.enc)
		assert.Equal(t, tc.ctype, w.Header().Get("Content-Type"), tc.path)
		assert.Equal(t, tc.cenc, w.Header().Get("Content-Encoding"), tc.path+" "+tc.enc)
		assert.Contains(t, w.Header().Get("Vary"), "Accept-Encoding")
	}
	assert.Equal(t, http.StatusNotFound, get(http.MethodGet, "/viz.wasm.br", "").Code, "twins are served only by negotiation")
	assert.Equal(t, http.StatusNotFound, get(http.MethodGet, "/nope.html", "").Code)
	assert.Equal(t, http.StatusNotFound, get(http.MethodGet, "/static", "").Code)
	assert.Equal(t, http.StatusMethodNotAllowed, get(http.MethodPost, "/", "").Code)
	head := get(http.MethodHead, "/viz.wasm", "br")
	assert.Equal(t, http.StatusOK, head.Code)
	assert.Empty(t, head.Body.String())
	assert.Equal(t, "12", head.Header().Get("Content-Length"))
}

func TestSiteAssemblesPages(t *testing.T) {
	files, err := Site(Inputs{VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	for _, name := range []string{"index.html", "embed.html", "viz.wasm", "wasm_exec.js", "static/site.css", "static/embed.js", "static/lesson.js",
		"explain.html", "explain.zh.html", "static/explain.js", "static/explain-example.txt"} {
		assert.Contains(t, files, name)
	}
	_, err = Site(Inputs{})
	assert.ErrorContains(t, err, "needs viz.wasm")
}

// A WebAssembly-like file: repetitive but not trivially so, where brotli 11
// beats 9.
func wasmLike() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 160<<10; i++ {
		fmt.Fprintf(&b, "func_%d(local.get %d) i64.const %d call %d\x00\x01", i%977, i%13, i*7919%104729, i%311)
	}
	return b.Bytes()
}

// build's best compression is brotli 11, smaller than serve's quick 9.
func TestCompressBest(t *testing.T) {
	raw := wasmLike()
	_, quick, err := Compress(raw, false)
	require.NoError(t, err)
	_, best, err := Compress(raw, true)
	require.NoError(t, err)
	assert.Less(t, len(best), len(quick)*97/100, "brotli 11 is smaller than 9")
}

func TestCompressRoundTrip(t *testing.T) {
	data := bytes.Repeat([]byte("hello fabric, hello incast; "), 40)
	for _, best := range []bool{false, true} {
		gz, br, err := Compress(data, best)
		require.NoError(t, err)
		assert.Less(t, len(gz), len(data)/4, "gzip compresses repetitive text")
		assert.Less(t, len(br), len(data)/4, "brotli compresses repetitive text")

		zr, err := gzip.NewReader(bytes.NewReader(gz))
		require.NoError(t, err, "the .gz is gzip")
		back, err := io.ReadAll(zr)
		require.NoError(t, err)
		assert.Equal(t, data, back, "gzip round trip (best=%v)", best)

		back, err = io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
		require.NoError(t, err, "the .br is brotli")
		assert.Equal(t, data, back, "brotli round trip (best=%v)", best)
	}
}

// TestWriteServesCompressedTwins builds a site on disk and serves it: each
// encoding a client asks for comes back, decoded, as the original bytes.
func TestWriteServesCompressedTwins(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm fabric "), 100)
	small := []byte("body{}")
	dir := t.TempDir()
	require.NoError(t, Write(dir, map[string][]byte{"viz.wasm": wasm, "static/site.css": small, "logo.png": wasm}, false))
	for name, want := range map[string]bool{"viz.wasm.gz": true, "viz.wasm.br": true, "static/site.css.gz": false, "logo.png.br": false} {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		assert.Equal(t, want, err == nil, "%s exists: %v (small and binary files get no twins)", name, want)
	}

	h := Handler(os.DirFS(dir))
	for _, tc := range []struct{ accept, enc string }{
		{"br", "br"},
		{"gzip", "gzip"},
		{"gzip, br", "br"},
		{"br;q=0, gzip", "gzip"},
		{"deflate", ""},
		{"", ""},
	} {
		r := httptest.NewRequest(http.MethodGet, "/viz.wasm", nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Encoding", tc.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		require.Equal(t, http.StatusOK, w.Code, tc.accept)
		assert.Equal(t, tc.enc, w.Header().Get("Content-Encoding"), "Accept-Encoding: %s", tc.accept)
		assert.Equal(t, []string{"Accept-Encoding"}, w.Header().Values("Vary"), "Accept-Encoding: %s", tc.accept)
		assert.Equal(t, "application/wasm", w.Header().Get("Content-Type"), "the original's type, whatever the encoding")
		assert.Equal(t, strconv.Itoa(w.Body.Len()), w.Header().Get("Content-Length"))
		body := w.Body.Bytes()
		switch tc.enc {
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			require.NoError(t, err)
			body, err = io.ReadAll(zr)
			require.NoError(t, err)
		case "br":
			var err error
			body, err = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
			require.NoError(t, err)
		}
		assert.Equal(t, wasm, body, "Accept-Encoding: %s decodes to the file", tc.accept)
	}
}
