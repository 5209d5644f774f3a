package main

import (
	"image/color"
	"strings"

	"fabriclab/i18n"
	"fabriclab/render"
)

// errorPicture is what the canvas shows when something fails, made once per
// message and size.
type errorPicture struct {
	pic *render.DisplayList // nil while nothing has failed
	key errorKey            // what pic was made for
}

type errorKey struct {
	w, h float64
	msg  string
}

// picture pictures msg at w×h logical px, again only when the message or the
// size changed or the last picture was let go.
func (e *errorPicture) picture(w, h float64, msg string, lang render.Lang, light bool) *render.DisplayList {
	if k := (errorKey{w, h, msg}); e.pic == nil || k != e.key {
		e.pic, e.key = errorList(w, h, msg, lang, light), k
	}
	return e.pic
}

// errorList pictures an error message: the canvas never goes blank. (In the
// browser the page also shows it over the canvas.)
func errorList(w, h float64, msg string, lang render.Lang, light bool) *render.DisplayList {
	bg, title, text := color.RGBA{0x1c, 0x12, 0x14, 0xff}, color.RGBA{0xff, 0x7b, 0x72, 0xff}, color.RGBA{0xff, 0xd8, 0xd3, 0xff}
	if light { // theme=light: the page around it is light too
		bg, title, text = color.RGBA{0xff, 0xf4, 0xf2, 0xff}, color.RGBA{0xb4, 0x23, 0x18, 0xff}, color.RGBA{0x4a, 0x1c, 0x17, 0xff}
	}
	dl := &render.DisplayList{}
	dl.Reset(float32(w), float32(h))
	dl.Prims = append(dl.Prims, render.Prim{Kind: render.KindRect, W: float32(w), H: float32(h), Fill: bg})
	y := float32(40)
	add := func(s string, size float32, c color.RGBA) {
		dl.Prims = append(dl.Prims, render.Prim{Kind: render.KindText, Layer: render.LayerLabel, X: 24, Y: y, Size: size, Fill: c, Str: s})
		y += size * 1.6
	}
	add(i18n.T(lang, "error.title"), 20, title)
	width := max(20, int((w-48)/8))
	for _, line := range strings.Split(msg, "\n") {
		for len(line) > width {
			cut := strings.LastIndex(line[:width], " ")
			if cut <= 0 {
				cut = width
			}
			add(line[:cut], 14, text)
			line = strings.TrimLeft(line[cut:], " ")
		}
		add(line, 14, text)
	}
	return dl
}
