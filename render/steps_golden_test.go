package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
	"fabriclab/sim/golden"
)

// A few lesson steps as presenter mode draws them at 1024×768, half-way
// through their runs, kept as SVG goldens (a picture a person can open;
// pixel-exact PNGs from a software GPU would be flaky): a comparison
// (incast#cost), traffic classes in both languages (sharing#classes), and
// ECMP on a leaf-spine (adaptive-routing#hash).
func TestLessonStepGoldens(t *testing.T) {
	ls, err := lessons.Load(lessons.Content())
	require.NoError(t, err)
	step := func(slug, id string) fitCase {
		for _, l := range ls {
			if l.Slug != slug || l.Lang != "en" {
				continue
			}
			for _, s := range l.Steps {
				if s.ID != id {
					continue
				}
				c := fitCase{name: slug + "#" + id, yaml: [2]string{s.Scenario}}
				if s.Compare != nil {
					c.yaml = [2]string{s.Compare.Left.Scenario, s.Compare.Right.Scenario}
					c.label = [2]string{s.Compare.Left.Label, s.Compare.Right.Label}
				}
				return c
			}
		}
		require.Failf(t, "no such step", "%s#%s", slug, id)
		return fitCase{}
	}
	sz := fitSizes[1] // presenter mode's pane at 1024×768
	require.True(t, sz.presenter)
	for _, tc := range []struct {
		slug, id string
		langs    []Lang
	}{{"incast", "cost", []Lang{EN}}, {"sharing", "classes", []Lang{EN, ZH}}, {"adaptive-routing", "hash", []Lang{EN}}} {
		t.Run(tc.slug+"#"+tc.id, func(t *testing.T) {
			c := step(tc.slug, tc.id)
			require.NotEmpty(t, c.yaml[0])
			var runs [2]*run
			for i, y := range c.yaml {
				if y != "" {
					runs[i] = fitRun(t, y)
				}
			}
			for _, lang := range tc.langs {
				dl := fitScene(runs, c, fitSteps/2, sz.w, sz.h, true, lang)
				var buf bytes.Buffer
				require.NoError(t, dl.SVG(&buf))
				requireWellFormed(t, buf.Bytes())
				file := fmt.Sprintf("step-%s-%s-%s.svg", tc.slug, tc.id, langTag(lang))
				golden.Equal(t, filepath.Join("testdata", file), buf.Bytes(),
					"the step's picture changed: open the SVG and look at it, then go test ./render -run TestLessonStepGoldens -update")
			}
		})
	}
}
