package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"

	"fabriclab/assets"
	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

//go:embed static templates
var files embed.FS

// Inputs is everything a site is built from.
type Inputs struct {
	Lessons   []*lessons.Lesson
	Scenarios []scenario.BuiltinInfo
	VizWASM   []byte // cmd/viz compiled for GOOS=js GOARCH=wasm
	WasmExec  []byte // $(go env GOROOT)/lib/wasm/wasm_exec.js, from the same Go
}

// langLabels names each lesson language in itself.
var langLabels = map[string]string{"en": "English", "zh": "中文"}

// ui holds the lesson page's words in each language.
type ui struct {
	Prev, Next, Steps, Presenter, PresenterHint, Canvas, Keys string
	KeysTitle, Close                                          string
	KeyList                                                   [][2]string // the ? list: keys, what they do
}

var uiText = map[string]ui{
	"en": {"Back", "Next", "Steps", "Presenter", "Big text for projectors", "Simulation canvas",
		"Keys: ← → change step, Space plays or pauses, . steps, R resets, + − change speed, [ ] pick a flow, P presenter mode, F full screen, ? lists the keys.",
		"Keys", "Close", [][2]string{{"→ ←", "next step, previous step (PageDown, PageUp too)"}, {"Space", "play or pause the canvas"},
			{". ,", "step the canvas forward, back"}, {"R", "canvas back to the start"}, {"+ −", "faster, slower"},
			{"[ ]", "previous, next flow (routing view)"}, {"P", "presenter mode (big text)"}, {"F", "canvas full screen"}, {"Tab", "next control; in a quiz, arrows pick an answer and Space or Enter checks"},
			{"? Esc", "show or close this list"}}},
	"zh": {"上一步", "下一步", "步骤", "演示模式", "投影用大字号", "仿真画布",
		"快捷键：← → 切换步骤，空格 播放/暂停，. 单步，R 重置，+ − 调速度，[ ] 选择流，P 演示模式，F 全屏，? 列出快捷键。",
		"快捷键", "关闭", [][2]string{{"→ ←", "下一步、上一步（PageDown、PageUp 同样）"}, {"空格", "画布播放/暂停"},
			{". ,", "画布单步前进、后退"}, {"R", "画布回到开头"}, {"+ −", "加快、减慢"},
			{"[ ]", "上一条、下一条流（路由视图）"}, {"P", "演示模式（大字号）"}, {"F", "画布全屏"}, {"Tab", "下一个控件；测验中用方向键选答案，空格或回车提交"},
			{"? Esc", "显示或关闭此列表"}}},
}

// Site renders every page and asset of the site, by path.
func Site(in Inputs) (map[string][]byte, error) {
	if len(in.VizWASM) == 0 || len(in.WasmExec) == 0 {
		return nil, fmt.Errorf("web: the site needs viz.wasm and wasm_exec.js")
	}
	out := map[string][]byte{"viz.wasm": in.VizWASM, "wasm_exec.js": in.WasmExec}
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := files.ReadFile(p)
		out[p] = data
		return err
	})
	if err != nil {
		return nil, err
	}
	// The canvas's fonts, fetched by embed.js beside viz.wasm (cmd/viz is
	// built with the webfonts tag, so they are not in it).
	for name, data := range assets.WebFonts() {
		out["static/fonts/"+name] = data
	}
	version := contentHash(out)

	tmpl, err := template.New("").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }, "fields": strings.Fields}).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	render := func(name string, data any) ([]byte, error) {
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
			return nil, fmt.Errorf("web: %s: %w", name, err)
		}
		return b.Bytes(), nil
	}

	if out["embed.html"], err = render("embed.html", map[string]any{"Version": version}); err != nil {
		return nil, err
	}

	bySlug := map[string][]*lessons.Lesson{}
	var slugs []string
	for _, l := range in.Lessons {
		if _, ok := bySlug[l.Slug]; !ok {
			slugs = append(slugs, l.Slug)
		}
		bySlug[l.Slug] = append(bySlug[l.Slug], l)
	}
	for _, slug := range slugs {
		group := bySlug[slug]
		sort.SliceStable(group, func(a, b int) bool { return group[a].Lang == "en" && group[b].Lang != "en" })
		var langs []langLink
		for _, l := range group {
			langs = append(langs, langLink{l.Lang, label(l.Lang), pageName(l)})
		}
		for _, l := range group {
			var alts []langLink
			for _, o := range langs {
				if o.Lang != l.Lang {
					alts = append(alts, o)
				}
			}
			page, err := lessonPage(render, l, alts, version)
			if err != nil {
				return nil, err
			}
			out[pageName(l)] = page
		}
	}
	index, err := indexPages(render, in.Lessons, in.Scenarios, version) // index.go
	if err != nil {
		return nil, err
	}
	for name, page := range index {
		out[name] = page
	}
	return out, nil
}

