package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// firstGC is the memory at which deferGC lets the first collection happen:
// the 16k-GPU hierarchical all-reduce (100 MB live at its peak) then makes
// none instead of 13 (a quarter of its CPU time), and peak memory stays far
// under the 1 GiB budget.
const firstGC = 256 << 20

// collectsLate are the commands that run simulations and end: deferGC is for
// them, not for serve's long-lived process.
// (bench sets it case by case.)
var collectsLate = map[string]bool{"run": true, "sweep": true, "nccl-tests": true, "export": true}

// deferGC turns the collector off until the process first holds limit bytes,
// then back to the default (GOGC=100): a run that allocates less (the
// incast: 3 MB) ends without a collection, and a larger one skips the dozen
// it would make while its heap grows from 4 MB. GOGC or GOMEMLIMIT in the environment
// win. done is closed once the default is back.
func deferGC(limit int64) (done <-chan struct{}) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return closed()
	}
	ch := make(chan struct{})
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

// mappedBytes is the memory the limit is held against: all the runtime has
// mapped, less what it returned to the OS.
func mappedBytes() int64 {
	ms := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	return int64(ms[0].Value.Uint64() - ms[1].Value.Uint64())
}

func closed() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}
