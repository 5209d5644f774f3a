package web_test

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// luminance is WCAG 2's relative luminance of a #rrggbb colour.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	require.Len(t, hex, 7, "a #rrggbb colour: %q", hex)
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		n, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		require.NoError(t, err, hex)
		v := float64(n) / 255
		if v <= 0.04045 {
			v /= 12.92
		} else {
			v = math.Pow((v+0.055)/1.055, 2.4)
		}
		l += w * v
	}
	return l
}

// contrastRatio is WCAG 2's contrast ratio of two #rrggbb colours.
func contrastRatio(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

var customProperty = regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})\b`)

// properties are the #rrggbb custom properties of the first rule in css
// that starts with selector, over base.
func properties(t *testing.T, css, selector string, base map[string]string) map[string]string {
	t.Helper()
	at := strings.Index(css, selector+" {")
	require.GreaterOrEqual(t, at, 0, "site.css has a rule %q", selector)
	end := strings.Index(css[at:], "}")
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for _, m := range customProperty.FindAllStringSubmatch(css[at:at+end], -1) {
		out[m[1]] = strings.ToLower(m[2])
	}
	return out
}

// Every text and graphic colour of the pages (site.css's custom properties)
// meets WCAG 2.2 AA against what it is drawn on, in both themes: 4.5:1 for
// text, 3:1 for graphics (the focus ring, the progress bar).
func TestSiteColoursContrast(t *testing.T) {
	data, err := os.ReadFile("static/site.css")
	require.NoError(t, err)
	css := string(data)
	light := properties(t, css, ":root", nil)
	dark := properties(t, css[strings.Index(css, "prefers-color-scheme: dark"):], ":root", light)
	type pair struct{ fg, bg string }
	text := []pair{
		{"fg", "bg"}, {"fg", "panel"}, {"fg", "code"}, {"muted", "bg"}, {"muted", "panel"}, {"muted", "code"},
		{"accent", "bg"}, {"accent", "panel"}, {"accent", "code"}, {"accent-fg", "accent"},
		{"good", "panel"}, {"good", "bg"}, {"bad", "panel"}, {"bad", "bg"}, {"panel", "good"},
	}
	graphics := []pair{{"accent", "bg"}, {"accent", "panel"}, {"good", "code"}, {"series-measured", "panel"}, {"series-measured", "bg"}}
	check := func(theme string, p map[string]string, pairs []pair, min float64) {
		for _, c := range pairs {
			require.Contains(t, p, c.fg, theme)
			require.Contains(t, p, c.bg, theme)
			r := contrastRatio(t, p[c.fg], p[c.bg])
			assert.GreaterOrEqual(t, r, min, "%s: --%s %s on --%s %s is %.2f:1", theme, c.fg, p[c.fg], c.bg, p[c.bg], r)
		}
	}
	for theme, p := range map[string]map[string]string{"light": light, "dark": dark} {
		check(theme, p, text, 4.5)
		check(theme, p, graphics, 3)
	}

	// The embed's bar and focus ring follow the canvas's theme (theme=light), not the system's.
	embed := properties(t, css, "body.embed", nil)
	embedLight := properties(t, css, "body.embed.light", nil)
	for _, c := range []struct{ name, fg, bg string }{
		{"dark bar: the focus ring on the canvas", embed["accent"], light["canvas"]},
		{"dark bar: the focus ring on a button", embed["accent"], "#222b35"},
		{"light bar: the focus ring on the canvas", embedLight["accent"], "#fafaf8"},
		{"light bar: the focus ring on a button", embedLight["accent"], "#ffffff"},
	} {
		r := contrastRatio(t, c.fg, c.bg)
		assert.GreaterOrEqual(t, r, 3.0, fmt.Sprintf("%s: %s on %s is %.2f:1", c.name, c.fg, c.bg, r))
	}
}
