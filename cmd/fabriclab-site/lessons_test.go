package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// lessons check reports every problem of a directory with file:line and the
// fix, and exits 1; good lessons pass with a count.
func TestLessonsCheck(t *testing.T) {
	code, out, errOut := cli("lessons", "check", "../../lessons/testdata/errors/knob-errors")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "knobs.en.md:29: knob block: key traffic.sendrs: unknown key;")
	assert.Contains(t, errOut, "knobs.en.md:77: knob block: range: 4096..1024 runs backwards;")
	assert.Greater(t, strings.Count(errOut, "knobs.en.md:"), 20, "every problem, not the first")

	code, out, errOut = cli("lessons", "check", "../../lessons/testdata/golden")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "../../lessons/testdata/golden: 4 lesson files, 13 steps, 14 knobs: no problems")

	code, out, _ = cli("lessons", "check")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "the shipped lessons: ")

	code, _, errOut = cli("lessons", "check", "nonexistent")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "nonexistent is not a directory of lessons; give")
	code, _, errOut = cli("lessons")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "usage: fabriclab lessons check [DIR]")
}
