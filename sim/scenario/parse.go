package scenario

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Parse reads a scenario from YAML, lays it over Default, fills in the
// defaults that depend on other keys and validates it. source names the input
// in error messages, e.g. "incast.yaml:4: topology.hosts: …".
func Parse(data []byte, source string) (Scenario, error) {
	return ParseWith(data, source, nil)
}

// ParseWith is Parse with command-line overrides: each set is
// "key.path=value", e.g. "topology.hosts=17", "traffic.flows[0].bytes=1MiB" or
// "traffic.flows=[{src: 0, dst: 1}]", applied in order before decoding. The
// value is YAML; an empty one ("topology.hosts=") removes the key. Errors about a value that came from a set name the set
// instead of a line.
func ParseWith(data []byte, source string, sets []string) (Scenario, error) {
	return ParseChecked(data, source, sets, nil)
}

// ParseChecked is ParseWith with more checks, run on a scenario that passed
// its own (sim/plan's, which need an algorithm): they report through k,
// whose problems are located in the document as ParseWith's are.
func ParseChecked(data []byte, source string, sets []string, more func(s *Scenario, k *Check)) (Scenario, error) {
	return parseChecked(data, source, sets, more, nil)
}

// parseChecked is ParseChecked with the reader of topology.from's file (nil:
// none, and topology.from is an error that says so).
func parseChecked(data []byte, source string, sets []string, more func(s *Scenario, k *Check), readTopology TopologyReader) (Scenario, error) {
	if len(data) > MaxSourceBytes {
		return Scenario{}, newError(source, 0, "", "is %d bytes; a scenario may have at most %d", len(data), MaxSourceBytes)
	}
	root, err := parseDocument(data, source)
	if err != nil {
		return Scenario{}, err
	}
	// Aliases may repeat what the input holds a few times over, not more
	// (a billion laughs); the --set values are input too.
	input := len(data)
	for _, set := range sets {
		input += len(set)
	}
	d := &decoder{
		source: source,
		origin: make(map[*yaml.Node]string),
		at:     make(map[string]place),
		budget: 4*input + 10_000,
	}
	for _, set := range sets {
		if err := applySet(root, set, d.origin); err != nil {
			return Scenario{}, err
		}
	}
	s := Default()
	d.mapping(root, reflect.ValueOf(&s).Elem(), "", "", 0)
	if s.Topology.From != "" && len(d.errs) == 0 {
		d.fromFile(&s, readTopology)
	}
	s.fillDefaults(d.present)
	c := checker{s: &s, source: source, at: d.at}
	c.run()
	// Every problem at once: the checks run on what did decode too, less
	// those about a key that did not (it holds its default).
	if len(d.errs) > 0 {
		all := d.errs
		for _, e := range c.errs {
			if !slices.ContainsFunc(d.errs, func(f *Error) bool { return related(e.Key, f.Key) }) {
				all = append(all, e)
			}
		}
		return Scenario{}, all.err()
	}
	// A scenario valid but for keys it ignores has the later checks too, so
	// that their problems show with the ignored keys', not after them.
	if len(c.errs) > 0 && !c.valid || more == nil {
		if err := c.errs.err(); err != nil {
			return Scenario{}, err
		}
		return s, nil
	}
	k := &Check{c: checker{s: &s, source: source, at: d.at}}
	more(&s, k)
	if all := append(c.errs, k.c.errs...); len(all) > 0 {
		return Scenario{}, all.err()
	}
	return s, nil
}

// parseDocument reads exactly one YAML document whose top level is a mapping.
func parseDocument(data []byte, source string) (*yaml.Node, error) {
	syntax := func(err error) error {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		e := newError(source, 0, "", "not valid YAML: %s", yamlProblem(msg))
		// go.yaml.in/yaml/v3 says "yaml: line 3: did not find expected key".
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			num, what, _ := strings.Cut(rest, ": ")
			if line, err := strconv.Atoi(num); err == nil && line > 0 {
				e = newError(source, line, "", "not valid YAML: %s", yamlProblem(what))
				// The parser (not the scanner) counts this context line from 0,
				// and names where the block began: the line out of step is later.
				if strings.HasPrefix(what, "did not find expected") && !strings.HasSuffix(what, "node content") {
					e.Line = misindented(data, min(line+1, bytes.Count(data, []byte("\n"))+1))
				}
				if strings.Contains(what, "tab character") {
					e.Line = misindented(data, line)
				}
			}
		}
		return e
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, newError(source, 0, "", "empty document: a scenario is keys such as %s", topLevelExample)
		}
		return nil, syntax(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, syntax(err)
	default:
		return nil, newError(source, next.Line, "", "a second YAML document: a scenario is one document; remove the ---")
	}
	if len(doc.Content) != 1 {
		return nil, newError(source, 0, "", "empty document: a scenario is keys such as %s", topLevelExample)
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, newError(source, 0, "", "empty document: a scenario is keys such as %s", topLevelExample)
	}
	if root.Kind != yaml.MappingNode {
		return nil, newError(source, root.Line, "", "the top level must be keys such as %s; found %s", topLevelExample, describe(root))
	}
	return root, nil
}

