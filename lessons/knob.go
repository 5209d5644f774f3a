package lessons

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/unit"
)

// KindKnob is the node kind of a ```knob block.
var KindKnob = ast.NewNodeKind("Knob")

// KnobBlock is a fenced ```knob block: a control bound to a key of the
// step's scenario. Moving it re-runs the step in the canvas with
// key=value and updates the step's figures.
//
//	key: traffic.senders       # a key of the scenario, as --set names it
//	label: Senders             # in the lesson's language
//	range: 1..16               # or values: [...], select: [...], toggle: true
//	default: 8                 # optional; else the scenario's own value
//
// A toggle may set several keys: toggle: {off: [key=value, …], on: […]};
// its key then only names it in the page's address.
type KnobBlock struct {
	ast.BaseBlock
	Knob
	// Number counts the knobs of a document from 1; it makes the control's id.
	Number int
	// Offset is the byte offset of the fence in the parsed source.
	Offset int
	// Info is what follows "knob" on the fence line (an error when not empty).
	Info string
	// Err is the first problem with the block's YAML.
	Err *KnobError
	// Lines of the block's keys, from the block's first content line (1).
	KeyLine, ValuesLine, DefaultLine int
	// labels are the words of the lesson's language (the status sentences).
	labels labels
	// Quiz is the number of the step's quiz (0: none): the status line
	// stays hidden until it is answered (data-quiz, see build.go's gate).
	Quiz int
}

// Knob is a knob, described once: its syntax's content, its positions as
// --set takes them, as numbers and as text, what moving it changes and what
// its status line says. The site build checks and renders it, the page
// (lesson.js) gets it as JSON (data-knob, data-status) and only shows it,
// and the canvas learns from the page's load which settings only change
// the report (Changes).
type Knob struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// Control is range, values (both sliders), select or toggle.
	Control string `json:"control"`
	// Values are the knob's positions as --set takes them ("4", "16MiB", "ecmp", "true").
	Values []string `json:"values"`
	// Numbers are the values as numbers in Unit, when every value of a
	// range or values: knob is a number, a size or a time.
	Numbers []float64 `json:"numbers,omitempty"`
	// Unit is what Numbers count: "B" (sizes), "ps" (times), "Gb/s" (a key
	// ending in gbps) or "" (plain numbers).
	Unit string `json:"unit,omitempty"`
	// Sets are, for each value, what the knob sets at it, as --set takes
	// it: key=value, or a toggle's own lists (toggle: {off: […], on: […]}),
	// which may set several keys.
	Sets [][]string `json:"sets"`
	// Texts are the values as the page shows them: with their unit ("16 MiB"),
	// or a toggle's off and on in the lesson's language.
	Texts []string `json:"texts,omitempty"`
	// Default is one of Values: the block's default, or the scenario's own
	// value (filled in by the loader).
	Default string `json:"default"`
	// Changes is what moving the knob changes, ChangesRun or ChangesReport
	// (filled in by the loader).
	Changes string `json:"changes,omitempty"`
	// Status is what the status line under the knob's group says after a
	// re-run, in the lesson's language (filled in by the loader).
	Status *KnobStatus `json:"status,omitempty"`
}

// What moving a knob changes: the run (the canvas runs the step again), or
// only the report (the canvas works the report out again for the run on
// screen; the price of a GPU-hour).
const (
	ChangesRun    = "run"
	ChangesReport = "report"
)

// KnobStatus is what the status line under a group of knobs says after a
// re-run: Said with the knob moved, its text and the outcome, which is
// Sentence with the value of Figure, or (a flows run whose flows did not all
// finish) Unfinished with the values of Done, All and End.
type KnobStatus struct {
	Figure     string `json:"figure"`         // "totals.max_fct_us | time"
	Sentence   string `json:"sentence"`       // "last flow finished at {}"; {last}: the value of Last
	Last       string `json:"last,omitempty"` // a collective beside other traffic: when the last transfer arrived
	Done       string `json:"done,omitempty"`
	All        string `json:"all,omitempty"`
	End        string `json:"end,omitempty"`
	Unfinished string `json:"unfinished,omitempty"` // "{done} of {all} flows finished in {end}"
	Said       string `json:"said"`                 // "{label}: {value} — {outcome}"
	Running    string `json:"running"`
	Failed     string `json:"failed"` // "could not run: {}"
}

// Figures are the figures the status line quotes.
func (s KnobStatus) Figures() []string {
	return slices.DeleteFunc([]string{s.Figure, s.Last, s.Done, s.All, s.End}, func(f string) bool { return f == "" })
}

