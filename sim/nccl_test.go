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

// busbw over message size has nccl-tests' shape: NCCL's per-step latency
// (REFERENCE.md, latencies) costs a 1 GiB all-reduce on 8 nodes a few per
// cent against 8 GiB.
func TestRingBusBwFallsWithSize(t *testing.T) {
	ratio := ringBusBw(t, 8, "1GiB", "ecmp") / ringBusBw(t, 8, "8GiB", "ecmp")
	assert.GreaterOrEqual(t, ratio, 0.85)
	assert.LessOrEqual(t, ratio, 0.97)
}

// A tiny all-reduce with the Simple protocol costs NCCL's Simple ring latency (tuning.cc): 8.4 µs +
// 2(n−nodes) NVLink steps · 3.4 µs + 2(nodes−1) network steps · 14 µs (2
// nodes: 131.6 µs; 4 nodes: 282.8 µs), plus each phase's one crossing of the
// fabric (a few µs).
func TestTinyRingPaysNCCLLatency(t *testing.T) {
	for _, tc := range []struct {
		nodes int
		want  float64
	}{{2, 131.6}, {4, 282.8}} {
		r := builtin(t, "hierarchical-allreduce", fmt.Sprintf("topology.nodes=%d", tc.nodes), "collective.algo=ring", "collective.bytes=8B",
			"collective.protocol=simple")
		require.NotNil(t, r.Collective)
		assert.InDelta(t, tc.want+5, r.Collective.TimeUs, 5, "%d nodes", tc.nodes)
	}
}

// A NIC carries what NCCL moves through it (REFERENCE.md, "NCCL goodput per
// 400G NIC": 46–48 GB/s of the 49.7 ceiling): one GPU's transfer to its rail
// peer on the next node.
func TestNICCarriesNCCLGoodput(t *testing.T) {
	r := run(t, "name: nic\ntopology: {kind: dgx, nodes: 2, fabric: ib}\ntraffic: {pattern: flows, flows: [{src: 0, dst: 8, bytes: 1GiB}]}\nsim: {fidelity: flow}\n")
	require.Len(t, r.Flows, 1)
	gbs := r.Flows[0].Gbps / 8
	assert.GreaterOrEqual(t, gbs, 46.0)
	assert.LessOrEqual(t, gbs, 48.1)
}

// A DGX A100 (NVLink 3, 8 × 200G HDR) rings at ≈ 192 GB/s busbw
// (REFERENCE.md, "DGX A100, 8 × 200G HDR"), ± 4 %.
func TestA100RingMatchesNCCL(t *testing.T) {
	for _, nodes := range []int{2, 8} {
		r := builtin(t, "hierarchical-allreduce", fmt.Sprintf("topology.nodes=%d", nodes), "collective.algo=ring",
			"collective.bytes=8GiB", "topology.nvlink=3", "topology.link_gbps=200")
		require.NotNil(t, r.Collective)
		assert.InEpsilon(t, 192, r.Collective.BusBwGBps, 0.04, "%d nodes", nodes)
	}
}

// The hierarchical all-reduce pipelines its phases, so a streamed run (all
// phases at once) and a step-by-step run (pieces following each other
// through the phases) agree within 5 % on large messages.
func TestHierarchicalStreamedMatchesSteps(t *testing.T) {
	for _, nodes := range []int{2, 4} {
		busbw := func(execution string) float64 {
			r := builtin(t, "hierarchical-allreduce", fmt.Sprintf("topology.nodes=%d", nodes), "collective.bytes=1GiB",
				"collective.execution="+execution)
			require.NotNil(t, r.Collective)
			return r.Collective.BusBwGBps
		}
		assert.InEpsilon(t, busbw("steps"), busbw("streamed"), 0.05, "%d nodes", nodes)
	}
}

// nvlsTreeBusBw runs hierarchical-allreduce's cluster with nvlstree.
func nvlsTreeBusBw(t *testing.T, nodes int, bytes string, sets ...string) float64 {
	t.Helper()
	r := builtin(t, "hierarchical-allreduce", append([]string{fmt.Sprintf("topology.nodes=%d", nodes),
		"collective.algo=nvlstree", "collective.bytes=" + bytes}, sets...)...)
	require.NotNil(t, r.Collective)
	require.Equal(t, "nvlstree", r.Collective.Algo)
	require.Equal(t, 8*nodes, r.Collective.Ranks)
	return r.Collective.BusBwGBps
}

