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
