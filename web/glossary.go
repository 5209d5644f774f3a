package web

import "fabriclab/i18n"

// glossaryTerm is one entry of the glossary page: the term in the page's
// language, the other language's beside it, and the definition.
type glossaryTerm struct{ ID, Term, Other, OtherLang, Def string }

// glossaryPages renders glossary.en.html and glossary.zh.html from
// i18n.Glossary, the course's one word per concept.
func glossaryPages(pages templates, version string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		other, otherLang, htmlLang, index := i18n.ZH, "zh-Hans", "en", "index.html"
		if lang == i18n.ZH {
			other, otherLang, htmlLang, index = i18n.EN, "en", "zh-Hans", "index.zh.html"
		}
		terms := make([]glossaryTerm, len(i18n.Glossary))
		for i, g := range i18n.Glossary {
			terms[i] = glossaryTerm{ID: g.Concept, Term: g.EN, Other: g.ZH, OtherLang: otherLang, Def: g.Def.In(lang)}
			if lang == i18n.ZH {
				terms[i].Term, terms[i].Other = g.ZH, g.EN
			}
		}
		page, err := pages.render(lang, "glossary.html", map[string]any{"Version": version, "HTMLLang": htmlLang, "Index": index,
			"OtherHref": glossaryPage(other), "OtherLang": string(other), "OtherLabel": label(string(other)), "Terms": terms})
		if err != nil {
			return nil, err
		}
		out[glossaryPage(lang)] = page
	}
	return out, nil
}

// glossaryPage is the glossary in a language: glossary.en.html, glossary.zh.html.
func glossaryPage(lang i18n.Lang) string { return "glossary." + string(lang) + ".html" }
