package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var garbage []byte

// gcState reads the collections so far and the memory the limit is held
// against (all mapped, less what was returned to the OS).
func gcState() (cycles, mapped uint64) {
	ms := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	return ms[0].Value.Uint64(), ms[1].Value.Uint64() - ms[2].Value.Uint64()
}

// TestDeferGC: no collection below the limit, one past it, and then the
// collector is back at GOGC=100.
func TestDeferGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Cleanup(func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	runtime.GC()
	before, mapped := gcState()
	done := deferGC(int64(mapped) + 48<<20)
	for range 16 {
		garbage = make([]byte, 1<<20)
	}
	n, _ := gcState()
	require.Equal(t, before, n, "16 MB of garbage, below the limit: no collection")
	assert.Equal(t, -1, debug.SetGCPercent(-1), "the collector is off until then")

	// Past the limit: a collection, and (one or two later, if the sentinel was
	// made while one ran) its finalizer.
	restored := false
	for i := 0; i < 2048 && !restored; i++ {
		garbage = make([]byte, 1<<20)
		select {
		case <-done:
			restored = true
		default:
			runtime.Gosched()
		}
	}
	n, _ = gcState()
	require.Greater(t, n, before, "2 GB of garbage past the limit and no collection")
	require.True(t, restored, "2 GB of garbage and the finalizer has not run")
	assert.Equal(t, 100, debug.SetGCPercent(100), "back to GOGC=100")
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))
}

// TestDeferGCEnvironment: GOGC set by the user is left alone.
func TestDeferGCEnvironment(t *testing.T) {
	t.Setenv("GOGC", "200")
	before := debug.SetGCPercent(-1)
	debug.SetGCPercent(before)
	select {
	case <-deferGC(1 << 20):
	default:
		t.Fatal("deferGC changed the collector under GOGC=200")
	}
	assert.Equal(t, before, debug.SetGCPercent(before), "unchanged")
}

// TestBenchGC: bench times each case with the collector deferred, as run has
// it, and leaves the default behind.
func TestBenchGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	var out, errs strings.Builder
	require.Equal(t, 0, run([]string{"bench", "--only", "incast"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "incast")
	assert.Equal(t, 100, debug.SetGCPercent(100), "back to GOGC=100")
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))
}
