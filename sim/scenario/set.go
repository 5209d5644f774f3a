package scenario

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"fabriclab/sim/msg"
)

// step is one element of a --set key path: a key, and a list index or -1.
type step struct {
	key   string
	index int
}

// applySet applies one "key.path=value" to the mapping root, creating keys
// that are missing, and records the nodes it placed in origin.
func applySet(root *yaml.Node, set string, origin map[*yaml.Node]string) error {
	set = strings.TrimSpace(set)
	s := &setter{from: "--set " + set, origin: origin}
	path, text, ok := strings.Cut(set, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return s.fail("expected key.path=value, e.g. --set topology.hosts=17")
	}
	var err error
	if s.steps, err = parseSetPath(path); err != nil {
		return s.fail("%s", err)
	}
	if s.value, err = parseSetValue(text); err != nil {
		return s.fail("%s", err)
	}
	if s.value.ShortTag() == "!!null" && s.steps[len(s.steps)-1].index < 0 {
		// "key=" removes the key, so that a key the new settings ignore
		// can go from the command line too.
		remove(root, s.steps)
		return nil
	}
	origin[s.value] = s.from
	return s.walk(root)
}

// setter places one --set value at its key path.
type setter struct {
	from   string // "--set key.path=value", for errors and origin
	steps  []step
	value  *yaml.Node
	origin map[*yaml.Node]string
}

func (s *setter) fail(format string, args ...any) error {
	return newError(s.from, 0, "", format, args...)
}

// walk follows the key path through the node tree from root and fills its
// last slot.
func (s *setter) walk(root *yaml.Node) error {
	n := root
	for i, st := range s.steps {
		last := i == len(s.steps)-1
		where := joinSteps(s.steps[:i+1])
		if n.Kind != yaml.MappingNode {
			return s.fail("%s is not a mapping (line %d); set its keys in the file", joinSteps(s.steps[:i]), n.Line)
		}
		slot := s.keySlot(n, st, last)
		if st.index < 0 {
			if last {
				n.Content[slot] = s.value
				return nil
			}
			if n.Content[slot].Kind == yaml.AliasNode {
				return s.fail("%s is an alias (*%s); set its keys in the file", where, n.Content[slot].Value)
			}
			n = n.Content[slot]
			continue
		}
		item, err := s.listItem(n.Content[slot], i, last)
		if err != nil || last {
			return err
		}
		n = item
		if n.Kind == yaml.AliasNode {
			return s.fail("%s is an alias (*%s); set its keys in the file", where, n.Value)
		}
	}
	return nil
}

