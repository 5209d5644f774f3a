package lessons

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// knobs checks a section's knob blocks against the scenario in force (sc, the
// step's own block or an inherited one) and returns the knobs and the
// scenario the step's figures quote: sc with every knob at its default.
// Each value is applied as the canvas applies it (the step's YAML with
// --set key=value); nothing is run.
func (b *builder) knobs(f *lessonFile, s section, sc resolvedScenario, broken bool) (resolvedScenario, []Knob) {
	var found []*KnobBlock
	var own *ScenarioBlock // the step's own scenario block, if any
	for _, n := range s.blocks {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *KnobBlock:
				found = append(found, n)
			case *ScenarioBlock:
				if own == nil {
					own = n
				}
			}
			return ast.WalkContinue, nil
		})
	}
	if len(found) == 0 {
		return sc, nil
	}
	var knobs []Knob
	var sets []string
	seen := map[string]int{}
	outcome := "flows"
	switch {
	case sc.parsed.Training.Model != "":
		outcome = "training"
	case sc.parsed.Inference.Model != "":
		outcome = "inference"
	case sc.parsed.Collective.Op != "" && sc.parsed.Traffic.Pattern != scenario.PatternNone:
		outcome = "mixed"
	case sc.parsed.Collective.Op != "":
		outcome = "collective"
	}
	base := "" // sc as the canvas reads it, printed in full
	for _, n := range found {
		line := f.line(n.Offset)
		n.Status = knobStatus(n.labels, outcome)
		if n.Info != "" {
			b.fail(f.name, line, "```knob takes nothing after its name (found %q); write the knob's keys inside the block", n.Info)
		}
		if n.Err != nil {
			b.fail(f.name, line+n.Err.Line, "knob block: %s", n.Err.Msg)
			continue
		}
		if s.heading == nil {
			b.fail(f.name, line, "knob block: knobs belong to a step, and this is the intro; move it below a step's ## heading and scenario")
			continue
		}
		if own != nil && n.Offset < own.Offset {
			b.fail(f.name, line, "knob block: it comes before the step's scenario block (line %d); put knobs after the scenario they turn", f.line(own.Offset))
			continue
		}
		if sc.canonical == "" {
			b.fail(f.name, line, "knob block: no single scenario is in force here for %s to change (a knob does not turn the sides of a compare block); add a ```scenario block to this step, before the knob", n.Key)
			continue
		}
		if broken {
			continue // the scenario's own problems are reported
		}
		if first, dup := seen[n.Key]; dup {
			b.fail(f.name, line+n.KeyLine, "knob block: %s already has a knob in this step (line %d); give each key one knob", n.Key, first)
			continue
		}
		seen[n.Key] = line + n.KeyLine
		if base == "" {
			base = reparsed(sc)
		}
		if def, ok := b.checkKnob(f, line, n, sc, base); ok {
			n.Default = def
			n.Changes = knobChanges(sc, n.Knob)
			knobs = append(knobs, n.Knob)
			sets = append(sets, n.SetsOf(def)...)
		}
	}
	if len(sets) == 0 || len(knobs) < len(found) {
		return sc, knobs
	}
	parsed, err := plan.ParseWith([]byte(sc.yaml), "", sets)
	if err != nil { // each default alone works; together they may not
		b.fail(f.name, f.line(found[0].Offset), "knob blocks: the defaults together [%s] are refused: %s; pick defaults that go together", strings.Join(sets, " "), plainScenarioError(err))
		return sc, knobs
	}
	canonical, err := yaml.Marshal(parsed)
	if err != nil {
		return sc, knobs
	}
	if string(canonical) == base {
		return sc, knobs
	}
	return resolvedScenario{yaml: sc.yaml, canonical: string(canonical), parsed: parsed}, knobs
}

// reparsed is sc's YAML read back as the canvas reads it, in full: what a
// knob value is compared with to find the scenario's own.
func reparsed(sc resolvedScenario) string {
	parsed, err := plan.ParseWith([]byte(sc.yaml), "", nil)
	if err != nil {
		return sc.canonical
	}
	out, err := yaml.Marshal(parsed)
	if err != nil {
		return sc.canonical
	}
	return string(out)
}

// checkKnob applies each of a knob's values to the scenario and returns the
// knob's default: its default: key, or the scenario's own value (the value
// whose scenario prints as base). A knob must change the run: the plans
// (sim/plan) of its values must not all be equal.
func (b *builder) checkKnob(f *lessonFile, fence int, n *KnobBlock, sc resolvedScenario, base string) (string, bool) {
	var parsed scenario.Scenario
	apply := func(v string) (string, error) {
		var err error
		parsed, err = plan.ParseWith([]byte(sc.yaml), "", n.SetsOf(v))
		if err != nil {
			return "", err
		}
		out, err := yaml.Marshal(parsed)
		return string(out), err
	}
	canon := make([]string, len(n.Values))
	var first *plan.Plan // the first value's run
	changes := false     // another value's run differs from it
	var refused []int
	var firstErr error
	for i, v := range n.Values {
		c, err := apply(v)
		var p *plan.Plan
		if err == nil {
			p, err = plan.Resolve(&parsed)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			refused = append(refused, i)
			continue
		}
		canon[i] = c
		if first == nil {
			first = p
		} else if !changes {
			changes = !p.Equal(first)
		}
	}
	if len(refused) > 0 {
		var se *scenario.Error
		if len(refused) == len(n.Values) && errors.As(firstErr, &se) && se.Key == "" {
			b.fail(f.name, fence+n.KeyLine, "knob block: key %s: %s; name a key of this step's scenario as --set takes it (e.g. traffic.senders)", n.Key, plainScenarioError(firstErr))
			return "", false
		}
		v := n.Values[refused[0]]
		what := "value " + v
		if len(refused) > 1 {
			what = fmt.Sprintf("%d of its %d values (the first, %s)", len(refused), len(n.Values), v)
		}
		b.fail(f.name, fence+n.ValuesLine, "knob block: the scenario refuses %s for %s: %s; give the knob only values the step's scenario takes", what, n.Key, plainScenarioError(firstErr))
		return "", false
	}
	if !changes {
		b.fail(f.name, fence+n.KeyLine, "knob block: knob %s changes nothing in this step's scenario (%s); %s", n.Key, nothingWhy(n, parsed, canon), nothingFix(n.Key, parsed))
		return "", false
	}
	if n.Default != "" {
		c, err := apply(n.Default)
		if i := slices.Index(canon, c); err == nil && i >= 0 {
			return n.Values[i], true
		}
		b.fail(f.name, fence+n.DefaultLine, "knob block: default %s is not one of the knob's values (%s); pick one of them", n.Default, listValues(n.Values))
		return "", false
	}
	if i := slices.Index(canon, base); i >= 0 {
		return n.Values[i], true
	}
	b.fail(f.name, fence+n.ValuesLine, "knob block: the scenario's own %s (%s) is not one of the knob's values (%s); add it to the knob, or write default: with one of them",
		n.Key, sc.parsed.ValueAt(n.Key), listValues(n.Values))
	return "", false
}

