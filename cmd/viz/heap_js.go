package main

// The memory grown once at start: alltoall-moe computed under Node in 6.2 s,
// not 8.5 (V8's mark-compacts 896 → 202); see wasmheap.
import _ "fabriclab/cmd/internal/wasmheap"
