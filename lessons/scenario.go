package lessons

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// KindScenario is the node kind of a ```scenario block.
var KindScenario = ast.NewNodeKind("Scenario")

// ScenarioBlock is a fenced ```scenario block: what the canvas shows in the
// step it is in. Its YAML is either a whole scenario, exactly the keys of
// `fabriclab run`, or a built-in with overrides:
//
//	use: incast               # a name from `fabriclab scenarios`
//	set: [traffic.bytes=8MiB, until=2ms]
//
// The block shows in the text only as a small caption.
type ScenarioBlock struct {
	ast.BaseBlock
	// YAML is the block's content as written.
	YAML string
	// Offset is the byte offset of the fence in the parsed source.
	Offset int
	// Info is what follows "scenario" on the fence line (an error when not empty).
	Info string
	// Name is the scenario's name, set once the block has been resolved.
	Name string
}

// Kind implements ast.Node.
func (n *ScenarioBlock) Kind() ast.NodeKind { return KindScenario }

// Dump implements ast.Node.
func (n *ScenarioBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// IsRaw implements ast.Node: the block's content is not Markdown.
func (n *ScenarioBlock) IsRaw() bool { return true }

type scenarioRenderer struct{ labels labels }

// render writes <p class="lesson-scenario" data-scenario="NAME">▶ scenario: <code>NAME</code></p>.
func (r scenarioRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ScenarioBlock)
	name := util.EscapeHTML([]byte(n.Name))
	_, _ = fmt.Fprintf(w, "<p class=\"lesson-scenario\" data-scenario=\"%s\">▶ %s<code>%s</code></p>\n", name, util.EscapeHTML([]byte(r.labels.Scenario)), name)
	return ast.WalkSkipChildren, nil
}

// resolvedScenario is a scenario block read and validated.
type resolvedScenario struct {
	yaml      string // what the canvas loads
	canonical string // the validated scenario printed in full: equal scenarios print the same
	parsed    scenario.Scenario
}

// resolveScenario reads a scenario block of file whose content starts on
// line first (its fence is on first−1). Problems are located in file.
func resolveScenario(text, file string, first int) (resolvedScenario, []error) {
	fence := first - 1
	var r resolvedScenario
	var probe struct {
		Use *yaml.Node `yaml:"use"`
		Set *yaml.Node `yaml:"set"`
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		_ = doc.Content[0].Decode(&probe)
	}
	var sc scenario.Scenario
	var err error
	if probe.Use == nil {
		if probe.Set != nil {
			return r, []error{&Error{file, first + probe.Set.Line - 1, "scenario block: set: only goes with use: (a built-in name); in a whole scenario write the keys themselves"}}
		}
		sc, err = plan.ParseWith([]byte(text), file, nil)
		r.yaml = text
	} else {
		var errs []error
		sc, r.yaml, errs = useBuiltin(doc.Content[0], file, first)
		if len(errs) > 0 {
			return r, errs
		}
	}
	if err != nil {
		return r, scenarioErrors(err, file, first, fence)
	}
	canonical, err := yaml.Marshal(sc)
	if err != nil {
		return r, []error{&Error{file, fence, "scenario block: cannot print the scenario: " + err.Error()}}
	}
	r.canonical, r.parsed = string(canonical), sc
	if r.yaml == "" || !reads(r.yaml, r.canonical) {
		r.yaml = r.canonical
	}
	return r, nil
}

// reads reports whether text is read as the scenario printed as canonical.
func reads(text, canonical string) bool {
	sc, err := plan.ParseWith([]byte(text), "", nil)
	if err != nil {
		return false
	}
	out, err := yaml.Marshal(sc)
	return err == nil && string(out) == canonical
}

// useBuiltin reads the "use: NAME, set: [k=v, …]" form. Its YAML, what the
// canvas loads, is the built-in's own text with the sets written in (as
// written, not expanded: keys the built-in derives, such as
// topology.spines or each flow's bytes, stay derived, so a knob on the
// key they derive from turns them too).
func useBuiltin(m *yaml.Node, file string, first int) (scenario.Scenario, string, []error) {
	at := func(n *yaml.Node) int { return first + n.Line - 1 }
	var name string
	var sets []string
	var setLines []int
	var errs []error
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "use":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				errs = append(errs, &Error{file, at(v), "scenario block: use: takes a built-in name (see `fabriclab scenarios`), e.g. use: incast"})
			}
			name = v.Value
		case "set":
			if v.Kind != yaml.SequenceNode {
				errs = append(errs, &Error{file, at(v), "scenario block: set: takes a list of key=value, e.g. set: [traffic.bytes=8MiB, until=2ms]"})
				continue
			}
			for _, item := range v.Content {
				if item.Kind != yaml.ScalarNode || !strings.Contains(item.Value, "=") {
					errs = append(errs, &Error{file, at(item), "scenario block: set: each item is key.path=value, e.g. traffic.bytes=8MiB"})
					continue
				}
				sets, setLines = append(sets, item.Value), append(setLines, at(item))
			}
		default:
			errs = append(errs, &Error{file, at(k), fmt.Sprintf("scenario block: %s: a block with use: takes only use and set; write the change as set: [%s=…], or write the whole scenario without use:", k.Value, k.Value)})
		}
	}
	if len(errs) > 0 {
		return scenario.Scenario{}, "", errs
	}
	data, ok := scenario.Builtin(name)
	if !ok {
		var names []string
		for _, b := range scenario.Builtins() {
			names = append(names, b.Name)
		}
		return scenario.Scenario{}, "", []error{&Error{file, first, fmt.Sprintf("scenario block: use: %q is not a built-in; use one of %s", name, strings.Join(names, ", "))}}
	}
	sc, err := plan.Load(name, nil, sets)
	if err == nil {
		text, err := scenario.Resolve(data, "builtin/"+name+".yaml", sets)
		if err != nil {
			return sc, "", nil // resolveScenario prints sc instead
		}
		return sc, uncommented(text), nil
	}
	// Errors name the --set they came from; point at its line instead.
	var out []error
	for _, e := range flatten(err) {
		line := first
		var se *scenario.Error
		if errors.As(e, &se) {
			for i, s := range sets {
				if se.Source == "--set "+s {
					line = setLines[i]
				}
			}
			se2 := *se
			se2.Source, se2.Line = "", 0
			out = append(out, &Error{file, line, "scenario block: " + se2.Error()})
			continue
		}
		out = append(out, &Error{file, line, "scenario block: " + e.Error()})
	}
	return scenario.Scenario{}, "", out
}

// uncommented is YAML without its comments: a built-in's comments describe
// its own values ("Eight senders…"), which set: may have changed.
func uncommented(text []byte) string {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil {
		return ""
	}
	var strip func(n *yaml.Node)
	strip = func(n *yaml.Node) {
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		for _, c := range n.Content {
			strip(c)
		}
	}
	strip(&doc)
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(&doc) != nil || enc.Close() != nil {
		return ""
	}
	return b.String()
}

// scenarioErrors relocates the errors of scenario.ParseWith from lines of
// the block to lines of the lesson file.
func scenarioErrors(err error, file string, first, fence int) []error {
	var out []error
	for _, e := range flatten(err) {
		var se *scenario.Error
		if !errors.As(e, &se) {
			out = append(out, &Error{file, fence, "scenario block: " + e.Error()})
			continue
		}
		line := fence
		if se.Line > 0 {
			line = first + se.Line - 1
		}
		plain := *se
		plain.Source, plain.Line = "", 0
		out = append(out, &Error{file, line, "scenario block: " + plain.Error()})
	}
	return out
}

// flatten undoes errors.Join.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
