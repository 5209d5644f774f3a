package wasmheap

import "runtime/debug"

var sink []byte

func reserve(n int) {
	// One allocation: the heap grows the memory by n in one memory.grow.
	sink = make([]byte, n)
	sink = nil
	// Collected, and its pages marked free and released.
	debug.FreeOSMemory()
}
