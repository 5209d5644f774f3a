package web

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// The index shows the course as a numbered path in each language: cards in
// the lessons' order, in the page's language where the lesson has it (else
// English), with level, minutes, steps and the step ids the progress script
// needs.
func TestIndexIsTheCourse(t *testing.T) {
	steps := func(ids ...string) []lessons.Step {
		var out []lessons.Step
		for _, id := range ids {
			out = append(out, lessons.Step{ID: id})
		}
		return out
	}
	ls := []*lessons.Lesson{ // as lessons.Load sorts them: by order
		{Slug: "b", Lang: "en", Title: "Bee", Summary: "Bee things.", Level: "beginner", Minutes: 10, Order: 1, Steps: steps("x", "y"), Assumes: []string{}},
		{Slug: "b", Lang: "zh", Language: "zh-Hans", Title: "蜜蜂", Summary: "蜜蜂的事。", Level: "beginner", Minutes: 10, Order: 1, Steps: steps("x", "y"), Assumes: []string{}},
		{Slug: "a", Lang: "en", Title: "Ant", Summary: "Ant things.", Level: "advanced", Minutes: 25, Order: 2, Steps: steps("p", "q", "r"), Assumes: []string{"b"}},
	}
	files, err := Site(Inputs{Lessons: ls, VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	cards := regexp.MustCompile(`(?s)<li class="card" data-slug="([^"]+)" data-steps="([^"]*)" data-href="([^"]+)">.*?class="num"[^>]*>(\d+)<.*?<h3 lang="([^"]+)"><a href="[^"]+">([^<]+)</a>.*?class="meta">([^<]+)<`)
	type card struct{ slug, steps, href, num, lang, title, meta string }
	read := func(page string) []card {
		var out []card
		for _, m := range cards.FindAllStringSubmatch(string(files[page]), -1) {
			out = append(out, card{m[1], m[2], m[3], m[4], m[5], m[6], m[7]})
		}
		return out
	}
	assert.Equal(t, []card{
		{"b", "x y", "b.en.html", "1", "en", "Bee", "beginner · 10 min · 2 steps"},
		{"a", "p q r", "a.en.html", "2", "en", "Ant", "advanced · 25 min · 3 steps"},
	}, read("index.html"))
	assert.Equal(t, []card{
		{"b", "x y", "b.zh.html", "1", "zh-Hans", "蜜蜂", "入门 · 10 分钟 · 2 步"},
		{"a", "p q r", "a.en.html", "2", "en", "Ant", "高级 · 25 分钟 · 3 步"},
	}, read("index.zh.html"))
	zh := string(files["index.zh.html"])
	assert.Contains(t, zh, `<html lang="zh-Hans">`)
	assert.Contains(t, zh, `data-progress-text="已完成 {done} / {total} 步"`)
	assert.Contains(t, zh, `<a class="btn" href="b.zh.html" hreflang="zh" lang="zh">中文</a><a class="btn" href="b.en.html"`, "the page's language first")
	assert.Contains(t, string(files["index.html"]), `href="index.zh.html"`, "each index links the other")
	assert.Contains(t, zh, `href="index.html"`)
	assert.Contains(t, string(files["b.zh.html"]), `<a class="brand" href="index.zh.html">`, "a Chinese lesson leads to the Chinese index")

	// What each lesson assumes: linked in the page's language where it has it.
	assumes := regexp.MustCompile(`<p class="assumes">(.*?)</p>`)
	found := func(page string) []string {
		var out []string
		for _, m := range assumes.FindAllStringSubmatch(string(files[page]), -1) {
			out = append(out, m[1])
		}
		return out
	}
	assert.Equal(t, []string{"Assumes no earlier lesson: a place to start.", `Assumes: <a href="b.en.html" lang="en">Bee</a>`}, found("index.html"))
	assert.Equal(t, []string{"无需先修其他课程，可以从这里开始。", `先修课程：<a href="b.zh.html" lang="zh">蜜蜂</a>`}, found("index.zh.html"))
	assert.Equal(t, []string{`Assumes: <a href="b.en.html" lang="en">Bee</a>`}, found("a.en.html"), "and above the lesson's intro")
	assert.Equal(t, []string{"无需先修其他课程，可以从这里开始。"}, found("b.zh.html"))
}
