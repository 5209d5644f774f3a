package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/topo"
)

// maxBuildEndpoints bounds the topologies the fuzz targets build, to stay fast.
const maxBuildEndpoints = 2048

// checkBuild builds the topology of a scenario that passed validation, which
// must not panic, and holds it to the scenario: Endpoints() endpoints, each a
// host or GPU, every link paired with its reverse, and every endpoint
// reachable from the first.
func checkBuild(t testing.TB, s *Scenario) {
	t.Helper()
	tp := topo.Build(s.Topology.Shape(), s.Wiring())
	require.Len(t, tp.Endpoints, s.Endpoints(), "%s", s.Topology.Shape())
	for _, l := range tp.Links {
		r := tp.Links[l.Reverse]
		require.True(t, r.From == l.To && r.To == l.From && r.Reverse == l.ID, "link %d and its reverse %d", l.ID, l.Reverse)
	}
	hops := tp.HopsTo(tp.Endpoints[0])
	for e, id := range tp.Endpoints {
		role := tp.Nodes[id].Role
		require.True(t, role == topo.Host || role == topo.GPU, "endpoint %d is a %s", e, role)
		require.Less(t, hops[id], uint8(255), "endpoint %d cannot reach endpoint 0", e)
	}
}

func TestBuildBuiltins(t *testing.T) {
	for _, b := range Builtins() {
		s, err := Load(b.Name, nil, nil)
		require.NoError(t, err)
		checkBuild(t, &s)
	}
}

// TestBuildBoundaries takes every topology rule to both sides of its limit:
// what validation accepts builds with the endpoints it counted.
func TestBuildBoundaries(t *testing.T) {
	const flow = "\nsim: {fidelity: flow}"
	for _, tc := range []struct {
		topology string
		ok       bool
	}{
		{"{kind: star, hosts: 1}", false},
		{"{kind: star, hosts: 2}", true},
		{"{kind: star, hosts: 8192}", true},
		{"{kind: star, hosts: 8193}", false}, // packet level
		{"{kind: star, hosts: 65536}" + flow, true},
		{"{kind: star, hosts: 65537}" + flow, false},
		{"{kind: dgx, gpus_per_node: 1}", false},
		{"{kind: dgx, gpus_per_node: 2}", true},
		{"{kind: dgx, gpus_per_node: 16}", true},
		{"{kind: dgx, gpus_per_node: 17}", false},
		{"{kind: dgx, nodes: 0}", false},
		{"{kind: dgx, nodes: 2}", true}, // spines default to the uplinks
		{"{kind: dgx, nodes: 3, oversubscription: 1.5}", true},
		{"{kind: dgx, nodes: 6, oversubscription: 3}", true},
		{"{kind: dgx, nodes: 6, oversubscription: 4}", false},
		{"{kind: dgx, nodes: 8, spines: 3}", false},
		{"{kind: dgx, nodes: 8, spines: 1}", true},
		{"{kind: dgx, nodes: 8, spines: 8}", true},
		{"{kind: dgx, nodes: 8, spines: 16}", false},
		{"{kind: dgx, nodes: 4, oversubscription: 0.5}", false},
		{"{kind: dgx, nodes: 4096, gpus_per_node: 16}" + flow, true},
		{"{kind: dgx, nodes: 4097, gpus_per_node: 16}" + flow, false},
		{"{kind: leafspine, leaves: 1, hosts_per_leaf: 1}", false},
		{"{kind: leafspine, leaves: 1, hosts_per_leaf: 2}", true}, // no spine layer
		{"{kind: leafspine, leaves: 1, hosts_per_leaf: 8, spines: 2}", true},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 1, spines: 1}", true},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 1}", false}, // spines not set
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 1, spines: 0}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: -1}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 3}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 4, oversubscription: 2}", true},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 3, oversubscription: 2}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 2, oversubscription: 3}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 1, oversubscription: 8}", true},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 1, oversubscription: 9}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 12, spines: 4, gpus_per_node: 8}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 16, spines: 4, gpus_per_node: 8}", true},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 16, spines: 4, gpus_per_node: 17}", false},
		{"{kind: leafspine, leaves: 8, hosts_per_leaf: 4, spines: 2, gpus_per_node: 8, rail_optimized: true}", true},
		{"{kind: leafspine, leaves: 4, hosts_per_leaf: 4, spines: 2, gpus_per_node: 8, rail_optimized: true}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2, rail_optimized: true}", false},
		{"{kind: leafspine, leaves: 2, hosts_per_leaf: 1, spines: 1, gpus_per_node: 2, rail_optimized: true}", true},
		{"{kind: leafspine, leaves: 256, hosts_per_leaf: 256, spines: 1, oversubscription: 256}" + flow, true},
		{"{kind: leafspine, leaves: 257, hosts_per_leaf: 256, spines: 1, oversubscription: 256}" + flow, false},
		{"{kind: fattree, k: 2}", false},
		{"{kind: fattree, k: 4}", true},
		{"{kind: fattree, k: 5}", false},
		{"{kind: fattree, k: 6}", true},
		{"{kind: fattree, k: 16}", true},
		{"{kind: fattree, k: 32}", true}, // 8192 hosts: the packet-level limit
		{"{kind: fattree, k: 34}", false},
		{"{kind: fattree, k: 64}" + flow, true},
		{"{kind: fattree, k: 66}" + flow, false},
		{"{kind: fattree, k: 4, oversubscription: 2}", false},
	} {
		s, err := Parse([]byte("topology: "+tc.topology+"\n"), "t.yaml")
		if !tc.ok {
			assert.Error(t, err, tc.topology)
			continue
		}
		require.NoError(t, err, tc.topology)
		checkBuild(t, &s)
	}
}

