package lessons

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"

	"fabriclab/lessons/figures"
)

// KindGoal is the node kind of a ```goal block.
var KindGoal = ast.NewNodeKind("Goal")

// GoalBlock is a fenced ```goal block: a goal the learner reaches by
// setting one of the step's knobs, checked by the build against a run at
// every position of the knob:
//
//	knob: network.buffer            # a knob of this step
//	want: totals.drops == 0         # a figure of the run, ==, !=, <, <=, > or >=, a number
//	pick: smallest                  # the answer: the smallest or largest position that meets it, the only one, or any
//	measure: "{} drops"             # the figure in words; {} is its value
//	show: totals.drops              # optional: the figure (and format) {} shows; else want's path
//	prompt: Find the smallest buffer with which no packet is dropped.
//	found: "{} is the smallest buffer with no drops."   # {} is the knob's value (the page fills it in)
type GoalBlock struct {
	ast.BaseBlock
	Goal
	// Offset is the byte offset of the fence in the parsed source.
	Offset int
	// Info is what follows "goal" on the fence line (an error when not empty).
	Info string
	// Err is the first problem with the block's YAML.
	Err *GoalError
	// Lines of the block's keys, from the block's first content line (1).
	KnobLine, WantLine int
	labels             labels
}

// Goal is a goal block's content and, filled in by the loader, where it is
// met. The page (goal.js) gets it as JSON and only shows it.
type Goal struct {
	Knob    string  `json:"knob"`
	Path    string  `json:"path"` // want's figure
	Op      string  `json:"op"`
	Target  float64 `json:"target"`
	Pick    string  `json:"pick"` // smallest, largest or only
	Measure string  `json:"measure"`
	Show    string  `json:"show"` // the figure spec {} in Measure shows
	Prompt  string  `json:"prompt"`
	Found   string  `json:"found"` // {} is the knob's text where it stands
	// Positions are the knob's positions, each with what the step sets there
	// (the other knobs at their defaults, in the page's order) and whether
	// the run there meets the goal (loader).
	Positions []GoalPosition `json:"positions,omitempty"`
	Answer    int            `json:"answer"` // index into Positions: the first that meets the goal for pick: any
	Words     *GoalWords     `json:"words,omitempty"`
}

// GoalPosition is one position of a goal's knob.
type GoalPosition struct {
	Set  []string `json:"set"`
	Text string   `json:"text"`
	Met  bool     `json:"met"`
}

// GoalWords are the goal line's sentences in the lesson's language.
type GoalWords struct {
	FoundIt string `json:"found_it"` // "Found it: {}"
	NotYet  string `json:"not_yet"`  // "Not yet: at {value}, {measure}."
	Over    string `json:"over"`     // the position meets the goal but is not the answer
	Other   string `json:"other"`    // another knob of the step has moved
}

// GoalError is a problem with a goal block; Line counts from the block's
// first content line (1).
type GoalError struct {
	Line int
	Msg  string
}