// yamlProblem is go.yaml.in/yaml/v3's message as a msg.Text: the problems a
// hand-written scenario meets are phrases the catalogue says in Chinese, the
// rest stay as YAML wrote them.
func yamlProblem(what string) msg.Text {
	switch what {
	case "mapping values are not allowed in this context":
		return msg.F("mapping values are not allowed in this context")
	case "did not find expected key":
		return msg.F("did not find expected key")
	case "did not find expected '-' indicator":
		return msg.F("did not find expected '-' indicator")
	case "did not find expected node content":
		return msg.F("did not find expected node content")
	case "did not find expected ',' or '}'":
		return msg.F("did not find expected ',' or '}'")
	case "did not find expected ',' or ']'":
		return msg.F("did not find expected ',' or ']'")
	case "could not find expected ':'":
		return msg.F("could not find expected ':'")
	case "found character that cannot start any token":
		return msg.F("found character that cannot start any token")
	case "found a tab character that violates indentation":
		return msg.F("found a tab character that violates indentation")
	case "found a tab character where an indentation space is expected":
		return msg.F("found a tab character where an indentation space is expected")
	case "block sequence entries are not allowed in this context":
		return msg.F("block sequence entries are not allowed in this context")
	case "found unexpected end of stream":
		return msg.F("found unexpected end of stream")
	case "found unknown escape character":
		return msg.F("found unknown escape character")
	case "did not find expected comment or line break":
		return msg.F("did not find expected comment or line break")
	}
	return msg.F("%s", what)
}

// misindented is the first line from line from on whose indentation fits
// no block the lines before it opened (a tab in it, a key between two
// levels, a key among a list's items), or from if none: YAML names the line
// where the block it could not close began.
func misindented(data []byte, from int) int {
	type level struct {
		indent int
		seq    bool // its lines are list items
	}
	stack := []level{{0, false}}
	opens := false // the line before ends with "key:"
	for n, line := range strings.Split(string(data), "\n") {
		n++
		text := strings.TrimLeft(line, " ")
		if text == "" || text[0] == '#' {
			continue
		}
		if text[0] == '\t' {
			if n >= from {
				return n
			}
			continue
		}
		ind, seq := len(line)-len(text), strings.HasPrefix(text, "- ") || text == "-"
		top := stack[len(stack)-1]
		switch {
		case ind > top.indent && opens:
			stack = append(stack, level{ind, seq})
		case ind > top.indent:
			if n >= from {
				return n
			}
		default:
			for len(stack) > 1 && stack[len(stack)-1].indent > ind {
				stack = stack[:len(stack)-1]
			}
			if top = stack[len(stack)-1]; (top.indent != ind || top.seq != seq) && n >= from {
				return n
			}
		}
		if seq && strings.Contains(text, ": ") { // "- key: value": its next keys are two further in
			stack = append(stack, level{ind + 2, false})
		}
		body, _, _ := strings.Cut(text, " #")
		opens = strings.HasSuffix(strings.TrimSpace(body), ":")
	}
	return from
}

// related says whether key paths a and b are one, or one holds the other
// (traffic and traffic.flows[0].src); "" (the whole document) is related to all.
func related(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	in := func(x, y string) bool {
		return strings.HasPrefix(x, y) && (len(x) == len(y) || x[len(y)] == '.' || x[len(y)] == '[')
	}
	return in(a, b) || in(b, a)
}

var topLevelExample = msg.F("name, topology, network and traffic (e.g. topology: {kind: star, hosts: 9})")

// place is where a key's value was written.
type place struct {
	source string // file name, or "--set key=value"
	line   int    // 0 for --set
	text   string // a scalar as written, for messages
}

// decoder lays a yaml.Node tree over a Go value, recording where each key
// path was written.
type decoder struct {
	source string
	origin map[*yaml.Node]string // nodes placed by --set → "--set key=value"
	at     map[string]place      // key path → where its value was written
	errs   errorList
	// budget is how many more nodes aliases may expand to: without it, an
	// alias of aliases of aliases expands exponentially. Nodes visited
	// outside an alias are free, so a long document or --set is not limited.
	budget  int
	inAlias int // depth of aliases being expanded
}

