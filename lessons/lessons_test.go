package lessons

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	goldenfile "fabriclab/sim/golden"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

// golden compares got with the file at path, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Equal(t, path, []byte(got))
}

// pageOf lays a lesson out as the site would, for the golden HTML.
func pageOf(l *Lesson) string {
	var b strings.Builder
	b.WriteString("<!-- intro -->\n" + string(l.Intro))
	for _, s := range l.Steps {
		b.WriteString("<!-- step " + s.ID + " -->\n" + string(s.HTML))
	}
	return b.String()
}

// stepData is what the golden JSON pins: everything but the HTML.
func stepData(l *Lesson) string {
	c := *l
	c.Intro = ""
	c.Steps = nil
	for _, s := range l.Steps {
		s.HTML = ""
		c.Steps = append(c.Steps, s)
	}
	data, _ := json.MarshalIndent(c, "", "  ")
	return string(data) + "\n"
}

// TestGolden renders testdata/golden/*.md (with real runs of their small
// scenarios) and compares the HTML and the step data with the .golden files.
func TestGolden(t *testing.T) {
	ls, err := Load(os.DirFS("testdata/golden"))
	require.NoError(t, err)
	require.NotEmpty(t, ls)
	for _, l := range ls {
		base := filepath.Join("testdata/golden", strings.TrimSuffix(l.Source, ".md"))
		golden(t, base+".golden.html", pageOf(l))
		golden(t, base+".golden.json", stepData(l))
	}
}

var located = regexp.MustCompile(`^\S+\.md(:[0-9]+)?: \S`)

// TestErrors loads each directory testdata/errors/NAME and compares the
// error with NAME.golden. Every problem must name its file (and line), and
// our own messages say how to fix it after a semicolon.
func TestErrors(t *testing.T) {
	dirs, err := filepath.Glob("testdata/errors/*")
	require.NoError(t, err)
	n := 0
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := Load(os.DirFS(dir))
			require.Error(t, err)
			got := err.Error() + "\n"
			golden(t, dir+".golden", got)
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				assert.Regexp(t, located, line, "a problem names its file and line")
				if !strings.Contains(line, "scenario block:") && !strings.Contains(line, "side's scenario:") {
					assert.Contains(t, line, "; ", "our messages say what to do after a semicolon: %s", line)
				}
			}
		})
	}
	require.Greater(t, n, 10, "error cases")
}

// TestContent checks the lessons that ship: they load, translations match,
// and every figure was filled in.
func TestContent(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	en, zh := Find(ls, "incast", "en"), Find(ls, "incast", "zh")
	require.NotNil(t, en)
	require.NotNil(t, zh)
	assert.Equal(t, "zh-Hans", zh.Language)
	require.GreaterOrEqual(t, len(en.Steps), 5, "the incast lesson has at least five steps")
	require.Equal(t, len(en.Steps), len(zh.Steps))
	quizzes := 0
	for i, s := range en.Steps {
		assert.Equal(t, s.ID, zh.Steps[i].ID)
		assert.Equal(t, s.ScenarioName, zh.Steps[i].ScenarioName)
		assert.True(t, s.Scenario != "" || s.Compare != nil, "step %s shows a scenario or a comparison", s.ID)
		quizzes += strings.Count(string(s.HTML), `class="lesson-quiz"`)
	}
	assert.GreaterOrEqual(t, quizzes, 1)
	for _, l := range ls {
		for _, s := range l.Steps {
			assert.NotContains(t, string(s.HTML), "{{", "%s#%s: unresolved figure", l.Source, s.ID)
			assert.Contains(t, string(s.HTML), `<h2 id="`+s.ID+`">`)
		}
	}
	groups := Langs(ls)
	assert.Equal(t, len(groups["en"]), len(groups["zh"]), "every lesson is in English and Chinese")
}

// TestFiguresFromTheRun pins the lesson's key claims to the simulation:
// lossless incast takes about eight single transfers and drops nothing;
// lossy incast collapses.
func TestFiguresFromTheRun(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	en := Find(ls, "incast", "en")
	require.NotNil(t, en)
	html := map[string]string{}
	for _, s := range en.Steps {
		html[s.ID] = string(s.HTML)
	}
	assert.Contains(t, html["pfc"], `data-path="totals.drops">0<`)
	assert.Contains(t, html["credit"], `data-path="totals.pause_frames">0<`)
	assert.Contains(t, html["lossy"], `data-path="totals.flows_finished">0<`)
}

func TestSortAndLangs(t *testing.T) {
	fsys := fstest.MapFS{}
	add := func(name, order string) {
		lang := strings.Split(name, ".")[1]
		fsys[name] = &fstest.MapFile{Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: " +
			Languages[lang] + "\norder: " + order + "\n---\n## A {#a}\n\ntext\n")}
	}
	add("b.en.md", "1")
	add("b.zh.md", "1")
	add("a.en.md", "2")
	add("c.en.md", "1")
	ls, err := load(fsys, nil)
	require.NoError(t, err)
	var got []string
	for _, l := range ls {
		got = append(got, l.Source)
	}
	assert.Equal(t, []string{"b.en.md", "b.zh.md", "c.en.md", "a.en.md"}, got)
	assert.Len(t, Langs(ls)["en"], 3)
	assert.Nil(t, Find(ls, "a", "zh"))
}

// TestRunError: a scenario that fails to run is reported where a figure quotes it.
func TestRunError(t *testing.T) {
	fsys := fstest.MapFS{"x.en.md": {Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n## A {#a}\n\n```scenario\nname: fail\n```\n\n{{ totals.drops }} and {{ flows[0].gbps }}\n")}}
	_, err := load(fsys, fakeRun)
	require.Error(t, err)
	assert.Equal(t, "x.en.md:14: {{ totals.drops }}: running the step's scenario failed: boom\n"+
		"x.en.md:14: {{ flows[0].gbps }}: running the step's scenario failed: boom", err.Error())

	// Each distinct scenario runs once per build, shared across languages.
	runs := 0
	counting := func(sc scenario.Scenario) (*metrics.Result, error) { runs++; return fakeRun(sc) }
	page := "\n## A {#a}\n\n```scenario\nname: x\ntraffic: {bytes: 1MiB}\n```\n\n{{ flows[0].gbps }}\n\n## B {#b}\n\n{{ flows[0].gbps }}\n"
	fsys = fstest.MapFS{
		"x.en.md": {Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---" + page)},
		"x.zh.md": {Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: zh-Hans\n---" + page)},
	}
	ls, err := load(fsys, counting)
	require.NoError(t, err)
	assert.Equal(t, 1, runs)
	require.Len(t, ls, 2)
	assert.Equal(t, "x", ls[1].Steps[1].ScenarioName, "a step without a block keeps the previous step's scenario")
}
