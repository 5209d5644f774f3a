//go:build !(js && webfonts)

package assets

import (
	_ "embed"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
)

var (
	//go:embed fonts/NotoSansSC-subset-Regular.otf
	cjkRegularOTF []byte
	//go:embed fonts/NotoSansSC-subset-Bold.otf
	cjkBoldOTF []byte
)

// fontData is font f's file, linked into the program. The site's WebAssembly
// is built with the webfonts tag instead and gets the same files from the
// page (fontdata_web.go), which fetches them beside viz.wasm.
func fontData(f fontID) []byte {
	switch f {
	case Medium:
		return gomedium.TTF
	case Bold:
		return gobold.TTF
	case cjkRegular:
		return cjkRegularOTF
	case cjkBold:
		return cjkBoldOTF
	}
	return goregular.TTF
}

// WebFonts returns the font files the site serves for the canvas (built with
// the webfonts tag), by the name WebFontNames gives them.
func WebFonts() map[string][]byte {
	out := make(map[string][]byte, len(WebFontNames))
	for f, name := range WebFontNames {
		out[name] = fontData(fontID(f))
	}
	return out
}
