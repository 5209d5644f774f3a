package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Outside a source tree serve and build say where to run them (they compile
// cmd/viz from it); lessons check reads the lessons built into the binary.
func TestSiteCommandsOutsideTree(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []string{"serve", "build"} {
		code, _, errOut := cli(c)
		assert.Equal(t, 1, code, c)
		assert.True(t, strings.HasPrefix(errOut, "fabriclab "+c+": run this inside the fabriclab source tree"), errOut)
	}
	code, out, errOut := cli("lessons", "check")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "the shipped lessons: ")
}

// serve, build and lessons run in this process: their flag errors come back
// as the other commands' do.
func TestSiteCommandFlags(t *testing.T) {
	for _, c := range []string{"serve", "build", "lessons"} {
		code, out, errOut := cli(c, "--nosuchflag")
		assert.Equal(t, 1, code, c)
		assert.Empty(t, out, c)
		assert.Contains(t, errOut, "flag provided but not defined: -nosuchflag", c)
	}
}

// The binary starts no goroutine to follow CPU limit changes (main.go's
// //go:debug): a thread woken and put back to sleep at every start.
func TestDefaultGODEBUG(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command("go", "list", "-f", "{{.DefaultGODEBUG}}", ".").Output()
	require.NoError(t, err)
	assert.Contains(t, strings.Split(strings.TrimSpace(string(out)), ","), "updatemaxprocs=0")
}
