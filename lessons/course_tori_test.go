package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// TestCourseTori checks what the tori lesson says at every knob position
// (REFERENCE.md, "Tori: TPU ICI").
func TestCourseTori(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	// torus: the formula 2 (N−1)/N V / W = 2.64 ms, W = 2 × 100 GB/s; the
	// run a little above it (a hop per step). The x ring moves the most:
	// a ring of 4 alone on the whole array is most of the reduce-scatter.
	const V, W, N = 256 << 20, 2 * 100e9, 64
	formulaMs := 2 * (N - 1.0) / N * V / W * 1e3
	assert.InDelta(t, 2.64, formulaMs, 0.005)
	torus := stepRun(t, "tori", "torus").Collective
	require.NotNil(t, torus)
	assert.Equal(t, "torus", torus.Algo)
	assert.Greater(t, torus.TimeUs/1e3, formulaMs)
	assert.Less(t, torus.TimeUs/1e3, formulaMs*1.03, "a microsecond per hop on top")
	all := stepRun(t, "tori", "torus", "collective.op=reducescatter").Collective
	x := stepRun(t, "tori", "torus", "collective.op=reducescatter", "topology.dims=[4]").Collective
	share := x.TimeUs / all.TimeUs
	assert.InDelta(t, 16/21.0, share, 0.05, "the x ring: 16 of the 16 + 4 + 1 parts")

	// shape: 2 Σ(d_i − 1) steps; only 4×4×4 under 80 µs (the goal); it has
	// the fewest steps; each position shows its sentence.
	steps := map[string]int{"[64]": 126, "[16,4]": 36, "[8,8]": 28, "[4,4,4]": 18, "[2,4,8]": 22, "[2,2,16]": 34}
	variant := map[string]int{"[64]": 0, "[16,4]": 3, "[8,8]": 3, "[4,4,4]": 1, "[2,4,8]": 2, "[2,2,16]": 3}
	best := stepRun(t, "tori", "shape", "topology.dims=[4,4,4]").Collective
	for dims, n := range steps {
		r := stepRun(t, "tori", "shape", "topology.dims="+dims)
		c := r.Collective
		assert.Equal(t, n, c.Steps, dims)
		assert.GreaterOrEqual(t, c.Steps, best.Steps, "%s: 4×4×4 takes the fewest steps", dims)
		assert.Equal(t, dims == "[4,4,4]", c.TimeUs < 80, "%s: %.1f µs; only 4×4×4 meets the goal", dims, c.TimeUs)
		assert.Equal(t, []int{variant[dims]}, whenShown(t, "tori", "shape", r), dims)
	}
	// "a dimension of 2 … half the rate": 2×4×8 takes fewer steps than 8×8 (22 < 28)
	// but not proportionally less time than 4×4×4's 18.
	two := stepRun(t, "tori", "shape", "topology.dims=[2,4,8]").Collective
	assert.Greater(t, two.TimeUs-best.TimeUs, float64(two.Steps-best.Steps)*1.0, "more than the extra steps' hops")

	// fat-tree: the DGX nodes win the 256 MiB all-reduce with NCCL's own
	// choice, its NVLS tree, though the torus has twice the bisection:
	// 2 × 16 cables × 100 GB/s against 64 NICs × 50 GB/s / 2.
	left, right := compareRun(t, "tori", "fat-tree")
	require.NotNil(t, left.Collective)
	require.NotNil(t, right.Collective)
	assert.Equal(t, "nvlstree", right.Collective.Algo, "NCCL picks its NVLS tree")
	assert.Equal(t, 64, right.Collective.Ranks)
	assert.Equal(t, left.Collective.Bytes, right.Collective.Bytes)
	assert.Less(t, right.Collective.TimeUs, left.Collective.TimeUs, "the DGX nodes finish first")
	assert.InDelta(t, 3.2e12, 2*16*100e9, 1)
	assert.InDelta(t, 1.6e12, 64*50e9/2, 1)

	// small: at 1 MiB the torus wins, in fewer steps; NCCL picks its tree
	// with LL128 (14 µs once, 8.5 µs per network step, 2·log2(8) of them).
	left, right = compareRun(t, "tori", "small")
	assert.Equal(t, "tree", right.Collective.Algo)
	assert.Equal(t, "ll128", right.Collective.Protocol)
	assert.Equal(t, 2*(7+3), right.Collective.Steps, "2·(7 NVLink + log2(8) network) steps")
	assert.Greater(t, right.Collective.TimeUs, 14+6*8.5, "at least its latency")
	assert.Equal(t, int64(1<<20), left.Collective.Bytes)
	assert.Equal(t, int64(1<<20), right.Collective.Bytes)
	assert.Less(t, left.Collective.TimeUs, right.Collective.TimeUs, "the torus finishes first")
	assert.Less(t, left.Collective.Steps, right.Collective.Steps)
	assert.Equal(t, 18, left.Collective.Steps, "the quiz: 18 against 20")
	assert.InDelta(t, 0.5, left.Collective.TimeUs/right.Collective.TimeUs, 0.1, "the torus takes about half as long")
	assert.Less(t, left.Collective.TimeUs/float64(left.Collective.Steps), right.Collective.TimeUs/float64(right.Collective.Steps), "and each of its steps is cheaper")

	// all-to-all: both send to every peer at once (NCCL fits 63 peers in one
	// round); the torus, twice the bisection, in about a quarter of the time.
	left, right = compareRun(t, "tori", "all-to-all")
	for _, c := range []*metrics.Collective{left.Collective, right.Collective} {
		require.NotNil(t, c)
		assert.Equal(t, "alltoall", c.Op)
		assert.Equal(t, "direct", c.Algo, "every peer at once")
		assert.Equal(t, int64(16<<20), c.Bytes)
	}
	assert.InDelta(t, 0.25, left.Collective.TimeUs/right.Collective.TimeUs, 0.05, "the torus in about a quarter of the time")
	// "each NIC carries seven eighths of a GPU's 16 MiB, 14 MiB at about
	// 48 GB/s: some 300 µs": the DGX side is held by its NICs.
	nicBoundUs := 7.0 / 8 * (16 << 20) / 48e9 * 1e6
	assert.InDelta(t, 300, nicBoundUs, 10)
	assert.Greater(t, right.Collective.TimeUs, nicBoundUs)
	assert.Less(t, right.Collective.TimeUs, 1.15*nicBoundUs, "and little else")
}
