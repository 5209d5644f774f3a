package main

import (
	"time"

	"fabriclab/cmd/internal/wasmheap"
)

// memoryGrowth is what wasmheap.GrowAhead did, for the page's stats.
type memoryGrowth struct {
	grows   int
	bytes   uint64
	longest time.Duration
}

// grow runs wasmheap.GrowAhead in the browser, up to its heap limit (a desktop
// window has none, and its memory is the OS's).
func (g *Game) grow() {
	if heapLimit == 0 {
		return
	}
	t0 := time.Now()
	if n := wasmheap.GrowAhead(heapLimit); n > 0 {
		g.memory.grows++
		g.memory.bytes += n
		g.memory.longest = max(g.memory.longest, time.Since(t0))
	}
}
