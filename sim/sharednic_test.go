package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A node with fewer NICs than GPUs (topology.nics_per_node): each NIC is
// shared by gpus_per_node/nics_per_node GPUs. NCCL's rail rings cross
// between nodes at every GPU, so on 2 nodes the ring all-reduce's busbw is
// bound by a node's NICs together: nics × 48 GB/s (NDR's goodput,
// topology.nic_efficiency), 192 GB/s with 4, where 8 NICs (384) leave
// NVLink the bound (≈ 374). The old model, a NIC per GPU whatever the key,
// gives ≈ 374 for both.
func TestSharedNICsHalveCrossNodeBusBw(t *testing.T) {
	const yaml = `name: shared-nics
topology: {kind: dgx, nodes: 2, fabric: ib}
collective: {op: allreduce, algo: ring, bytes: 1GiB}
`
	busbw := func(t *testing.T, sets ...string) float64 {
		r := run(t, yaml, sets...)
		require.NotNil(t, r.Collective)
		require.Equal(t, 16, r.Collective.Ranks)
		return r.Collective.BusBwGBps
	}
	t.Run("flow", func(t *testing.T) {
		eight := busbw(t, "sim.fidelity=flow")
		four := busbw(t, "sim.fidelity=flow", "topology.nics_per_node=4")
		assert.InDelta(t, 374, eight, 0.03*374, "8 NICs: busbw %.1f", eight)
		assert.InDelta(t, 4*48.0, four, 0.03*4*48, "4 NICs: busbw %.1f against 4 × 48 GB/s", four)
		assert.InDelta(t, 0.5, four/eight, 0.03, "4 NICs over 8: %.3f", four/eight)
		two := busbw(t, "sim.fidelity=flow", "topology.nics_per_node=2")
		assert.InDelta(t, 2*48.0, two, 0.03*2*48, "2 NICs: busbw %.1f against 2 × 48 GB/s", two)
	})
	t.Run("packet", func(t *testing.T) {
		// 64 MiB packet by packet: NCCL's latency per step weighs in, so
		// only the ratio is the NICs' (half, less the steps' fixed cost).
		eight := busbw(t, "collective.bytes=64MiB")
		four := busbw(t, "collective.bytes=64MiB", "topology.nics_per_node=4")
		assert.InDelta(t, 0.55, four/eight, 0.06, "4 NICs over 8 at packet level: %.1f / %.1f", four, eight)
	})
}