// knobChanges is what knob k changes in sc: only the report when the plans
// of its values differ in nothing but what the report alone reads
// (runOnly), else the run.
func knobChanges(sc resolvedScenario, k Knob) string {
	var first *plan.Plan
	for _, v := range k.Values {
		parsed, err := plan.ParseWith([]byte(sc.yaml), "", k.SetsOf(v))
		if err != nil {
			return ChangesRun
		}
		p, err := plan.Resolve(&parsed)
		if err != nil {
			return ChangesRun
		}
		runOnly(p)
		if first == nil {
			first = p
		} else if !p.Equal(first) {
			return ChangesRun
		}
	}
	return ChangesReport
}

// runOnly clears what of p only the report reads: the price of a GPU-hour
// prices training.cost after the run (plan.Training).
func runOnly(p *plan.Plan) {
	if p.Training != nil {
		p.Training.GPUHourPrice = 0
	}
}

// nothingWhy says why a knob's values all give one run.
func nothingWhy(n *KnobBlock, sc scenario.Scenario, canon []string) string {
	what := fmt.Sprintf("its values %s all give the same run", listValues(n.Values))
	switch {
	case n.Key == "traffic.bytes" && sc.Traffic.Pattern == scenario.PatternFlows:
		return what + ": every flow in traffic.flows gives its own bytes"
	case strings.HasPrefix(n.Key, "traffic.flows") && sc.Traffic.Pattern != scenario.PatternFlows:
		return what + ": traffic.pattern is " + sc.Traffic.Pattern + ", which makes its own flows"
	case strings.HasPrefix(n.Key, "traffic.") && sc.Traffic.Pattern == scenario.PatternNone:
		return what + ": traffic.pattern is none, and the step's " + workload(sc) + " makes the flows"
	case (n.Key == "traffic.senders" || n.Key == "traffic.receiver") && sc.Traffic.Pattern != scenario.PatternIncast:
		return what + ": traffic.pattern is " + sc.Traffic.Pattern + ", not incast"
	case len(slices.Compact(slices.Clone(canon))) == 1:
		return what + ": the scenario sets " + n.Key + " from other keys"
	case strings.HasPrefix(n.Key, "topology."):
		return what + ": a " + sc.Topology.Kind + " topology does not read " + n.Key + ", so every value builds the same fabric"
	}
	return what + ": the run does not read " + n.Key + " here"
}

// nothingFix is what to do instead.
func nothingFix(key string, sc scenario.Scenario) string {
	if key == "traffic.bytes" && sc.Traffic.Pattern == scenario.PatternFlows {
		return "turn one flow's size (key: traffic.flows[0].bytes), drop bytes: from the flows so that they take traffic.bytes, or drop the knob"
	}
	if key == "traffic.bytes" && sc.Traffic.Pattern == scenario.PatternNone && sc.Collective.Op != "" && sc.Training.Model == "" {
		return "turn the collective's size (key: collective.bytes), or drop the knob"
	}
	return "turn a key the run reads, or drop the knob"
}

func workload(sc scenario.Scenario) string {
	if sc.Training.Model != "" {
		return "training"
	}
	return "collective"
}

// listValues shortens a long list of values for a message.
func listValues(v []string) string {
	if len(v) > 8 {
		return strings.Join(v[:3], ", ") + ", …, " + strings.Join(v[len(v)-3:], ", ")
	}
	return strings.Join(v, ", ")
}

// plainScenarioError is a scenario error without its source (the lesson
// gives the place), problems joined by "; ".
func plainScenarioError(err error) string {
	var parts []string
	for _, e := range flatten(err) {
		var se *scenario.Error
		if errors.As(e, &se) {
			plain := *se
			plain.Source, plain.Line = "", 0
			parts = append(parts, plain.Error())
			continue
		}
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}

// sameKnobs reports whether a translation's step has the original's knobs:
// the same keys with the same values, sets and defaults (labels differ).
func sameKnobs(a, b []Knob) bool {
	return slices.EqualFunc(a, b, func(x, y Knob) bool {
		return x.Key == y.Key && x.Control == y.Control && x.Default == y.Default && slices.Equal(x.Values, y.Values) &&
			slices.EqualFunc(x.Sets, y.Sets, slices.Equal)
	})
}
