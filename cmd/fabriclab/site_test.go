package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The site commands run in cmd/fabriclab-site, built from the source tree:
// its output, messages and exit status come through unchanged.
func TestSiteCommands(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH: the site commands build cmd/fabriclab-site with it")
	}
	code, out, errOut := cli("lessons", "check", "../../lessons/testdata/errors/knob-errors")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "knobs.en.md:29: knob block: key traffic.sendrs: unknown key;")
	assert.Contains(t, errOut, "fabriclab lessons: ../../lessons/testdata/errors/knob-errors have problems (above)")
	assert.NotContains(t, errOut, "exit status", "the child's status is passed on, not reported as an error")

	code, out, errOut = cli("lessons", "check", "../../lessons/testdata/golden")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "../../lessons/testdata/golden: 4 lesson files, 13 steps, 14 knobs: no problems\n", out)

	code, _, errOut = cli("serve", "--nosuchflag")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "flag provided but not defined: -nosuchflag")
}

// Outside a source tree the site commands say where to run them.
func TestSiteCommandsOutsideTree(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []string{"serve", "build", "lessons"} {
		code, _, errOut := cli(c)
		assert.Equal(t, 1, code, c)
		assert.True(t, strings.HasPrefix(errOut, "fabriclab "+c+": run this inside the fabriclab source tree"), errOut)
	}
}

// What a scenario run links: none of the site's packages (their
// initialisation would run at every start) and no cgo.
func TestRunPathImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", ".").Output()
	require.NoError(t, err)
	deps := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, cgo, _ := strings.Cut(line, " ")
		deps[path] = true
		assert.Equal(t, "0", cgo, "%s uses cgo: a plain go build would link the dynamic loader", path)
	}
	require.True(t, deps["fabriclab/sim"])
	for _, p := range []string{"net", "net/http", "html/template", "fabriclab/web", "fabriclab/lessons", "github.com/yuin/goldmark"} {
		assert.False(t, deps[p], "cmd/fabriclab links %s", p)
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
