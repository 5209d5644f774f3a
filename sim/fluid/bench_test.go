package fluid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// ring16k is 2048 DGX nodes (16,384 GPUs on 8 rails and 2048 spines) where
// every GPU sends 1 GiB to the GPU with the same index on the next node, all
// at once. It is built in Go: packet-level validation stops at 8192 endpoints.
func ring16k() *scenario.Scenario {
	sc := scenario.Default()
	sc.Name = "ring-16k"
	sc.Topology.Kind, sc.Topology.Nodes, sc.Topology.GPUsPerNode, sc.Topology.Spines = scenario.DGX, 2048, 8, 2048
	sc.Sim.Fidelity = scenario.FlowLevel
	sc.Traffic.Pattern = scenario.PatternFlows
	n := sc.Topology.Nodes * sc.Topology.GPUsPerNode
	for src := range n {
		sc.Traffic.Flows = append(sc.Traffic.Flows, scenario.Flow{Src: src, Dst: (src + 8) % n, Bytes: unit.GiB})
	}
	return &sc
}

func BenchmarkRing16k(b *testing.B) {
	sc := ring16k()
	b.ReportAllocs()
	var r *Model
	for b.Loop() {
		r = New(resolve(b, sc))
		r.Run()
	}
	res := r.Result()
	require.Equal(b, 16384, res.Totals.FlowsFinished)
	b.ReportMetric(res.Totals.MaxFctUs, "sim-µs")
	b.ReportMetric(float64(res.Totals.Events), "events")
}

// A random permutation on a k=32 fat tree (8192 hosts) with ECMP: one big
// component whose rates change as collided flows finish.
func BenchmarkPermFatTree32ECMP(b *testing.B) { benchPerm(b, scenario.RouteECMP) }

// The same with spraying: every flow is split over 256 core paths.
func BenchmarkPermFatTree32Spray(b *testing.B) { benchPerm(b, scenario.RouteSpray) }

func benchPerm(b *testing.B, routing string) {
	sc := scenario.Default()
	sc.Name = "perm-8192"
	sc.Topology.Kind, sc.Topology.K, sc.Topology.LinkGbps = scenario.FatTree, 32, 100
	sc.Network.Routing = routing
	sc.Traffic.Pattern, sc.Traffic.Bytes = scenario.PatternPermutation, 16*unit.MiB
	sc.Sim.Fidelity = scenario.FlowLevel
	b.ReportAllocs()
	var m *Model
	for b.Loop() {
		m = New(resolve(b, &sc))
		m.Run()
	}
	res := m.Result()
	require.Equal(b, 8192, res.Totals.FlowsFinished)
	b.ReportMetric(float64(res.Totals.Events), "events")
}