// outcomes are the figure a knob's status line quotes after a re-run, by
// what the scenario runs (flows, collective or training).
var outcomes = map[string]string{
	"flows":      "totals.max_fct_us | time",
	"collective": "collective.time_us | time",
	"training":   "training.iteration_us | time",
	"mixed":      "collective.time_us | time",    // and Last
	"inference":  "inference.ttft_p99_us | time", // and Last, the tokens a second
}

// knobStatus is the status line of a step whose scenario runs outcome, in l's language.
func knobStatus(l labels, outcome string) *KnobStatus {
	if outcomes[outcome] == "" {
		outcome = "flows"
	}
	s := &KnobStatus{Figure: outcomes[outcome], Sentence: l.Outcome[outcome], Said: l.Said, Running: l.Running, Failed: l.Failed}
	if outcome == "mixed" { // the collective may end long before the traffic beside it
		s.Last = "totals.sim_time_us | time"
	}
	if outcome == "inference" { // requests, not flows: the first token's wait and the service's rate
		s.Last = "inference.tokens_per_s | 0"
	}
	if outcome == "flows" { // a lossy run stopped by until: says how many flows finished, not "finished at 0 ms"
		s.Done, s.All, s.End, s.Unfinished = "totals.flows_finished", "totals.flows", "totals.sim_time_us | time", l.Unfinished
	}
	return s
}

// KnobError is a problem with a knob block; Line counts from the block's
// first content line (1).
type KnobError struct {
	Line int
	Msg  string
}

func (e *KnobError) Error() string { return "knob block line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// Kind implements ast.Node.
func (n *KnobBlock) Kind() ast.NodeKind { return KindKnob }

// Dump implements ast.Node.
func (n *KnobBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Key": n.Key}, nil)
}

// IsRaw implements ast.Node.
func (n *KnobBlock) IsRaw() bool { return true }

// MaxKnobPositions bounds a knob's values: a slider's steps stay big enough
// to tell apart, and the build checks each.
const MaxKnobPositions = 64

const knobExample = "key: traffic.senders, label: Senders, range: 1..16 (or values: [...], select: [...], toggle: true)"

var knobControls = []string{"range", "values", "select", "toggle"}

// ParseKnob reads a knob block's YAML. It checks the block's form; whether
// the key and values suit the step's scenario is the loader's check.
func ParseKnob(data []byte) (Knob, *KnobError) {
	k, _, err := parseKnob(data)
	return k, err
}

// knobLines are where a knob's keys are, from the block's first line.
type knobLines struct{ key, values, def int }

func parseKnob(data []byte) (Knob, knobLines, *KnobError) {
	var k Knob
	var at knobLines
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return k, at, knobYAMLError(err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return k, at, &KnobError{1, "a knob is keys " + knobExample}
	}
	control, def, err := readKnobKeys(doc.Content[0], &k, &at)
	if err != nil {
		return k, at, err
	}
	if err := readKnobControl(control, &k); err != nil {
		return k, at, err
	}
	k.Numbers, k.Unit = knobNumbers(k)
	if def != nil {
		if k.Default, err = knobScalar(def, "default", "default: with one of the knob's values"); err != nil {
			return k, at, err
		}
	}
	return k, at, nil
}

// knobYAMLError says where and why a knob block is not YAML.
func knobYAMLError(err error) *KnobError {
	line, msg := 1, strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, what, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				line, msg = n, what
			}
		}
	}
	return &KnobError{line, "not valid YAML (" + msg + "); write " + knobExample}
}

// knobScalar is the one value of key n, or an error that shows example.
func knobScalar(n *yaml.Node, key, example string) (string, *KnobError) {
	if n.Kind == yaml.MappingNode {
		return "", &KnobError{n.Line, key + `: text with ": " in it reads as a key; put it in quotes ("…")`}
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" || strings.TrimSpace(n.Value) == "" {
		return "", &KnobError{n.Line, key + ": must be one value; write " + example}
	}
	return strings.TrimSpace(n.Value), nil
}

