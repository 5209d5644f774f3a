package ebitenrender

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
)

// Chinese text draws from the CJK subset: an ideograph is a full em wide and
// has ink, where the Go font alone would put a narrow '?' in its place.
func TestChineseGlyphs(t *testing.T) {
	d, err := New()
	require.NoError(t, err)
	for _, w := range []assets.Weight{assets.Regular, assets.Medium, assets.Bold} {
		k := faceKey{w, 20 * 4}
		f := d.face(k)
		for _, r := range "队列吞吐量" {
			g := d.glyph(k, f, r)
			assert.InDelta(t, 20, g.adv, 0.5, "%q in weight %d is an em wide", string(r), w)
			assert.Positive(t, g.w*g.h, "%q has ink", string(r))
		}
		assert.Less(t, d.glyph(k, f, 'i').adv, 10.0, "Latin still comes from the Go font")
	}
}
