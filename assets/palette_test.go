package assets

import (
	"fmt"
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

// Every colour a theme draws meets WCAG 2.2 AA on the background and the
// panels: 4.5:1 for text, 3:1 for graphics (links idle or loaded, flows,
// marks, node edges); and the load scale gains contrast as the load rises.
func TestThemeContrast(t *testing.T) {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	for _, th := range []*Theme{&Light, &Dark} {
		grounds := map[string]color.RGBA{"background": th.Background, "panel": th.Panel}
		if th == &Light {
			grounds["white"] = white
		}
		text := map[string]color.RGBA{"text": th.Text, "muted": th.Muted}
		graphics := map[string]color.RGBA{"idle link": th.Idle, "node edge": th.NodeEdge, "drop": th.Drop, "pause": th.Pause, "highlight": th.Highlight}
		for i := 0; i <= 20; i++ {
			graphics[fmt.Sprintf("load %d%%", 5*i)] = th.Load(float64(i) / 20)
		}
		for i := range Categories {
			graphics[fmt.Sprintf("categorical %d", i)] = th.Categorical(i)
		}
		for gname, g := range grounds {
			for name, c := range text {
				assert.GreaterOrEqual(t, contrast(c, g), 4.5, "%s: %s %v on the %s", th.Name, name, c, gname)
			}
			for name, c := range graphics {
				assert.GreaterOrEqual(t, contrast(c, g), 3.0, "%s: %s %v on the %s", th.Name, name, c, gname)
			}
		}
		assert.GreaterOrEqual(t, contrast(th.SwitchText, th.Switch), 4.5, "%s: a switch's label", th.Name)
		// More load, more contrast with the background.
		assert.Greater(t, contrast(th.Load(1), th.Background), contrast(th.Load(0), th.Background)+1, "%s: the load scale runs towards more contrast", th.Name)
	}
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
