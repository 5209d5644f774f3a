package web

import (
	"strings"

	"fabriclab/i18n"
	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

// indexLinks is what the index page needs in each language besides its
// words (index.* in the catalogue): its html lang, the other language's
// index, and the canvas's lang= for the scenarios' links.
type indexLinks struct {
	Lang, OtherHref, OtherLang, EmbedLang string
	Glossary                              string // the glossary page in this language
	Explain                               string // the explain page (issue 32) in this language
}

var indexLangs = map[i18n.Lang]indexLinks{
	i18n.EN: {Lang: "en", OtherHref: "index.zh.html", OtherLang: "zh", Glossary: "glossary.en.html", Explain: "explain.html"},
	i18n.ZH: {Lang: "zh-Hans", OtherHref: "index.html", OtherLang: "en", EmbedLang: "zh", Glossary: "glossary.zh.html", Explain: "explain.zh.html"},
}

// indexPageName is the index in a language: index.html, index.zh.html.
func indexPageName(lang string) string {
	if lang == "en" {
		return "index.html"
	}
	return "index." + lang + ".html"
}

type langLink struct{ Lang, Label, Href string }

// assumedLink is an earlier lesson a lesson assumes, as the page links it.
type assumedLink struct{ Title, Href, Lang string }

// assumed links the lessons l assumes, each in lang where it has that
// language (else in English); nil when l's front matter does not say.
func assumed(bySlug map[string][]*lessons.Lesson, l *lessons.Lesson, lang string) []assumedLink {
	if l.Assumes == nil {
		return nil
	}
	links := []assumedLink{}
	for _, slug := range l.Assumes {
		var pick *lessons.Lesson
		for _, o := range bySlug[slug] {
			if pick == nil || o.Lang == lang || o.Lang == "en" && pick.Lang != lang {
				pick = o
			}
		}
		if pick != nil {
			links = append(links, assumedLink{pick.Title, pageName(pick), pick.Lang})
		}
	}
	return links
}

// indexCard is one lesson on the course path.
type indexCard struct {
	Number                            int
	Slug, Title, Summary, Level, Href string
	Lang                              string // the card's text's language, for lang=
	Minutes, Steps                    int
	StepIDs                           string // space-separated, for the progress script
	Langs                             []langLink
	Assumes                           []assumedLink // nil: not said; empty: none
	AssumesNone                       bool
}

// indexPages renders index.html and index.zh.html: the course as a path, in
// the lessons' order (ls is sorted by lessons.Load), each card in the page's
// language where the lesson has it.
func indexPages(pages templates, ls []*lessons.Lesson, scenarios []scenario.BuiltinInfo, version string) (map[string][]byte, error) {
	bySlug := map[string][]*lessons.Lesson{}
	var slugs []string
	for _, l := range ls {
		if _, ok := bySlug[l.Slug]; !ok {
			slugs = append(slugs, l.Slug)
		}
		bySlug[l.Slug] = append(bySlug[l.Slug], l)
	}
	out := map[string][]byte{}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		var cards []indexCard
		for i, slug := range slugs {
			group := bySlug[slug]
			var langs []langLink
			pick := group[0]
			for _, l := range group {
				if l.Lang == "en" && pick.Lang != string(lang) {
					pick = l
				}
			}
			for _, l := range group {
				if l.Lang == string(lang) {
					pick = l
				}
			}
			// The page's language first, then English, then the rest.
			ordered := append([]*lessons.Lesson{}, group...)
			rank := func(l *lessons.Lesson) int {
				switch l.Lang {
				case string(lang):
					return 0
				case "en":
					return 1
				}
				return 2
			}
			for a := 1; a < len(ordered); a++ {
				for b := a; b > 0 && rank(ordered[b]) < rank(ordered[b-1]); b-- {
					ordered[b], ordered[b-1] = ordered[b-1], ordered[b]
				}
			}
			for _, l := range ordered {
				langs = append(langs, langLink{l.Lang, label(l.Lang), pageName(l)})
			}
			ids := make([]string, len(pick.Steps))
			for k, s := range pick.Steps {
				ids[k] = s.ID
			}
			level := pick.Level
			if i18n.Has("index.level." + level) {
				level = i18n.T(lang, "index.level."+level)
			}
			cardLang := pick.Language
			if cardLang == "" {
				cardLang = pick.Lang
			}
			cards = append(cards, indexCard{Number: i + 1, Slug: slug, Title: pick.Title, Summary: pick.Summary, Level: level,
				Href: pageName(pick), Lang: cardLang, Minutes: pick.Minutes, Steps: len(pick.Steps), StepIDs: strings.Join(ids, " "), Langs: langs,
				Assumes: assumed(bySlug, pick, string(lang)), AssumesNone: pick.Assumes != nil && len(pick.Assumes) == 0})
		}
		page, err := pages.render(lang, "index.html", map[string]any{"Version": version, "Lessons": cards, "Scenarios": scenarioRows(lang, scenarios), "W": indexLangs[lang]})
		if err != nil {
			return nil, err
		}
		out[indexPageName(string(lang))] = page
	}
	return out, nil
}

// scenarioRow is one built-in scenario in the index's table.
type scenarioRow struct {
	Name, Summary string
	Lang          string // the summary's language, for lang=
}

// scenarioRows are the built-ins with their summaries in lang: the
// catalogue's (scenario.summary.NAME), or the YAML's English one.
func scenarioRows(lang i18n.Lang, scenarios []scenario.BuiltinInfo) []scenarioRow {
	rows := make([]scenarioRow, len(scenarios))
	for i, s := range scenarios {
		rows[i] = scenarioRow{Name: s.Name, Summary: s.Summary, Lang: "en"}
		if lang == i18n.ZH && i18n.Has("scenario.summary."+s.Name) {
			rows[i].Summary, rows[i].Lang = i18n.T(lang, "scenario.summary."+s.Name), "zh-Hans"
		}
	}
	return rows
}
