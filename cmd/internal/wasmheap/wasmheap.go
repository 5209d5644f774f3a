// Package wasmheap grows a WebAssembly program's memory in one step at start
// instead of the dozens the Go heap would take as it grows.
//
// Go's js/wasm runtime grows the linear memory (memory.grow) whenever its heap
// grows, 512 KiB at a time, and V8 answers every growth with a full
// mark-compact of the JavaScript heap: one `fabriclab bench` under Node grew
// it 163 times, with 63 mark-compacts taking 0.47 s.
package wasmheap

// Reserve makes the heap's next n bytes part of the linear memory at once and
// leaves them free, counted as returned to the OS, so that limits on the
// memory in use (runtime/debug.SetMemoryLimit) see only what is used. The
// pages are not touched, so a process's resident memory grows only as the
// heap uses them. Outside js/wasm it does nothing.
func Reserve(n int) { reserve(n) }