// readKnobKeys reads the block's mapping m into k and at: key and label, and
// the nodes of the control and of the default (nil if none), which it
// checks are there.
func readKnobKeys(m *yaml.Node, k *Knob, at *knobLines) (control, def *yaml.Node, _ *KnobError) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, v := m.Content[i], m.Content[i+1]
		if seen[kn.Value] {
			return nil, nil, &KnobError{kn.Line, kn.Value + ": duplicate key; remove one"}
		}
		seen[kn.Value] = true
		var err *KnobError
		switch kn.Value {
		case "key":
			at.key = v.Line
			k.Key, err = knobScalar(v, "key", "key: traffic.senders (a scenario key, as --set names it)")
			if err == nil && !knobKey().MatchString(k.Key) {
				err = &KnobError{v.Line, fmt.Sprintf("key: %q is not a key path; write one as --set names it, e.g. key: traffic.senders or key: traffic.flows[0].bytes", k.Key)}
			}
		case "label":
			k.Label, err = knobScalar(v, "label", "label: Senders (what the control is, in the lesson's language)")
		case "default":
			def, at.def = v, v.Line
		case "range", "values", "select", "toggle":
			if control != nil {
				return nil, nil, &KnobError{kn.Line, fmt.Sprintf("%s: a knob is one control, and it already has %s; keep one of range, values, select and toggle", kn.Value, k.Control)}
			}
			control, k.Control, at.values = v, kn.Value, v.Line
		default:
			err = &KnobError{kn.Line, kn.Value + ": unknown key; a knob takes key, label, one of range, values, select and toggle, and default"}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	for _, key := range []string{"key", "label"} {
		if !seen[key] {
			return nil, nil, &KnobError{1, "no " + key + "; a knob has " + knobExample}
		}
	}
	if control == nil {
		return nil, nil, &KnobError{1, "no control; give one of range: 1..16, values: [100, 200, 400], select: [ecmp, adaptive] or toggle: true"}
	}
	return control, def, nil
}

// readKnobControl reads k's values and their texts from its control node.
func readKnobControl(control *yaml.Node, k *Knob) *KnobError {
	var err *KnobError
	switch k.Control {
	case "range":
		var s string
		if s, err = knobScalar(control, "range", "range: 1..16, range: 0..100 step 10 or range: 1MiB..1GiB x4"); err == nil {
			k.Values, k.Texts, err = parseRange(s, control.Line, k.Key)
		}
	case "values", "select":
		k.Values, err = knobList(control, k.Control)
		if err == nil && k.Control == "values" {
			for _, v := range k.Values {
				k.Texts = append(k.Texts, valueText(v, k.Key))
			}
		}
		if err == nil && k.Control == "select" {
			k.Texts = slices.Clone(k.Values)
		}
	case "toggle":
		k.Values = []string{"false", "true"}
		if control.Kind == yaml.MappingNode {
			k.Sets, err = toggleSets(control)
			return err
		}
		if control.Kind != yaml.ScalarNode || control.ShortTag() != "!!bool" || control.Value != "true" {
			err = &KnobError{control.Line, fmt.Sprintf("toggle: %s is not how a checkbox is written; write toggle: true (it starts at the scenario's value, or at default: false)", control.Value)}
		}
	}
	for _, v := range k.Values {
		k.Sets = append(k.Sets, []string{k.Key + "=" + v})
	}
	return err
}

const toggleSetsExample = "toggle: {off: [traffic.pattern=none, traffic.flows=], on: []}"

// toggleSets reads a toggle that sets several keys: the --set assignments
// of its off and on positions (a missing one sets nothing).
func toggleSets(m *yaml.Node) ([][]string, *KnobError) {
	sets := [][]string{{}, {}}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, v := m.Content[i], m.Content[i+1]
		at := slices.Index([]string{"off", "on"}, kn.Value)
		if at < 0 || seen[kn.Value] {
			return nil, &KnobError{kn.Line, fmt.Sprintf("toggle: %s is not off or on (each once); write %s", kn.Value, toggleSetsExample)}
		}
		seen[kn.Value] = true
		if v.Kind != yaml.SequenceNode {
			return nil, &KnobError{v.Line, fmt.Sprintf("toggle: %s must be a list of key=value, as --set takes them; write %s", kn.Value, toggleSetsExample)}
		}
		for _, item := range v.Content {
			key, _, ok := strings.Cut(strings.TrimSpace(item.Value), "=")
			if item.Kind != yaml.ScalarNode || !ok || !knobKey().MatchString(key) {
				return nil, &KnobError{item.Line, fmt.Sprintf("toggle: %s: %q is not key=value as --set takes it; write e.g. %s", kn.Value, item.Value, toggleSetsExample)}
			}
			sets[at] = append(sets[at], strings.TrimSpace(item.Value))
		}
	}
	if slices.Equal(sets[0], sets[1]) {
		return nil, &KnobError{m.Line, "toggle: off and on set the same; give each position what it sets, e.g. " + toggleSetsExample}
	}
	return sets, nil
}

