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
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

//go:embed static templates
var files embed.FS

// Inputs is everything a site is built from.
type Inputs struct {
	Lessons    []*lessons.Lesson
	Scenarios  []scenario.BuiltinInfo
	VizWASM    []byte // cmd/viz compiled for GOOS=js GOARCH=wasm
	WorkerWASM []byte // cmd/worker likewise: the simulation, run in a Web Worker
	WasmExec   []byte // $(go env GOROOT)/lib/wasm/wasm_exec.js, from the same Go
}

// lessonKeys are the lesson page's ? list, in order: the catalogue has
// lesson.key.<id>.keys (the keys, space-separated) and lesson.key.<id> (what
// they do).
var lessonKeys = []string{"next", "page", "ends", "jump", "blank", "overview", "play", "step", "reset", "speed", "flow", "presenter", "text", "fullscreen", "inspect", "tab", "help"}

// keyList is the lesson page's ? list in lang: keys, what they do.
func keyList(lang i18n.Lang) [][2]string {
	out := make([][2]string, len(lessonKeys))
	for i, id := range lessonKeys {
		out[i] = [2]string{i18n.T(lang, "lesson.key."+id+".keys"), i18n.T(lang, "lesson.key."+id)}
	}
	return out
}

// templates renders the page templates; {{t "key"}} is the catalogue's text
// (package i18n) in the page's language.
type templates struct{ base *template.Template }

