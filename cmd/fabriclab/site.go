package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"fabriclab/cmd/internal/srctree"
)

// siteCommands run in cmd/fabriclab-site, a program of their own: they link
// net/http, html/template and goldmark, whose package initialisation every
// start of fabriclab would otherwise pay (1 ms of a 10 ms scenario run; with
// a plain go build, net also brings in cgo and the dynamic loader). They
// need the source tree anyway (serve and build compile cmd/viz from it), so
// fabriclab builds the program from there, as go run would, and runs it.
var siteCommands = map[string]bool{"serve": true, "build": true, "lessons": true}

// siteCommand builds cmd/fabriclab-site (go build skips the link when the
// binary is up to date) and runs args with it: in place of this process when
// it writes to the process's own stdout and stderr (so Ctrl-C and the exit
// status are the server's own), else as a child writing to stdout and stderr.
func siteCommand(args []string, stdout, stderr io.Writer) int {
	bin, err := buildSite(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fabriclab %s: %v\n", args[0], err)
		return 1
	}
	if stdout == io.Writer(os.Stdout) && stderr == io.Writer(os.Stderr) {
		execSite(bin, args) // returns only where the process cannot be replaced
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "fabriclab %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// buildSite builds cmd/fabriclab-site from the source tree the command runs
// in, into the user's cache (one binary per tree), and returns its path.
func buildSite(stderr io.Writer) (string, error) {
	root, err := srctree.Root()
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	h := fnv.New64a() // not crypto/sha256: its FIPS module's initialisation runs at every start
	h.Write([]byte(root))
	dir := filepath.Join(base, "fabriclab", fmt.Sprintf("site-%016x", h.Sum64()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "fabriclab-site")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/fabriclab-site")
	build.Dir, build.Stdout, build.Stderr = root, stderr, stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("building cmd/fabriclab-site in %s: %w (serve, build and lessons need the Go toolchain, as go run does)", root, err)
	}
	return bin, nil
}
