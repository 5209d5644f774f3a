//go:build !(js && webfonts)

package assets

import "testing"

// pageFonts: the fonts are linked in.
func pageFonts(*testing.T) {}