// SetsOf is what the knob at value v sets, as --set takes it.
func (k Knob) SetsOf(v string) []string {
	if i := slices.Index(k.Values, v); i >= 0 && i < len(k.Sets) {
		return k.Sets[i]
	}
	return []string{k.Key + "=" + v}
}

var knobKey = lazyRegexp(`^[a-z_][a-z0-9_]*(?:\[[0-9]+\])?(?:\.[a-z_][a-z0-9_]*(?:\[[0-9]+\])?)*$`)

// knobList reads a values: or select: list.
func knobList(n *yaml.Node, control string) ([]string, *KnobError) {
	example := control + ": [100, 200, 400, 800]"
	if control == "select" {
		example = "select: [ecmp, adaptive, spray]"
	}
	if n.Kind != yaml.SequenceNode {
		return nil, &KnobError{n.Line, control + ": must be a list, e.g. " + example}
	}
	var out []string
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || item.ShortTag() == "!!null" || strings.TrimSpace(item.Value) == "" {
			return nil, &KnobError{item.Line, control + ": each item is one value, e.g. " + example}
		}
		v := strings.TrimSpace(item.Value)
		if slices.Contains(out, v) {
			return nil, &KnobError{item.Line, fmt.Sprintf("%s: %s is listed twice; list each value once", control, v)}
		}
		out = append(out, v)
	}
	if len(out) < 2 || len(out) > MaxKnobPositions {
		return nil, &KnobError{n.Line, fmt.Sprintf("%s: %d values; a knob offers 2 to %d", control, len(out), MaxKnobPositions)}
	}
	return out, nil
}

// A range's ends and step: plain numbers, sizes or times.
var rangeForm = lazyRegexp(`^(\S+?)\s*\.\.\s*(\S+?)(?:\s+(?:(step)\s+(\S+)|(?:x|×)\s*(\S+)))?$`)
var quantity = lazyRegexp(`^(-?[0-9]+(?:\.[0-9]+)?)\s*([A-Za-zµ]*)$`)

const rangeExample = "range: 1..16, range: 0..100 step 10, range: 1MiB..1GiB x4 or range: 1us..16us x2"

// rangeKind is what a range counts: plain numbers, sizes (in bytes) or times (in ps).
type rangeKind int

const (
	plainNumber rangeKind = iota
	sizeBytes
	timePS
)

// quantityOf reads one end or step of a range.
func quantityOf(s string) (float64, int, rangeKind, error) {
	m := quantity().FindStringSubmatch(s)
	if m == nil {
		return 0, 0, 0, fmt.Errorf("%q is not a number, size or time", s)
	}
	decimals := 0
	if _, frac, ok := strings.Cut(m[1], "."); ok {
		decimals = len(frac)
	}
	switch u := m[2]; {
	case u == "":
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil || math.Abs(v) > 1e15 {
			return 0, 0, 0, fmt.Errorf("%q is too large", s)
		}
		return v, decimals, plainNumber, nil
	case slices.Contains([]string{"B", "KiB", "MiB", "GiB", "TiB", "KB", "kB", "MB", "GB", "TB"}, u):
		b, err := unit.ParseBytes(s)
		if err != nil {
			return 0, 0, 0, err
		}
		return float64(b), 0, sizeBytes, nil
	case slices.Contains([]string{"ps", "ns", "us", "µs", "ms", "s"}, u):
		t, err := unit.ParseTime(s)
		if err != nil {
			return 0, 0, 0, err
		}
		return float64(t), 0, timePS, nil
	default:
		return 0, 0, 0, fmt.Errorf("%q: the unit %s is not one a range takes; use a plain number, a size (B, KiB, MiB, GiB) or a time (ns, us, ms)", s, u)
	}
}

