package wasmheap

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

var keep [][]byte

func TestReservedAtInit(t *testing.T) {
	var start, used runtime.MemStats
	runtime.ReadMemStats(&start)
	// Allocations within the reservation find memory the heap already has.
	for range 8 {
		keep = append(keep, make([]byte, 4<<20))
	}
	runtime.ReadMemStats(&used)
	keep = nil
	if runtime.GOOS != "js" {
		assert.Less(t, start.Sys, uint64(256<<20), "memory reserved outside js/wasm")
		return
	}
	assert.GreaterOrEqual(t, start.Sys, uint64(256<<20), "the memory did not grow by the reservation")
	assert.GreaterOrEqual(t, start.HeapReleased, uint64(240<<20), "the reservation is not counted as released")
	assert.Less(t, int64(used.Sys)-int64(start.Sys), int64(4<<20), "allocating within the reservation grew the memory again")
}
