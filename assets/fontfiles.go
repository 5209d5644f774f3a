package assets

// fontID numbers the font files: the Go font's weights (Regular, Medium,
// Bold), then the CJK subset's two.
type fontID = Weight

const (
	cjkRegular fontID = Bold + 1 + iota
	cjkBold
)

// WebFontNames names each font file, by fontID, as the site serves it under
// fonts/ (web.Site writes them, embed.js fetches them and hands them to the
// WebAssembly as globalThis.fabriclabFonts[name], a Uint8Array).
var WebFontNames = [...]string{
	Regular:    "go-regular.ttf",
	Medium:     "go-medium.ttf",
	Bold:       "go-bold.ttf",
	cjkRegular: "noto-sans-sc-subset-regular.otf",
	cjkBold:    "noto-sans-sc-subset-bold.otf",
}
