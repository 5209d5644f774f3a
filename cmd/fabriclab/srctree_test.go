package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModuleRoot(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(root, "cmd", "fabriclab", "srctree.go"))

	// Another module's go.mod is passed over; outside any tree is an error that says what to do.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fabriclabx\n"), 0o644))
	t.Chdir(dir)
	_, err = moduleRoot()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run this inside the fabriclab source tree")
}

func TestIsFabriclab(t *testing.T) {
	assert.True(t, isFabriclab([]byte("module fabriclab\n\ngo 1.26\n")))
	assert.True(t, isFabriclab([]byte("\nmodule fabriclab")))
	assert.False(t, isFabriclab([]byte("module fabriclabx\n")))
	assert.False(t, isFabriclab([]byte("module other\n")))
}
