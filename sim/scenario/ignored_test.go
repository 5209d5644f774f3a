package scenario

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestEveryKeyHasAUse: every scenario key is in keyUses, itself or by its
// section, and every entry names a key that exists.
func TestEveryKeyHasAUse(t *testing.T) {
	paths := keyPaths(reflect.TypeFor[Scenario](), "")
	require.Greater(t, len(paths), 100, "the walk finds the keys")
	for _, key := range paths {
		assert.NotPanics(t, func() { useOf(key) }, "%s has no entry in keyUses (nor has its section)", key)
	}
	for _, u := range keyUses {
		assert.Contains(t, paths, u.key, "keyUses names a key the Scenario has not")
		if u.used != nil {
			assert.NotEmpty(t, u.with, u.key)
			assert.NotNil(t, u.has, u.key)
		}
	}
}

// TestIgnoredKeys: a key the chosen settings do not read is an error naming
// the key, where it was written, what would use it and the fix.
func TestIgnoredKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		sets []string
		want string // the whole message, or "" for none
	}{
		// The reproduction: the flows were dropped and the incast ran.
		{"flows on an incast", "traffic: {pattern: incast}\n", []string{"traffic.flows=[{src: 0, dst: 1}]"},
			"--set traffic.flows=[{src: 0, dst: 1}]: traffic.flows: ignored: it is used only with traffic.pattern: flows, and this scenario has traffic.pattern: incast; remove it, or set traffic.pattern: flows"},
		{"flows pattern by default", "traffic: {flows: [{src: 0, dst: 1}]}\n", nil, ""},
		{"senders on flows", "traffic:\n  pattern: flows\n  senders: 3\n  flows: [{src: 0, dst: 1}]\n", nil,
			"t.yaml:3: traffic.senders: ignored: it is used only with traffic.pattern: incast, and this scenario has traffic.pattern: flows; remove it, or set traffic.pattern: incast"},
		{"start on flows", "traffic: {pattern: flows, start: 1us, flows: [{src: 0, dst: 1}]}\n", nil,
			"t.yaml:1: traffic.start: ignored: it is used only with traffic.pattern: incast, permutation or alltoall, and this scenario has traffic.pattern: flows; remove it, or give each flow its own start, or set traffic.pattern: incast, permutation or alltoall"},
		{"traffic beside training", "training: {model: resnet50}\ntopology: {kind: dgx}\ntraffic: {bytes: 1MiB}\n", nil,
			"t.yaml:3: traffic.bytes: ignored: it is used only with a traffic.pattern other than none, and this scenario has traffic.pattern: none; remove it, or set a traffic.pattern other than none"},
		{"k on a star", "topology: {kind: star, k: 8}\n", nil,
			"t.yaml:1: topology.k: ignored: it is used only with topology.kind: fattree, and this scenario has topology.kind: star; remove it, or set topology.kind: fattree"},
		{"hosts on a dgx", "topology: {hosts: 16}\n", []string{"topology.kind=dgx"},
			"t.yaml:1: topology.hosts: ignored: it is used only with topology.kind: star, and this scenario has topology.kind: dgx; remove it (--set topology.hosts= does), or set topology.kind: star"},
		{"hosts removed by an empty set", "topology: {hosts: 16}\n", []string{"topology.kind=dgx", "topology.hosts="}, ""},
		{"spines on one dgx node", "topology: {kind: dgx, spines: 4}\n", nil,
			"t.yaml:1: topology.spines: ignored: it is used only with topology.kind: leafspine, or dgx with nodes above 1, and this scenario has topology.kind: dgx with nodes: 1; remove it, or set topology.kind: leafspine, or dgx with nodes above 1"},
		{"spines on two dgx nodes", "topology: {kind: dgx, nodes: 2, spines: 2}\n", nil, ""},
		{"nvlink on hosts", "topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 1, nvlink: 3}\n", nil,
			"t.yaml:1: topology.nvlink: ignored: it is used only with GPU nodes (topology.kind: dgx, or leafspine with gpus_per_node above 1), and this scenario has topology.kind: leafspine with gpus_per_node: 1; remove it, or use topology.kind: dgx, or leafspine with gpus_per_node above 1"},
		{"dcqcn keys under cc none", "network:\n  cc: none\n  dcqcn: {profile: paper, g: 0.5}\n", nil,
			"t.yaml:3: network.dcqcn: ignored: it is used only with network.cc: dcqcn, and this scenario has network.cc: none; remove it, or set network.cc: dcqcn"},
		{"dcqcn key by --set", "name: x\n", []string{"network.dcqcn.g=0.5"},
			"--set network.dcqcn.g=0.5: network.dcqcn: ignored: it is used only with network.cc: dcqcn, and this scenario has network.cc: none; remove it, or set network.cc: dcqcn"},
		{"ecn under ibcc", "topology: {fabric: ib}\nnetwork: {cc: ibcc, ecn: {kmin: 100KiB}}\n", nil,
			"t.yaml:2: network.ecn: ignored: it is used only with network.cc: dcqcn, and this scenario has network.cc: ibcc; remove it, or set network.cc: dcqcn"},
		{"ibcc keys under dcqcn", "network: {cc: dcqcn, ibcc: {timer: 20us}}\n", nil,
			"t.yaml:1: network.ibcc: ignored: it is used only with network.cc: ibcc, and this scenario has network.cc: dcqcn; remove it, or set network.cc: ibcc"},
		{"pfc thresholds without pfc", "network: {flow_control: none, pfc: {xoff: 1MiB}}\n", nil,
			"t.yaml:1: network.pfc: ignored: it is used only with network.flow_control: pfc, and this scenario has network.flow_control: none; remove it, or set network.flow_control: pfc"},
		{"pool without shared buffers", "network: {dt_alpha: 2}\n", nil,
			"t.yaml:1: network.dt_alpha: ignored: it is used only with network.buffer_model: shared, and this scenario has network.buffer_model: static; remove it, or set network.buffer_model: shared"},
		{"network at flow level", "network: {mtu: 4096, buffer: 4MiB, flow_control: pfc, routing: static, rto: 1ms}\nsim: {fidelity: flow}\n", nil, ""},
		{"collective keys without op", "collective: {algo: ring, bytes: 1MiB}\n", nil,
			"t.yaml:1: collective.algo: ignored: it is used only with collective.op, and this scenario has no collective.op; remove it, or set collective.op\n" +
				"t.yaml:1: collective.bytes: ignored: it is used only with collective.op, and this scenario has no collective.op; remove it, or set collective.op"},
		{"collective options with training", "topology: {kind: dgx}\ntraining: {model: resnet50}\ncollective: {channels: 4, chunk: 1MiB}\n", nil, ""},
		{"channels when streamed", "collective: {op: allreduce, algo: ring, channels: 4, execution: streamed}\n", nil,
			"t.yaml:1: collective.channels: ignored: it is used only with collective.execution: steps, and this scenario has collective.execution: streamed; remove it, or set collective.execution: steps"},
		{"chunk without a collective", "collective: {chunk: 1MiB}\n", nil,
			"t.yaml:1: collective.chunk: ignored: it is used only with collective.execution: steps, and this scenario has neither a collective.op nor a training.model; remove it, or set collective.execution: steps"},
		{"channels at flow level by default", "collective: {op: allreduce, algo: ring, channels: 4}\nsim: {fidelity: flow}\n", nil, ""},
		{"root without broadcast", "collective: {op: allreduce, algo: ring, root: 2}\n", nil,
			"t.yaml:1: collective.root: ignored: it is used only with collective.op: broadcast, and this scenario has collective.op: allreduce; remove it, or set collective.op: broadcast"},
		{"pxn without all-to-all", "collective: {op: allreduce, algo: ring, pxn: false}\n", nil,
			"t.yaml:1: collective.pxn: ignored: it is used only with collective.op: alltoall, and this scenario has collective.op: allreduce; remove it, or set collective.op: alltoall"},
		{"pxn with all-to-all", "collective: {op: alltoall, algo: direct, pxn: false}\n", nil, ""},
		{"alpha under nccl", "topology: {kind: dgx}\ncollective: {op: allreduce, algo: ring, alpha: 2us}\n", nil,
			"t.yaml:2: collective.alpha: ignored: it is used only with collective.latency: alpha, and this scenario has collective.latency: nccl; remove it, or set collective.latency: alpha (under nccl, NCCL's step latencies stand in for alpha)"},
		{"alpha on a star", "collective: {op: allreduce, algo: ring, alpha: 2us}\n", nil, ""},
		{"training keys without model", "training: {gpu: a100}\n", nil,
			"t.yaml:1: training.gpu: ignored: it is used only with training.model, and this scenario has no training.model; remove it, or set training.model"},
		{"layers of a preset", "topology: {kind: dgx}\ntraining: {model: resnet50, layers: [{name: fc, params: 10, flops: 20}]}\n", nil,
			"t.yaml:2: training.layers: ignored: it is used only with training.model: custom, and this scenario has training.model: resnet50; remove it, or set training.model: custom"},
		{"tp_layout without tp", "topology: {kind: dgx}\ntraining: {model: gpt2-1.5b, tp_layout: spread}\nsim: {fidelity: flow}\n", nil,
			"t.yaml:2: training.tp_layout: ignored: it is used only with training.tp above 1 without training.pp, and this scenario has training.tp: 1; remove it, or set training.tp above 1 (with training.pp above 1, training.placement places the groups instead)"},
		{"tp_layout with pp", "topology: {kind: dgx, nodes: 2}\ntraining: {model: gpt2-1.5b, tp: 2, pp: 2, tp_layout: spread}\nsim: {fidelity: flow}\n", nil,
			"t.yaml:2: training.tp_layout: ignored: it is used only with training.tp above 1 without training.pp, and this scenario has training.pp: 2; remove it, or set training.tp above 1 (with training.pp above 1, training.placement places the groups instead)"},
		{"pp_schedule without pp", "topology: {kind: dgx}\ntraining: {model: gpt2-1.5b, pp_schedule: gpipe}\nsim: {fidelity: flow}\n", nil,
			"t.yaml:2: training.pp_schedule: ignored: it is used only with training.pp above 1, and this scenario has training.pp: 1; remove it, or set training.pp above 1"},
		{"an error of its own first", "network: {ecn: {pmax: 2}}\n", nil,
			"t.yaml:1: network.ecn.pmax: 2 is not allowed: pmax is the marking probability at kmax, above 0 and at most 1 (e.g. pmax: 0.2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWith([]byte(tc.doc), "t.yaml", tc.sets)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// TestIgnoredOnlyWhatWasWritten: a scenario built in Go, or one whose
// defaults the settings ignore, is not refused.
func TestIgnoredOnlyWhatWasWritten(t *testing.T) {
	s := Default()
	s.Topology.K = 8 // a star ignores it; nothing was written
	assert.NoError(t, s.Validate())
	_, err := Parse([]byte("topology: {kind: fattree, k: 4}\nsim: {fidelity: flow}\n"), "t.yaml")
	assert.NoError(t, err, "the defaults of hosts, buffer, … are not written")
}

// TestMarshalPrintsWhatIsRead: a printed scenario (what lessons hand the
// canvas) leaves out the keys its settings ignore, so it reads back as
// the same scenario instead of being refused.
func TestMarshalPrintsWhatIsRead(t *testing.T) {
	for _, b := range Builtins() {
		sc, err := Load(b.Name, nil, nil)
		require.NoError(t, err)
		out, err := yaml.Marshal(sc)
		require.NoError(t, err)
		back, err := Parse(out, b.Name)
		require.NoError(t, err, "%s printed:\n%s", b.Name, out)
		again, err := yaml.Marshal(back)
		require.NoError(t, err)
		assert.Equal(t, string(out), string(again), b.Name)
	}
}

func TestUsedPrunes(t *testing.T) {
	out, err := yaml.Marshal(Default())
	require.NoError(t, err)
	assert.Contains(t, string(out), "hosts: 9")
	assert.False(t, strings.Contains(string(out), "dcqcn:"), "cc none: no dcqcn keys\n%s", out)
}

// TestAllToAllRefusedUpFront: an all-to-all whose ranks × (ranks − 1)
// transfers pass a run's flows is refused by validation, naming how many
// ranks fit, before its schedule is built (alltoall-moe at 256 flow-level
// nodes took 14 s and 965 MB to be refused when the run started).
func TestAllToAllRefusedUpFront(t *testing.T) {
	data, ok := Builtin("alltoall-moe")
	require.True(t, ok)
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"sim.fidelity=flow", "topology.nodes=256"},
			"--set topology.nodes=256: topology.nodes: 256 makes an all-to-all over 2048 ranks: 4192256 transfers, more than the 2097152 a run may make; use at most 1448 ranks (e.g. collective.ranks: 1448)"},
		{[]string{"sim.fidelity=flow", "topology.nodes=256", "collective.ranks=1449"},
			"--set collective.ranks=1449: collective.ranks: 1449 makes an all-to-all over 1449 ranks: 2098152 transfers, more than the 2097152 a run may make; use at most 1448 ranks (e.g. collective.ranks: 1448)"},
		{[]string{"sim.fidelity=flow", "topology.nodes=256", "collective.ranks=64"}, ""},
	} {
		_, err := ParseWith(data, "alltoall-moe.yaml", tc.sets)
		if tc.want == "" {
			assert.NoError(t, err, tc.sets)
			continue
		}
		require.Error(t, err, tc.sets)
		assert.Equal(t, tc.want, err.Error())
	}
}
