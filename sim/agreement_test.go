package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/fluid"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// REFERENCE.md golden scenario 1 in full: 1 GiB ring all-reduce on 8 GPUs over
// ideal NVLink 4 (450 GB/s, α = 0): T = 2·7/8·2^30/450e9 = 4.176 ms, busbw 450 GB/s, ± 1 %.
func TestGolden1FlowLevel(t *testing.T) {
	r := run(t, idealDGX, "collective.bytes=1GiB", "sim.fidelity=flow")
	require.NotNil(t, r.Collective)
	assert.InEpsilon(t, 4176.0, r.Collective.TimeUs, 0.01)
	assert.InEpsilon(t, 450, r.Collective.BusBwGBps, 0.01)
}

// The ring all-reduce follows the α-β model T = 2(p−1)·α + 2(p−1)/p · S/B within 2 %,
// run step by step (one piece, one channel) at flow level on a star. α is the
// scenario's per-step latency plus what a step costs the network itself: one
// packet stored and forwarded at the switch (links and switch add no latency here).
func TestRingAllReduceMatchesAlphaBeta(t *testing.T) {
	const alpha = 2 * unit.Microsecond
	for _, p := range []int{2, 4, 8, 16, 32, 64} {
		for _, size := range []unit.Bytes{unit.MiB, 64 * unit.MiB, unit.GiB} {
			t.Run(fmt.Sprintf("p%d/%v", p, size), func(t *testing.T) {
				sc, err := scenario.ParseWith([]byte(`
name: alpha-beta
topology: {kind: star, fabric: ib, link_gbps: 400, link_latency: 0, switch_latency: 0}
traffic: {pattern: none}
sim: {fidelity: flow}
`), t.Name(), []string{fmt.Sprintf("topology.hosts=%d", p)})
				require.NoError(t, err)
				pl, err := plan.Resolve(&sc)
				require.NoError(t, err)
				m := fluid.New(pl)
				s, err := coll.Build(coll.AllReduce, coll.Ring, coll.Params{Ranks: p})
				require.NoError(t, err)
				ranks := make([]int, p)
				for i := range ranks {
					ranks[i] = i
				}
				var got metrics.Collective
				coll.Run(m, s, ranks, coll.Options{Bytes: size, Channels: 1, Alpha: alpha}, func(r metrics.Collective, _ []unit.Time) { got = r })
				m.Run()

				// B: NDR payload rate with 4096-byte packets (REFERENCE.md: 397.5 Gb/s).
				b := 400e9 / 8 * 4096 / (4096 + 26)
				pkt := float64(4096+26) * 8 / 400e9
				a := alpha.Seconds() + pkt
				want := 2*float64(p-1)*a + 2*float64(p-1)/float64(p)*float64(size)/b
				assert.InEpsilon(t, want*1e6, got.TimeUs, 0.02)
			})
		}
	}
}

// Where both fidelities apply they agree within 5 % on bandwidth-bound
// collectives (static traffic and Send-driven rings: sim/network/networktest).
// Rings run step by step in both models (one channel, pipelined in pieces); the
// flow model's streamed phases are checked where latency is negligible.
func TestFlowAndPacketAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	both := func(t *testing.T, yaml string, sets ...string) (pk, fl *metrics.Result) {
		return run(t, yaml, sets...), run(t, yaml, append(sets, "sim.fidelity=flow")...)
	}
	for _, tc := range []struct{ name, topo, bytes string }{
		{"8 GPUs on NVSwitch", "{kind: dgx}", "64MiB"},
		{"16 hosts on a star", "{kind: star, hosts: 16, fabric: ib}", "32MiB"},
		{"64 hosts of a fat tree", "{kind: fattree, k: 8, fabric: ib}", "16MiB"},
	} {
		t.Run("ring allreduce/"+tc.name, func(t *testing.T) {
			ranks := "0"
			if tc.name == "64 hosts of a fat tree" {
				ranks = "64"
			}
			alpha := ", alpha: 0"
			if tc.topo == "{kind: dgx}" {
				alpha = "" // NCCL's latencies there (collective.latency: nccl); alpha is not read
			}
			y := "name: agree\ntopology: " + tc.topo + "\ncollective: {op: allreduce, algo: ring, ranks: " + ranks + ", bytes: " + tc.bytes + ", channels: 1" + alpha + ", execution: steps}\n"
			pk, fl := both(t, y)
			require.NotNil(t, pk.Collective)
			require.NotNil(t, fl.Collective)
			assert.InEpsilon(t, pk.Collective.TimeUs, fl.Collective.TimeUs, 0.05)
		})
	}
	t.Run("ring allreduce/streamed", func(t *testing.T) {
		pk := run(t, idealDGX, "collective.bytes=64MiB")
		fl := run(t, idealDGX, "collective.bytes=64MiB", "sim.fidelity=flow")
		assert.InEpsilon(t, pk.Collective.TimeUs, fl.Collective.TimeUs, 0.05)
	})
}

// 16,384 GPUs (2,048 nodes × 8) at flow level: the hierarchical all-reduce
// scales, and its time is that of its four phases pipelined: phase i starts
// once the latencies of phases 0…i have passed (REFERENCE.md, latencies:
// 8.4 µs once, 3.4 µs per NVLink step, 14 µs per network step) and moves its
// bytes: 7/8 of S per GPU over NVLink in the node, 2047/2048 of S/8 per NIC
// (at what NCCL gets through a NIC) across. At this scale the latencies of
// the 2047-step rail phases are so long that no two phases sharing a link
// overlap, so the run ends when the last phase to finish does.
func TestHierarchicalScalesTo16kGPUs(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	sc, err := scenario.Load("hierarchical-allreduce", nil, []string{"topology.nodes=2048"})
	require.NoError(t, err)
	r := builtin(t, "hierarchical-allreduce", "topology.nodes=2048")
	require.NotNil(t, r.Collective)
	assert.Equal(t, 16384, r.Collective.Ranks)

	s := float64(sc.Collective.Bytes)
	nvB := 450e9 * scenario.DefaultNVLinkEfficiency
	railB := 400e9 / 8 * 4096 / (4096 + 26) * scenario.DefaultNICEfficiency
	inNode, rail := 7.0/8*s/nvB, 2047.0/2048*s/8/railB
	var start, want float64
	for _, ph := range []struct{ lat, dur float64 }{
		{8.4e-6 + 7*3.4e-6, inNode}, {2047 * 14e-6, rail}, {2047 * 14e-6, rail}, {7 * 3.4e-6, inNode},
	} {
		start += ph.lat
		want = max(want, start+ph.dur)
	}
	assert.InEpsilon(t, want*1e6, r.Collective.TimeUs, 0.02)
}
