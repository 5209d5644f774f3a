package network_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/scenario"
)

// retainedBytes is how much heap the result of run keeps alive.
func retainedBytes(t *testing.T, run func() *metrics.Result) (uint64, *metrics.Result) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := run()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc < before.HeapAlloc {
		return 0, r
	}
	return after.HeapAlloc - before.HeapAlloc, r
}

// An explicit sim.sample_interval on a long run is coarsened like the
// automatic one: the series keeps at most MaxSamples whatever the run's
// length, so the memory a run keeps does not grow with simulated time.
func TestExplicitSampleIntervalKeepsMemoryBounded(t *testing.T) {
	const (
		budget = 256 << 10 // 9 hosts: flows, links and series of at most 400 samples
		growth = 64 << 10  // measurement noise; 31,000 more samples would be over 2 MiB
	)
	for _, fidelity := range []string{"flow", "packet"} {
		var kept []uint64
		for _, until := range []string{"1ms", "32ms"} {
			sc, err := scenario.Load("incast", nil, []string{"sim.fidelity=" + fidelity, "traffic.bytes=64GiB",
				"until=" + until, "sim.sample_interval=1us"})
			require.NoError(t, err)
			n, r := retainedBytes(t, func() *metrics.Result {
				r, err := sim.Run(sc)
				require.NoError(t, err)
				return r
			})
			name := fmt.Sprintf("%s, until %s", fidelity, until)
			require.NotNil(t, r.Series, name)
			assert.LessOrEqual(t, len(r.Series.TimeUs), network.MaxSamples+1, "%s: samples", name)
			assert.Greater(t, r.Series.IntervalUs, 1.0, "%s: the 1 µs interval was coarsened", name)
			assert.Less(t, n, uint64(budget), "%s: bytes kept", name)
			kept = append(kept, n)
		}
		assert.Less(t, kept[1], kept[0]+growth, "%s: 32 times the simulated time keeps about the same memory", fidelity)
	}
}

// retainedByModel is how much heap a started and run scenario keeps alive,
// its model included, and its result, with the model's flow budget set to budget.
func retainedByModel(t *testing.T, sets []string, budget int) (uint64, *metrics.Result) {
	t.Helper()
	sc, err := scenario.Load("dp-resnet50", nil, sets)
	require.NoError(t, err)
	var st *sim.Started
	n, r := retainedBytes(t, func() *metrics.Result {
		st, err = sim.Start(sc)
		require.NoError(t, err)
		st.Model.SetFlowBudget(budget)
		st.Model.Run()
		return st.Result()
	})
	runtime.KeepAlive(st)
	return n, r
}

// Training iterations each add their transfers to the model, which keeps
// every flow to the end of the run: the flow budget stops the run, so ten
// times the iterations keep about the same memory (at full scale,
// dp-llama3-8b-1024 with training.iterations=100: 53 million flows).
func TestTrainingIterationsKeepMemoryBounded(t *testing.T) {
	const budget = 1000 // flows: about 3 iterations of 320
	var kept []uint64
	for _, iters := range []int{4, 40} {
		n, r := retainedByModel(t, []string{"sim.fidelity=flow", "topology.nodes=2", fmt.Sprintf("training.iterations=%d", iters)}, budget)
		assert.LessOrEqual(t, r.Totals.Flows, budget+320, "%d iterations: flows", iters)
		assert.Contains(t, r.Totals.Truncated, "the run made more than 1000 flows", "%d iterations", iters)
		assert.Contains(t, r.Totals.Truncated, "fewer training.iterations", "%d iterations: the fix", iters)
		assert.Less(t, n, uint64(1<<20), "%d iterations: bytes kept", iters)
		kept = append(kept, n)
	}
	assert.Less(t, kept[1], kept[0]+kept[0]/4, "ten times the iterations keep about the same memory")

	n, r := retainedByModel(t, []string{"sim.fidelity=flow", "topology.nodes=2", "training.iterations=2"}, budget)
	assert.Empty(t, r.Totals.Truncated, "2 iterations are within the budget")
	assert.NotNil(t, r.Training)
	assert.Less(t, n, kept[0])
}

