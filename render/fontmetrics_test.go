package render

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"fabriclab/assets"
)

// TestLazyAdvancesMatchTheFont: each character's advance, looked up when
// first measured (from several goroutines at once), is the font's, and a
// character the font lacks is measured as before (80 % of an M).
func TestLazyAdvancesMatchTheFont(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { TextWidth("Link 3 → spine µs ‖ 中文", 12, assets.Bold) })
	}
	wg.Wait()
	var buf sfnt.Buffer
	for w := range 3 {
		f, err := sfnt.Parse(assets.Font(assets.Weight(w)))
		require.NoError(t, err)
		upem := fixed.Int26_6(f.UnitsPerEm()) << 6
		m := 0.0
		for r := rune(0); r < cjkStart; r++ {
			want := -1.0
			if gi, err := f.GlyphIndex(&buf, r); r >= 32 && err == nil && gi != 0 {
				if a, err := f.GlyphAdvance(&buf, gi, upem, font.HintingNone); err == nil && a > 0 {
					want = float64(a) / float64(upem)
				}
			}
			if r == 'M' {
				m = want
			}
			if !assert.Equal(t, want, advance(w, r), "weight %d, %U", w, r) {
				return
			}
		}
		assert.Greater(t, m, 0.0)
		assert.Equal(t, 0.8*m*10, TextWidth("\u0378", 10, assets.Weight(w)), "a character the Go font lacks (U+0378) is 80 % of an M")
		assert.Equal(t, 2*advance(w, 'A')*10, TextWidth("AA", 10, assets.Weight(w)))
	}
}
