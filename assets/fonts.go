package assets

import (
	"fmt"
	"image"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// CJKFont returns the subset CJK font for weight w (Medium uses Regular: Noto
// Sans CJK ships no Medium in Debian, and one weight fewer keeps it small):
// Noto Sans CJK SC (SIL Open Font License, see fonts/LICENSE-Noto.txt) cut
// down to the characters the canvas's Chinese text uses, a few hundred glyphs
// instead of 65,535. fonts/subset.sh (make fonts) makes them again.
func CJKFont(w Weight) []byte {
	if w == Bold {
		return fontData(cjkBold)
	}
	return fontData(cjkRegular)
}

var (
	parseOnce sync.Once
	parsed    [3]struct{ latin, cjk *opentype.Font }
	parseErr  error
)

func parseFonts() {
	for f, name := range WebFontNames {
		if len(fontData(fontID(f))) == 0 {
			parseErr = fmt.Errorf("assets: the font %s is missing: the page must fetch static/fonts/%s and put it in fabriclabFonts before it starts the program (embed.js does)", name, name)
			return
		}
	}
	for w := range parsed {
		var err error
		if parsed[w].latin, err = opentype.Parse(Font(Weight(w))); err != nil {
			parseErr = fmt.Errorf("assets: parsing the Go font: %w", err)
			return
		}
		if parsed[w].cjk, err = opentype.Parse(CJKFont(Weight(w))); err != nil {
			parseErr = fmt.Errorf("assets: parsing the CJK subset font: %w", err)
			return
		}
	}
}

// NewFace returns a face of weight w at size px (72 DPI, unhinted): the Go
// font, and for the runes it lacks (Chinese) the CJK subset.
func NewFace(w Weight, size float64) (font.Face, error) {
	parseOnce.Do(parseFonts)
	if parseErr != nil {
		return nil, parseErr
	}
	w = min(w, Bold)
	opt := &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone}
	latin, err := opentype.NewFace(parsed[w].latin, opt)
	if err != nil {
		return nil, err
	}
	cjk, err := opentype.NewFace(parsed[w].cjk, opt)
	if err != nil {
		return nil, err
	}
	return &fallbackFace{latin, cjk}, nil
}

// fallbackFace draws each rune from the first face that has it.
type fallbackFace struct{ a, b font.Face }

func (f *fallbackFace) pick(r rune) font.Face {
	if _, ok := f.a.GlyphAdvance(r); ok {
		return f.a
	}
	return f.b
}

func (f *fallbackFace) Close() error { f.a.Close(); return f.b.Close() }

func (f *fallbackFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	return f.pick(r).Glyph(dot, r)
}

func (f *fallbackFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return f.pick(r).GlyphBounds(r)
}

func (f *fallbackFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) { return f.pick(r).GlyphAdvance(r) }

// Kern kerns only pairs within one font.
func (f *fallbackFace) Kern(r0, r1 rune) fixed.Int26_6 {
	if a := f.pick(r0); a == f.pick(r1) {
		return a.Kern(r0, r1)
	}
	return 0
}

func (f *fallbackFace) Metrics() font.Metrics { return f.a.Metrics() }