// REFERENCE.md, "8 × H100, 8 × 400G, large messages": NCCL's 2-node
// default, NVLSTree, reaches ≈ 470 GB/s busbw (nccl-tests issues 212, 290,
// 309), above the rings' 370–390 on the same cluster.
func TestNVLSTreeMatchesNCCL(t *testing.T) {
	b := nvlsTreeBusBw(t, 2, "8GiB")
	assert.InEpsilon(t, 470, b, 0.05)
	assert.Greater(t, b, 1.15*ringBusBw(t, 2, "8GiB", "ecmp"), "NVLSTree beats the ring on 2 nodes")
}

// NVLSTree does not reduce in the network between nodes, so each node's
// NICs must carry 2(nodes−1)/nodes of the buffer (the all-reduce lower
// bound): at NCCL's 8 × 48 GB/s per node, algbw ≤ 384 · nodes/(2(nodes−1)).
// From 8 nodes on that bound, not NVLS, sets the figure.
func TestNVLSTreeStaysUnderTheNICs(t *testing.T) {
	for _, nodes := range []int{2, 4, 8, 16} {
		n := float64(8 * nodes)
		bound := 8 * 48 * float64(nodes) / float64(2*(nodes-1)) * 2 * (n - 1) / n
		b := nvlsTreeBusBw(t, nodes, "8GiB")
		assert.LessOrEqual(t, b, bound, "%d nodes", nodes)
		if nodes >= 8 {
			assert.InEpsilon(t, bound, b, 0.03, "%d nodes: the NICs are the bottleneck", nodes)
		}
	}
}

// nvlstree pipelines its phases: streamed and step-by-step runs agree.
func TestNVLSTreeStreamedMatchesSteps(t *testing.T) {
	for _, nodes := range []int{2, 4} {
		assert.InEpsilon(t, nvlsTreeBusBw(t, nodes, "1GiB", "collective.execution=steps"),
			nvlsTreeBusBw(t, nodes, "1GiB", "collective.execution=streamed"), 0.05, "%d nodes", nodes)
	}
}

// algo: auto runs NVLSTree for a large all-reduce on 2+ dgx nodes, as NCCL does.
func TestAutoPicksNVLSTree(t *testing.T) {
	for _, nodes := range []int{2, 8} {
		r := builtin(t, "hierarchical-allreduce", fmt.Sprintf("topology.nodes=%d", nodes), "collective.algo=auto", "collective.bytes=8GiB")
		require.NotNil(t, r.Collective)
		assert.Equal(t, "nvlstree", r.Collective.Algo, "%d nodes", nodes)
	}
}

// REFERENCE.md, "NCCL protocols and GPU generations", "NVLS all-reduce, 8 ×
// H100, one node": ≈ 467 GB/s busbw at 1 GiB (466.4 ND H100 v5, 467.0 #10),
// with NVLS's 25 µs charged once per collective, so a step-by-step run (a
// latency per pipeline piece would cost 32 × 25 µs at 1 GiB) agrees with the
// flow-level one.
func TestNVLSStepwiseMatchesFlow(t *testing.T) {
	var got []float64
	for _, fid := range []string{"packet", "flow"} {
		r := builtin(t, "ring-allreduce-8", "collective.algo=innetwork", "sim.fidelity="+fid)
		require.NotNil(t, r.Collective)
		assert.InEpsilon(t, 467, r.Collective.BusBwGBps, 0.02, fid)
		got = append(got, r.Collective.BusBwGBps)
	}
	assert.InEpsilon(t, got[0], got[1], 0.01, "packet %.1f, flow %.1f", got[0], got[1])
}

// REFERENCE.md, "8 × H100 all-reduce, one node, NCCL's default (NVLS)":
// algo auto's curve has nccl-tests' long knee, well under the peak at 16–64
// MiB, from NVLS's rounds of chunks (the fit of "how close NCCL's model
// is"). Tolerance 15 % (memo §7.4), 20 % at 16 MiB, where the fit's 33 µs
// fixed cost holds ≈ 8 µs of kernel launch that fabriclab leaves out.
func TestNVLSCurveMatchesNCCLTests(t *testing.T) {
	for _, tc := range []struct {
		bytes     string
		want, tol float64
	}{{"16MiB", 234.45, 0.20}, {"64MiB", 361.78, 0.15}, {"1GiB", 466.35, 0.15}, {"8GiB", 478.87, 0.15}} {
		r := builtin(t, "ring-allreduce-8", "collective.algo=auto", "collective.bytes="+tc.bytes, "sim.fidelity=flow")
		require.NotNil(t, r.Collective)
		assert.Equal(t, "innetwork", r.Collective.Algo, tc.bytes)
		assert.InEpsilon(t, tc.want, r.Collective.BusBwGBps, tc.tol, tc.bytes)
	}
}

