package web

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

// BuildSite compiles cmd/viz (the canvas) and cmd/worker (the simulation, run
// in a Web Worker) from the source tree at root to WebAssembly, renders the
// lessons and writes the static site to out with precompressed twins.
//
// best asks for the smallest files (brotli quality 11: about a minute more).
func BuildSite(root, out string, log io.Writer, best bool) error {
	start := time.Now()
	if err := CheckOut(out); err != nil { // before a minute of compiling
		return err
	}
	st := newStages(log, 4)
	var ls []*lessons.Lesson
	err := st.run("reading lessons", "running the scenarios their figures quote", func() (made string, err error) {
		if ls, err = lessons.Load(lessons.Content()); err != nil {
			return "", fmt.Errorf("lessons:\n%w", err)
		}
		return fmt.Sprintf("%d pages", len(ls)), nil
	})
	if err != nil {
		return err
	}
	var wasm, worker, execJS []byte
	err = st.run("compiling WebAssembly", "cmd/viz and cmd/worker; a first build on a cold machine takes minutes", func() (string, error) {
		if wasm, err = compileWASM(root, "./cmd/viz", vizBuildFlags); err != nil {
			return "", err
		}
		if worker, err = compileWASM(root, "./cmd/worker", workerBuildFlags); err != nil {
			return "", err
		}
		goroot, err := goEnv("GOROOT")
		if err != nil {
			return "", err
		}
		if execJS, err = os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")); err != nil {
			return "", fmt.Errorf("reading wasm_exec.js from the Go installation: %w", err)
		}
		return fmt.Sprintf("viz.wasm %.1f MiB, worker.wasm %.1f MiB", float64(len(wasm))/(1<<20), float64(len(worker))/(1<<20)), nil
	})
	if err != nil {
		return err
	}
	var site map[string][]byte
	err = st.run("rendering pages", "", func() (made string, err error) {
		site, err = Site(Inputs{Lessons: ls, Scenarios: scenario.Builtins(), VizWASM: wasm, WorkerWASM: worker, WasmExec: execJS})
		return fmt.Sprintf("%d files", len(site)), err
	})
	if err != nil {
		return err
	}
	quality := "gzip and brotli 9"
	if best {
		quality = "gzip and brotli 11: about a minute"
	}
	err = st.run("compressing and writing", quality, func() (string, error) {
		return out, writeSite(out, site, best, st.share("compressed"))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "site: %d files in %s (%.1fs)\n", len(site), out, time.Since(start).Seconds())
	return nil
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w (is Go installed and on PATH?)", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// vizBuildFlags build cmd/viz for the browser: stripped of symbols and debug
// information (a panic still names its functions), and with the webfonts tag,
// so that the fonts are files of the site (static/fonts), not data in the
// WebAssembly.
var vizBuildFlags = []string{"-trimpath", "-tags=webfonts", "-ldflags=-s -w"}

// workerBuildFlags build cmd/worker likewise (it draws nothing: no fonts).
var workerBuildFlags = []string{"-trimpath", "-ldflags=-s -w"}

// compileWASM builds the command pkg for the browser with flags.
func compileWASM(root, pkg string, flags []string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "fabriclab-wasm")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "out.wasm")
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", out, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("compiling %s to WebAssembly: %w\n%s", pkg, err, stderr.String())
	}
	return os.ReadFile(out)
}
