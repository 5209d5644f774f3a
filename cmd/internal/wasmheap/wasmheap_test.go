package wasmheap

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

var keep [][]byte

func TestReserve(t *testing.T) {
	var before, after, used runtime.MemStats
	runtime.ReadMemStats(&before)
	Reserve(64 << 20)
	runtime.ReadMemStats(&after)
	// Allocations up to the reservation find memory the heap already has.
	for range 8 {
		keep = append(keep, make([]byte, 4<<20))
	}
	runtime.ReadMemStats(&used)
	keep = nil
	grown := int64(after.Sys) - int64(before.Sys)
	if runtime.GOOS != "js" {
		assert.Less(t, grown, int64(32<<20), "Reserve grew the heap outside js/wasm")
		return
	}
	assert.GreaterOrEqual(t, grown, int64(64<<20), "the memory did not grow by the reservation")
	assert.GreaterOrEqual(t, after.HeapReleased, uint64(60<<20), "the reservation is not counted as released")
	assert.Less(t, int64(used.Sys)-int64(after.Sys), int64(4<<20), "allocating within the reservation grew the memory again")
}