// REFERENCE.md, "NCCL protocols and GPU generations", "8 × H100 all-reduce,
// one node, ring only": busbw by size has nccl-tests' knee (16 MiB at 0.63
// of the 8 GiB figure) with the protocol NCCL's tuning model picks (LL128
// to 32 MiB, Simple above). The tolerance, 15 %, is what NCCL's own model
// achieves against these rows from 4 MiB ("how close NCCL's model is").
func TestRingCurveMatchesNCCLTests(t *testing.T) {
	measured := map[string]float64{"8MiB": 182.39, "16MiB": 231.88, "64MiB": 318.55, "256MiB": 347.64, "1GiB": 360.07, "8GiB": 368.09}
	for _, tc := range []struct{ fidelity, bytes string }{
		{"packet", "8MiB"}, {"packet", "16MiB"}, {"packet", "64MiB"}, {"packet", "256MiB"},
		{"flow", "8MiB"}, {"flow", "16MiB"}, {"flow", "64MiB"}, {"flow", "256MiB"}, {"flow", "1GiB"}, {"flow", "8GiB"},
	} {
		r := builtin(t, "ring-allreduce-8", "collective.bytes="+tc.bytes, "sim.fidelity="+tc.fidelity)
		require.NotNil(t, r.Collective)
		assert.InEpsilon(t, measured[tc.bytes], r.Collective.BusBwGBps, 0.15, "%s at %s", tc.bytes, tc.fidelity)
	}
}

// REFERENCE.md, "NCCL protocols (latency, µs), ring": a tiny all-reduce on
// one 8-GPU node takes the LL protocol (NCCL's choice, "NCCL's choice of
// algorithm and protocol") and costs its 15.0 µs against Simple's 56.0.
func TestSmallAllReduceRunsLL(t *testing.T) {
	for _, tc := range []struct {
		algo, protocol string
		want           float64
	}{{"auto", "auto", 15.0}, {"ring", "auto", 15.0}, {"ring", "ll", 15.0}, {"ring", "ll128", 40.6}, {"ring", "simple", 56.0}} {
		r := builtin(t, "ring-allreduce-8", "collective.bytes=8B", "collective.algo="+tc.algo, "collective.protocol="+tc.protocol, "collective.floor=0")
		require.NotNil(t, r.Collective)
		assert.Equal(t, "ring", r.Collective.Algo)
		assert.InDelta(t, tc.want, r.Collective.TimeUs, 0.5, "%s/%s", tc.algo, tc.protocol)
	}
}

// REFERENCE.md, "nccl-tests' floor per call": back-to-back calls take at
// least 35 µs on 8 × H100 (8 B to 256 KiB all read 34.8–38.3 µs in #01);
// from 2 MiB the transfers take longer and the floor is hidden (#01: 42.1 µs
// at 2 MiB; the ring curve test covers the sizes above).
func TestSmallMessageFloor(t *testing.T) {
	measured := map[string]float64{"8B": 34.98, "1KiB": 39.20, "64KiB": 35.76, "256KiB": 37.95, "2MiB": 42.06}
	for bytes, want := range measured {
		r := builtin(t, "ring-allreduce-8", "collective.bytes="+bytes, "collective.algo=ring")
		require.NotNil(t, r.Collective)
		assert.InEpsilon(t, want, r.Collective.TimeUs, 0.12, bytes)
	}
	off := builtin(t, "ring-allreduce-8", "collective.bytes=8B", "collective.algo=ring", "collective.floor=0")
	assert.Less(t, off.Collective.TimeUs, 20.0, "floor 0: NCCL's LL latency alone")
}

// REFERENCE.md, "NCCL protocols (bandwidth)": LL moves 16 bytes for 8 and
// is capped at 141 GB/s busbw on one H100 node, LL128 moves 1/0.92 of the
// bytes; at 1 GiB their busbw falls to those figures against Simple's 370.
func TestProtocolBandwidth(t *testing.T) {
	simple := builtin(t, "ring-allreduce-8", "collective.protocol=simple", "sim.fidelity=flow").Collective.BusBwGBps
	ll := builtin(t, "ring-allreduce-8", "collective.protocol=ll", "sim.fidelity=flow").Collective.BusBwGBps
	ll128 := builtin(t, "ring-allreduce-8", "collective.protocol=ll128", "sim.fidelity=flow").Collective.BusBwGBps
	assert.InEpsilon(t, 141, ll, 0.02)
	assert.InEpsilon(t, 0.92, ll128/simple, 0.01)
}

