package render

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"fabriclab/assets"
)

// fontMetrics holds the advance widths (in em) of the printable ASCII
// characters of each weight, and the cap height, so that the scene can size
// boxes and decide which labels fit without a text shaper.
type fontMetrics struct {
	adv      [3][128]float64
	fallback [3]float64
	cap      float64 // cap height in em
}

var (
	metricsOnce sync.Once
	fm          fontMetrics
)

const unitsPerEm = 2048 // the Go fonts' em

func loadMetrics() {
	var buf sfnt.Buffer
	for w := range 3 {
		f, err := sfnt.Parse(assets.Font(assets.Weight(w)))
		if err != nil {
			panic("render: parsing the Go font: " + err.Error())
		}
		ppem := fixed.Int26_6(unitsPerEm << 6)
		for r := rune(32); r < 127; r++ {
			gi, err := f.GlyphIndex(&buf, r)
			if err != nil {
				continue
			}
			a, err := f.GlyphAdvance(&buf, gi, ppem, font.HintingNone)
			if err == nil {
				fm.adv[w][r] = float64(a) / 64 / unitsPerEm
			}
		}
		fm.fallback[w] = fm.adv[w]['M']
		if w == 0 {
			if b, _, err := f.GlyphBounds(&buf, mustGlyph(f, &buf, 'H'), ppem, font.HintingNone); err == nil {
				fm.cap = float64(-b.Min.Y) / 64 / unitsPerEm
			}
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
	adv := &fm.adv[min(int(w), 2)]
	var em float64
	for _, r := range s {
		if r < 128 && adv[r] > 0 {
			em += adv[r]
		} else {
			em += fm.fallback[min(int(w), 2)] * 0.8
		}
	}
	return em * size
}

// CapHeight is the height of a capital letter at size, in logical px.
func CapHeight(size float64) float64 {
	metricsOnce.Do(loadMetrics)
	return fm.cap * size
}
