package web

import "fabriclab/i18n"

// explainPages renders explain.html and explain.zh.html (issue 32): a page
// where a user pastes an nccl-tests output and sees it beside a healthy
// cluster's figures. The work is the worker's (cmd/worker's explain,
// sim/nccltests's, as fabriclab explain does it), in the page: nothing is
// sent anywhere. static/explain.js draws the chart, the table and the findings.
func explainPages(pages templates, version string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		links := indexLangs[lang]
		other := i18n.ZH
		if lang == i18n.ZH {
			other = i18n.EN
		}
		words, err := scriptJSON(i18n.Words(lang, "explain."))
		if err != nil {
			return nil, err
		}
		page, err := pages.render(lang, "explain.html", map[string]any{"Version": version, "HTMLLang": links.Lang, "EmbedLang": links.EmbedLang,
			"Index": indexPageName(string(lang)), "OtherHref": explainPage(other), "OtherLang": string(other), "OtherLabel": label(string(other)),
			"Glossary": links.Glossary, "WordsJSON": words, "ZH": lang == i18n.ZH})
		if err != nil {
			return nil, err
		}
		out[explainPage(lang)] = page
	}
	return out, nil
}

// explainPage is the explain page in a language: explain.html, explain.zh.html.
func explainPage(lang i18n.Lang) string {
	if lang == i18n.EN {
		return "explain.html"
	}
	return "explain." + string(lang) + ".html"
}
