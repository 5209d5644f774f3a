package main

import "fabriclab/cmd/internal/wasmheap"

// The bench's largest case (dp-llama3-8b-1024) maps 208 MiB: grown in one
// step, not fifty (each a full collection of V8's heap; see wasmheap).
func init() { wasmheap.Reserve(256 << 20) }
