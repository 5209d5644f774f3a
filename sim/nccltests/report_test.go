package nccltests

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/sim/unit"
)

// Parting is the size whose ratio is furthest from 1, either way; within
// the healthy band everywhere, the largest size, and the curves do not
// part; none without a ratio.
func TestParting(t *testing.T) {
	lines := func(ratios ...float64) Report {
		var r Report
		for i, x := range ratios {
			r.Lines = append(r.Lines, Line{Size: unit.Bytes(1024 << (3 * i)), Ratio: x})
		}
		return r
	}
	for _, c := range []struct {
		name   string
		rep    Report
		want   unit.Bytes
		parted bool
	}{
		{"half from the middle", lines(0.95, 0.9, 0.5, 0.55), 1024 << 6, true},
		{"faster at the top", lines(0.9, 1.0, 1.2, 1.6), 1024 << 9, true},
		{"slow small messages", lines(0.3, 0.9, 0.97, 0.98), 1024, true},
		{"healthy: the largest size", lines(0.88, 0.96, 0.97, 0.91, 0), 1024 << 9, false},
		{"no ratio", lines(0, 0), 0, false},
		{"none", Report{}, 0, false},
	} {
		at, parted := c.rep.Parting()
		assert.Equal(t, c.want, at, c.name)
		assert.Equal(t, c.parted, parted, c.name)
	}
}
