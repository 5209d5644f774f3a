package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDirectJumps(t *testing.T) {
	// A module of one function, (i32) → i32, in Go's shape: a dispatch loop
	// over two segments, the first jumping forward to the second.
	goShaped := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x06\x01\x60\x01\x7f\x01\x7f" + "\x03\x02\x01\x00" +
		"\x0a\x1b\x01\x19\x00" +
		"\x03\x40\x02\x40\x02\x40\x20\x00\x0e\x01\x00\x01\x0b" + // loop, 2 blocks, br_table
		"\x41\x01\x21\x00\x0c\x01\x0b" + // segment 0: jump to segment 1
		"\x00\x0b\x00\x0b") // segment 1; the loop's end; unreachable; end
	out := directJumps(goShaped)
	assert.NotEqual(t, goShaped, out)
	assert.Less(t, len(out), len(goShaped), "the jump is a br now")

	malformed := []byte("\x00asm\x01\x00\x00\x00\x0a\x05")
	assert.Equal(t, malformed, directJumps(malformed), "served as Go built it")
}
