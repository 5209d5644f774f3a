package main

import "fabriclab/cmd/internal/wasmheap"

// The bench's largest case (dp-llama3-8b-1024) maps 208 MiB: grown in one
// step (bench grew it 163 times, 25 with this; each growth a full collection
// of V8's heap, see wasmheap).
func init() { wasmheap.Reserve(256 << 20) }
