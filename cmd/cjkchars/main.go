// Command cjkchars prints the characters the CJK subset font must have: those
// of the words the canvas draws (i18n.CanvasKeys, and the errors it shows:
// i18n.ErrorTexts) that the Go font lacks, and those
// of the margin file given as its argument. assets/fonts/subset.sh (make
// fonts) runs it.
package main

import (
	"fmt"
	"os"
	"slices"

	"golang.org/x/image/font/sfnt"

	"fabriclab/assets"
	"fabriclab/i18n"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cjkchars:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 2 {
		return fmt.Errorf("usage: cjkchars MARGIN-FILE (the extra characters to keep)")
	}
	margin, err := os.ReadFile(os.Args[1])
	if err != nil {
		return fmt.Errorf("reading the margin file: %w", err)
	}
	goFont, err := sfnt.Parse(assets.Font(assets.Regular))
	if err != nil {
		return err
	}
	var buf sfnt.Buffer
	seen := map[rune]bool{}
	add := func(s string) {
		for _, r := range s {
			if r <= ' ' || seen[r] {
				continue
			}
			if gi, err := goFont.GlyphIndex(&buf, r); err == nil && gi != 0 {
				continue // the Go font draws it
			}
			seen[r] = true
		}
	}
	for _, k := range i18n.CanvasKeys() {
		add(i18n.T(i18n.ZH, k))
		add(i18n.T(i18n.EN, k))
	}
	for _, t := range i18n.ErrorTexts() { // the canvas draws a load's error
		add(t.ZH)
		add(t.EN)
	}
	add(string(margin))
	out := make([]rune, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	slices.Sort(out)
	fmt.Println(string(out))
	return nil
}
