// Package wasmheap grows a WebAssembly program's memory in one step at start
// instead of the dozens the Go heap would take as it grows.
//
// Go's js/wasm runtime grows the linear memory (memory.grow) whenever its heap
// needs another 4 MiB or more, and V8 answers every growth with a full
// mark-compact of the JavaScript heap (the detached buffer is external
// memory): 63 of them, 0.47 s, in one `fabriclab bench` under Node.
package wasmheap

// Reserve makes the heap's next n bytes part of the linear memory at once and
// leaves them free, counted as returned to the OS, so that limits on the
// memory in use (runtime/debug.SetMemoryLimit) see only what is used. The
// pages are not touched, so a process's resident memory grows only as the
// heap uses them. Outside js/wasm it does nothing.
func Reserve(n int) { reserve(n) }
