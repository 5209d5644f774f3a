package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font/sfnt"

	"fabriclab/assets"
	"fabriclab/i18n"
)

// Every glyph of every string the canvas draws (its words and the errors it
// shows), in both languages and all weights, is in the Go font or in the CJK subset: a Chinese string with a
// character the subset lacks would draw as a box. (The fix: make fonts.)
func TestCatalogueGlyphs(t *testing.T) {
	var buf sfnt.Buffer
	keys := i18n.CanvasKeys()
	require.Contains(t, keys, "chart.queues", "the canvas's keys are listed")
	for w := assets.Regular; w <= assets.Bold; w++ {
		latin, err := sfnt.Parse(assets.Font(w))
		require.NoError(t, err)
		cjk, err := sfnt.Parse(assets.CJKFont(w))
		require.NoError(t, err)
		has := func(f *sfnt.Font, r rune) bool {
			gi, err := f.GlyphIndex(&buf, r)
			return err == nil && gi != 0
		}
		texts := i18n.ErrorTexts() // the canvas shows a load's error
		require.NotEmpty(t, texts)
		for _, k := range keys {
			texts = append(texts, i18n.Text{EN: i18n.T(EN, k), ZH: i18n.T(ZH, k)})
		}
		for _, tx := range texts {
			for _, s := range []string{tx.EN, tx.ZH} {
				for _, r := range s {
					if r == ' ' || has(latin, r) {
						continue
					}
					assert.True(t, has(cjk, r), "%q (weight %d) has %q, which neither font draws: run make fonts", s, w, string(r))
				}
			}
		}
	}
}
