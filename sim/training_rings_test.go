package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ZeRO-1 on 2 × 8 H100 with training.algo: ring reduce-scatters and
// all-gathers on NCCL's rail-aligned rings (REFERENCE.md, multi-node
// collectives: ring shape): no hop between nodes climbs to a spine, so static
// routing does as well as adaptive, and the rings wait no longer than the
// two-stage hierarchical layout (before: 1,053 ms exposed against 63 ms).
func TestShardedTrainingOnRailRings(t *testing.T) {
	run := func(sets ...string) float64 {
		r := builtin(t, "dp-llama3-8b-1024", append([]string{"topology.nodes=2", "training.sharding=zero1", "training.batch=2048"}, sets...)...)
		require.NotNil(t, r.Training)
		return r.Training.ExposedCommUs
	}
	ring := run("training.algo=ring", "network.routing=static")
	adaptive := run("training.algo=ring", "network.routing=adaptive")
	hier := run("training.algo=hierarchical")
	assert.InEpsilon(t, adaptive, ring, 0.02, "static %.0f µs, adaptive %.0f µs", ring, adaptive)
	assert.LessOrEqual(t, ring, hier, "rings %.0f µs, hierarchical %.0f µs", ring, hier)
}
