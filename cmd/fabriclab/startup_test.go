package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// Every start of fabriclab initialises every package it links, the site's
// included: fabriclab's own packages leave their work (templates, lessons,
// regular expressions) to first use, so that a run does not pay for serve.
func TestPackageInitIsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "fabriclab")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd := exec.Command(bin, "scenarios")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	// init fabriclab/web @2.1 ms, 0.071 ms clock, 3816 bytes, 20 allocs
	line := regexp.MustCompile(`(?m)^init (\S+) @.*, (\d+) bytes, \d+ allocs$`)
	seen := map[string]bool{}
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		if !strings.HasPrefix(m[1], "fabriclab/") {
			continue
		}
		seen[m[1]] = true
		bytes, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		assert.Less(t, bytes, 64<<10, "%s allocates %d bytes at every start: do that work on first use (sync.OnceValue)", m[1], bytes)
	}
	for _, p := range []string{"fabriclab/web", "fabriclab/lessons", "fabriclab/render"} {
		assert.True(t, seen[p], "the trace lists %s", p)
	}
}
