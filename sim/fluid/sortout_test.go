package fluid

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSortOut: Out order for a few links (insertion) and for many (SortFunc).
func TestSortOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &router{outPos: make([]int32, 100)}
	for i, p := range rng.Perm(len(r.outPos)) {
		r.outPos[i] = int32(p)
	}
	for n := range 41 {
		c := make([]int32, 0, n)
		for _, l := range rng.Perm(len(r.outPos))[:n] {
			c = append(c, int32(l))
		}
		want := slices.Clone(c)
		slices.SortFunc(want, func(a, b int32) int { return int(r.outPos[a] - r.outPos[b]) })
		r.sortOut(c)
		assert.Equal(t, want, c, "%d links", n)
	}
}
