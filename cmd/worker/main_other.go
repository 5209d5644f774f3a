//go:build !js

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "worker: this program runs in a browser's Web Worker; build it with GOOS=js GOARCH=wasm go build ./cmd/worker (fabriclab build does)")
	os.Exit(2)
}
