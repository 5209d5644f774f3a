package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

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
	files, err := Site(Inputs{VizWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	for _, name := range []string{"index.html", "embed.html", "viz.wasm", "wasm_exec.js", "static/site.css", "static/embed.js", "static/lesson.js"} {
		assert.Contains(t, files, name)
	}
	_, err = Site(Inputs{})
	assert.ErrorContains(t, err, "needs viz.wasm")
}

func TestCompressRoundTrip(t *testing.T) {
	gz, br, err := Compress([]byte("hello hello hello hello"), false)
	require.NoError(t, err)
	assert.NotEmpty(t, gz)
	assert.NotEmpty(t, br)
}
