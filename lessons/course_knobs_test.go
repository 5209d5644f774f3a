package lessons

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons/figures"
	"fabriclab/sim"
	"fabriclab/sim/scenario"
)

var (
	statusRE = regexp.MustCompile(`data-status="([^"]*)"`)
	// badFigure is what a figure must never show: a number that is not one,
	// a missing value, or a size rounded to nothing ("0 GiB" for 1 MiB).
	badFigure = regexp.MustCompile(`NaN|Inf|undefined|null|^0(\.0+)?[\s\x{00a0}][KMGT]i?B$`)
)

// Every knob of every lesson, at every position (the step's other knobs at
// their defaults), as the page shows it: each figure of the step's text and
// of its knob status line gives a value that is a value (no NaN, no
// "0 GiB"), and each {{ if }} condition evaluates, in both languages. The
// lessons' own claim tests check what the sentences say; this checks that
// none of them is left blank or absurd by a knob the claim tests do not
// move. The 1,024-GPU steps of data-parallel run at their defaults only
// with -short.
func TestEveryKnobPositionShowsItsFigures(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	positions := 0
	for _, en := range ls {
		if en.Lang != "en" {
			continue
		}
		zh := Find(ls, en.Slug, "zh")
		require.NotNil(t, zh, en.Slug)
		for i, s := range en.Steps {
			if len(s.Knobs) == 0 || s.Scenario == "" || s.Compare != nil {
				continue
			}
			for ki, k := range s.Knobs {
				for _, v := range k.Values {
					if testing.Short() && v != k.Default {
						continue
					}
					var sets []string
					for kj, o := range s.Knobs {
						if kj == ki {
							sets = append(sets, o.SetsOf(v)...)
						} else {
							sets = append(sets, o.SetsOf(o.Default)...)
						}
					}
					where := en.Slug + "#" + s.ID + " with " + strings.Join(sets, " ")
					sc, err := scenario.ParseWith([]byte(s.Scenario), en.Source+"#"+s.ID, sets)
					if err != nil {
						// a knob position the scenario refuses shows its error: only the
						// error's words are on the page, and the build checks them
						continue
					}
					r, err := sim.Run(sc)
					require.NoError(t, err, where)
					data, err := json.Marshal(r)
					require.NoError(t, err)
					src, err := figures.Decode(data)
					require.NoError(t, err)
					positions++
					for _, step := range []*Step{&en.Steps[i], &zh.Steps[i]} {
						for _, spec := range shownFigureSpecs(t, string(step.HTML), src, where) {
							got, err := figures.Evaluate(spec, src)
							if !assert.NoError(t, err, "%s: {{ %s }}", where, spec) {
								continue
							}
							assert.NotEmpty(t, strings.TrimSpace(got), "%s: {{ %s }} shows nothing", where, spec)
							assert.NotRegexp(t, badFigure, got, "%s: {{ %s }} shows %q", where, spec, got)
						}
					}
				}
			}
		}
	}
	assert.Greater(t, positions, 60, "the walk ran the knob steps")
}

var (
	spanRE      = regexp.MustCompile(`<span[^>]*>|</span>`)
	figureAttr  = regexp.MustCompile(`data-figure="([^"]*)"`)
	statusAttrs = []string{"figure", "done", "all", "end"}
)

// shownFigureSpecs are the figures a step's HTML shows for the run src, as
// the page picks them: the live figures outside {{ if }} text and in the
// variant each {{ if }} shows (the first whose condition holds), and the
// figures of its knob status lines. A condition the page evaluates that
// fails is an error of the test.
func shownFigureSpecs(t *testing.T, h string, src figures.Source, where string) []string {
	t.Helper()
	type frame struct {
		shown bool // the span (and all around it) is shown
		taken bool // a {{ if }} group whose variant is chosen
	}
	stack := []frame{{shown: true}}
	var out []string
	for _, loc := range spanRE.FindAllStringIndex(h, -1) {
		tag := h[loc[0]:loc[1]]
		top := &stack[len(stack)-1]
		switch {
		case tag == "</span>":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case whenGroupRE.MatchString(tag):
			stack = append(stack, frame{shown: top.shown})
		case whenBranchRE.MatchString(tag):
			holds := !top.taken
			if m := whenBranchRE.FindStringSubmatch(tag); m[1] != "" && holds && top.shown {
				v, err := figures.Evaluate(html.UnescapeString(m[1]), src)
				require.NoError(t, err, "%s: %s", where, m[1])
				holds = v == "true"
			}
			if holds {
				top.taken = true
			}
			stack = append(stack, frame{shown: top.shown && holds})
		default:
			if m := figureAttr.FindStringSubmatch(tag); m != nil && top.shown {
				out = append(out, html.UnescapeString(m[1]))
			}
			stack = append(stack, frame{shown: top.shown})
		}
	}
	for _, m := range statusRE.FindAllStringSubmatch(h, -1) {
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &st))
		for _, key := range statusAttrs {
			if spec, ok := st[key].(string); ok && spec != "" {
				out = append(out, spec)
			}
		}
	}
	return out
}