func (d *decoder) present(key string) bool {
	_, ok := d.at[key]
	return ok
}

// place is where node n was written; from is its --set, or "" for the file.
func (d *decoder) place(n *yaml.Node, from string) place {
	if from != "" {
		return place{source: from}
	}
	return place{source: d.source, line: n.Line}
}

func (d *decoder) fail(n *yaml.Node, from, key, format string, args ...any) {
	p := d.place(n, from)
	d.errs.add(newError(p.source, p.line, key, format, args...))
}

// enter follows an alias, notes a --set origin and charges the budget for
// nodes an alias expands to. It reports whether n was an alias (the caller
// calls leave when done with it) and false when the aliases expand too far.
func (d *decoder) enter(n *yaml.Node, from, key string) (_ *yaml.Node, _ string, alias, ok bool) {
	if o, ok := d.origin[n]; ok {
		from = o
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil { // an anchor is never on an alias
		n, alias = n.Alias, true
		d.inAlias++
	}
	if d.inAlias > 0 {
		d.budget--
	}
	if d.budget < 0 {
		if d.budget == -1 {
			d.fail(n, from, key, "aliases expand the document too far; write the values out")
		}
		return n, from, alias, false
	}
	return n, from, alias, true
}

// leave ends the expansion of an alias that enter followed.
func (d *decoder) leave(alias bool) {
	if alias {
		d.inAlias--
	}
}

// field is a struct field and its YAML key.
type field struct {
	key   string
	index int
}

// fieldsOf lists the YAML keys of struct type t in declaration order.
func fieldsOf(t reflect.Type) []field {
	var fs []field
	for i := range t.NumField() {
		if key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); key != "" && key != "-" {
			fs = append(fs, field{key, i})
		}
	}
	return fs
}

// keysOf lists the YAML keys of struct type t, for messages.
func keysOf(t reflect.Type) string {
	var keys []string
	for _, f := range fieldsOf(t) {
		keys = append(keys, f.key)
	}
	return strings.Join(keys, ", ")
}

// owner names the mapping at path for "… takes" messages.
func owner(path string) msg.Text {
	if path == "" {
		return msg.F("the top level")
	}
	return msg.F("%s", path)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

const maxMergeDepth = 10

// mapping decodes a mapping node into struct v; depth counts merges (<<).
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, path, from string, depth int) {
	n, from, alias, ok := d.enter(n, from, path)
	defer d.leave(alias)
	if !ok {
		return
	}
	if path != "" && depth == 0 {
		d.at[path] = d.place(n, from)
	}
	if n.Kind != yaml.MappingNode {
		d.fail(n, from, path, "expected keys (%s takes %s); found %s", owner(path), keysOf(v.Type()), describe(n))
		return
	}
	if depth > maxMergeDepth {
		d.fail(n, from, path, "merges (<<) nest more than %d deep", maxMergeDepth)
		return
	}
	fields := make(map[string]int)
	for _, f := range fieldsOf(v.Type()) {
		fields[f.key] = f.index
	}
	// Merged mappings come first so that the mapping's own keys override
	// them; of several merged mappings, the first wins.
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			m, mfrom, alias, ok := d.enter(n.Content[i+1], from, path)
			if !ok {
				d.leave(alias)
				return
			}
			sources := []*yaml.Node{m}
			if m.Kind == yaml.SequenceNode {
				sources = m.Content
			}
			for j := len(sources) - 1; j >= 0; j-- {
				d.mapping(sources[j], v, path, mfrom, depth+1)
			}
			d.leave(alias)
		}
	}
	seen := make(map[string]int)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		kfrom := from
		if o, ok := d.origin[k]; ok {
			kfrom = o
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			continue
		}
		if k.Kind != yaml.ScalarNode || strings.IndexFunc(k.Value, unprintable) >= 0 {
			d.fail(k, kfrom, path, "a key must be a plain name; found %s", describe(k))
			continue
		}
		key := join(path, k.Value)
		if line, dup := seen[k.Value]; dup {
			d.fail(k, kfrom, key, "duplicate key; first at line %d", line)
			continue
		}
		seen[k.Value] = k.Line
		index, known := fields[k.Value]
		if !known {
			d.fail(k, kfrom, key, "unknown key; %s takes %s", owner(path), keysOf(v.Type()))
			continue
		}
		d.value(val, v.Field(index), key, from, depth)
	}
}