func label(lang string) string {
	if l, ok := langLabels[lang]; ok {
		return l
	}
	return lang
}

// pageName is a lesson's page: incast.en.html.
func pageName(l *lessons.Lesson) string { return l.Slug + "." + l.Lang + ".html" }

func lessonPage(render func(string, any) ([]byte, error), l *lessons.Lesson, alts any, version string) ([]byte, error) {
	type step struct {
		ID       string           `json:"id"`
		Title    string           `json:"title"`
		Scenario string           `json:"scenario"`
		Compare  *lessons.Compare `json:"compare,omitempty"` // two scenarios side by side instead
	}
	steps := make([]step, len(l.Steps))
	for i, s := range l.Steps {
		steps[i] = step{s.ID, s.Title, s.Scenario, s.Compare}
	}
	js, err := json.Marshal(steps)
	if err != nil {
		return nil, err
	}
	words, ok := uiText[l.Lang]
	if !ok {
		words = uiText["en"]
	}
	htmlLang := l.Language
	if htmlLang == "" {
		htmlLang = l.Lang
	}
	return render("lesson.html", map[string]any{
		"Version": version, "Lesson": l, "Alternates": alts, "UI": words, "HTMLLang": htmlLang,
		// JSON inside <script type="application/json">: html/template leaves it as is, so
		// escape what could end the element.
		"StepsJSON": template.JS(strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(string(js))),
	})
}

// contentHash versions asset URLs so browsers never mix old and new files.
func contentHash(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n))
		h.Write(files[n])
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// compressible says which files get .gz and .br twins.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".html", ".css", ".js", ".json", ".wasm", ".svg", ".yaml", ".txt", ".ttf", ".otf":
		return true
	}
	return false
}

// Compress returns the gzip and brotli encodings of data. Brotli's best
// quality (11) shrinks the WebAssembly by another 13 % but takes about a
// minute for it, so only release builds ask for it.
func Compress(data []byte, best bool) (gz, br []byte, err error) {
	var g bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	if _, err = zw.Write(data); err == nil {
		err = zw.Close()
	}
	if err != nil {
		return nil, nil, err
	}
	if best {
		br, err = brotli11(data)
		return g.Bytes(), br, err
	}
	var b bytes.Buffer
	bw := brotli.NewWriterLevel(&b, 9)
	if _, err = bw.Write(data); err == nil {
		err = bw.Close()
	}
	return g.Bytes(), b.Bytes(), err
}

// brotli11 is brotli's best quality with its largest standard window (16 MiB,
// which every browser's decoder takes): about 1 % smaller than at the
// default 4 MiB window.
func brotli11(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write puts the site in dir with precompressed .gz and .br twins of text and
// WebAssembly files. dir must be missing, empty or an earlier fabriclab build
// (see CheckOut); files of an earlier build that this one does not write are
// removed, and nothing else in dir is touched.
func Write(dir string, site map[string][]byte, best bool) error {
	if err := CheckOut(dir); err != nil {
		return err
	}
	out := make(map[string][]byte, 3*len(site))
	for name, data := range site {
		out[name] = data
		if !compressible(name) || len(data) < 512 {
			continue
		}
		gz, br, err := Compress(data, best)
		if err != nil {
			return fmt.Errorf("compressing %s: %w", name, err)
		}
		out[name+".gz"], out[name+".br"] = gz, br
	}
	return writeFiles(dir, out)
}
