package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunRefusesControlCharacters holds issue 9's ANSI escapes in a
// scenario's name away from the terminal: the run is refused with the name
// escaped, and nothing raw reaches stdout or stderr.
func TestRunRefusesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ansi.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: \"\\e[2J\\e[31mred\"\ntopology: {hosts: 2}\n"), 0o644))
	for _, args := range [][]string{
		{"run", path},
		{"run", "incast", "--set", "name=\x1b[2Jred"},
		{"run", "incast", "--set", "network.classes=[{name: \"\\e[31m\"}]"},
	} {
		code, out, errOut := cli(args...)
		assert.NotEqual(t, 0, code, "%q", args)
		assert.Empty(t, out, "%q", args)
		assert.Contains(t, errOut, `\x1b[`, "%q: the name is shown escaped", args)
		assert.Contains(t, errOut, "control character", "%q", args)
		assert.NotContains(t, errOut, "\x1b", "%q: no raw escape reaches the terminal", args)
	}
}

// TestRunSaysWhatFaultsCost: run prints each fault and the delay against the
// run without faults; sweep adds a fault_delay_us column.
func TestRunSaysWhatFaultsCost(t *testing.T) {
	code, out, errOut := cli("run", "link-down", "--set", "sim.fidelity=flow")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "faults: run 374.0 µs, 174.0 µs without faults: they cost 200.0 µs")
	assert.Contains(t, out, "[0] link_down leaf0→spine0 from 20.0 µs for good; rerouted at 220.0 µs; 1 flows waited 200.0 µs in all")
	code, out, errOut = cli("sweep", "link-down", "--set", "sim.fidelity=flow", "--vary", "network.reroute_delay=100us,300us")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "fault_delay_us")
	// rerouted at 120 µs, h0's flow shares spine 1 with h1's until 174 µs: more than 100 µs late
	assert.Regexp(t, `100us .* 148\.8\n`, out)
	assert.Regexp(t, `300us .* 300\.0\n`, out, "rerouted after h1's flow ended: exactly the delay")
}
