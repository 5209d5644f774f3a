// Package i18n is fabriclab's one catalogue of user-visible words, in English
// and Simplified Chinese: what the canvas draws (canvas.go) and what the
// pages show (page.go).
//
// To add a string:
//
//   - add a line to canvas or page: "area.what": {"English", "中文"}. A key
//     names where the text is used ("chart.queues", "embed.reset"). A Go format
//     string takes the same verbs in both languages (use %[2]d to reorder); a
//     string the page's script fills in takes the same {} or {name} holes;
//   - in Go, use T(lang, "area.what") or Tf(lang, "area.what", args...)
//     (inside render's Builder, b.t and b.tf); in a page template,
//     {{t "area.what"}}; in embed.js and editor.js, t("area.what", args...),
//     or data-t, data-t-title, data-t-label on an element of embed.html;
//   - a canvas string with a Chinese character the CJK subset font lacks
//     needs `make fonts` (render's TestCatalogueGlyphs names the character).
//
// Figures and units (µs, ms, Gb/s, MiB) are the same in both languages, as in
// the lessons. An unknown key shows as itself, so a mistake shows on the
// canvas or page rather than crashing it; TestCatalogueKeys finds the keys
// that code, templates and scripts use and the catalogue lacks.
//
// The simulation's errors are said in the page's language too (Error,
// errors.go): they keep their English format and args, and errors_zh.go has
// each format in Chinese, with the keys, values and units as they are. The
// canvas's parameters' errors stay English (they name the address's
// parameters). The page's own messages to the learner (the canvas stopped,
// ran out of memory, could not load) are here.
package i18n

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Lang is a language: "" or "en" English, "zh" Simplified Chinese.
type Lang string

// Languages.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// Text is one string in each language.
type Text struct{ EN, ZH string }

// In returns the text in lang (English for any other).
func (t Text) In(lang Lang) string {
	if lang == ZH && t.ZH != "" {
		return t.ZH
	}
	return t.EN
}

// catalogue builds the two tables on first use, not at every start of the
// CLI (TestPackageInitIsSmall): what the canvas draws, and what the pages show
// with the goal box's, the glossary's and the scenario summaries' words.
var catalogue = sync.OnceValues(func() (canvas, page map[string]Text) {
	page = pageWords()
	for _, m := range []map[string]Text{goalWords(), glossaryWords(), explainWords(), scenarioSummaries()} {
		maps.Copy(page, m)
	}
	return canvasWords(), page
})

// lookup finds key's text in the catalogue.
func lookup(key string) (Text, bool) {
	canvas, page := catalogue()
	if t, ok := canvas[key]; ok {
		return t, true
	}
	t, ok := page[key]
	return t, ok
}

// Has reports whether the catalogue has key.
func Has(key string) bool {
	_, ok := lookup(key)
	return ok
}

// T returns the catalogue's text for key in lang; the key itself if it has none.
func T(lang Lang, key string) string {
	if t, ok := lookup(key); ok {
		return t.In(lang)
	}
	return key
}

// Tf formats the catalogue's format string for key in lang with args.
func Tf(lang Lang, key string, args ...any) string {
	return fmt.Sprintf(T(lang, key), args...)
}

// Keys returns every key of the catalogue, sorted.
func Keys() []string {
	canvas, page := catalogue()
	keys := append(sortedKeys(canvas), sortedKeys(page)...)
	slices.Sort(keys)
	return keys
}

// CanvasKeys returns the keys of the words the canvas draws, sorted: the
// CJK subset font (assets/fonts) must have their characters.
func CanvasKeys() []string {
	canvas, _ := catalogue()
	return sortedKeys(canvas)
}

// Words returns, in lang, the page's words whose keys start with one of
// prefixes (say "embed."), for a page's script.
func Words(lang Lang, prefixes ...string) map[string]string {
	_, page := catalogue()
	out := map[string]string{}
	for k, t := range page {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				out[k] = t.In(lang)
			}
		}
	}
	return out
}

func sortedKeys(m map[string]Text) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
