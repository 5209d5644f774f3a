package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

// TestResolve: a built-in with sets becomes YAML that parses to the same
// scenario as the built-in with the sets, comments kept.
func TestResolve(t *testing.T) {
	data, ok := Builtin("incast")
	require.True(t, ok)
	sets := []string{"traffic.bytes=4MiB", "network.cc=dcqcn", "sim.sample_interval=5us", "traffic.flows=[{src: 0, dst: 8}]", "traffic.pattern=flows",
		"traffic.senders=", "traffic.receiver="}
	out, err := Resolve(data, "builtin/incast.yaml", sets)
	require.NoError(t, err)
	golden.Equal(t, "testdata/resolve-incast.yaml", out)
	want, err := ParseWith(data, "x", sets)
	require.NoError(t, err)
	got, err := Parse(out, "x")
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, string(out), "# Eight senders overwhelm one receiver", "the comments stay")
	assert.NotContains(t, string(out), "senders:", "an empty set removes the key")

	same, err := Resolve(data, "x", nil)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(same), "without sets, the file itself")

	_, err = Resolve(data, "x", []string{"traffic.senders"})
	assert.ErrorContains(t, err, "--set traffic.senders: expected key.path=value")
	_, err = Resolve([]byte("a: [1,\n"), "doc.yaml", nil)
	assert.ErrorContains(t, err, "doc.yaml:")
	_, err = Resolve([]byte("- 1\n"), "doc.yaml", nil)
	assert.ErrorContains(t, err, "the top level must be keys")
}
