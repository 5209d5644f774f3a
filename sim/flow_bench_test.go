package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

// ringYAML is the ring of the SimGrid side-by-side (bench/simgrid/run.sh):
// a star of n hosts at 450 GB/s, no latency, 1 GiB ring all-reduce at flow level.
func ringYAML(n int) string {
	return fmt.Sprintf(`name: ring-%d-flow
topology: {kind: star, hosts: %d, fabric: ethernet, link_gbps: 3600, link_latency: 0us, switch_latency: 0us}
collective: {op: allreduce, algo: ring, bytes: 1073741824, alpha: 0us}
sim: {fidelity: flow}
`, n, n)
}

func benchRing(b *testing.B, n int) {
	sc, err := scenario.Parse([]byte(ringYAML(n)), "ring.yaml")
	require.NoError(b, err)
	benchCollective(b, sc)
}

// benchCollective times Run of sc, reporting the collective's simulated time.
func benchCollective(b *testing.B, sc scenario.Scenario) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(sc)
		require.NoError(b, err)
		b.ReportMetric(res.Collective.TimeUs, "sim-µs")
	}
}

func BenchmarkFlowRing1k(b *testing.B)  { benchRing(b, 1024) }
func BenchmarkFlowRing16k(b *testing.B) { benchRing(b, 16384) }

func BenchmarkFlowHierarchical16k(b *testing.B) {
	sc, err := scenario.Load("hierarchical-allreduce", scenario.ReadFile, []string{"topology.nodes=2048"})
	require.NoError(b, err)
	benchCollective(b, sc)
}