// FuzzBuild builds every scenario validation accepts, up to
// maxBuildEndpoints endpoints.
func FuzzBuild(f *testing.F) {
	addSeeds(f, sectionDocs...)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		if err != nil || s.Endpoints() > maxBuildEndpoints {
			return
		}
		checkBuild(t, &s)
	})
}

// sectionDocs use every section's keys, lists included, as fuzz seeds.
var sectionDocs = []string{
	"topology: {kind: star, hosts: 17, fabric: ethernet, link_gbps: 100, link_latency: 2us, switch_latency: 500ns}\n",
	"topology: {kind: dgx, nodes: 4, gpus_per_node: 8, spines: 2, oversubscription: 2, nvlink_efficiency: 1}\n",
	"topology: {kind: leafspine, leaves: 8, hosts_per_leaf: 4, gpus_per_node: 8, rail_optimized: true, spines: 2}\n",
	"topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 16, gpus_per_node: 8, spines: 4, oversubscription: 2}\n",
	"topology: {kind: fattree, k: 8, fabric: ib}\n",
	"network: {mtu: 9000, buffer: 4MiB, flow_control: pfc, routing: adaptive, rto: 200us, ack_every: 8, pfc: {xoff: 1MiB, xon: 512KiB, headroom: 256KiB}}\n",
	"network: {cc: dcqcn, ecn: {kmin: 100KiB, kmax: 400KiB, pmax: 0.5}, cnp_interval: 10us, clamp_target_rate: false}\n",
	"topology: {fabric: ib}\nnetwork: {cc: ibcc, ibcc: {threshold: 256KiB, marking_rate: 4, becn_interval: 5us, timer: 20us, ccti_increase: 2, ccti_limit: 255, ccti_min: 1, cct_step: 0.25}}\n",
	"network: {buffer_model: shared, switch_buffer: 32MiB, dt_alpha: 0.5, classes: [{name: a, weight: 3}, {name: b, weight: 1, lossless: false}]}\n",
	"network: {pfc: {storms: [{endpoint: 8, start: 10us, end: 1ms}, {endpoint: 3, end: 2ms}]}}\n",
	"traffic: {pattern: flows, bytes: 1MiB, flows: [{src: 0, dst: 1}, {src: 2, dst: 3, bytes: 4KiB, start: 2us}]}\n",
	"network: {classes: [{name: bulk}, {name: rpc}]}\ntraffic: {pattern: flows, class: bulk, flows: [{src: 0, dst: 1, class: rpc}]}\n",
	"traffic: {pattern: incast, senders: 4, receiver: 7, bytes: 8MiB, start: 1us}\n",
	"topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2}\ntraffic: {pattern: permutation}\nuntil: 10ms\nseed: 3\n",
	"topology: {hosts: 16}\ntraffic: {pattern: alltoall, bytes: 64KiB}\nsim: {fidelity: flow, sample_interval: 10us}\n",
	"topology: {kind: dgx, nodes: 2}\ncollective: {op: allreduce, algo: hierarchical, bytes: 256MiB, ranks: 16, channels: 4, chunk: 1MiB, alpha: 2us, execution: streamed}\n",
	"collective: {op: broadcast, algo: ring, root: 3}\n",
	"topology: {kind: dgx, nodes: 2}\ntraffic: {pattern: none}\ntraining: {model: resnet50, gpu: a100, mfu: 0.5, batch: 128, bucket_cap: 10MiB, first_bucket: 512KiB, overlap: false, compression: bf16, iterations: 2, ranks: 8, algo: ring}\n",
	"training: {model: custom, layers: [{name: fc, params: 1000000, flops: 2000000}, {name: out, params: 1000, flops: 2000}]}\n",
}
