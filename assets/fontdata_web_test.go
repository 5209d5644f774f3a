//go:build js && webfonts

package assets

import (
	"sync"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
)

// Run under Node: GOOS=js GOARCH=wasm go test -tags webfonts -exec="$(go env
// GOROOT)/lib/wasm/go_js_wasm_exec" ./assets
func TestWebFontsComeFromThePage(t *testing.T) {
	reset := func() {
		webOnce, webFonts, parseOnce, parseErr = sync.Once{}, [len(WebFontNames)][]byte{}, sync.Once{}, nil
	}
	t.Cleanup(func() { js.Global().Delete("fabriclabFonts"); reset() })

	_, err := NewFace(Regular, 12)
	require.Error(t, err, "no fabriclabFonts: no fonts")
	assert.Contains(t, err.Error(), "static/fonts/go-regular.ttf")

	page := js.Global().Get("Object").New()
	for name, data := range map[string][]byte{"go-regular.ttf": goregular.TTF, "go-medium.ttf": gomedium.TTF, "go-bold.ttf": gobold.TTF} {
		a := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(a, data)
		page.Set(name, a)
	}
	js.Global().Set("fabriclabFonts", page)
	reset()
	_, err = NewFace(Regular, 12)
	require.Error(t, err, "the CJK subset is missing")
	assert.Contains(t, err.Error(), "noto-sans-sc-subset-regular.otf")

	for _, name := range WebFontNames[3:] {
		page.Set(name, js.Global().Get("Uint8Array").New(0))
	}
	reset()
	_, err = NewFace(Regular, 12)
	require.Error(t, err, "an empty file is missing too")

	// The CJK subset from the repository, as the site serves it.
	for i, file := range []string{"fonts/NotoSansSC-subset-Regular.otf", "fonts/NotoSansSC-subset-Bold.otf"} {
		data := readFile(t, file)
		a := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(a, data)
		page.Set(WebFontNames[3+i], a)
	}
	reset()
	face, err := NewFace(Bold, 12)
	require.NoError(t, err)
	_, ok := face.GlyphAdvance('中')
	assert.True(t, ok, "the CJK subset draws 中")
	assert.Equal(t, gobold.TTF, Font(Bold))
}

// pageFonts gives the program every font file as embed.js would, for tests
// that draw or measure text, and takes them away after the test.
func pageFonts(t *testing.T) {
	t.Helper()
	reset := func() {
		webOnce, webFonts, parseOnce, parseErr = sync.Once{}, [len(WebFontNames)][]byte{}, sync.Once{}, nil
		coverOnce, coverErr, covers = sync.Once{}, nil, nil
	}
	page := js.Global().Get("Object").New()
	files := map[string][]byte{"go-regular.ttf": goregular.TTF, "go-medium.ttf": gomedium.TTF, "go-bold.ttf": gobold.TTF,
		WebFontNames[cjkRegular]: readFile(t, "fonts/NotoSansSC-subset-Regular.otf"),
		WebFontNames[cjkBold]:    readFile(t, "fonts/NotoSansSC-subset-Bold.otf")}
	for name, data := range files {
		a := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(a, data)
		page.Set(name, a)
	}
	js.Global().Set("fabriclabFonts", page)
	reset()
	t.Cleanup(func() { js.Global().Delete("fabriclabFonts"); reset() })
}
