package lessons

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"fabriclab/assets"
	"fabriclab/lessons/figures"
)

// A ```drill block is "find the fault": a quiz about the step's scenario,
// which has a fault hidden in it, whose options are causes, each with the
// fix that would remove it:
//
//	question: The last flow finishes late and the counters say why. What is wrong?
//	symptom: totals.drops > 0        # holds in the step's run; only the right fix removes it
//	options:
//	  - text: PFC is off
//	    fix: [network.flow_control=pfc]
//	  - text: The buffer is too small
//	    fix: [network.buffer=4MiB]
//	    why: Four times the buffer still overflows …
//	answer: 0
//	explain: …
//	fixed: PFC on                    # the fixed run's label on the canvas
//
// The build (drill_build.go) runs the step's scenario with each option's
// fix and checks that the symptom holds without a fix and with every wrong
// one, and is gone with the answer's: a drill cannot have a wrong key. It
// hides the scenario's name (the canvas shows HiddenName), and the page
// shows, once the drill is answered, the run as found beside the fixed one.
type Drill struct {
	// Symptom is a condition on the run (as {{ if }} takes it).
	Symptom string `json:"symptom"`
	// Fixes are each option's settings, as --set takes them.
	Fixes [][]string `json:"fixes"`
	// Fixed labels the fixed run's half of the canvas.
	Fixed string `json:"fixed"`

	cond     figures.Condition
	lines    map[string]int // block line of symptom and fixed
	fixLines []int          // block line of each option's fix
}

// HiddenName is the name a drill's scenario runs under: the canvas header
// and the page show it instead of one that could name the fault.
const HiddenName = "find-the-fault"

const drillKeys = "a drill takes question, symptom, options (each text:, fix: and, when wrong, why:), answer, explain and fixed"

// ParseDrill reads a drill block's YAML: a quiz's keys (quiz.go) plus
// symptom, fixed and a fix for each option.
func ParseDrill(data []byte) (Quiz, Drill, *QuizError) {
	d := Drill{lines: map[string]int{}}
	top := func(k, v *yaml.Node) (bool, *QuizError) {
		switch k.Value {
		case "symptom", "fixed":
		default:
			return false, nil
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" || strings.TrimSpace(v.Value) == "" {
			return true, &QuizError{v.Line, k.Value + ": must be text; write " + k.Value + ": …"}
		}
		d.lines[k.Value] = v.Line
		s := strings.TrimSpace(v.Value)
		if k.Value == "fixed" {
			d.Fixed = s
			return true, fixedLabel(s, v.Line)
		}
		c, err := figures.ParseCondition(s)
		if err != nil {
			return true, &QuizError{v.Line, "symptom: " + err.Error()}
		}
		d.Symptom, d.cond = s, c
		return true, nil
	}
	option := func(i int, k, v *yaml.Node) (bool, *QuizError) {
		if k.Value != "fix" {
			return false, nil
		}
		for len(d.Fixes) <= i {
			d.Fixes, d.fixLines = append(d.Fixes, nil), append(d.fixLines, 0)
		}
		d.fixLines[i] = v.Line
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return true, &QuizError{v.Line, "fix: takes a list of key=value, as --set takes them, e.g. fix: [network.flow_control=pfc]"}
		}
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode || !strings.Contains(item.Value, "=") {
				return true, &QuizError{item.Line, "fix: each item is key.path=value, e.g. network.flow_control=pfc"}
			}
			d.Fixes[i] = append(d.Fixes[i], item.Value)
		}
		return true, nil
	}
	check := func(q Quiz, optionLines []int) *QuizError {
		for _, key := range []string{"symptom", "fixed"} {
			if d.lines[key] == 0 {
				return &QuizError{1, "no " + key + "; " + drillKeys}
			}
		}
		for i, o := range q.Options {
			if i >= len(d.Fixes) || d.Fixes[i] == nil {
				return &QuizError{optionLines[i], fmt.Sprintf("option %d (%q) has no fix:; give every option the settings that would fix the fault it names, e.g. {text: \"PFC is off\", fix: [network.flow_control=pfc]}", i, o.Text)}
			}
		}
		return nil
	}
	q, err := parseQuiz(data, quizKeys{top: top, option: option, what: drillKeys, check: check})
	return q, d, err
}

// fixedLabel checks the fixed run's label as a compare side's label is checked.
func fixedLabel(s string, line int) *QuizError {
	switch {
	case strings.ContainsAny(s, "\n\r"):
		return &QuizError{line, "fixed: is one line of text; shorten it"}
	case utf8.RuneCountInString(s) > MaxCompareLabel:
		return &QuizError{line, fmt.Sprintf("fixed: is %d characters; at most %d fit over half the canvas: shorten it", utf8.RuneCountInString(s), MaxCompareLabel)}
	}
	if m := assets.Missing(s); len(m) > 0 {
		return &QuizError{line, fmt.Sprintf("fixed: the canvas's font cannot draw %q (its Chinese font is a subset); use other words, or add them to assets/fonts/margin.txt and run make fonts", string(m))}
	}
	return nil
}