// keySlot is the index in mapping n of the value of st's key, which it adds
// when missing: a list, the value itself when last, else a mapping.
func (s *setter) keySlot(n *yaml.Node, st step, last bool) int {
	for j := 0; j+1 < len(n.Content); j += 2 {
		if k := n.Content[j]; k.Kind == yaml.ScalarNode && k.Value == st.key {
			return j + 1
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: st.key}
	var child *yaml.Node
	switch {
	case st.index >= 0:
		child = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	case last:
		child = s.value
	default:
		child = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	s.origin[k], s.origin[child] = s.from, s.from
	n.Content = append(n.Content, k, child)
	return len(n.Content) - 1
}

// listItem is item [index] of step i's list seq, which it sets to the value
// when last, or appends when index is one past the end.
func (s *setter) listItem(seq *yaml.Node, i int, last bool) (*yaml.Node, error) {
	st := s.steps[i]
	name := joinSteps(append(s.steps[:i:i], step{st.key, -1}))
	if seq.Kind == yaml.AliasNode {
		return nil, s.fail("%s is an alias (*%s); set its items in the file", name, seq.Value)
	}
	if seq.Kind != yaml.SequenceNode {
		return nil, s.fail("%s is not a list (line %d)", name, seq.Line)
	}
	switch {
	case st.index > len(seq.Content) && len(seq.Content) == 0:
		return nil, s.fail("%s has no items; use %s[0] to add one", name, name)
	case st.index > len(seq.Content):
		return nil, s.fail("%s has %d items, [0] to [%d]; use %s[%d] to add one", name, len(seq.Content), len(seq.Content)-1, name, len(seq.Content))
	case st.index == len(seq.Content):
		item := s.value
		if !last {
			item = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			s.origin[item] = s.from
		}
		seq.Content = append(seq.Content, item)
	case last:
		seq.Content[st.index] = s.value
	}
	return seq.Content[st.index], nil
}

// remove deletes the key at steps from root, if it is there.
func remove(root *yaml.Node, steps []step) {
	n := root
	for i, st := range steps {
		if n.Kind != yaml.MappingNode {
			return
		}
		slot := -1
		for j := 0; j+1 < len(n.Content); j += 2 {
			if k := n.Content[j]; k.Kind == yaml.ScalarNode && k.Value == st.key {
				slot = j + 1
			}
		}
		switch {
		case slot < 0:
			return
		case i == len(steps)-1:
			n.Content = append(n.Content[:slot-1], n.Content[slot+1:]...)
			return
		}
		n = n.Content[slot]
		if st.index >= 0 {
			if n.Kind != yaml.SequenceNode || st.index >= len(n.Content) {
				return
			}
			n = n.Content[st.index]
		}
	}
}

// parseSetPath splits "traffic.flows[3].bytes" into steps, checking each key
// against the Scenario struct so that a typo is reported with the keys that
// would work.
func parseSetPath(path string) ([]step, error) {
	t := reflect.TypeFor[Scenario]()
	var steps []step
	for part := range strings.SplitSeq(path, ".") {
		st := step{key: part, index: -1}
		if k, idx, ok := strings.Cut(part, "["); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			if !strings.HasSuffix(idx, "]") || err != nil || n < 0 || n > MaxFlows {
				return nil, msg.Errorf("%q is not a key or a list item such as flows[3]", part)
			}
			st = step{key: k, index: n}
		}
		switch t.Kind() {
		case reflect.Struct:
		case reflect.Slice:
			return nil, msg.Errorf("%s is a list; name an item, e.g. %s[0].%s", joinSteps(steps), joinSteps(steps), part)
		default:
			return nil, msg.Errorf("%s has no keys below it", joinSteps(steps))
		}
		f, ok := fieldByKey(t, st.key)
		if !ok {
			return nil, msg.Errorf("unknown key; %s takes %s", owner(joinSteps(steps)), keysOf(t))
		}
		t = f.Type
		if st.index >= 0 {
			if t.Kind() != reflect.Slice {
				return nil, msg.Errorf("%s is not a list", joinSteps(append(steps, step{st.key, -1})))
			}
			t = t.Elem()
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for _, f := range fieldsOf(t) {
		if f.key == key {
			return t.Field(f.index), true
		}
	}
	return reflect.StructField{}, false
}

func joinSteps(steps []step) string {
	var b strings.Builder
	for i, st := range steps {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(st.key)
		if st.index >= 0 {
			b.WriteString("[" + strconv.Itoa(st.index) + "]")
		}
	}
	return b.String()
}

// parseSetValue reads a --set value as YAML: "17" is a number, "spray" a
// string, "[{src: 0, dst: 1}]" a list, "" no value.
func parseSetValue(text string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		what := strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(what, "line "); ok {
			num, problem, _ := strings.Cut(rest, ": ")
			if line, err := strconv.Atoi(num); err == nil {
				return nil, msg.Errorf("the value is not YAML: line %d: %s", line, yamlProblem(problem))
			}
		}
		return nil, msg.Errorf("the value is not YAML: %s", yamlProblem(what))
	}
	if len(doc.Content) != 1 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, nil
	}
	return doc.Content[0], nil
}

// ValueAt is the value at key (a --set path, e.g. traffic.flows[0].bytes)
// as s prints it in YAML (a mapping or list as a YAML block), "not set" when
// s has nothing there and "?" for a path --set refuses.
func (s Scenario) ValueAt(key string) string {
	steps, err := parseSetPath(key)
	if err != nil {
		return "?"
	}
	out, err := yaml.Marshal(s)
	var root yaml.Node
	if err != nil || yaml.Unmarshal(out, &root) != nil || len(root.Content) != 1 {
		return "?"
	}
	n := root.Content[0]
	for _, st := range steps {
		var next *yaml.Node
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == st.key {
				next = n.Content[i+1]
			}
		}
		if next != nil && st.index >= 0 {
			if next.Kind != yaml.SequenceNode || st.index >= len(next.Content) {
				return "not set"
			}
			next = next.Content[st.index]
		}
		if next == nil {
			return "not set"
		}
		n = next
	}
	if n.Kind != yaml.ScalarNode {
		out, _ := yaml.Marshal(n)
		return strings.TrimSpace(string(out))
	}
	return n.Value
}
