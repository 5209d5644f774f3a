//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The worker, as the browser gets it, links no Ebitengine, renderer,
// lessons, fonts or images: what makes it a fraction of viz.wasm.
func TestWorkerLinksNoCanvas(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "fabriclab/playback/framewire", "the list is the worker's")
	for _, d := range deps {
		for _, banned := range []string{"github.com/hajimehoshi/ebiten", "fabriclab/render", "fabriclab/lessons", "fabriclab/assets", "golang.org/x/image"} {
			assert.False(t, d == banned || strings.HasPrefix(d, banned+"/"), "cmd/worker links %s (under %s)", d, banned)
		}
	}
}