func (p templates) render(lang i18n.Lang, name string, data any) ([]byte, error) {
	tmpl, err := p.base.Clone()
	if err != nil {
		return nil, fmt.Errorf("web: %s: %w", name, err)
	}
	tmpl.Funcs(template.FuncMap{"t": func(key string) string { return i18n.T(lang, key) }})
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("web: %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// scriptJSON is JSON for a <script type="application/json"> element:
// html/template leaves it as is, so what could end the element is escaped.
func scriptJSON(v any) (template.JS, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return template.JS(strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(string(js))), nil
}

// Site renders every page and asset of the site, by path.
func Site(in Inputs) (map[string][]byte, error) {
	if len(in.VizWASM) == 0 || len(in.WorkerWASM) == 0 || len(in.WasmExec) == 0 {
		return nil, fmt.Errorf("web: the site needs viz.wasm, worker.wasm and wasm_exec.js")
	}
	out := map[string][]byte{"viz.wasm": in.VizWASM, "worker.wasm": in.WorkerWASM, "wasm_exec.js": in.WasmExec}
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

	// t is bound to a page's language when it is rendered (templates.render).
	// zh is the Chinese text whatever the page's language: for what shows
	// before any script can switch the page (embed.html's <noscript>).
	funcs := template.FuncMap{"inc": func(i int) int { return i + 1 }, "fields": strings.Fields, "t": func(key string) string { return key },
		"zh": func(key string) string { return i18n.T(i18n.ZH, key) }}
	tmpl, err := template.New("").Funcs(funcs).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	pages := templates{tmpl}

	// The canvas's page is English; embed.js puts in the Chinese words for
	// lang=zh (elements with data-t…), and both scripts take their messages
	// from the same words.
	words, err := scriptJSON(map[i18n.Lang]map[string]string{
		i18n.EN: i18n.Words(i18n.EN, "embed.", "editor."), i18n.ZH: i18n.Words(i18n.ZH, "embed.", "editor."),
	})
	if err != nil {
		return nil, err
	}
	if out["embed.html"], err = pages.render(i18n.EN, "embed.html", map[string]any{"Version": version, "WordsJSON": words}); err != nil {
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
			page, err := lessonPage(pages, l, alts, assumed(bySlug, l, l.Lang), version)
			if err != nil {
				return nil, err
			}
			out[pageName(l)] = page
		}
	}
	index, err := indexPages(pages, in.Lessons, in.Scenarios, version) // index.go
	if err != nil {
		return nil, err
	}
	for name, page := range index {
		out[name] = page
	}
	glossary, err := glossaryPages(pages, version) // glossary.go
	if err != nil {
		return nil, err
	}
	for name, page := range glossary {
		out[name] = page
	}
	explain, err := explainPages(pages, version) // explain.go
	if err != nil {
		return nil, err
	}
	for name, page := range explain {
		out[name] = page
	}
	return out, nil
}

// label names a language in itself: English, 中文.
func label(lang string) string {
	if i18n.Has("lang." + lang) {
		return i18n.T(i18n.Lang(lang), "lang."+lang)
	}
	return lang
}

// pageName is a lesson's page: incast.en.html.
func pageName(l *lessons.Lesson) string { return l.Slug + "." + l.Lang + ".html" }

func lessonPage(pages templates, l *lessons.Lesson, alts any, assumes []assumedLink, version string) ([]byte, error) {
	type step struct {
		ID       string           `json:"id"`
		Title    string           `json:"title"`
		Scenario string           `json:"scenario"`
		Compare  *lessons.Compare `json:"compare,omitempty"` // two scenarios side by side instead
		Drill    *lessons.Compare `json:"drill,omitempty"`   // a drill's faulty and fixed runs, once answered (drill.js)
	}
	steps := make([]step, len(l.Steps))
	for i, s := range l.Steps {
		steps[i] = step{s.ID, s.Title, s.Scenario, s.Compare, s.Drill}
	}
	js, err := scriptJSON(steps)
	if err != nil {
		return nil, err
	}
	htmlLang := l.Language
	if htmlLang == "" {
		htmlLang = l.Lang
	}
	lang := i18n.Lang(l.Lang)
	return pages.render(lang, "lesson.html", map[string]any{
		"Version": version, "Lesson": l, "Alternates": alts, "KeyList": keyList(lang), "HTMLLang": htmlLang, "StepsJSON": js,
		"Assumes": assumes, "AssumesNone": assumes != nil && len(assumes) == 0,
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
	return compress(data, best, nil)
}

// compress is Compress that calls step with the bytes of data each encoder
// has taken so far (each encoder takes all of data: 2·len(data) in all).
func compress(data []byte, best bool, step func(n int)) (gz, br []byte, err error) {
	var g bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	if err = writeSteps(zw, data, step); err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	var bw io.WriteCloser = brotli.NewWriterLevel(&b, 9)
	if best {
		// Brotli's best quality with its largest standard window (16 MiB,
		// which every browser's decoder takes): about 1 % smaller than at the
		// default 4 MiB window.
		bw = brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	}
	if err = writeSteps(bw, data, step); err != nil {
		return nil, nil, err
	}
	return g.Bytes(), b.Bytes(), nil
}

// writeSteps writes data to w a MiB at a time, calling step after each, and closes w.
func writeSteps(w io.WriteCloser, data []byte, step func(n int)) error {
	const chunk = 1 << 20
	for len(data) > 0 {
		n := min(chunk, len(data))
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		if data = data[n:]; step != nil {
			step(n)
		}
	}
	return w.Close()
}

// Write puts the site in dir with precompressed .gz and .br twins of text and
// WebAssembly files. dir must be missing, empty or an earlier fabriclab build
// (see CheckOut); files of an earlier build that this one does not write are
// removed, and nothing else in dir is touched.
func Write(dir string, site map[string][]byte, best bool) error {
	return writeSite(dir, site, best, nil)
}

// writeSite is Write that reports how far compressing has got, in bytes of
// the files to compress (progress may be nil).
func writeSite(dir string, site map[string][]byte, best bool, progress func(done, total int64)) error {
	if err := CheckOut(dir); err != nil {
		return err
	}
	out := make(map[string][]byte, 3*len(site))
	var todo []string
	var total, done int64
	for name, data := range site {
		out[name] = data
		if compressible(name) && len(data) >= 512 {
			todo = append(todo, name)
			total += 2 * int64(len(data)) // gzip, then brotli
		}
	}
	slices.Sort(todo)
	step := func(n int) {
		if done += int64(n); progress != nil {
			progress(done, total)
		}
	}
	for _, name := range todo {
		gz, br, err := compress(site[name], best, step)
		if err != nil {
			return fmt.Errorf("compressing %s: %w", name, err)
		}
		out[name+".gz"], out[name+".br"] = gz, br
	}
	return writeFiles(dir, out)
}
