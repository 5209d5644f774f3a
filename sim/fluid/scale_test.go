package fluid

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// streamedWork runs a 1 GiB all-reduce with algo over every endpoint of
// topology, streamed (one flow per pair and phase, as flow-level runs do),
// and returns the flows it made and the model's Work.
func streamedWork(t testing.TB, topology, algo string, gpn int) (flows int, work uint64) {
	sc, err := scenario.Parse([]byte("name: scale\ntopology: "+topology+
		"\ncollective: {op: allreduce, algo: "+algo+", bytes: 1GiB}\nsim: {fidelity: flow}\n"), t.Name())
	require.NoError(t, err)
	m := New(resolve(t, &sc))
	n := len(m.topo.Endpoints)
	s, err := coll.Build(coll.AllReduce, algo, coll.Params{Ranks: n, GPUsPerNode: gpn, SummaryOnly: true})
	require.NoError(t, err)
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = i
	}
	finished := false
	coll.Run(m, s, ranks, coll.Options{Bytes: unit.GiB, Streamed: true}, func(metrics.Collective, []unit.Time) { finished = true })
	m.Run()
	require.True(t, finished)
	return len(m.flows), m.Work()
}

// The work of a flow-level collective grows no faster than n log n in its
// flows: doubling the ranks from 1,024 to 8,192 multiplies Work by at most
// (F₂ log F₂)/(F₁ log F₁). Work counts steps, not time, so the machine's load
// does not matter. (Before the router found down-links from its ancestor
// search, every flow scanned all of the star switch's down-links: n².)
func TestFlowWorkNLogN(t *testing.T) {
	for _, tc := range []struct {
		name, algo string
		topology   func(ranks int) string
		gpn        int
	}{
		{"ring on a star", coll.Ring, func(n int) string {
			return fmt.Sprintf("{kind: star, hosts: %d, link_gbps: 3600, link_latency: 0us, switch_latency: 0us}", n)
		}, 0},
		{"hierarchical on dgx rails", coll.Hierarchical, func(n int) string {
			return fmt.Sprintf("{kind: dgx, nodes: %d, fabric: ib, link_gbps: 400}", n/8)
		}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f0, w0 := streamedWork(t, tc.topology(1024), tc.algo, tc.gpn)
			nlogn := func(f int) float64 { return float64(f) * math.Log2(float64(f)) }
			for _, n := range []int{2048, 4096, 8192} {
				f, w := streamedWork(t, tc.topology(n), tc.algo, tc.gpn)
				require.Greater(t, f, f0)
				grew, bound := float64(w)/float64(w0), nlogn(f)/nlogn(f0)
				t.Logf("%d ranks: %d flows, work %d: ×%.2f (n log n: ×%.2f)", n, f, w, grew, bound)
				require.LessOrEqual(t, grew, bound, "%d ranks: work grew ×%.2f for ×%.2f flows", n, grew, float64(f)/float64(f0))
			}
		})
	}
}
