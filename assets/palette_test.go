package assets

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// contrast is WCAG 2's contrast ratio of two colours.
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(u uint8) float64 {
			v := float64(u) / 255
			if v <= 0.04045 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Every light-theme load colour, 100 % included, stands out from the page,
// the panels and white by WCAG AA's 3:1 for graphics. (The dark theme's
// loads below about 25 % do not yet: its blues on near-black.)
func TestLoadColoursContrast(t *testing.T) {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	for _, th := range []*Theme{&Light} {
		for i := 0; i <= 20; i++ {
			v := float64(i) / 20
			c := th.Load(v)
			assert.GreaterOrEqual(t, contrast(c, th.Background), 3.0, "%s: load %.0f%% %v on the background", th.Name, 100*v, c)
			assert.GreaterOrEqual(t, contrast(c, th.Panel), 3.0, "%s: load %.0f%% %v on a panel", th.Name, 100*v, c)
			assert.GreaterOrEqual(t, contrast(c, white), 3.0, "load %.0f%% on white", 100*v)
		}
		assert.NotEqual(t, th.Load(0), th.Load(1), "0 and 100 %% differ")
	}
}
