package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 2, run(nil, &stderr))
	assert.Contains(t, stderr.String(), "usage")

	dir := t.TempDir()
	in := filepath.Join(dir, "in.wasm")
	// A module of one function, (i32) → i32, returning 1: nothing to rewrite.
	module := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x06\x01\x60\x01\x7f\x01\x7f" + "\x03\x02\x01\x00" + "\x0a\x06\x01\x04\x00\x41\x01\x0b")
	require.NoError(t, os.WriteFile(in, module, 0o644))
	stderr.Reset()
	out := filepath.Join(dir, "out.wasm")
	require.Equal(t, 0, run([]string{in, out}, &stderr), stderr.String())
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, module, got)
	assert.Contains(t, stderr.String(), "0 of 1 functions rewritten")
	stderr.Reset()
	require.Equal(t, 0, run([]string{"-loops", in, out}, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "0 of 1 functions rewritten")

	require.NoError(t, os.WriteFile(in, []byte("not wasm"), 0o644))
	stderr.Reset()
	assert.Equal(t, 1, run([]string{in, out}, &stderr))
	assert.Contains(t, stderr.String(), "not a WebAssembly module")
}
