package main

// The memory grown once at start (bench grew it 163 times, 25 with this;
// each growth a full collection of V8's heap): see wasmheap.
import _ "fabriclab/cmd/internal/wasmheap"
