package main

import "fabriclab/cmd/internal/wasmheap"

// The first 256 MiB of the heap in one memory.grow, not hundreds (each a
// full collection of the page's JavaScript heap; see wasmheap). Computing
// perm-1024 under Node grew the memory 3,631 times without it, 667 with.
func init() { wasmheap.Reserve(256 << 20) }