func (e *GoalError) Error() string { return "goal block line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// Kind implements ast.Node.
func (n *GoalBlock) Kind() ast.NodeKind { return KindGoal }

// Dump implements ast.Node.
func (n *GoalBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Knob": n.Knob}, nil)
}

// IsRaw implements ast.Node.
func (n *GoalBlock) IsRaw() bool { return true }

const goalExample = `knob: network.buffer, want: totals.drops == 0, pick: smallest, measure: "{} drops", prompt: …, found: "{} is …"`

// GoalPicks are what a goal's pick: takes.
var GoalPicks = []string{"smallest", "largest", "only", "any"}

var wantForm = lazyRegexp(`^(\S+?)\s*(==|!=|<=|>=|<|>)\s*(-?[0-9]+(?:\.[0-9]+)?)$`)

// ParseGoal reads a goal block's YAML. Whether the knob and the figure
// exist and the goal can be met is the loader's check.
func ParseGoal(data []byte) (Goal, *GoalError) {
	g, _, _, err := parseGoal(data)
	return g, err
}

func parseGoal(data []byte) (g Goal, knobLine, wantLine int, _ *GoalError) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		e := knobYAMLError(err) // the same message, with the goal's example
		return g, 0, 0, &GoalError{e.Line, strings.Replace(e.Msg, knobExample, goalExample, 1)}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return g, 0, 0, &GoalError{1, "a goal is keys " + goalExample}
	}
	m := doc.Content[0]
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if seen[k.Value] > 0 {
			return g, 0, 0, &GoalError{k.Line, k.Value + ": duplicate key; remove one"}
		}
		seen[k.Value] = v.Line
		s, kerr := knobScalar(v, k.Value, k.Value+": …")
		if kerr != nil {
			return g, 0, 0, &GoalError{kerr.Line, kerr.Msg}
		}
		switch k.Value {
		case "knob":
			g.Knob = s
		case "want":
			w := wantForm().FindStringSubmatch(s)
			if w == nil {
				return g, 0, 0, &GoalError{v.Line, fmt.Sprintf("want: %q is not a figure, a comparison and a number; write e.g. want: totals.drops == 0 or want: totals.max_fct_us < 2000", s)}
			}
			if _, err := figures.Parse(w[1]); err != nil {
				return g, 0, 0, &GoalError{v.Line, "want: " + err.Error()}
			}
			g.Path, g.Op = w[1], w[2]
			g.Target, _ = strconv.ParseFloat(w[3], 64)
		case "pick":
			g.Pick = s
			if !slices.Contains(GoalPicks, s) {
				return g, 0, 0, &GoalError{v.Line, fmt.Sprintf("pick: %q is not smallest, largest, only or any; say which position that meets the goal is the answer", s)}
			}
		case "show":
			p, err := figures.Parse(s)
			if err != nil {
				return g, 0, 0, &GoalError{v.Line, "show: " + err.Error()}
			}
			g.Show = p.String()
		case "measure", "found":
			if !strings.Contains(s, "{}") {
				return g, 0, 0, &GoalError{v.Line, fmt.Sprintf("%s: %q has no {} for the value; write e.g. %s: \"{} drops\"", k.Value, s, k.Value)}
			}
			if k.Value == "measure" {
				g.Measure = s
			} else {
				g.Found = s
			}
		case "prompt":
			g.Prompt = s
		default:
			return g, 0, 0, &GoalError{k.Line, k.Value + ": unknown key; a goal takes knob, want, pick, measure, show, prompt and found"}
		}
	}
	for _, key := range []string{"knob", "want", "pick", "measure", "prompt", "found"} {
		if seen[key] == 0 {
			return g, 0, 0, &GoalError{1, "no " + key + "; a goal has " + goalExample}
		}
	}
	if g.Show == "" {
		g.Show = g.Path
	}
	return g, seen["knob"], seen["want"], nil
}

// meets reports whether value v meets the goal.
func (g Goal) meets(v float64) bool {
	switch g.Op {
	case "==":
		return v == g.Target
	case "!=":
		return v != g.Target
	case "<":
		return v < g.Target
	case "<=":
		return v <= g.Target
	case ">":
		return v > g.Target
	}
	return v >= g.Target
}

type goalRenderer struct{ labels labels }

// render writes the goal as a box the page's script (goal.js) fills:
//
//	<div class="lesson-goal" role="group" aria-label="Goal" data-show="totals.drops" data-goal="{…the Goal as JSON…}">
//	<p class="lesson-goal-prompt"><strong>Goal:</strong> Find the smallest buffer …</p>
//	<p class="lesson-goal-status" role="status" aria-live="polite"></p>
//	</div>
func (r goalRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*GoalBlock)
	if n.Err != nil || n.Positions == nil {
		return ast.WalkSkipChildren, nil // the loader reports it
	}
	esc := func(s string) string { return string(util.EscapeHTML([]byte(s))) }
	data, _ := json.Marshal(n.Goal)
	fmt.Fprintf(w, "<div class=\"lesson-goal\" role=\"group\" aria-label=\"%s\" data-show=\"%s\" data-goal=\"%s\">\n", esc(r.labels.Goal), esc(n.Show), esc(string(data)))
	sep := " " // none after a full-width colon
	if strings.HasSuffix(r.labels.GoalLead, "：") {
		sep = ""
	}
	fmt.Fprintf(w, "<p class=\"lesson-goal-prompt\"><strong>%s</strong>%s%s</p>\n", esc(r.labels.GoalLead), sep, esc(n.Prompt))
	fmt.Fprint(w, "<p class=\"lesson-goal-status\" role=\"status\" aria-live=\"polite\"></p>\n</div>\n")
	return ast.WalkSkipChildren, nil
}
