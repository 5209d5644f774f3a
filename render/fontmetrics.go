package render

import (
	"math"
	"sync"
	"sync/atomic"

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
// which labels fit without a text shaper. A character's advance is looked up
// the first time it is measured: the first frame then reads the few dozen
// characters it draws, not all 35,712 (a quarter of a second in WebAssembly).
type fontMetrics struct {
	fonts    [3]*sfnt.Font
	upem     [3]fixed.Int26_6
	adv      [3][cjkStart]atomic.Uint64 // math.Float64bits of the advance; 0 not looked up yet, noGlyph none
	cjk      [3]float64
	fallback [3]float64
	cap      float64 // cap height in em
}

// noGlyph marks a character the Go font lacks (or draws with no advance).
const noGlyph = ^uint64(0)

var (
	metricsOnce sync.Once
	fm          fontMetrics
	lookupMu    sync.Mutex  // guards lookupBuf; the table itself is atomic
	lookupBuf   sfnt.Buffer // for lookups after loadMetrics
)

func loadMetrics() {
	var buf sfnt.Buffer
	for w := range 3 {
		f, err := sfnt.Parse(assets.Font(assets.Weight(w)))
		if err != nil {
			panic("render: parsing the Go font: " + err.Error())
		}
		fm.fonts[w] = f
		fm.upem[w] = fixed.Int26_6(f.UnitsPerEm()) << 6
		upem := fm.upem[w]
		fm.fallback[w] = max(advance(w, 'M'), 0)
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

// advance is the Go font's advance (in em) of r (0 <= r < cjkStart) in
// weight w, or -1 where it has none. loadMetrics must have parsed the fonts.
func advance(w int, r rune) float64 {
	bits := fm.adv[w][r].Load()
	if bits == 0 {
		bits = lookup(w, r)
	}
	if bits == noGlyph {
		return -1
	}
	return math.Float64frombits(bits)
}

func lookup(w int, r rune) uint64 {
	lookupMu.Lock()
	defer lookupMu.Unlock()
	if bits := fm.adv[w][r].Load(); bits != 0 {
		return bits
	}
	bits := noGlyph
	if f := fm.fonts[w]; r >= 32 {
		if gi, err := f.GlyphIndex(&lookupBuf, r); err == nil && gi != 0 {
			if a, err := f.GlyphAdvance(&lookupBuf, gi, fm.upem[w], font.HintingNone); err == nil && a > 0 {
				bits = math.Float64bits(float64(a) / float64(fm.upem[w]))
			}
		}
	}
	fm.adv[w][r].Store(bits)
	return bits
}

func mustGlyph(f *sfnt.Font, buf *sfnt.Buffer, r rune) sfnt.GlyphIndex {
	gi, _ := f.GlyphIndex(buf, r)
	return gi
}

// TextWidth is the width in logical px of s set at size in weight w.
func TextWidth(s string, size float64, w assets.Weight) float64 {
	metricsOnce.Do(loadMetrics)
	wi := min(int(w), 2)
	var em float64
	for _, r := range s {
		if r >= cjkStart {
			em += fm.cjk[wi]
			continue
		}
		a := -1.0
		if r >= 0 {
			a = advance(wi, r)
		}
		if a <= 0 {
			a = fm.fallback[wi] * 0.8
		}
		em += a
	}
	return em * size
}

// CapHeight is the height of a capital letter at size, in logical px.
func CapHeight(size float64) float64 {
	metricsOnce.Do(loadMetrics)
	return fm.cap * size
}
