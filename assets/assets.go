// Package assets holds what fabriclab's pictures are made of: the fonts and the
// colour palettes. The renderer, the SVG/PNG writers and the Ebitengine layer all
// take them from here, so every output looks the same.
package assets

// Weight is a font weight.
type Weight uint8

// Weights, lightest first.
const (
	Regular Weight = iota
	Medium
	Bold
)

// Font returns the TrueType data of the Go font family (BSD-licensed, by Bigelow
// & Holmes; see golang.org/x/image/font/gofont) in the given weight. The Go
// fonts are hinted for the screen and cover WGL4, which includes µ, → and ‖.
func Font(w Weight) []byte { return fontData(w) }

// FontFamily is the CSS font-family SVG output asks for: the Go font where the
// viewer has it, a neutral sans-serif otherwise, and for Chinese Noto Sans
// CJK SC (as the canvas draws it) or the system's CJK font.
const FontFamily = "'Go', 'Go Regular', 'Helvetica Neue', Arial, 'Noto Sans CJK SC', 'Noto Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
