package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allToAllBusBw runs alltoall-moe (8 × H100 DGX nodes, 8 × 400G rails,
// 128 MiB) on nodes nodes with sets on top.
func allToAllBusBw(t *testing.T, nodes int, sets ...string) float64 {
	t.Helper()
	r := builtin(t, "alltoall-moe", append([]string{fmt.Sprintf("topology.nodes=%d", nodes)}, sets...)...)
	require.NotNil(t, r.Collective)
	require.Equal(t, 8*nodes, r.Collective.Ranks)
	return r.Collective.BusBwGBps
}

// REFERENCE.md, "PXN and all-to-all (issue 26)": with PXN an all-to-all
// across N nodes is bound by one NIC per GPU, algbw = B·N/(N−1) and busbw =
// algbw·(n−1)/n, B the NIC's goodput (NDR 48.0, RoCE 47.35 GB/s): 90.0 /
// 62.0 / 54.0 GB/s on InfiniBand at 2 / 4 / 8 nodes. The traffic stays on its
// rail, so static routing does as well as adaptive.
func TestPXNAllToAllIsBoundByOneNIC(t *testing.T) {
	for _, tc := range []struct {
		fabric string
		nic    float64 // B, GB/s
	}{{"ib", 48.0}, {"roce", 47.35}} {
		for _, nodes := range []int{2, 4, 8} {
			n, N := float64(8*nodes), float64(nodes)
			bound := tc.nic * N / (N - 1) * (n - 1) / n
			for _, routing := range []string{"static", "adaptive"} {
				b := allToAllBusBw(t, nodes, "topology.fabric="+tc.fabric, "sim.fidelity=flow", "network.routing="+routing)
				assert.InDelta(t, bound, b, 0.04*bound, "%s, %d nodes, %s: busbw %.1f against %.1f", tc.fabric, nodes, routing, b, bound)
			}
		}
	}
}

// Packet by packet, chunk by chunk, PXN keeps most of the bound (each
// pipeline piece pays its steps' latency).
func TestPXNAllToAllPacketLevel(t *testing.T) {
	b := allToAllBusBw(t, 2, "network.routing=static")
	bound := 47.35 * 2 * 15.0 / 16
	assert.GreaterOrEqual(t, b, 0.88*bound)
	assert.LessOrEqual(t, b, bound)
}

// REFERENCE.md, "PXN and all-to-all", "static routing across rails":
// without PXN (collective.pxn: false, NCCL_PXN_DISABLE=1) the data crosses
// rails and spines. Static d-mod-k numbers the GPUs rail by rail, so one
// rail's destinations spread over every spine and static does as well as
// adaptive routing; ECMP's hash collides (the MoE lesson's routing step).
// Addressed by endpoint ID instead, every flow to rail j's GPUs would share
// one spine: 53 / 18 GB/s.
func TestAllToAllWithoutPXNCrossesSpines(t *testing.T) {
	for _, nodes := range []int{2, 4} {
		static := allToAllBusBw(t, nodes, "collective.pxn=false", "network.routing=static", "sim.fidelity=flow")
		adaptive := allToAllBusBw(t, nodes, "collective.pxn=false", "network.routing=adaptive", "sim.fidelity=flow")
		ecmp := allToAllBusBw(t, nodes, "collective.pxn=false", "network.routing=ecmp", "sim.fidelity=flow")
		assert.InEpsilon(t, adaptive, static, 0.02, "%d nodes: static %.1f, adaptive %.1f", nodes, static, adaptive)
		assert.Less(t, ecmp, 0.9*adaptive, "%d nodes: ECMP %.1f, adaptive %.1f", nodes, ecmp, adaptive)
	}
}
