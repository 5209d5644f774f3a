package web

import (
	"strings"

	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

// indexWords holds the index page's words in each language. Progress holds
// {done} and {total}; the page's script fills them in.
type indexWords struct {
	Lang, Title, Lede, Course, CourseLede, Scenarios, ScenariosLede string
	Minutes, Steps, Progress, Finished, Continue, Start, Other      string
	OtherHref, OtherLang                                            string
	Edit, EmbedLang                                                 string // the scenarios' edit links; the canvas's lang= on this page
	Levels                                                          map[string]string
}

var indexText = map[string]indexWords{
	"en": {Lang: "en", Title: "fabriclab — how AI-cluster networks behave",
		Lede: "Step through how the networks inside AI clusters behave: NVLink and NVSwitch, InfiniBand and RoCE, " +
			"incast congestion and lossless flow control, all-reduce, adaptive routing. Every number comes from the simulation running in your browser.",
		Course: "The course", CourseLede: "Lessons in order, each a few steps of predict, watch, explain. Your progress is kept in this browser.",
		Scenarios:     "Scenarios",
		ScenariosLede: "Open a built-in scenario on its own canvas — the same page you can embed in your docs (see the README).",
		Minutes:       "min", Steps: "steps", Progress: "{done} of {total} steps", Finished: "finished", Continue: "Continue", Start: "Start",
		Other: "中文课程目录", OtherHref: "index.zh.html", OtherLang: "zh", Edit: "edit",
		Levels: map[string]string{"beginner": "beginner", "intermediate": "intermediate", "advanced": "advanced"}},
	"zh": {Lang: "zh-Hans", Title: "fabriclab — AI 集群网络如何工作",
		Lede:   "一步步看清 AI 集群内部网络的行为：NVLink 与 NVSwitch、InfiniBand 与 RoCE、Incast 拥塞与无损流控、all-reduce、自适应路由。每个数字都来自在你浏览器里运行的仿真。",
		Course: "课程", CourseLede: "按顺序学习，每课由若干“预测、观察、解释”的步骤组成。学习进度保存在这个浏览器里。",
		Scenarios:     "场景",
		ScenariosLede: "在单独的画布上打开内置场景——也就是可以嵌入你的文档的同一个页面（见 README）。",
		Minutes:       "分钟", Steps: "步", Progress: "已完成 {done} / {total} 步", Finished: "已完成", Continue: "继续", Start: "开始",
		Other: "English course index", OtherHref: "index.html", OtherLang: "en", Edit: "编辑", EmbedLang: "zh",
		Levels: map[string]string{"beginner": "入门", "intermediate": "进阶", "advanced": "高级"}},
}

// indexPageName is the index in a language: index.html, index.zh.html.
func indexPageName(lang string) string {
	if lang == "en" {
		return "index.html"
	}
	return "index." + lang + ".html"
}

type langLink struct{ Lang, Label, Href string }

// indexCard is one lesson on the course path.
type indexCard struct {
	Number                            int
	Slug, Title, Summary, Level, Href string
	Lang                              string // the card's text's language, for lang=
	Minutes, Steps                    int
	StepIDs                           string // space-separated, for the progress script
	Langs                             []langLink
}

// indexPages renders index.html and index.zh.html: the course as a path, in
// the lessons' order (ls is sorted by lessons.Load), each card in the page's
// language where the lesson has it.
func indexPages(render func(string, any) ([]byte, error), ls []*lessons.Lesson, scenarios []scenario.BuiltinInfo, version string) (map[string][]byte, error) {
	bySlug := map[string][]*lessons.Lesson{}
	var slugs []string
	for _, l := range ls {
		if _, ok := bySlug[l.Slug]; !ok {
			slugs = append(slugs, l.Slug)
		}
		bySlug[l.Slug] = append(bySlug[l.Slug], l)
	}
	out := map[string][]byte{}
	for _, lang := range []string{"en", "zh"} {
		words := indexText[lang]
		var cards []indexCard
		for i, slug := range slugs {
			group := bySlug[slug]
			var langs []langLink
			pick := group[0]
			for _, l := range group {
				if l.Lang == "en" && pick.Lang != lang {
					pick = l
				}
			}
			for _, l := range group {
				if l.Lang == lang {
					pick = l
				}
			}
			// The page's language first, then English, then the rest.
			ordered := append([]*lessons.Lesson{}, group...)
			rank := func(l *lessons.Lesson) int {
				switch l.Lang {
				case lang:
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
			level := words.Levels[pick.Level]
			if level == "" {
				level = pick.Level
			}
			cardLang := pick.Language
			if cardLang == "" {
				cardLang = pick.Lang
			}
			cards = append(cards, indexCard{Number: i + 1, Slug: slug, Title: pick.Title, Summary: pick.Summary, Level: level,
				Href: pageName(pick), Lang: cardLang, Minutes: pick.Minutes, Steps: len(pick.Steps), StepIDs: strings.Join(ids, " "), Langs: langs})
		}
		page, err := render("index.html", map[string]any{"Version": version, "Lessons": cards, "Scenarios": scenarios, "W": words})
		if err != nil {
			return nil, err
		}
		out[indexPageName(lang)] = page
	}
	return out, nil
}
