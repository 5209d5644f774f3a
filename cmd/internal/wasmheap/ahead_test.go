package wasmheap

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The memory grows a step at a time, only once the heap's free pages run
// low (a block in free pages would grow nothing), and never past the limit.
func TestGrowBy(t *testing.T) {
	const limit = 1 << 30
	assert.Equal(t, uint64(growStep), growBy(100<<20, growLow-1, limit), "free pages low")
	assert.Zero(t, growBy(100<<20, growLow, limit), "enough free")
	assert.Zero(t, growBy(limit-growStep+1, 0, limit), "at the limit")
	assert.Equal(t, uint64(growStep), growBy(limit-growStep, 0, limit), "up to it")
}
