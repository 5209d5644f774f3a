//go:build js && webfonts

package assets

import (
	"sync"
	"syscall/js"
)

var (
	webOnce  sync.Once
	webFonts [len(WebFontNames)][]byte
)

// fontData is font f's file as the page fetched it (embed.js puts every
// file of WebFontNames in globalThis.fabriclabFonts before it starts the
// program), or nil when the page did not, which NewFace reports.
func fontData(f fontID) []byte {
	webOnce.Do(func() {
		all := js.Global().Get("fabriclabFonts")
		if all.Type() != js.TypeObject {
			return
		}
		for i, name := range WebFontNames {
			if v := all.Get(name); v.Type() == js.TypeObject && v.Get("byteLength").Type() == js.TypeNumber {
				b := make([]byte, v.Get("byteLength").Int())
				js.CopyBytesToGo(b, v)
				webFonts[i] = b
			}
		}
	})
	return webFonts[f]
}
