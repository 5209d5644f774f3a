package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const idealDGX = `
name: ideal-ring
topology: {kind: dgx, nodes: 1, nvlink_efficiency: 1, link_latency: 0}
collective: {op: allreduce, algo: ring, alpha: 0, latency: alpha}
`

// REFERENCE.md golden scenario 1 at a quarter of the size (the full 1 GiB runs
// at flow level): T = 2·7/8·S/450e9, busbw 450 GB/s ± 1 %.
func TestGolden1RingAllReduceNVSwitch(t *testing.T) {
	r := run(t, idealDGX, "collective.bytes=256MiB")
	c := r.Collective
	require.NotNil(t, c)
	assert.Equal(t, 8, c.Ranks)
	assert.InEpsilon(t, 2*7.0/8*float64(256<<20)/450e9*1e6, c.TimeUs, 0.01)
	assert.InEpsilon(t, 450, c.BusBwGBps, 0.01)
	assert.InDelta(t, c.AlgBwGBps*2*7/8, c.BusBwGBps, 1e-9, "busbw = algbw · 2(n−1)/n")
}

// Reduce-scatter then all-gather is a ring all-reduce, in time too.
func TestReduceScatterPlusAllGatherIsAllReduce(t *testing.T) {
	time := func(op string) float64 {
		r := run(t, idealDGX, "collective.bytes=128MiB", "collective.op="+op)
		require.NotNil(t, r.Collective)
		return r.Collective.TimeUs
	}
	ar, rs, ag := time("allreduce"), time("reducescatter"), time("allgather")
	assert.InEpsilon(t, ar, rs+ag, 0.01)
}

// With the default (calibrated) NVLink and alpha, the 8-GPU ring lands on the
// ~370 GB/s busbw that nccl-tests measure on H100 (REFERENCE.md).
func TestDefaultRingMatchesMeasuredBusBw(t *testing.T) {
	r := builtin(t, "ring-allreduce-8", "collective.bytes=256MiB")
	assert.InEpsilon(t, 370, r.Collective.BusBwGBps, 0.03)
}

func TestEveryAlgorithmRuns(t *testing.T) {
	for _, tc := range []struct{ op, algo, topo string }{
		{"allreduce", "tree", "{kind: dgx}"},
		{"allreduce", "rabenseifner", "{kind: dgx}"},
		{"allreduce", "hierarchical", "{kind: dgx, nodes: 2, fabric: ib}"},
		{"broadcast", "ring", "{kind: star, hosts: 6}"},
		{"alltoall", "pairwise", "{kind: star, hosts: 6}"},
		{"alltoall", "direct", "{kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2}"},
		{"allgather", "rabenseifner", "{kind: fattree, k: 4}"},
	} {
		t.Run(tc.op+"/"+tc.algo, func(t *testing.T) {
			r := run(t, "name: x\ntopology: "+tc.topo+"\ncollective: {op: "+tc.op+", algo: "+tc.algo+", bytes: 8MiB}\n")
			require.NotNil(t, r.Collective)
			assert.Positive(t, r.Collective.TimeUs)
			assert.Equal(t, r.Totals.Flows, r.Totals.FlowsFinished)
			assert.Equal(t, r.Collective.Transfers, r.Totals.Flows)
			assert.Zero(t, r.Totals.Drops)
		})
	}
}

