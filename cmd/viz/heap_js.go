package main

import (
	"syscall/js"

	"fabriclab/cmd/internal/wasmheap"
)

// The first 512 MiB of the heap in one memory.grow, not a thousand (the
// heap grows 512 KiB at a time, each a full collection of the page's
// JavaScript heap; see wasmheap): alltoall-moe computed under Node in 6.2 s,
// not 8.5 (V8's mark-compacts 896 → 202). 256 MiB where the browser cannot
// give 512, none where it cannot give that: a failed growth would end the
// program.
func init() {
	for _, mib := range []int{512, 256} {
		if canGrow(mib) {
			wasmheap.Reserve(mib << 20)
			return
		}
	}
}

// canGrow reports whether the browser gives a WebAssembly memory of mib MiB
// (64 KiB pages), trying one of its own.
func canGrow(mib int) (ok bool) {
	defer func() {
		if recover() != nil { // a RangeError from the constructor
			ok = false
		}
	}()
	js.Global().Get("WebAssembly").Get("Memory").New(map[string]any{"initial": mib * 16})
	return true
}
