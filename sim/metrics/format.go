package metrics

import (
	"math"

	"fabriclab/sim/unit"
)

// Round rounds v to digits decimals: reports carry figures, not float noise.
func Round(v float64, digits int) float64 {
	p := math.Pow10(digits) // a table: math.Pow's loop was 100 instructions a call
	return math.Round(v*p) / p
}

// Micros is t in µs to the nanosecond.
func Micros(t unit.Time) float64 { return Round(t.Micros(), 3) }

// Gbps is the rate that moves bytes in t, in Gb/s to three decimals (0 for t ≤ 0).
func Gbps(bytes int64, t unit.Time) float64 {
	if t <= 0 {
		return 0
	}
	return Round(unit.RateOf(unit.Bytes(bytes), t).Gbps(), 3)
}

// KeepEven keeps every other element, from the first: how a series halves its resolution.
func KeepEven[T any](v []T) []T {
	n := 0
	for i := 0; i < len(v); i += 2 {
		v[n] = v[i]
		n++
	}
	return v[:n]
}
