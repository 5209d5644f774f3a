package wasmheap

import (
	"runtime/debug"
	"syscall/js"
)

func init() {
	for _, mib := range []int{512, 256} {
		if canGrow(mib) {
			reserve(mib << 20)
			return
		}
	}
}

var sink []byte

// reserve makes the heap's next n bytes part of the linear memory at once
// and leaves them free, counted as returned to the OS, so that limits on the
// memory in use (debug.SetMemoryLimit) see only what is used. The pages are
// not touched: resident memory grows only as the heap uses them.
func reserve(n int) {
	sink = make([]byte, n) // the heap grows by n in one memory.grow
	sink = nil
	debug.FreeOSMemory() // collected, its pages free and released
}

// canGrow reports whether the engine gives a WebAssembly memory of mib MiB
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
