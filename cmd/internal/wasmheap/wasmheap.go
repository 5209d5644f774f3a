// Package wasmheap grows a WebAssembly program's memory in one step at start
// instead of the hundreds of steps the Go heap would take as it grows:
// import it for that (a blank import; it does nothing outside js/wasm).
// Past that, GrowAhead grows it a large step at a time as the heap needs.
//
// Go's js/wasm runtime grows the linear memory (memory.grow) whenever its heap
// grows, 512 KiB at a time, and V8 answers every growth with a full
// mark-compact of the JavaScript heap: one `fabriclab bench` under Node grew
// it 163 times, with 63 mark-compacts taking 0.47 s.
//
// Its init reserves 512 MiB where the JavaScript engine gives a
// WebAssembly.Memory that large, else 256 MiB, else nothing (a failed growth
// would end the program). It runs early, before the packages whose paths
// sort after it (Go initializes packages in import-path order): the block
// must find fresh memory, for pages freed before it would make the runtime
// zero all of it, touching every page.
package wasmheap
