package assets

import (
	"image/color"
	"math"
)

// viridis is matplotlib's viridis colour map (van der Walt & Smith, CC0) at 11
// evenly spaced stops: perceptually uniform, readable in greyscale and by
// readers with the common colour-vision deficiencies.
var viridis = [...]color.RGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x48, 0x24, 0x75, 0xff}, {0x41, 0x44, 0x87, 0xff}, {0x35, 0x5f, 0x8d, 0xff},
	{0x2a, 0x78, 0x8e, 0xff}, {0x21, 0x91, 0x8c, 0xff}, {0x22, 0xa8, 0x84, 0xff}, {0x44, 0xbf, 0x70, 0xff},
	{0x7a, 0xd1, 0x51, 0xff}, {0xbd, 0xdf, 0x26, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// Viridis maps v in [0, 1] (clamped) onto the viridis colour map.
func Viridis(v float64) color.RGBA {
	if !(v > 0) { // also NaN
		return viridis[0]
	}
	if v >= 1 {
		return viridis[len(viridis)-1]
	}
	f := v * float64(len(viridis)-1)
	i := int(f)
	return Mix(viridis[i], viridis[i+1], f-float64(i))
}

// categorical is Okabe & Ito's colour-blind-safe qualitative palette (without
// its black) followed by Paul Tol's wine, so that eight shards stay apart.
var categorical = [...]color.RGBA{
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xf0, 0xe4, 0x42, 0xff}, // yellow
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	{0x88, 0x22, 0x55, 0xff}, // wine
}

// onLight is categorical darkened where it had under 3:1 on a white page
// (WCAG AA for graphics): the same hues, one step deeper; onDark lightens the
// wine, which had 2:1 on near-black.
var (
	onLight = [...]color.RGBA{
		{0xb0, 0x6f, 0x00, 0xff}, {0x2f, 0x86, 0xc0, 0xff}, {0x00, 0x8a, 0x64, 0xff}, {0x8f, 0x83, 0x00, 0xff},
		categorical[4], categorical[5], {0xb4, 0x57, 0x8c, 0xff}, categorical[7],
	}
	onDark = [...]color.RGBA{
		categorical[0], categorical[1], categorical[2], categorical[3],
		categorical[4], categorical[5], categorical[6], {0xd9, 0x60, 0x9a, 0xff},
	}
)

// Categories is how many distinct categorical colours there are.
const Categories = len(categorical)

// Categorical returns the i-th colour of the qualitative palette, cycling.
func Categorical(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return categorical[i%len(categorical)]
}

// Categorical is the i-th qualitative colour (cycling) as this theme draws
// it: each has 3:1 on its background and panels.
func (t *Theme) Categorical(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return t.Flows[i%len(t.Flows)]
}

// Mix blends a towards b by t in [0, 1].
func Mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

// Theme is the set of colours a scene is drawn with.
type Theme struct {
	Name       string
	Background color.RGBA
	Panel      color.RGBA // chart and legend panels, tooltips
	Border     color.RGBA // panel borders, axes
	Text       color.RGBA
	Muted      color.RGBA // secondary text, grid lines
	Idle       color.RGBA // links that carry nothing
	Node       color.RGBA // endpoint fill when idle
	NodeEdge   color.RGBA
	Switch     color.RGBA // switch fill
	SwitchText color.RGBA
	Comm       color.RGBA // an endpoint sending or receiving
	Compute    color.RGBA // a GPU computing
	Queue      color.RGBA // queue fill bars
	Drop       color.RGBA // the ✕ of a drop
	Pause      color.RGBA // the ‖ of a PFC pause
	Highlight  color.RGBA // the hovered item's outline
	// LoadFrom and LoadTo are the part of viridis that loads from 0 to
	// 100 % span (Load): on light, it stops where the colour still has 3:1
	// contrast on white (WCAG AA for graphics); on dark, its darkest purples
	// are left out.
	LoadFrom, LoadTo float64
	// Flows are the qualitative colours (flows, shards, series) on this theme.
	Flows [Categories]color.RGBA
}

// Load is the colour of a load in [0, 1] (clamped).
func (t *Theme) Load(v float64) color.RGBA {
	v = max(0, min(1, v))
	return Viridis(t.LoadFrom + (t.LoadTo-t.LoadFrom)*v)
}

// Light is the default theme: dark ink on an off-white page.
var Light = Theme{
	Name:       "light",
	Background: color.RGBA{0xfa, 0xfa, 0xf8, 0xff},
	Panel:      color.RGBA{0xff, 0xff, 0xff, 0xff},
	Border:     color.RGBA{0xd4, 0xd4, 0xd0, 0xff},
	Text:       color.RGBA{0x1f, 0x23, 0x28, 0xff},
	Muted:      color.RGBA{0x6b, 0x70, 0x78, 0xff},
	Idle:       color.RGBA{0x86, 0x8a, 0x91, 0xff}, // 3.3:1: an idle link is still seen
	Node:       color.RGBA{0xff, 0xff, 0xff, 0xff},
	NodeEdge:   color.RGBA{0x5a, 0x60, 0x6a, 0xff},
	Switch:     color.RGBA{0x3b, 0x42, 0x4d, 0xff},
	SwitchText: color.RGBA{0xf4, 0xf5, 0xf6, 0xff},
	Comm:       color.RGBA{0x56, 0xb4, 0xe9, 0xff},
	Compute:    color.RGBA{0xe6, 0x9f, 0x00, 0xff},
	Queue:      color.RGBA{0x3b, 0x42, 0x4d, 0xff},
	Drop:       color.RGBA{0xd6, 0x27, 0x28, 0xff},
	Pause:      color.RGBA{0xc2, 0x4e, 0x00, 0xff},
	Highlight:  color.RGBA{0xd6, 0x27, 0x28, 0xff},
	// Light to dark as the load rises (more ink, more load): 0 %: #229c88, 3.4:1 on white.
	LoadFrom: 0.55, LoadTo: 0.05,
	Flows: onLight,
}

// Dark is for dim rooms and projectors: light ink on near-black.
var Dark = Theme{
	Name:       "dark",
	Background: color.RGBA{0x14, 0x16, 0x1a, 0xff},
	Panel:      color.RGBA{0x1e, 0x21, 0x27, 0xff},
	Border:     color.RGBA{0x3a, 0x3f, 0x48, 0xff},
	Text:       color.RGBA{0xe8, 0xea, 0xed, 0xff},
	Muted:      color.RGBA{0x9a, 0xa0, 0xa8, 0xff},
	Idle:       color.RGBA{0x6b, 0x71, 0x7b, 0xff}, // 3.3:1 on panels
	Node:       color.RGBA{0x24, 0x28, 0x2f, 0xff},
	NodeEdge:   color.RGBA{0xa8, 0xae, 0xb8, 0xff},
	Switch:     color.RGBA{0x5b, 0x63, 0x70, 0xff},
	SwitchText: color.RGBA{0xf4, 0xf5, 0xf6, 0xff},
	Comm:       color.RGBA{0x56, 0xb4, 0xe9, 0xff},
	Compute:    color.RGBA{0xe6, 0x9f, 0x00, 0xff},
	Queue:      color.RGBA{0xe8, 0xea, 0xed, 0xff},
	Drop:       color.RGBA{0xff, 0x4d, 0x4d, 0xff},
	Pause:      color.RGBA{0xff, 0x9f, 0x1c, 0xff},
	Highlight:  color.RGBA{0xff, 0xff, 0xff, 0xff},
	LoadFrom:   0.4, LoadTo: 1, // 0 %: #2a788e, 3.2:1 on a panel
	Flows: onDark,
}
