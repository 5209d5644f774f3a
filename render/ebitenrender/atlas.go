package ebitenrender

import (
	"bytes"
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// atlas is one image holding a white pixel, which shapes are drawn with,
// and the glyphs, packed in shelves: left to right, in rows top to bottom.
type atlas struct {
	img     *ebiten.Image
	x, y, h int // where the next glyph goes; the height of its row
	pix     []byte
}

// atlasSize is the atlas's width and height: about 600 glyphs of 32 px.
const atlasSize = 1024

// The white pixel's centre in the atlas (a 3×3 white block at its corner,
// so that sampling it never reaches a neighbour).
const whiteX, whiteY = 1.5, 1.5

// init makes the atlas, returning its image.
func (a *atlas) init() *ebiten.Image {
	if a.img == nil {
		// Written to, never drawn onto: Ebitengine keeps it on one texture
		// for drawing from. Only the white block is sent: a new image is
		// blank, and sending all its pixels (4 MiB) was a fifth of a warm
		// lesson's first picture under software WebGL.
		a.img = ebiten.NewImage(atlasSize, atlasSize)
		a.img.SubImage(image.Rect(0, 0, 3, 3)).(*ebiten.Image).WritePixels(bytes.Repeat([]byte{255}, 3*3*4))
		a.empty()
	}
	return a.img
}

// empty forgets every glyph: the next goes after the white block.
func (a *atlas) empty() { a.x, a.y, a.h = 4, 0, 3 }

// place finds room for a w×h glyph, with a pixel between it and the next;
// false when the atlas is full.
func (a *atlas) place(w, h int) (x, y int, ok bool) {
	if w+1 > atlasSize || h+1 > atlasSize {
		return 0, 0, false
	}
	if a.x+w+1 > atlasSize { // a new row
		a.x, a.y, a.h = 0, a.y+a.h+1, 0
	}
	if a.y+h+1 > atlasSize {
		return 0, 0, false
	}
	x, y = a.x, a.y
	a.x += w + 1
	a.h = max(a.h, h)
	return x, y, true
}

// write puts the glyph mask m at (x, y): white, with m's alpha
// (premultiplied, as Ebitengine takes pixels).
func (a *atlas) write(x, y int, m *image.Alpha) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	a.pix = a.pix[:0]
	for j := range h {
		for _, v := range m.Pix[j*m.Stride : j*m.Stride+w] {
			a.pix = append(a.pix, v, v, v, v)
		}
	}
	a.img.SubImage(image.Rect(x, y, x+w, y+h)).(*ebiten.Image).WritePixels(a.pix)
}