// REFERENCE.md, "NCCL protocols and GPU generations": topology.gpu sets the
// NVLink generation and its efficiency. One 8 × A100 node's ring reaches
// the 228.1 / 231.6 GB/s published at 1 / 8 GiB ("8 × A100 SXM4 all-reduce";
// NCCL has no NVLS on A100, so auto runs the ring), and 8 × H200's NVLS the
// 480.0 ("8 × H200 all-reduce"). Large messages: NCCL's model is within a
// few per cent there ("how close NCCL's model is"), so 3 %.
func TestGPUGenerations(t *testing.T) {
	for _, tc := range []struct {
		gpu, bytes, algo string
		want             float64
	}{{"a100", "1GiB", "ring", 228.1}, {"a100", "8GiB", "ring", 231.6}, {"h200", "8GiB", "innetwork", 480.0}} {
		r := builtin(t, "ring-allreduce-8", "topology.gpu="+tc.gpu, "collective.algo=auto", "collective.bytes="+tc.bytes, "sim.fidelity=flow")
		require.NotNil(t, r.Collective)
		assert.Equal(t, tc.algo, r.Collective.Algo, "%s at %s", tc.gpu, tc.bytes)
		assert.InEpsilon(t, tc.want, r.Collective.BusBwGBps, 0.03, "%s at %s", tc.gpu, tc.bytes)
	}
	a100 := builtin(t, "ring-allreduce-8", "topology.nvlink=3", "collective.bytes=1GiB")
	assert.InEpsilon(t, 228.1, a100.Collective.BusBwGBps, 0.03, "topology.nvlink: 3 is an A100")
}

// REFERENCE.md, "8 × A100 SXM4 all-reduce, one node" and "how close NCCL's
// model (and fabriclab) is": one A100 node's ring by size. Large messages
// within 3 % (TestGPUGenerations); small ones sit on the 35 µs floor, 20 %
// under Azure's 42 µs; medium ones are faster than measured (NCCL's model
// is too), by a bounded margin this test holds so that it cannot grow.
func TestA100CurveAgainstAzure(t *testing.T) {
	for _, tc := range []struct {
		bytes    string
		measured float64 // busbw, GB/s
		lo, hi   float64 // fabriclab's busbw over measured
	}{{"64KiB", 2.70, 1.0, 1.3}, {"1MiB", 36.2, 1.0, 1.5}, {"16MiB", 109.2, 1.0, 1.6}, {"64MiB", 166.6, 1.0, 1.4}, {"1GiB", 228.1, 0.97, 1.03}} {
		r := builtin(t, "ring-allreduce-8", "topology.gpu=a100", "collective.algo=auto", "collective.bytes="+tc.bytes)
		require.NotNil(t, r.Collective)
		ratio := r.Collective.BusBwGBps / tc.measured
		assert.GreaterOrEqual(t, ratio, tc.lo, "%s: %.1f against %.1f GB/s", tc.bytes, r.Collective.BusBwGBps, tc.measured)
		assert.LessOrEqual(t, ratio, tc.hi, "%s: %.1f against %.1f GB/s", tc.bytes, r.Collective.BusBwGBps, tc.measured)
	}
}

// REFERENCE.md, "NIC and PCIe per generation": an A100's NIC hangs off PCIe
// Gen4 x16 (252.1 Gb/s, 4096-byte TLPs with 28 bytes of framing), so even a
// 400G NIC carries at most ≈ 31 GB/s there; an H100's Gen5 link does not
// bind (46–48 GB/s, TestNICCarriesNCCLGoodput).
func TestA100NICIsPCIeGen4Bound(t *testing.T) {
	r := run(t, "name: nic\ntopology: {kind: dgx, nodes: 2, fabric: ib, gpu: a100}\ntraffic: {pattern: flows, flows: [{src: 0, dst: 8, bytes: 1GiB}]}\nsim: {fidelity: flow}\n")
	require.Len(t, r.Flows, 1)
	assert.InEpsilon(t, 252.1*4096/(4096+28)/8, r.Flows[0].Gbps/8, 0.01)
}