func TestTrainingOverlapHidesCommunication(t *testing.T) {
	on := builtin(t, "dp-resnet50", "topology.nodes=2")
	off := builtin(t, "dp-resnet50", "topology.nodes=2", "training.overlap=false")
	require.NotNil(t, on.Training)
	require.NotNil(t, off.Training)
	a, b := on.Training, off.Training
	assert.Equal(t, a.ComputeUs, b.ComputeUs)
	assert.Less(t, a.ExposedCommUs, b.ExposedCommUs/2, "overlap hides most of the all-reduce")
	assert.Less(t, a.IterationUs, b.IterationUs)
	assert.InDelta(t, a.ComputeUs/a.IterationUs, a.GPUUtil, 1e-3)
	// Buckets go out in order, each after it is ready and after the one before.
	require.Len(t, a.Buckets, 5)
	for i, bk := range a.Buckets {
		assert.GreaterOrEqual(t, bk.StartUs, bk.ReadyUs)
		if i > 0 {
			assert.GreaterOrEqual(t, bk.StartUs, a.Buckets[i-1].FinishUs)
		}
	}
	// Without overlap nothing starts before the backward pass ends.
	for _, bk := range b.Buckets {
		assert.GreaterOrEqual(t, bk.StartUs, b.Buckets[len(b.Buckets)-1].ReadyUs)
	}
	require.Len(t, a.Timeline, 16)
	assert.Equal(t, "forward", a.Timeline[0].Intervals[0].Label)
}

// DDP's bf16 and fp16 compression hooks (REFERENCE.md, training: "fp16/bf16
// compression hooks") cast each fp32 bucket: membership stays, the bytes halve.
func TestCompressionHalvesTheBucketsBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, overlap := range []string{"true", "false"} {
		// The α latency model keeps NCCL's fixed per-step latency (the same
		// for both) from hiding what the bytes cost.
		fp32 := builtin(t, "dp-resnet50", "topology.nodes=2", "training.overlap="+overlap, "collective.latency=alpha")
		bf16 := builtin(t, "dp-resnet50", "topology.nodes=2", "training.overlap="+overlap, "collective.latency=alpha", "training.compression=bf16")
		a, b := fp32.Training, bf16.Training
		assert.Equal(t, a.GradBytes, 2*b.GradBytes)
		require.Len(t, b.Buckets, len(a.Buckets), "overlap %s", overlap)
		for i := range a.Buckets {
			assert.Equal(t, a.Buckets[i].Tensors, b.Buckets[i].Tensors, "bucket %d", i)
			assert.Equal(t, a.Buckets[i].Bytes, 2*b.Buckets[i].Bytes, "bucket %d", i)
		}
		assert.Less(t, b.ExposedCommUs, a.ExposedCommUs, "overlap %s: half the bytes never waits longer", overlap)
		if overlap == "false" {
			assert.Less(t, b.ExposedCommUs, 0.6*a.ExposedCommUs, "nothing hides the all-reduce: it takes about half as long")
		}
	}
}

// In-network reduction moves the buffer once up and once down each GPU link at
// the same time: algbw reaches the link rate, twice what a ring gets.
func TestInNetworkAllReduce(t *testing.T) {
	ring := run(t, idealDGX, "collective.bytes=128MiB")
	nvls := run(t, idealDGX, "collective.bytes=128MiB", "collective.algo=innetwork")
	require.NotNil(t, nvls.Collective)
	// REFERENCE.md, "NVLS all-reduce, 8 × H100, one node": without NCCL's
	// latencies NVLS moves its bytes at the fit's 304 GB/s algbw, 1.437 × the
	// ring's on the same NVSwitch (not the line-rate bound of 2(n−1)/n ×);
	// with them, its rounds of chunks bring 1 GiB to ≈ 1.30 × the ring's
	// ≈ 370, ≈ 467–480 GB/s ("NVLS efficiency (Hopper)").
	assert.InEpsilon(t, 1.437, nvls.Collective.AlgBwGBps/ring.Collective.AlgBwGBps, 0.03)
	calibrated := builtin(t, "hierarchical-allreduce", "topology.nodes=1", "collective.algo=innetwork")
	assert.InEpsilon(t, 475, calibrated.Collective.BusBwGBps, 0.03, "NVLS on 8 H100 (nccl-tests issues 212, 290; ND H100 v5)")
	star := run(t, "name: sharp\ntopology: {kind: star, hosts: 8, fabric: ib}\ncollective: {op: allreduce, algo: innetwork, bytes: 64MiB}\n")
	assert.InEpsilon(t, 49.7, star.Collective.AlgBwGBps, 0.03, "SHARP on one NDR switch: algbw ≈ the NIC's payload rate")
}
