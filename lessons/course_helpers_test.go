package lessons

import (
	"encoding/json"
	"html"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/lessons/figures"
	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

// The course tests (course_*_test.go) run each step's scenario as the page
// loads it, through the same loader, and assert the claims the lesson's text
// makes, so a model change that makes the text wrong fails there.

// courseLessons loads the shipped lessons once for the tests of this package:
// loading runs every scenario a figure quotes, and the tests only read them.
var courseLessons = sync.OnceValues(func() ([]*Lesson, error) { return Load(Content()) })

// stepRun runs the scenario of step id of the English lesson slug, with sets
// applied as a knob (or --set) would, and checks the Chinese page shows the
// same scenario.
func stepRun(t *testing.T, slug, id string, sets ...string) *metrics.Result {
	t.Helper()
	ls, err := courseLessons()
	require.NoError(t, err)
	en, zh := Find(ls, slug, "en"), Find(ls, slug, "zh")
	require.NotNil(t, en, "lesson %s.en.md", slug)
	require.NotNil(t, zh, "lesson %s.zh.md", slug)
	for i, s := range en.Steps {
		if s.ID == id {
			require.Equal(t, s.Scenario, zh.Steps[i].Scenario, "%s#%s: both languages run the same scenario", slug, id)
		}
	}
	return lessonRun(t, en, id, sets...)
}

// lessonRun runs the scenario step id of l shows, with sets applied as a
// knob would.
func lessonRun(t *testing.T, l *Lesson, id string, sets ...string) *metrics.Result {
	t.Helper()
	for _, s := range l.Steps {
		if s.ID == id {
			require.NotEmpty(t, s.Scenario, "%s#%s shows a scenario", l.Source, id)
			sc, err := scenario.ParseWith([]byte(s.Scenario), l.Source+"#"+id, sets)
			require.NoError(t, err)
			r, err := sim.Run(sc)
			require.NoError(t, err)
			return r
		}
	}
	require.Failf(t, "no such step", "%s has no step #%s", l.Source, id)
	return nil
}

// courseLink is the run's link called name.
func courseLink(t *testing.T, r *metrics.Result, name string) metrics.Link {
	t.Helper()
	for _, l := range r.Links {
		if l.Name == name {
			return l
		}
	}
	require.Failf(t, "no such link", "no link %q in the run", name)
	return metrics.Link{}
}

// compareRun runs both sides of the compare step id of the English lesson
// slug and checks the Chinese page compares the same scenarios.
func compareRun(t *testing.T, slug, id string) (left, right *metrics.Result) {
	t.Helper()
	ls, err := courseLessons()
	require.NoError(t, err)
	en, zh := Find(ls, slug, "en"), Find(ls, slug, "zh")
	require.NotNil(t, en)
	require.NotNil(t, zh)
	for i, s := range en.Steps {
		if s.ID != id {
			continue
		}
		require.NotNil(t, s.Compare, "%s#%s is a compare step", slug, id)
		require.NotNil(t, zh.Steps[i].Compare)
		run := func(side, zhSide CompareSide) *metrics.Result {
			require.Equal(t, side.Scenario, zhSide.Scenario, "both languages compare the same scenarios")
			sc, err := scenario.ParseWith([]byte(side.Scenario), en.Source+"#"+id, nil)
			require.NoError(t, err)
			r, err := sim.Run(sc)
			require.NoError(t, err)
			return r
		}
		return run(s.Compare.Left, zh.Steps[i].Compare.Left), run(s.Compare.Right, zh.Steps[i].Compare.Right)
	}
	require.Failf(t, "no such step", "%s has no step #%s", slug, id)
	return nil, nil
}

var (
	whenGroupRE  = regexp.MustCompile(`<span class="lesson-when">`)
	whenBranchRE = regexp.MustCompile(`<span class="lesson-when-branch"(?: data-when="([^"]*)")?`)
)

// whenShown tells, for each {{ if }} text of step id of lesson slug, in both
// languages, which variant the page shows for the run res (a compare step:
// pass left and right): its index, or -1 for none. Both languages must show
// the same variants.
func whenShown(t *testing.T, slug, id string, res ...*metrics.Result) []int {
	t.Helper()
	var src figures.Source
	decode := func(r *metrics.Result) figures.Source {
		data, err := json.Marshal(r)
		require.NoError(t, err)
		v, err := figures.Decode(data)
		require.NoError(t, err)
		return v
	}
	if len(res) == 2 {
		src = map[string]any{"left": decode(res[0]), "right": decode(res[1])}
	} else {
		src = decode(res[0])
	}
	ls, err := courseLessons()
	require.NoError(t, err)
	var shown [][]int
	for _, lang := range []string{"en", "zh"} {
		l := Find(ls, slug, lang)
		require.NotNil(t, l)
		var got []int
		for _, s := range l.Steps {
			if s.ID != id {
				continue
			}
			for _, group := range whenGroupRE.Split(string(s.HTML), -1)[1:] {
				at := -1
				for i, m := range whenBranchRE.FindAllStringSubmatch(group, -1) {
					holds := m[1] == ""
					if !holds {
						v, err := figures.Evaluate(html.UnescapeString(m[1]), src)
						require.NoError(t, err, "%s#%s: %s", slug, id, m[1])
						holds = v == "true"
					}
					if holds {
						at = i
						break
					}
				}
				got = append(got, at)
			}
		}
		shown = append(shown, got)
	}
	require.Equal(t, shown[0], shown[1], "%s#%s: both languages show the same variants", slug, id)
	return shown[0]
}
