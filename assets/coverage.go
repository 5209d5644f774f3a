package assets

import (
	"sync"

	"golang.org/x/image/font/sfnt"
)

var (
	coverOnce sync.Once
	coverErr  error
	covers    []*sfnt.Font // the Go font's and the CJK subset's weights
)

// Missing lists the runes of s (once each, in order) that the canvas's fonts
// cannot draw: neither the Go font nor the CJK subset has them in every
// weight. Text from a lesson that the canvas draws (a comparison's labels)
// must have none. Spaces and control characters are not counted.
func Missing(s string) []rune {
	coverOnce.Do(func() {
		for _, w := range []Weight{Regular, Medium, Bold} {
			for _, data := range [][]byte{Font(w), CJKFont(w)} {
				f, err := sfnt.Parse(data)
				if err != nil {
					coverErr = err
					return
				}
				covers = append(covers, f)
			}
		}
	})
	if coverErr != nil {
		return nil
	}
	var buf sfnt.Buffer
	var out []rune
	seen := map[rune]bool{}
	for _, r := range s {
		if r <= ' ' || seen[r] {
			continue
		}
		seen[r] = true
		// Every weight must draw it: in each, the Go font or the CJK subset.
		for w := 0; w+1 < len(covers); w += 2 {
			latin, _ := covers[w].GlyphIndex(&buf, r)
			cjk, _ := covers[w+1].GlyphIndex(&buf, r)
			if latin == 0 && cjk == 0 {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