// value decodes node n into v.
func (d *decoder) value(n *yaml.Node, v reflect.Value, path, from string, depth int) {
	if v.Kind() == reflect.Struct {
		d.mapping(n, v, path, from, depth)
		return
	}
	n, from, alias, ok := d.enter(n, from, path)
	defer d.leave(alias)
	if !ok {
		return
	}
	p := d.place(n, from)
	if n.Kind == yaml.ScalarNode {
		p.text = n.Value
	}
	d.at[path] = p
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		d.fail(n, from, path, "no value; write one or remove the key")
		return
	}
	if v.Kind() == reflect.Slice {
		d.sequence(n, v, path, from)
		return
	}
	if n.Kind != yaml.ScalarNode {
		d.fail(n, from, path, "expected %s; found %s", kindName(v), describe(n))
		return
	}
	if reflect.PointerTo(v.Type()).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(n.Value)); err != nil {
			d.fail(n, from, path, "%s", err)
		}
		return
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		v.SetString(n.Value)
	case reflect.Bool:
		var b bool
		if tag != "!!bool" || n.Decode(&b) != nil {
			d.fail(n, from, path, "%s is not true or false%s", describe(n), unquoteHint(n, "!!bool"))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if tag != "!!int" {
			d.fail(n, from, path, "%s is not a whole number%s", describe(n), unquoteHint(n, "!!int"))
			return
		}
		if err := n.Decode(&i); err != nil || v.OverflowInt(i) {
			d.fail(n, from, path, "%s is too large", n.Value)
			return
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var u uint64
		if tag != "!!int" {
			d.fail(n, from, path, "%s is not a whole number%s", describe(n), unquoteHint(n, "!!int"))
			return
		}
		if err := n.Decode(&u); err != nil || v.OverflowUint(u) {
			d.fail(n, from, path, "%s is not allowed: use a whole number from 0 to %d", n.Value, maxUint(v))
			return
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		var f float64
		if tag != "!!int" && tag != "!!float" {
			d.fail(n, from, path, "%s is not a number%s", describe(n), unquoteHint(n, "!!float", "!!int"))
			return
		}
		if err := n.Decode(&f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) || v.OverflowFloat(f) {
			d.fail(n, from, path, "%s is not a finite number", n.Value)
			return
		}
		v.SetFloat(f)
	default:
		// TestDecodeEveryField walks every field of Scenario, so this is
		// unreachable for the keys that exist; it reports rather than panics.
		d.fail(n, from, path, "%s cannot be read: the loader has no decoder for this key (a bug in fabriclab; please report it)", describe(n))
	}
}

// maxUint is the largest value the unsigned field v holds.
func maxUint(v reflect.Value) uint64 {
	return math.MaxUint64 >> (64 - v.Type().Bits())
}

// sequence decodes a list node into slice v; an empty list leaves v nil.
func (d *decoder) sequence(n *yaml.Node, v reflect.Value, path, from string) {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, from, path, "expected a list, e.g. %s: [{src: 0, dst: 1}]; found %s", path[strings.LastIndex(path, ".")+1:], describe(n))
		return
	}
	if len(n.Content) > MaxFlows {
		d.fail(n, from, path, "%d items are too many: at most %d", len(n.Content), MaxFlows)
		return
	}
	v.Set(reflect.Zero(v.Type()))
	if len(n.Content) == 0 {
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		d.value(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i), from, 0)
	}
	v.Set(s)
}

// describe shows a node in a message: "nine" (quoted) for text, 9.5 for
// other scalars, "a list" or "a mapping" for collections.
func describe(n *yaml.Node) msg.Text {
	switch n.Kind {
	case yaml.MappingNode:
		return msg.F("a mapping")
	case yaml.SequenceNode:
		return msg.F("a list")
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return msg.F("%q", n.Value)
		}
		return msg.F("%s", n.Value)
	}
	return msg.F("an alias")
}

// unquoteHint suggests dropping the quotes when the quoted text would have
// been the wanted kind of scalar.
func unquoteHint(n *yaml.Node, tags ...string) msg.Text {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		return msg.F("")
	}
	plain := yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}
	for _, t := range tags {
		if plain.ShortTag() == t {
			return msg.F("; write it without quotes")
		}
	}
	return msg.F("")
}

// kindName says what a scalar field expects.
func kindName(v reflect.Value) msg.Text {
	switch {
	case v.Type() == reflect.TypeFor[unit.Time]():
		return msg.F("a duration such as 1us")
	case v.Type() == reflect.TypeFor[unit.Bytes]():
		return msg.F("a size such as 64MiB")
	case v.CanInt(), v.CanUint():
		return msg.F("a whole number")
	case v.CanFloat():
		return msg.F("a number")
	case v.Kind() == reflect.Bool:
		return msg.F("true or false")
	}
	return msg.F("a single value")
}
