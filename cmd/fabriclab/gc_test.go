package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var garbage []byte

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
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC

	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	done := deferGC(int64(mem.Sys) + 48<<20)
	for range 16 {
		garbage = make([]byte, 1<<20)
	}
	runtime.ReadMemStats(&ms)
	require.Equal(t, before, ms.NumGC, "16 MB of garbage, below the limit: no collection")
	assert.Equal(t, -1, debug.SetGCPercent(-1), "the collector is off until then")

	for range 128 {
		garbage = make([]byte, 1<<20)
	}
	<-done
	runtime.ReadMemStats(&ms)
	assert.Greater(t, ms.NumGC, before)
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