// parseRange lists a range's positions: "1..16", "1..16 step 2",
// "1MiB..1GiB x4" (geometric). line locates errors.
func parseRange(s string, line int, key string) ([]string, []string, *KnobError) {
	fail := func(format string, args ...any) ([]string, []string, *KnobError) {
		return nil, nil, &KnobError{line, fmt.Sprintf(format, args...)}
	}
	m := rangeForm().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return fail("range: %q is not lo..hi; write %s", s, rangeExample)
	}
	lo, dlo, kind, err := quantityOf(m[1])
	if err != nil {
		return fail("range: %v; write %s", err, rangeExample)
	}
	hi, dhi, kindHi, err := quantityOf(m[2])
	if err != nil {
		return fail("range: %v; write %s", err, rangeExample)
	}
	if kind != kindHi {
		return fail("range: %s and %s are not the same kind of value; give both ends as numbers, as sizes or as times", m[1], m[2])
	}
	if lo > hi {
		return fail("range: %s..%s runs backwards; write the smaller end first (%s..%s)", m[1], m[2], m[2], m[1])
	}
	decimals := max(dlo, dhi)
	var vals []float64
	switch {
	case m[5] != "": // geometric
		f, err := strconv.ParseFloat(m[5], 64)
		if err != nil || !(f > 1) || f > 1e6 {
			return fail("range: ×%s is not a factor above 1; write e.g. %s..%s x2", m[5], m[1], m[2])
		}
		if !(lo > 0) {
			return fail("range: a range with ×%s starts above 0 (each value is the one before times %s); write e.g. 1..%s x%s", m[5], m[5], m[2], m[5])
		}
		if decimals > 0 || kind != plainNumber || f != math.Trunc(f) {
			decimals = max(decimals, 3) // round each product to a few decimals
		}
		for v := lo; v <= hi*(1+1e-9) && len(vals) <= MaxKnobPositions; v *= f {
			vals = append(vals, v)
		}
	default:
		step, dstep, kindStep := 1.0, 0, plainNumber
		if m[3] != "" {
			if step, dstep, kindStep, err = quantityOf(m[4]); err != nil {
				return fail("range: step %v; write e.g. %s..%s step 2", err, m[1], m[2])
			}
			if kindStep != kind {
				return fail("range: step %s is not the same kind of value as %s..%s; give it as the ends are", m[4], m[1], m[2])
			}
		} else if kind != plainNumber {
			return fail("range: sizes and times go in steps or by a factor; write e.g. %s..%s x2 or %s..%s step %s", m[1], m[2], m[1], m[2], m[1])
		}
		if !(step > 0) {
			return fail("range: step %s is not above 0; give a step such as 1", m[4])
		}
		decimals = max(decimals, dstep)
		for i := 0; len(vals) <= MaxKnobPositions; i++ {
			v := lo + float64(i)*step
			if v > hi+step*1e-9 {
				break
			}
			vals = append(vals, v)
		}
	}
	if len(vals) > MaxKnobPositions {
		return fail("range: %s has more than %d positions; use a bigger step or factor (a slider's positions must be far enough apart to pick)", s, MaxKnobPositions)
	}
	if len(vals) < 2 {
		return fail("range: %s has only one position; widen it or use a smaller step", s)
	}
	var values, texts []string
	for _, v := range vals {
		var val string
		switch kind {
		case sizeBytes:
			b, _ := unit.Bytes(math.Round(v)).MarshalText()
			val = string(b)
		case timePS:
			t, _ := unit.Time(math.Round(v)).MarshalText()
			val = string(t)
		default:
			val = strconv.FormatFloat(v, 'f', decimals, 64)
			if strings.Contains(val, ".") && m[5] != "" {
				val = strings.TrimSuffix(strings.TrimRight(val, "0"), ".")
			}
		}
		if len(values) > 0 && values[len(values)-1] == val {
			continue // rounding made two positions one
		}
		values = append(values, val)
		texts = append(texts, valueText(val, key))
	}
	return values, texts, nil
}

// knobNumbers are a slider's values as numbers and their unit (see
// Knob.Numbers); none unless every value is a quantity of one kind.
func knobNumbers(k Knob) ([]float64, string) {
	if k.Control != "range" && k.Control != "values" {
		return nil, ""
	}
	var nums []float64
	kinds := map[rangeKind]bool{}
	for _, v := range k.Values {
		f, _, kind, err := quantityOf(v)
		if err != nil {
			return nil, ""
		}
		nums, kinds[kind] = append(nums, f), true
	}
	if len(kinds) != 1 {
		return nil, ""
	}
	switch {
	case kinds[sizeBytes]:
		return nums, "B"
	case kinds[timePS]:
		return nums, "ps"
	case strings.HasSuffix(k.Key, "gbps"):
		return nums, "Gb/s"
	}
	return nums, ""
}

