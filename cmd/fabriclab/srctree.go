package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
)

// moduleRoot is the fabriclab source tree the command runs in (serve and
// build compile cmd/viz from it): the nearest directory at or above the
// working directory whose go.mod declares module fabriclab.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && isFabriclab(data) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run this inside the fabriclab source tree: serve and build compile the site's WebAssembly (cmd/viz) from it")
		}
		dir = parent
	}
}

// isFabriclab reports whether a go.mod starts by declaring module fabriclab
// (not fabriclabx).
func isFabriclab(gomod []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(gomod), []byte("module fabriclab"))
	return ok && (len(rest) == 0 || rest[0] == '\n' || rest[0] == '\r' || rest[0] == ' ' || rest[0] == '\t')
}
