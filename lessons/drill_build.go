package lessons

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"

	"fabriclab/lessons/figures"
	"fabriclab/sim/scenario"
)

// drill checks a section's drill block, if any, against the step's own
// scenario: the symptom holds in its run and with each wrong option's fix,
// and not with the answer's. It then hides the scenario's name (in in, so
// that the steps after keep it hidden) and returns what the canvas shows
// once the drill is answered (step.Drill): the run as found beside the fixed run.
func (b *builder) drill(f *lessonFile, s section, in *inForce, step *Step) {
	var drills []*QuizBlock
	var own *ScenarioBlock
	knob := 0
	for _, n := range s.blocks {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n := n.(type) {
			case *QuizBlock:
				if entering && n.Drill != nil && n.Err == nil {
					drills = append(drills, n)
				}
			case *ScenarioBlock:
				if entering && own == nil {
					own = n
				}
			case *KnobBlock:
				if entering && knob == 0 {
					knob = f.line(n.Offset)
				}
			}
			return ast.WalkContinue, nil
		})
	}
	if len(drills) == 0 {
		return
	}
	n := drills[0]
	line := f.line(n.Offset)
	switch {
	case len(drills) > 1:
		b.fail(f.name, f.line(drills[1].Offset), "drill block: a second drill in this step (the first is at line %d); give each drill a step of its own", line)
		return
	case s.heading == nil || own == nil || own.Offset > n.Offset || in.cmp != nil:
		b.fail(f.name, line, "drill block: a drill asks about the step's own scenario, whose name it hides; put a ```scenario block with the fault in this step, before the drill")
		return
	case knob > 0:
		b.fail(f.name, knob, "drill block: a knob in a drill's step could give the fault away; move the knob to a step of its own")
		return
	case in.broken:
		return // the scenario's problems are reported
	}
	if !b.checkDrill(f, line, n, in.current) {
		return
	}
	found, err := hide(in.current.yaml, nil)
	fixed, err2 := hide(in.current.yaml, n.Drill.Fixes[n.Answer])
	if err == nil {
		err = err2
	}
	if err != nil {
		b.fail(f.name, line, "drill block: cannot write the scenario under its hidden name: %v", err)
		return
	}
	step.drill, step.drillAnswer, step.drillHides = n.Drill, n.Answer, in.current.parsed.Name
	in.current.yaml, in.current.parsed.Name, own.Name = found, HiddenName, HiddenName
	step.Drill = &Compare{Left: CompareSide{Label: labelsFor(langOf(f.name)).DrillFound, Scenario: found, ScenarioName: HiddenName},
		Right: CompareSide{Label: n.Drill.Fixed, Scenario: fixed, ScenarioName: HiddenName}}
}

// checkDrill runs sc with each option's fix and checks the symptom.
func (b *builder) checkDrill(f *lessonFile, line int, n *QuizBlock, sc resolvedScenario) bool {
	d := n.Drill
	at := func(blockLine int) int { return line + blockLine }
	symptom := func(res figures.Source) (bool, string, error) {
		holds, err := d.cond.Eval(res)
		value, _ := figures.Evaluate(d.cond.Left.Path, res)
		return holds, value, err
	}
	res, err := b.result(sc)
	if err != nil {
		b.fail(f.name, line, "drill block: running the step's scenario failed: %v", err)
		return false
	}
	holds, value, err := symptom(res)
	switch {
	case err != nil:
		b.fail(f.name, at(d.lines["symptom"]), "drill block: symptom: %v", err)
		return false
	case !holds:
		b.fail(f.name, at(d.lines["symptom"]), "drill block: the symptom %s does not hold in the step's run (%s is %s); a drill's scenario shows its fault: change the symptom or the scenario", d.Symptom, d.cond.Left.Path, value)
		return false
	}
	ok := true
	for i, fix := range d.Fixes {
		res, err := b.goalRun(sc, fix)
		if err == nil {
			holds, value, err = symptom(res)
		}
		switch {
		case err != nil:
			b.fail(f.name, at(d.fixLines[i]), "drill block: option %d's fix [%s]: %v", i, strings.Join(fix, " "), err)
			ok = false
		case i == n.Answer && holds:
			b.fail(f.name, at(d.fixLines[i]), "drill block: the answer's fix [%s] leaves the symptom %s (%s is %s); the right option's fix must remove it: change the fix, the answer or the symptom", strings.Join(fix, " "), d.Symptom, d.cond.Left.Path, value)
			ok = false
		case i != n.Answer && !holds:
			b.fail(f.name, at(d.fixLines[i]), "drill block: option %d's fix [%s] removes the symptom %s too (%s is %s), so option %d is right as well; a drill has one right fix: change that option's fix or the symptom", i, strings.Join(fix, " "), d.Symptom, d.cond.Left.Path, value, i)
			ok = false
		}
	}
	return ok
}

// hide is a scenario's YAML with sets and the hidden name written in.
func hide(yaml string, sets []string) (string, error) {
	out, err := scenario.Resolve([]byte(yaml), "drill", append(slices.Clone(sets), "name="+HiddenName))
	if err != nil {
		return "", err
	}
	return uncommented(out), nil
}

// langOf is a lesson file's language from its name (incast.zh.md → zh).
func langOf(name string) string {
	if m := fileName().FindStringSubmatch(name); m != nil {
		return m[2]
	}
	return "en"
}

// sameDrill reports whether a translation's drill is the original's: the
// same symptom, fixes and answer (the words differ).
func sameDrill(a, b *Drill, ansA, ansB int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Symptom == b.Symptom && ansA == ansB && slices.EqualFunc(a.Fixes, b.Fixes, slices.Equal)
}

// checkHidden fails a drill step whose text names the scenario it hides.
func (b *builder) checkHidden(f *lessonFile, step Step) {
	if step.drillHides == "" || step.drillHides == HiddenName {
		return
	}
	if strings.Contains(strings.ToLower(string(step.HTML)), strings.ToLower(step.drillHides)) {
		b.fail(f.name, step.Line, "drill block: the step's text names its scenario %q, which the drill hides (the name may give the fault away); leave the name out of the step", step.drillHides)
	}
}