// valueText is how a value shows beside its control: a space between number
// and unit ("16 MiB", "2 µs"), and the key's unit after a plain number
// ("400 Gb/s" for topology.link_gbps).
func valueText(v, key string) string {
	m := quantity().FindStringSubmatch(v)
	if m == nil {
		return v
	}
	if m[2] == "us" {
		m[2] = "µs"
	}
	if m[2] != "" {
		return m[1] + nbsp + m[2]
	}
	if strings.HasSuffix(key, "gbps") {
		return m[1] + nbsp + "Gb/s"
	}
	return m[1]
}

const nbsp = "\u00a0"

type knobRenderer struct{ labels labels }

// render writes a knob as a labelled native control. Knobs next to each
// other share one group, closed by a reset button and a status line (a live
// region) that the page's script fills after each re-run:
//
//	<div class="lesson-knobs" role="group" aria-label="Try it">
//	<div class="lesson-knob lesson-knob-range" data-key="traffic.senders" data-knob="{…the Knob as JSON…}">
//	<label for="knob-1">Senders</label>
//	<input type="range" id="knob-1" min="0" max="15" step="1" value="7" aria-valuetext="8"><output for="knob-1">8</output>
//	</div>
//	…
//	<div class="lesson-knobs-bar"><button type="button" class="lesson-knobs-reset">Reset</button>
//	<p class="lesson-knobs-status" role="status" aria-live="polite" data-status="{…the KnobStatus as JSON…}"></p></div>
//	</div>
//
// A slider's value is the index into the knob's values; its texts are how
// each shows (aria-valuetext and the output).
func (r knobRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*KnobBlock)
	if n.Err != nil {
		return ast.WalkSkipChildren, nil // the loader reports it
	}
	esc := func(s string) string { return string(util.EscapeHTML([]byte(s))) }
	l := r.labels
	if _, ok := n.PreviousSibling().(*KnobBlock); !ok {
		fmt.Fprintf(w, "<div class=\"lesson-knobs\" role=\"group\" aria-label=\"%s\">\n", esc(l.TryIt))
	}
	k := n.Knob
	k.Status = nil // the group's status line carries it
	data, _ := json.Marshal(k)
	at := max(0, slices.Index(n.Values, n.Default))
	id := fmt.Sprintf("knob-%d", n.Number)
	fmt.Fprintf(w, "<div class=\"lesson-knob lesson-knob-%s\" data-key=\"%s\" data-knob=\"%s\">\n", n.Control, esc(n.Key), esc(string(data)))
	switch n.Control {
	case "range", "values":
		fmt.Fprintf(w, "<label for=\"%s\">%s</label>\n", id, esc(n.Label))
		fmt.Fprintf(w, "<input type=\"range\" id=\"%s\" min=\"0\" max=\"%d\" step=\"1\" value=\"%d\" aria-valuetext=\"%s\"><output for=\"%s\" aria-hidden=\"true\">%s</output>\n",
			id, len(n.Values)-1, at, esc(n.Texts[at]), id, esc(n.Texts[at]))
	case "select":
		fmt.Fprintf(w, "<label for=\"%s\">%s</label>\n<select id=\"%s\">", id, esc(n.Label), id)
		for i, v := range n.Values {
			sel := ""
			if i == at {
				sel = " selected"
			}
			fmt.Fprintf(w, "<option value=\"%s\"%s>%s</option>", esc(v), sel, esc(n.Texts[i]))
		}
		fmt.Fprint(w, "</select>\n")
	case "toggle":
		checked := ""
		if n.Default == "true" {
			checked = " checked"
		}
		fmt.Fprintf(w, "<input type=\"checkbox\" id=\"%s\"%s><label for=\"%s\">%s</label>\n", id, checked, id, esc(n.Label))
	}
	fmt.Fprint(w, "</div>\n")
	if _, ok := n.NextSibling().(*KnobBlock); !ok {
		status := n.Status
		if status == nil {
			status = knobStatus(l, "flows")
		}
		data, _ := json.Marshal(status)
		fmt.Fprintf(w, "<div class=\"lesson-knobs-bar\"><button type=\"button\" class=\"btn lesson-knobs-reset\">%s</button>\n", esc(l.Reset))
		gate := ""
		if n.Quiz > 0 {
			gate = fmt.Sprintf(" data-quiz=\"%d\" hidden", n.Quiz)
		}
		fmt.Fprintf(w, "<p class=\"lesson-knobs-status\" role=\"status\" aria-live=\"polite\" data-status=\"%s\"%s></p></div>\n</div>\n", esc(string(data)), gate)
	}
	return ast.WalkSkipChildren, nil
}
