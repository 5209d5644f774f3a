package lessons

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

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
