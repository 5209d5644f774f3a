package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ringBusBw runs hierarchical-allreduce's cluster (8 × H100 per node, 8 ×
// 400G NDR rails, flow level) with a ring all-reduce.
func ringBusBw(t *testing.T, nodes int, bytes, routing string) float64 {
	t.Helper()
	r := builtin(t, "hierarchical-allreduce", fmt.Sprintf("topology.nodes=%d", nodes), "collective.algo=ring",
		"collective.bytes="+bytes, "network.routing="+routing)
	require.NotNil(t, r.Collective)
	require.Equal(t, 8*nodes, r.Collective.Ranks)
	return r.Collective.BusBwGBps
}

// REFERENCE.md, multi-node collectives, "8 × H100, 8 × 400G, large
// messages": NCCL's rings reach ≈ 370–390 GB/s busbw from 2 to 16+ nodes.
// Its rings stay on their rails, so the routing of the spines does not
// matter (3 nodes: the hop back to node 0 crosses rails, as in NCCL).
func TestMultiNodeRingMatchesNCCL(t *testing.T) {
	for _, nodes := range []int{2, 3, 4, 8, 16, 32} {
		var got []float64
		for _, routing := range []string{"static", "ecmp", "adaptive"} {
			b := ringBusBw(t, nodes, "8GiB", routing)
			assert.GreaterOrEqual(t, b, 360.0, "%d nodes, %s", nodes, routing)
			assert.LessOrEqual(t, b, 392.0, "%d nodes, %s", nodes, routing)
			got = append(got, b)
		}
		for _, b := range got[1:] {
			assert.InEpsilon(t, got[0], b, 0.02, "%d nodes: static %.1f against %v", nodes, got[0], got)
		}
	}
}

// The single node keeps its calibration (REFERENCE.md, "H100 8-GPU ring
// all-reduce": ≈ 370 GB/s).
func TestSingleNodeRingKeepsCalibration(t *testing.T) {
	assert.InEpsilon(t, 370, ringBusBw(t, 1, "1GiB", "ecmp"), 0.03)
}
