package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/unit"
)

// sampleDoc writes a YAML value for every key of type t — lists with one item
// — whose scalars differ from the zero value, so that decoding it sets every
// field. A field type it has no sample for fails the test.
func sampleDoc(t *testing.T, typ reflect.Type, path string) string {
	switch {
	case typ == reflect.TypeFor[unit.Time]():
		return "3us"
	case typ == reflect.TypeFor[unit.Bytes]():
		return "3KiB"
	}
	switch typ.Kind() {
	case reflect.Struct:
		var keys []string
		for _, f := range fieldsOf(typ) {
			keys = append(keys, f.key+": "+sampleDoc(t, typ.Field(f.index).Type, join(path, f.key)))
		}
		return "{" + strings.Join(keys, ", ") + "}"
	case reflect.Slice:
		return "[" + sampleDoc(t, typ.Elem(), path+"[0]") + "]"
	case reflect.String:
		return "x"
	case reflect.Bool:
		return "true"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "3"
	case reflect.Float32, reflect.Float64:
		return "0.5"
	}
	t.Fatalf("%s: no sample for a field of type %s; add one here and a case to decoder.value", path, typ)
	return ""
}

// decodeOnly runs the decoder alone (no defaults, no validation) over doc
// into v, which must point to a struct.
func decodeOnly(t *testing.T, doc string, v any) error {
	var root yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(doc), &root))
	d := &decoder{source: "t.yaml", origin: map[*yaml.Node]string{}, at: map[string]place{}, budget: 1 << 20}
	d.mapping(root.Content[0], reflect.ValueOf(v).Elem(), "", "", 0)
	return d.errs.err()
}

// TestDecodeEveryField decodes a sample value into every field of Scenario,
// found through reflection: a field type the decoder has no case for (as
// int64 once was, for training.layers[].params) fails here rather than in a
// user's run.
func TestDecodeEveryField(t *testing.T) {
	doc := sampleDoc(t, reflect.TypeFor[Scenario](), "")
	var s Scenario
	require.NoError(t, decodeOnly(t, doc, &s), "%s", doc)
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case v.Kind() == reflect.Struct && v.Type() != reflect.TypeFor[unit.Time]():
			for _, f := range fieldsOf(v.Type()) {
				walk(v.Field(f.index), join(path, f.key))
			}
		case v.Kind() == reflect.Slice:
			require.Equal(t, 1, v.Len(), "%s", path)
			walk(v.Index(0), path+"[0]")
		default:
			assert.False(t, v.IsZero(), "%s was not decoded", path)
		}
	}
	walk(reflect.ValueOf(s), "")
}

// TestDecodeUnknownType holds the decoder's last resort: a field type it has
// no case for is an error naming the key, not a panic.
func TestDecodeUnknownType(t *testing.T) {
	var v struct {
		C complex128 `yaml:"c"`
	}
	err := decodeOnly(t, "c: 1\n", &v)
	require.Error(t, err)
	assert.Equal(t, "t.yaml:1: c: 1 cannot be read: the loader has no decoder for this key (a bug in fabriclab; please report it)", err.Error())
}

// TestDecodeSizedNumbers holds whole numbers and floats of every width to
// their range.
func TestDecodeSizedNumbers(t *testing.T) {
	type sized struct {
		I8  int8    `yaml:"i8"`
		I64 int64   `yaml:"i64"`
		U8  uint8   `yaml:"u8"`
		F32 float32 `yaml:"f32"`
	}
	for _, tc := range []struct{ doc, err string }{
		{"{i8: 127, i64: 9223372036854775807, u8: 255, f32: 1e38}", ""},
		{"i8: 128", "t.yaml:1: i8: 128 is too large"},
		{"i64: 9223372036854775808", "t.yaml:1: i64: 9223372036854775808 is too large"},
		{"u8: 256", "t.yaml:1: u8: 256 is not allowed: use a whole number from 0 to 255"},
		{"u8: -1", "t.yaml:1: u8: -1 is not allowed: use a whole number from 0 to 255"},
		{"f32: 1e39", "t.yaml:1: f32: 1e39 is not a finite number"},
		{"i64: 1.5", "t.yaml:1: i64: 1.5 is not a whole number"},
	} {
		var v sized
		err := decodeOnly(t, tc.doc, &v)
		if tc.err == "" {
			require.NoError(t, err, tc.doc)
			assert.Equal(t, sized{127, 9223372036854775807, 255, 1e38}, v)
			continue
		}
		assert.EqualError(t, err, tc.err, tc.doc)
	}
}

// TestCustomLayers is issue 9's panic: a custom model's layers decode.
func TestCustomLayers(t *testing.T) {
	for _, set := range [][]string{nil, {"training.layers[0].params=2000000"}} {
		s, err := ParseWith([]byte("training: {model: custom, layers: [{name: fc, params: 1000000, flops: 2000000}]}\n"), "t.yaml", set)
		require.NoError(t, err)
		want := []Layer{{Name: "fc", Params: 1_000_000, FLOPs: 2e6}}
		if set != nil {
			want[0].Params = 2_000_000
		}
		assert.Equal(t, want, s.Training.Layers, fmt.Sprint(set)) // sim/plan's TestCustomModel builds the model
	}
}

// laughs is a billion-laughs list of flows: each item merges ten of the one
// before, so the last expands to 10^(n-1) mappings.
func laughs(n int) string {
	items := []string{"&l0 {src: 0, dst: 1}"}
	for i := 1; i < n; i++ {
		items = append(items, fmt.Sprintf("&l%d {<<: [%s]}", i, strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9)+fmt.Sprintf("*l%d", i-1)))
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// TestAliasBudget holds the alias budget to alias expansion: long input
// without aliases (issue 9: 3,878 flows in a --set were refused) and modest
// aliases pass, and a billion laughs, in the file or a --set, is refused
// quickly.
func TestAliasBudget(t *testing.T) {
	var flows []string
	for i := range 20000 {
		flows = append(flows, fmt.Sprintf("{src: %d, dst: %d, bytes: 1KiB}", i%8, 8))
	}
	set := "traffic.flows=[" + strings.Join(flows, ", ") + "]"
	s, err := ParseWith([]byte("name: many\n"), "t.yaml", []string{set})
	require.True(t, err == nil, "%.300v", err) // the message quotes the whole --set
	assert.Len(t, s.Traffic.Flows, 20000)

	s, err = Parse([]byte("traffic:\n  flows: "+laughs(3)+"\n"), "t.yaml")
	require.NoError(t, err, "100 merges are not a bomb")
	assert.Len(t, s.Traffic.Flows, 3)

	const refused = "aliases expand the document too far; write the values out"
	_, err = Parse([]byte("traffic:\n  flows: "+laughs(9)+"\n"), "t.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "t.yaml:2: traffic.flows[")
	assert.Contains(t, err.Error(), refused)
	_, err = ParseWith([]byte("name: x\n"), "t.yaml", []string{"traffic.flows=" + laughs(9)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--set traffic.flows=[&l0")
	assert.Contains(t, err.Error(), refused)
}
