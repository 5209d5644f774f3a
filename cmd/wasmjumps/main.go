// Command wasmjumps rewrites a Go-built WebAssembly module so that its
// functions jump forward straight to their targets (package web/wasmjumps),
// as the site build does to viz.wasm; -loops makes jumps back direct too:
//
//	GOOS=js GOARCH=wasm go build -o fl.wasm ./cmd/fabriclab
//	go run ./cmd/wasmjumps fl.wasm fl.wasm
package main

import (
	"fmt"
	"io"
	"os"

	"fabriclab/web/wasmjumps"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) int {
	rewrite := wasmjumps.Rewrite
	if len(args) > 0 && args[0] == "-loops" {
		rewrite, args = wasmjumps.RewriteLoops, args[1:]
	}
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: wasmjumps [-loops] IN.wasm OUT.wasm (OUT may be IN)")
		return 2
	}
	in, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	out, st, err := rewrite(in)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", args[0], err)
		return 1
	}
	if err := os.WriteFile(args[1], out, 0o644); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stderr, "%s: %d of %d functions rewritten; jumps: %d forward and %d back made direct, %d left to the dispatch; %d → %d bytes\n",
		args[1], st.Rewritten, st.Funcs, st.Forward, st.Loops, st.Dispatch, len(in), len(out))
	return 0
}
