package web

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
)

// TestCanvasFontsAreSiteFiles: the WebAssembly is built without the fonts
// (webfonts tag), so the site must carry every one, embed.js must fetch and
// embed.html preload exactly those names, and they must be served compressed,
// with a font type, cached for good under the site's version.
func TestCanvasFontsAreSiteFiles(t *testing.T) {
	files, err := Site(Inputs{VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	js, html := string(files["static/embed.js"]), string(files["embed.html"])
	require.Len(t, assets.WebFonts(), len(assets.WebFontNames))
	for name, data := range assets.WebFonts() {
		assert.Equal(t, data, files["static/fonts/"+name], "the site has %s", name)
		assert.True(t, strings.Contains(js, `"`+name+`"`), "embed.js fetches %s", name)
		assert.True(t, strings.Contains(html, `href="static/fonts/`+name+`?v=`), "embed.html preloads %s", name)
	}
	assert.Equal(t, len(assets.WebFontNames), strings.Count(html, `href="static/fonts/`), "embed.html preloads no other font")
	assert.Contains(t, strings.Join(vizBuildFlags, " "), "-tags=webfonts", "viz.wasm leaves the fonts out")

	dir := t.TempDir()
	require.NoError(t, Write(dir, files, false))
	h := Handler(os.DirFS(dir))
	r := httptest.NewRequest(http.MethodGet, "/static/fonts/go-regular.ttf?v="+(&versionCache{site: os.DirFS(dir)}).current(), nil)
	r.Header.Set("Accept-Encoding", "gzip, br")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, "font/ttf", w.Header().Get("Content-Type"))
	assert.Equal(t, "br", w.Header().Get("Content-Encoding"))
	assert.Equal(t, immutable, w.Header().Get("Cache-Control"))
	body, err := io.ReadAll(brotli.NewReader(bytes.NewReader(w.Body.Bytes())))
	require.NoError(t, err)
	assert.Equal(t, assets.Font(assets.Regular), body)
}
