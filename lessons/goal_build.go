package lessons

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"go.yaml.in/yaml/v3"

	"fabriclab/lessons/figures"
	"fabriclab/sim/plan"
)

// goals checks a section's goal blocks against its knobs and runs the
// step's scenario at every position of each goal's knob (the other knobs
// at their defaults): the goal must be met at some position and not at the
// default. It fills in each block's positions and answer and returns the goals.
func (b *builder) goals(f *lessonFile, s section, sc resolvedScenario, broken bool, knobs []Knob) []Goal {
	var found []*GoalBlock
	for _, n := range s.blocks {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if g, ok := n.(*GoalBlock); ok && entering {
				found = append(found, g)
			}
			return ast.WalkContinue, nil
		})
	}
	var out []Goal
	for _, n := range found {
		line := f.line(n.Offset)
		switch {
		case n.Info != "":
			b.fail(f.name, line, "```goal takes nothing after its name (found %q); write the goal's keys inside the block", n.Info)
		case n.Err != nil:
			b.fail(f.name, line+n.Err.Line, "goal block: %s", n.Err.Msg)
		case s.heading == nil:
			b.fail(f.name, line, "goal block: a goal belongs to a step with knobs, and this is the intro; move it below a step's knob blocks")
		case broken:
		default:
			if b.goal(f, line, n, sc, knobs) {
				out = append(out, n.Goal)
			}
		}
	}
	return out
}

// goal resolves one goal block; false when it has problems (recorded).
func (b *builder) goal(f *lessonFile, line int, n *GoalBlock, sc resolvedScenario, knobs []Knob) bool {
	at := slices.IndexFunc(knobs, func(k Knob) bool { return k.Key == n.Knob })
	if at < 0 {
		keys := make([]string, len(knobs))
		for i, k := range knobs {
			keys[i] = k.Key
		}
		b.fail(f.name, line+n.KnobLine, "goal block: knob %s is not a knob of this step (its knobs: %s); name one of them, or add a ```knob block for %s before the goal",
			n.Knob, strings.Join(keys, ", "), n.Knob)
		return false
	}
	k := knobs[at]
	want, _ := figures.Parse(n.Path)
	show, _ := figures.Parse(n.Show)
	g := &n.Goal
	g.Positions = make([]GoalPosition, len(k.Values))
	var seen []string // "value: figure" for messages
	for i, v := range k.Values {
		var set []string
		for j, o := range knobs {
			if j == at {
				set = append(set, o.SetsOf(v)...)
			} else {
				set = append(set, o.SetsOf(o.Default)...)
			}
		}
		result, err := b.goalRun(sc, set)
		var num float64
		var text string
		if err == nil {
			if num, err = want.Number(result); err == nil {
				text, err = show.Lookup(result)
			}
		}
		if err != nil {
			b.fail(f.name, line+n.WantLine, "goal block: with %s at %s: %v; name a figure every position of the knob has", k.Key, v, err)
			g.Positions = nil
			return false
		}
		g.Positions[i] = GoalPosition{Set: set, Text: k.Texts[i], Met: g.meets(num)}
		seen = append(seen, k.Texts[i]+": "+text)
	}
	return b.goalAnswer(f, line, n, k, strings.Join(seen, "; "))
}

// goalAnswer picks the goal's answer among the positions that meet it and
// fills in its words; false when the positions do not make a goal.
func (b *builder) goalAnswer(f *lessonFile, line int, n *GoalBlock, k Knob, seen string) bool {
	g := &n.Goal
	var met []int
	for i, p := range g.Positions {
		if p.Met {
			met = append(met, i)
		}
	}
	def := slices.Index(k.Values, k.Default)
	want := fmt.Sprintf("%s %s %g", g.Path, g.Op, g.Target)
	problem := ""
	switch {
	case len(met) == 0:
		problem = fmt.Sprintf("%s holds at no position of %s (%s with %s); change want:, or give the knob values where it holds", want, k.Key, g.Show, seen)
	case def >= 0 && g.Positions[def].Met:
		problem = fmt.Sprintf("%s already holds at the knob's default, %s (%s with %s); a goal must make the learner move the knob: change want: or the knob's default", want, k.Default, g.Show, seen)
	case g.Pick == "only" && len(met) > 1:
		problem = fmt.Sprintf("pick: only, but %s holds at %d positions (%s with %s); make want: stricter, or pick smallest or largest", want, len(met), g.Show, seen)
	}
	if problem != "" {
		b.fail(f.name, line+n.WantLine, "goal block: %s", problem)
		g.Positions = nil
		return false
	}
	g.Answer = met[0]
	if g.Pick == "largest" {
		g.Answer = met[len(met)-1]
	}
	words := n.labels.GoalWords
	words.Over = n.labels.GoalOver[g.Pick]
	words.Other = strings.ReplaceAll(words.Other, "{label}", k.Label)
	g.Words = &words
	return true
}

// goalRun runs sc with set applied, as the page's load does.
func (b *builder) goalRun(sc resolvedScenario, set []string) (figures.Source, error) {
	parsed, err := plan.ParseWith([]byte(sc.yaml), "", set)
	if err != nil {
		return nil, fmt.Errorf("the scenario refuses [%s]: %s", strings.Join(set, " "), plainScenarioError(err))
	}
	canonical, err := yaml.Marshal(parsed)
	if err != nil {
		return nil, err
	}
	return b.result(resolvedScenario{yaml: sc.yaml, canonical: string(canonical), parsed: parsed})
}

// sameGoals reports whether a translation's step has the original's goals:
// the same knob, condition, pick and answer (the words differ).
func sameGoals(a, b []Goal) bool {
	return slices.EqualFunc(a, b, func(x, y Goal) bool {
		return x.Knob == y.Knob && x.Path == y.Path && x.Op == y.Op && x.Target == y.Target && x.Pick == y.Pick && x.Show == y.Show && x.Answer == y.Answer
	})
}
