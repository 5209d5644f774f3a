package assets

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMissing(t *testing.T) {
	pageFonts(t)
	assert.Empty(t, Missing("ECMP vs Adaptive routing: 412 µs × 2.1"))
	assert.Empty(t, Missing("主机交换机，（）"), "the CJK subset draws its own characters")
	assert.Equal(t, []rune("仅"), Missing("仅 PFC 仅"), "a character outside the subset, once")
}
