package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Round's table of powers gives what math.Pow gave, bit for bit: every
// figure in a report (and every golden) goes through it.
func TestRoundAsWithPow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for digits := -8; digits <= 8; digits++ {
		p := math.Pow(10, float64(digits))
		for range 2000 {
			v := r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-6))
			require.Equal(t, math.Float64bits(math.Round(v*p)/p), math.Float64bits(Round(v, digits)), "Round(%v, %d)", v, digits)
		}
	}
}
