package web_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Ranges as RFC 9110 (section 14) has them: a suffix of 0 bytes, a range
// that ends before it starts, and malformed ones cannot be satisfied (416
// with the length in Content-Range); a range of one byte can; a unit other
// than bytes is ignored, and the unit's name is case-insensitive.
func TestHandlerOddRanges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "viz.wasm"), "0123456789abcdef")
	writeFile(t, filepath.Join(dir, "viz.wasm.br"), "BROTLI-BYTES")
	h := openDir(t, dir)

	for _, tc := range []struct {
		name, path, rng, encoding string
		code                      int
		contentRange, body        string
	}{
		{"one byte", "/viz.wasm", "bytes=0-0", "", http.StatusPartialContent, "bytes 0-0/16", "0"},
		{"the last byte", "/viz.wasm", "bytes=-1", "", http.StatusPartialContent, "bytes 15-15/16", "f"},
		{"a suffix longer than the file", "/viz.wasm", "bytes=-100", "", http.StatusPartialContent, "bytes 0-15/16", "0123456789abcdef"},
		{"a suffix of 0 bytes", "/viz.wasm", "bytes=-0", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"a suffix of 0 bytes, spelt 000", "/viz.wasm", "bytes=-000", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"a suffix of 0 bytes of the twin", "/viz.wasm", "bytes=-0", "br", http.StatusRequestedRangeNotSatisfiable, "bytes */12", ""},
		{"a suffix of 0 bytes beside a good range", "/viz.wasm", "bytes=-0, 2-3", "", http.StatusPartialContent, "bytes 2-3/16", "23"},
		{"end before start", "/viz.wasm", "bytes=5-2", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"no numbers", "/viz.wasm", "bytes=-", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"not a number", "/viz.wasm", "bytes=x", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"past the end", "/viz.wasm", "bytes=16-", "", http.StatusRequestedRangeNotSatisfiable, "bytes */16", ""},
		{"the unit's name in capitals", "/viz.wasm", "Bytes=2-3", "", http.StatusPartialContent, "bytes 2-3/16", "23"},
		{"another unit is ignored", "/viz.wasm", "lines=0-1", "", http.StatusOK, "", "0123456789abcdef"},
	} {
		header := map[string]string{"Range": tc.rng}
		if tc.encoding != "" {
			header["Accept-Encoding"] = tc.encoding
		}
		w := serve(h, http.MethodGet, tc.path, header)
		assert.Equal(t, tc.code, w.Code, tc.name)
		assert.Equal(t, tc.contentRange, w.Header().Get("Content-Range"), tc.name)
		if tc.code != http.StatusRequestedRangeNotSatisfiable {
			assert.Equal(t, tc.body, w.Body.String(), tc.name)
		} else {
			assert.Empty(t, w.Header().Get("Content-Encoding"), "%s: a 416 is not brotli", tc.name)
		}
	}
}
