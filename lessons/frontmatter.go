package lessons

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// frontMatter is the YAML between the "---" lines that open a lesson.
type frontMatter struct {
	Title, Summary, Level, Language string
	Minutes, Order                  int
	Assumes                         []string // slugs of earlier lessons
	AssumesLines                    []int    // the file line of each
	AssumesLine                     int      // the file line of the key
}

const frontMatterExample = "---\\ntitle: Incast congestion\\nsummary: …\\nlevel: beginner\\nminutes: 15\\nlanguage: en\\n---"

// splitFrontMatter returns the front matter's YAML, the body, and the line of
// the file on which the body starts (1-based); problem says what is wrong
// when the file does not open with a "---" line or the front matter is not closed.
func splitFrontMatter(data []byte) (yml, body []byte, bodyLine int, problem string) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if strings.TrimSpace(strings.TrimPrefix(string(first), "\ufeff")) != "---" {
		return nil, nil, 0, "no front matter; open the lesson with a line \"---\", keys such as title, and a line \"---\" (" + frontMatterExample + ")"
	}
	if !found {
		return nil, nil, 0, "the front matter is not closed; end it with a line \"---\""
	}
	line := 2
	for off := 0; off < len(rest); line++ {
		end := bytes.IndexByte(rest[off:], '\n')
		next := len(rest)
		if end >= 0 {
			next = off + end + 1
		}
		if strings.TrimSpace(string(rest[off:next])) == "---" {
			return rest[:off], rest[next:], line + 1, ""
		}
		off = next
	}
	return nil, nil, 0, "the front matter is not closed; end it with a line \"---\""
}

// parseFrontMatter reads and checks the front matter of file, whose file name
// says its language is lang. Lines in errors count from the file's first line.
func (b *builder) parseFrontMatter(file, lang string, yml []byte) (frontMatter, bool) {
	var fm frontMatter
	var doc yaml.Node
	if err := yaml.Unmarshal(yml, &doc); err != nil {
		b.fail(file, 1, "the front matter is not valid YAML (%s); write key: value lines such as title: Incast congestion", strings.TrimPrefix(err.Error(), "yaml: "))
		return fm, false
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		b.fail(file, 1, "the front matter must be keys title, summary, level, minutes and language (%s)", frontMatterExample)
		return fm, false
	}
	ok := true
	m := doc.Content[0]
	seen := map[string]int{}
	line := func(n *yaml.Node) int { return n.Line + 1 } // the opening "---" is line 1
	str := func(n *yaml.Node, key string) string {
		if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" || strings.TrimSpace(n.Value) == "" {
			b.fail(file, line(n), "%s: must be text (e.g. %s: …)", key, key)
			ok = false
			return ""
		}
		return strings.TrimSpace(n.Value)
	}
	num := func(n *yaml.Node, key string, lo, hi int) int {
		v, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil || v < lo || v > hi {
			b.fail(file, line(n), "%s: %q is not a whole number from %d to %d; write e.g. %s: %d", key, n.Value, lo, hi, key, max(lo, min(hi, 15)))
			ok = false
		}
		return v
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			b.fail(file, line(k), "%s: duplicate key (first at line %d); remove one", k.Value, first)
			ok = false
			continue
		}
		seen[k.Value] = line(k)
		switch k.Value {
		case "title":
			fm.Title = str(v, "title")
		case "summary":
			fm.Summary = str(v, "summary")
		case "level":
			fm.Level = str(v, "level")
			if fm.Level != "" && !slices.Contains(Levels, fm.Level) {
				b.fail(file, line(v), "level: %q is not a level; use beginner, intermediate or advanced", fm.Level)
				ok = false
			}
		case "language":
			fm.Language = str(v, "language")
			if want := Languages[lang]; fm.Language != "" && fm.Language != want {
				b.fail(file, line(v), "language: %q does not match the file name's .%s.; write language: %s (or rename the file)", fm.Language, lang, want)
				ok = false
			}
		case "minutes":
			fm.Minutes = num(v, "minutes", 1, 600)
		case "order":
			fm.Order = num(v, "order", -1000, 1000)
		case "assumes":
			fm.AssumesLine = line(k)
			if !b.assumes(file, v, line, &fm) {
				ok = false
			}
		default:
			b.fail(file, line(k), "%s: unknown key; the front matter takes title, summary, level, minutes, language, order and assumes", k.Value)
			ok = false
		}
	}
	for _, key := range []string{"title", "summary", "level", "minutes", "language"} {
		if _, found := seen[key]; !found {
			b.fail(file, 1, "the front matter has no %s; add a line %s: %s", key, key, example(key, lang))
			ok = false
		}
	}
	return fm, ok
}

// assumes reads the front matter's assumes: a list of lesson slugs
// ([] for none); whether each is a lesson that comes earlier is checked
// once every lesson is read (builder.checkAssumes).
func (b *builder) assumes(file string, v *yaml.Node, line func(*yaml.Node) int, fm *frontMatter) bool {
	if v.Kind != yaml.SequenceNode {
		b.fail(file, line(v), "assumes: is not a list; write the slugs of earlier lessons as one, e.g. assumes: [allreduce, incast] (or assumes: [] for none)")
		return false
	}
	fm.Assumes = []string{}
	for _, n := range v.Content {
		slug := strings.TrimSpace(n.Value)
		if n.Kind != yaml.ScalarNode || !slugPattern().MatchString(slug) {
			b.fail(file, line(n), "assumes: %q is not a lesson's slug; write the slug of an earlier lesson, the file name without .en.md (e.g. incast)", n.Value)
			return false
		}
		if slices.Contains(fm.Assumes, slug) {
			b.fail(file, line(n), "assumes: %q is listed twice; remove one", slug)
			return false
		}
		fm.Assumes, fm.AssumesLines = append(fm.Assumes, slug), append(fm.AssumesLines, line(n))
	}
	return true
}

var slugPattern = lazyRegexp(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

func example(key, lang string) string {
	switch key {
	case "level":
		return "beginner"
	case "minutes":
		return "15"
	case "language":
		return Languages[lang]
	}
	return "…"
}