// A packet-level all-reduce over many nodes makes flows in proportion to
// the square of the nodes: the flow budget stops the run, so twice the nodes
// keep about the same memory (at full scale, dp-resnet50 with
// topology.nodes=128: about 14 million flows).
func TestPacketLevelTransfersKeepMemoryBounded(t *testing.T) {
	const budget = 4096
	var kept []uint64
	for _, nodes := range []int{2, 4} {
		n, r := retainedByModel(t, []string{fmt.Sprintf("topology.nodes=%d", nodes)}, budget)
		assert.LessOrEqual(t, r.Totals.Flows, 2*budget, "%d nodes: flows", nodes)
		assert.Contains(t, r.Totals.Truncated, "the run made more than 4096 flows", "%d nodes", nodes)
		assert.Contains(t, r.Totals.Truncated, "use sim: {fidelity: flow}", "%d nodes: the fix", nodes)
		assert.Less(t, n, uint64(4<<20), "%d nodes: bytes kept", nodes)
		kept = append(kept, n)
	}
	assert.Less(t, kept[1], kept[0]+kept[0]/2, "twice the nodes keep about the same memory")
}

// A run whose workload would pass the flow budget is refused before it
// runs, with the way out, and costs next to nothing: at main these took
// more than 6 GiB.
func TestOversizedWorkloadsAreRefusedBeforeTheyRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
		want string
	}{
		{"dp-llama3-8b-1024", []string{"training.iterations=100"}, "training: 100 iterations of 206848 collective transfers each make 20684800 flows, more than the 2097152 flows a run may make: use training.iterations: 10 or fewer"},
		{"dp-resnet50", []string{"topology.nodes=128"}, "training: an iteration's collectives make 10977280 transfers, more than the 2097152 flows a run may make: use sim: {fidelity: flow}"},
		{"ring-allreduce-8", []string{"topology.nodes=128", "collective.execution=steps", "collective.bytes=64MiB", "collective.chunk=64KiB"}, "use sim: {fidelity: flow} or collective.execution: streamed"},
	} {
		var before, after runtime.MemStats
		sc, err := scenario.Load(tc.name, nil, tc.sets)
		if err != nil { // refused by validation already: as cheap, with the same way out
			assert.Contains(t, err.Error(), tc.want, tc.name)
			continue
		}
		runtime.ReadMemStats(&before)
		_, err = sim.Run(sc)
		runtime.ReadMemStats(&after)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<20), "%s: bytes allocated", tc.name)
	}
}

// The count a workload checks is the flows the run makes.
func TestTransferCountIsTheFlowsMade(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
	}{
		{"dp-resnet50", []string{"sim.fidelity=flow", "topology.nodes=2", "training.iterations=3"}},
		{"ring-allreduce-8", []string{"collective.bytes=64MiB"}},
		{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=tree", "collective.chunk=1MiB"}},
		{"hierarchical-allreduce", []string{"topology.nodes=4"}},
	} {
		sc, err := scenario.Load(tc.name, nil, tc.sets)
		require.NoError(t, err, tc.name)
		r, err := sim.Run(sc)
		require.NoError(t, err, tc.name)
		var want int
		switch {
		case r.Collective != nil:
			want = r.Collective.Transfers
		default:
			want = 3 * 320 // iterations × the hierarchical all-reduces of 5 buckets
		}
		assert.Equal(t, want, r.Totals.Flows, "%s %v", tc.name, tc.sets)
	}
}

// flows[] lists the first 4,096 flows in an array of its own, so that the
// model's full list (up to 2^21 flows, about 150 bytes each) is freed.
func TestListedFlowsDoNotHoldTheFullList(t *testing.T) {
	sc, err := scenario.Load("incast", nil, []string{"sim.fidelity=flow", "topology.hosts=80", "traffic.pattern=alltoall", "traffic.senders=", "traffic.receiver=", "traffic.bytes=4KiB"})
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	require.Equal(t, 80*79, r.Totals.Flows)
	assert.Len(t, r.Flows, sim.MaxListedFlows)
	assert.Equal(t, sim.MaxListedFlows, cap(r.Flows), "no room kept for the flows not listed")
}
