package render

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"fabriclab/assets"
)

// cjkStart is where the CJK blocks begin: runes from here on are drawn from
// the CJK subset font (assets.NewFace), the rest from the Go font.
const cjkStart = 0x2E80

// fontMetrics holds the advance widths (in em) of the Go font's characters
// below cjkStart and of the CJK font's ideographs (all one em wide) for each
// weight, and the cap height, so that the scene can size boxes and decide
// which labels fit without a text shaper.
type fontMetrics struct {
	adv      [3][cjkStart]float64
	cjk      [3]float64
	fallback [3]float64
	cap      float64 // cap height in em
}

var (
	metricsOnce sync.Once
	fm          fontMetrics
)

func loadMetrics() {
	var buf sfnt.Buffer
	for w := range 3 {
		f, err := sfnt.Parse(assets.Font(assets.Weight(w)))
		if err != nil {
			panic("render: parsing the Go font: " + err.Error())
		}
		upem := fixed.Int26_6(f.UnitsPerEm()) << 6
		for r := rune(32); r < cjkStart; r++ {
			gi, err := f.GlyphIndex(&buf, r)
			if err != nil || gi == 0 {
				continue
			}
			if a, err := f.GlyphAdvance(&buf, gi, upem, font.HintingNone); err == nil {
				fm.adv[w][r] = float64(a) / float64(upem)
			}
		}
		fm.fallback[w] = fm.adv[w]['M']
		if w == 0 {
			if b, _, err := f.GlyphBounds(&buf, mustGlyph(f, &buf, 'H'), upem, font.HintingNone); err == nil {
				fm.cap = float64(-b.Min.Y) / float64(upem)
			}
		}
		fm.cjk[w] = fm.fallback[w]
		c, err := sfnt.Parse(assets.CJKFont(assets.Weight(w)))
		if err != nil {
			panic("render: parsing the CJK subset font: " + err.Error())
		}
		cu := fixed.Int26_6(c.UnitsPerEm()) << 6
		if a, err := c.GlyphAdvance(&buf, mustGlyph(c, &buf, '中'), cu, font.HintingNone); err == nil {
			fm.cjk[w] = float64(a) / float64(cu)
		}
	}
}

func mustGlyph(f *sfnt.Font, buf *sfnt.Buffer, r rune) sfnt.GlyphIndex {
	gi, _ := f.GlyphIndex(buf, r)
	return gi
}

// TextWidth is the width in logical px of s set at size in weight w.
func TextWidth(s string, size float64, w assets.Weight) float64 {
	metricsOnce.Do(loadMetrics)
	wi := min(int(w), 2)
	adv := &fm.adv[wi]
	var em float64
	for _, r := range s {
		switch {
		case r >= cjkStart:
			em += fm.cjk[wi]
		case r >= 0 && adv[r] > 0:
			em += adv[r]
		default:
			em += fm.fallback[wi] * 0.8
		}
	}
	return em * size
}

// CapHeight is the height of a capital letter at size, in logical px.
func CapHeight(size float64) float64 {
	metricsOnce.Do(loadMetrics)
	return fm.cap * size
}
