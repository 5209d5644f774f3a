package scenario

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

func TestClassDefaults(t *testing.T) {
	for _, tc := range []struct {
		doc      string
		lossless bool
	}{
		{"network: {classes: [{name: a}, {name: b, weight: 3}]}\n", true},                     // roce: pfc
		{"topology: {fabric: ethernet}\nnetwork: {classes: [{name: a}, {name: b}]}\n", false}, // flow_control none
		{"topology: {fabric: ib}\nnetwork: {classes: [{name: a}, {name: b}]}\n", true},        // credit
	} {
		s, err := Parse([]byte(tc.doc), "t.yaml")
		require.NoError(t, err, tc.doc)
		require.Len(t, s.Network.Classes, 2)
		assert.Equal(t, 1.0, s.Network.Classes[0].Weight, "weight defaults to 1")
		assert.Equal(t, tc.lossless, s.Network.Classes[0].Lossless, tc.doc)
		assert.Equal(t, tc.lossless, s.Network.Classes[1].Lossless, tc.doc)
	}
	s, err := Parse([]byte("network: {classes: [{name: a}, {name: b, weight: 3}]}\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, 3.0, s.Network.Classes[1].Weight)
	assert.Equal(t, 0, s.Network.ClassIndex(""), "the empty name is the first class")
	assert.Equal(t, 1, s.Network.ClassIndex("b"))
	assert.Equal(t, -1, s.Network.ClassIndex("c"))
	assert.Equal(t, BufferStatic, s.Network.BufferModel)
	assert.Equal(t, 1.0, s.Network.DTAlpha)
}

func TestClassErrors(t *testing.T) {
	two := "network:\n  classes: [{name: a}, {name: b}]\n"
	nine := "network:\n  classes: [" + strings.Repeat("{name: x}, ", 8) + "{name: y}]\n"
	for _, tc := range []struct {
		name, doc string
		sets      []string
		key, says string
	}{
		{"zero weight", "network:\n  classes: [{name: a, weight: 0}]\n", nil, "network.classes[0].weight", "0 is not allowed: a weight is from 0.001 to 1000; weights are relative"},
		{"huge weight", "network:\n  classes: [{name: a, weight: 1001}]\n", nil, "network.classes[0].weight", "1001 is not allowed"},
		{"duplicate name", "network:\n  classes: [{name: a}, {name: a}]\n", nil, "network.classes[1].name", `"a" is already the name of class 0`},
		{"no name", "network:\n  classes: [{weight: 2}]\n", nil, "network.classes[0].name", "a class needs a name"},
		{"too many", nine, nil, "network.classes", "9 classes are too many: at most 8"},
		{"unknown traffic class", two, []string{"traffic.class=c"}, "traffic.class", `"c" is not a class; use a or b (from network.classes)`},
		{"unknown flow class", two + "traffic: {flows: [{src: 0, dst: 1, class: z}]}\n", nil, "traffic.flows[0].class", `"z" is not a class; use a or b`},
		{"unknown collective class", two + "collective: {op: allreduce, algo: ring, class: z}\n", nil, "collective.class", `"z" is not a class`},
		{"class without classes", "traffic: {class: gold}\n", nil, "traffic.class", `"gold" is not a class: network.classes is empty`},
		{"lossless without pfc", "topology: {fabric: ethernet}\nnetwork:\n  classes: [{name: a, lossless: true}]\n", nil, "network.classes[0].lossless", "true needs a lossless fabric"},
		{"lossy vl", "topology: {fabric: ib}\nnetwork:\n  classes: [{name: a, lossless: false}]\n", nil, "network.classes[0].lossless", "false is not possible on InfiniBand"},
		{"classes at flow level", two + "sim: {fidelity: flow}\n", nil, "network.classes", "2 classes run only at packet level"},
		{"classes with ibcc", "topology: {fabric: ib}\nnetwork:\n  cc: ibcc\n  classes: [{name: a}, {name: b}]\n", nil, "network.classes", "ibcc"},
		{"buffer model", "network: {buffer_model: pooled}\n", nil, "network.buffer_model", `"pooled" is not a buffer model; use static or shared`},
		{"alpha", "network: {buffer_model: shared, dt_alpha: 0}\n", nil, "network.dt_alpha", "0 is not allowed: α is from 0.01 to 64"},
		{"shared on ib", "topology: {fabric: ib}\nnetwork: {buffer_model: shared}\n", nil, "network.buffer_model", "shared works with flow_control none or pfc"},
		{"switch buffer", "network: {buffer_model: shared, switch_buffer: -1}\n", nil, "network.switch_buffer", "is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWith([]byte(tc.doc), "t.yaml", tc.sets)
			require.Error(t, err)
			var found bool
			for _, line := range strings.Split(err.Error(), "\n") {
				if strings.Contains(line, " "+tc.key+": ") && strings.Contains(line, tc.says) {
					found = true
				}
			}
			assert.True(t, found, "%q has no %s error saying %q", err.Error(), tc.key, tc.says)
		})
	}
}

func TestTrafficBesideCollective(t *testing.T) {
	coll := "collective: {op: allreduce, algo: ring, ranks: 4}\n"
	s, err := Parse([]byte(coll), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, PatternNone, s.Traffic.Pattern, "a collective alone runs no traffic")

	s, err = Parse([]byte(coll+"traffic: {pattern: incast, senders: 3, receiver: 8}\n"), "t.yaml")
	require.NoError(t, err, "both written: both run")
	assert.Equal(t, PatternIncast, s.Traffic.Pattern)

	s, err = Parse([]byte(coll+"traffic: {flows: [{src: 5, dst: 6, bytes: 1MiB}]}\n"), "t.yaml")
	require.Error(t, err, "flows without a pattern beside a collective are ambiguous")
	assert.Contains(t, err.Error(), "traffic.pattern: flows cannot run beside a collective unless traffic.pattern is set")

	_, err = Parse([]byte("training: {model: resnet50}\ntraffic: {pattern: incast}\n"), "t.yaml")
	require.Error(t, err, "training still runs alone")
	assert.Contains(t, err.Error(), "cannot run beside training")
}

func TestSharedBufferKeys(t *testing.T) {
	s, err := Parse([]byte("network: {buffer_model: shared, switch_buffer: 16MiB, dt_alpha: 0.5}\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, BufferShared, s.Network.BufferModel)
	assert.Equal(t, 16*unit.MiB, s.Network.SwitchBuffer)
	assert.Equal(t, 0.5, s.Network.DTAlpha)
}
