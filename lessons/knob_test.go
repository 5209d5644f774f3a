package lessons

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

func TestKnobRange(t *testing.T) {
	for _, tc := range []struct{ in, values, texts string }{
		{"1..4", "1 2 3 4", "1 2 3 4"},
		{"1..16 step 5", "1 6 11 16", "1 6 11 16"},
		{"1..15 step 5", "1 6 11", "1 6 11"},
		{"0.5..2 step 0.5", "0.5 1.0 1.5 2.0", "0.5 1.0 1.5 2.0"},
		{"1MiB..1GiB x4", "1MiB 4MiB 16MiB 64MiB 256MiB 1GiB", "1 MiB|4 MiB|16 MiB|64 MiB|256 MiB|1 GiB"},
		{"1MiB..1GiB ×32", "1MiB 32MiB 1GiB", "1 MiB|32 MiB|1 GiB"},
		{"1us..4us step 1us", "1us 2us 3us 4us", "1 µs|2 µs|3 µs|4 µs"},
		{"500ns..2us x2", "500ns 1us 2us", "500 ns|1 µs|2 µs"},
		{"1..8 x1.5", "1 1.5 2.25 3.375 5.062 7.594", "1 1.5 2.25 3.375 5.062 7.594"},
	} {
		values, texts, err := parseRange(tc.in, 1, "x")
		require.Nil(t, err, tc.in)
		assert.Equal(t, strings.Fields(tc.values), values, tc.in)
		want := strings.Fields(tc.texts)
		if strings.Contains(tc.texts, "|") {
			want = strings.Split(strings.ReplaceAll(tc.texts, " ", nbsp), "|")
		}
		assert.Equal(t, want, texts, tc.in)
	}
	_, texts, err := parseRange("100..400 x2", 1, "topology.link_gbps")
	require.Nil(t, err)
	assert.Equal(t, []string{"100" + nbsp + "Gb/s", "200" + nbsp + "Gb/s", "400" + nbsp + "Gb/s"}, texts, "a rate key's plain numbers show Gb/s")
}

func FuzzKnob(f *testing.F) {
	f.Add("key: traffic.senders\nlabel: Senders\nrange: 1..16\n")
	f.Add("key: topology.link_gbps\nlabel: Link speed (Gb/s)\nvalues: [100, 200, 400, 800]\n")
	f.Add("key: network.routing\nlabel: Routing\nselect: [ecmp, adaptive, spray]\ndefault: spray\n")
	f.Add("key: training.overlap\nlabel: Overlap\ntoggle: true\n")
	f.Add("key: neighbour\nlabel: Neighbour\ntoggle: {off: [traffic.pattern=none, traffic.flows=], on: []}\n")
	f.Add("key: collective.bytes\nlabel: Size\nrange: 1MiB..8GiB ×4\n")
	f.Add("key: a\nlabel: b\nrange: 0.1..0.9 step 0.1\n")
	f.Add("key: a\nlabel: b\nrange: 1us..1s x10\n")
	f.Add("key: a\nlabel: b\nrange: 5..1\nvalues: [1]\n")
	f.Add("key: [a]\nlabel: {b: c}\ntoggle: yes\n")
	f.Fuzz(func(t *testing.T, in string) {
		k, err := ParseKnob([]byte(in))
		if err != nil {
			assert.GreaterOrEqual(t, err.Line, 1, "%q: %v", in, err)
			breaks := strings.Count(strings.ReplaceAll(in, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(in, "\r\n", ""), "\r")
			assert.LessOrEqual(t, err.Line, breaks+2, "%q: %v", in, err)
			require.NotEmpty(t, err.Msg)
			noInternals(t, err.Msg, in)
			return
		}
		assert.True(t, knobKey().MatchString(k.Key), "%q: key %q", in, k.Key)
		assert.NotEmpty(t, k.Label)
		require.Contains(t, knobControls, k.Control)
		require.True(t, len(k.Values) >= 2 && len(k.Values) <= MaxKnobPositions, "%q: %d values", in, len(k.Values))
		for i, v := range k.Values {
			assert.NotEmpty(t, v)
			assert.NotContains(t, k.Values[:i], v, "%q: positions differ", in)
		}
		require.Len(t, k.Sets, len(k.Values), "every position sets something")
		if k.Control == "toggle" {
			assert.Equal(t, []string{"false", "true"}, k.Values)
			return
		}
		require.Len(t, k.Texts, len(k.Values), "every position has a text")
		// The positions, written back as a values list, read the same.
		out, yerr := yaml.Marshal(map[string]any{"key": k.Key, "label": k.Label, "values": k.Values})
		require.NoError(t, yerr)
		again, err := ParseKnob(out)
		require.Nil(t, err, "%q read as %+v, written as %q", in, k, out)
		assert.Equal(t, k.Values, again.Values)
		if k.Control == "range" {
			assert.True(t, slices.Equal(k.Texts, again.Texts), "a range's texts are its values' texts: %q", in)
		}
	})
}

// A knob on a use: step turns the built-in as written: keys the built-in
// derives (spines from nodes, each flow's bytes from traffic.bytes) follow
// it, as they would with `fabriclab run NAME --set`.
func TestKnobOnUseTurnsDerivedKeys(t *testing.T) {
	const head = "---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\n"
	src := head + "## Nodes {#nodes}\n\n```scenario\nuse: hierarchical-allreduce\nset: [topology.nodes=2]\n```\n\n" +
		"```knob\nkey: topology.nodes\nlabel: Nodes\nvalues: [2, 4]\n```\n\n" +
		"## Bytes {#bytes}\n\n```scenario\nuse: ecmp-collisions\nset: [traffic.bytes=1MiB]\n```\n\n" +
		"```knob\nkey: traffic.bytes\nlabel: Bytes\nvalues: [1MiB, 4MiB]\n```\n"
	ls, err := Load(fstest.MapFS{"x.en.md": {Data: []byte(src)}})
	require.NoError(t, err)
	steps := ls[0].Steps
	require.Len(t, steps, 2)
	assert.NotContains(t, steps[0].Scenario, "spines:", "the step's YAML leaves derived keys out")
	for _, s := range steps {
		assert.NotContains(t, s.Scenario, "#", "%s: without the built-in's comments, which describe its own values", s.ID)
	}
	turned := func(step int, set string) scenario.Scenario {
		sc, err := scenario.ParseWith([]byte(steps[step].Scenario), "", []string{set})
		require.NoError(t, err, set)
		return sc
	}
	want, err := scenario.Load("hierarchical-allreduce", nil, []string{"topology.nodes=4"})
	require.NoError(t, err)
	got := turned(0, "topology.nodes=4")
	assert.Equal(t, want.Topology, got.Topology, "nodes=4 as the built-in takes it")
	assert.Equal(t, 32, got.Endpoints())
	sc := turned(1, "traffic.bytes=4MiB")
	require.NotEmpty(t, sc.Traffic.Flows)
	for _, f := range sc.Traffic.Flows {
		assert.Equal(t, 4*unit.MiB, f.Bytes, "every flow takes the knob's size")
	}
}
