package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// firstGC is the heap at which deferGC lets the first collection happen.
const firstGC = 64 << 20

// deferGC turns the collector off until the process first holds limit bytes,
// then back to the default (GOGC=100): a small run (the incast allocates
// 3 MB) ends without a collection, and a large one skips the dozen it would
// make while its heap grows from 4 MB. GOGC or GOMEMLIMIT in the environment
// win. done is closed once the default is back.
func deferGC(limit int64) (done <-chan struct{}) {
	ch := make(chan struct{})
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		close(ch)
		return ch
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	// The first collection finds the sentinel unreachable and runs its finalizer.
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		close(ch)
	})
	return ch
}

// gcSentinel holds a pointer so that it is an object of its own (the tiny
// allocator packs small pointer-free ones together, and finalizes them late).
type gcSentinel struct{ _ *int }
