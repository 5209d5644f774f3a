package scenario

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/golden"
	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

func TestDefaults(t *testing.T) {
	s, err := Parse([]byte("name: plain\n"), "t.yaml")
	require.NoError(t, err)
	want := Default()
	want.Name = "plain"
	assert.Equal(t, want, s, "a document with only a name is Default with that name")
	assert.Equal(t, 9, s.Endpoints())
	assert.Equal(t, 8, s.IncastReceiver())
}

func TestSendersDefault(t *testing.T) {
	s, err := Parse([]byte("topology: {kind: dgx}\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, 7, s.Traffic.Senders, "the default 8 senders shrink to fit 8 GPUs")
	assert.Equal(t, 7, s.IncastReceiver())

	s, err = Parse([]byte("topology: {hosts: 64}\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, 8, s.Traffic.Senders, "the default does not grow")
}

func TestFabricDefaults(t *testing.T) {
	for _, tc := range []struct {
		doc         string
		flowControl string
		routing     string
	}{
		{"topology: {fabric: ib}", FCCredit, RouteStatic},
		{"topology: {fabric: roce}", FCPFC, RouteECMP},
		{"topology: {fabric: ethernet}", FCNone, RouteECMP},
		{"topology: {fabric: ib}\nnetwork: {routing: adaptive}", FCCredit, RouteAdaptive},
		{"topology: {fabric: ethernet}\nnetwork: {flow_control: pfc}", FCPFC, RouteECMP},
	} {
		s, err := Parse([]byte(tc.doc), "t.yaml")
		require.NoError(t, err, tc.doc)
		assert.Equal(t, tc.flowControl, s.Network.FlowControl, tc.doc)
		assert.Equal(t, tc.routing, s.Network.Routing, tc.doc)
	}
}

func TestTopologyDefaults(t *testing.T) {
	for _, tc := range []struct {
		doc       string
		want      Topology // only the shape fields are compared
		endpoints int
	}{
		{"topology: {kind: dgx}", Topology{Nodes: 1, GPUsPerNode: 8}, 8},
		{"topology: {kind: dgx, nodes: 4}", Topology{Nodes: 4, GPUsPerNode: 8, Spines: 4}, 32},
		{"topology: {kind: dgx, nodes: 16, oversubscription: 2}", Topology{Nodes: 16, GPUsPerNode: 8, Spines: 8}, 128},
		{"topology: {kind: dgx, nodes: 16, spines: 2}", Topology{Nodes: 16, GPUsPerNode: 8, Spines: 2}, 128},
		{"topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8, spines: 8}", Topology{Leaves: 4, HostsPerLeaf: 8, Spines: 8, GPUsPerNode: 1}, 32},
		{"topology: {kind: leafspine, leaves: 1, hosts_per_leaf: 8}", Topology{Leaves: 1, HostsPerLeaf: 8, GPUsPerNode: 1}, 8},
		{"topology: {kind: leafspine, leaves: 8, hosts_per_leaf: 4, gpus_per_node: 8, rail_optimized: true, spines: 2}",
			Topology{Leaves: 8, HostsPerLeaf: 4, Spines: 2, GPUsPerNode: 8, RailOptimized: true}, 32},
		{"topology: {kind: fattree, k: 4}", Topology{K: 4}, 16},
	} {
		s, err := Parse([]byte(tc.doc), "t.yaml")
		require.NoError(t, err, tc.doc)
		got := Topology{
			Nodes: s.Topology.Nodes, GPUsPerNode: s.Topology.GPUsPerNode, Leaves: s.Topology.Leaves,
			Spines: s.Topology.Spines, HostsPerLeaf: s.Topology.HostsPerLeaf, K: s.Topology.K, RailOptimized: s.Topology.RailOptimized,
		}
		if tc.want.K == 0 && s.Topology.Kind == FatTree {
			t.Fatalf("%s: k not decoded", tc.doc)
		}
		assert.Equal(t, tc.want, got, tc.doc)
		assert.Equal(t, tc.endpoints, s.Endpoints(), tc.doc)
	}
}

func TestTrafficDefaults(t *testing.T) {
	s, err := Parse([]byte(`
traffic:
  bytes: 1MiB
  flows:
    - {src: 0, dst: 1}
    - {src: 2, dst: 3, bytes: 4KiB, start: 2us}
`), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, PatternFlows, s.Traffic.Pattern, "flows without a pattern means pattern: flows")
	assert.Equal(t, []Flow{{Src: 0, Dst: 1, Bytes: unit.MiB}, {Src: 2, Dst: 3, Bytes: 4 * unit.KiB, Start: 2 * unit.Microsecond}}, s.Traffic.Flows)
}

func TestAnchorsAndMerges(t *testing.T) {
	s, err := Parse([]byte(`
traffic:
  pattern: flows
  flows:
    - &f {src: 0, dst: 1, bytes: 1MiB}
    - {<<: *f, dst: 2}
    - *f
`), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, []Flow{{Src: 0, Dst: 1, Bytes: unit.MiB}, {Src: 0, Dst: 2, Bytes: unit.MiB}, {Src: 0, Dst: 1, Bytes: unit.MiB}}, s.Traffic.Flows)
}

func TestBuiltins(t *testing.T) {
	infos := Builtins()
	var names []string
	for _, b := range infos {
		names = append(names, b.Name)
		assert.NotEmpty(t, b.Summary, b.Name)
		assert.NotContains(t, b.Summary, "#", b.Name)
	}
	assert.Equal(t, []string{"alltoall-moe", "dp-llama3-8b-1024", "dp-resnet50", "ecmp-collisions", "hierarchical-allreduce",
		"ib-vs-roce-incast", "incast", "incast-dcqcn", "incast-ibcc", "incast-lossy", "noisy-neighbor", "perm-1024", "permutation",
		"ring-allreduce-8", "victim-flow"}, names)

	for _, name := range names {
		data, ok := Builtin(name)
		require.True(t, ok, name)
		s, err := Parse(data, name+".yaml")
		require.NoError(t, err, name)
		assert.Equal(t, name, s.Name)
	}
	_, ok := Builtin("nope")
	assert.False(t, ok)
	_, ok = Builtin("../builtin/incast")
	assert.False(t, ok)
}

func TestBuiltinContents(t *testing.T) {
	load := func(name string) Scenario {
		s, err := Load(name, nil, nil)
		require.NoError(t, err, name)
		return s
	}

	s := load("incast")
	assert.Equal(t, Topology{Kind: Star, Hosts: 9, Oversub: 1, Fabric: RoCE, LinkGbps: 400,
		LinkLatency: unit.Microsecond, SwitchLatency: 300 * unit.Nanosecond, NVLinkEfficiency: DefaultNVLinkEfficiency}, s.Topology)
	assert.Equal(t, Network{MTU: 4096, Buffer: 2 * unit.MiB, FlowControl: FCPFC, Routing: RouteECMP, CC: CCNone,
		ECN: ECN{PMax: 0.2}, CNPInterval: 50 * unit.Microsecond, ClampTargetRate: true, RTO: 100 * unit.Microsecond, AckEvery: 16, BufferModel: BufferStatic, DTAlpha: 1,
		IBCC: IBCC{MarkingRate: 1, Timer: 10 * unit.Microsecond, CCTIIncrease: 1, CCTILimit: 127, CCTStep: 0.125}}, s.Network)
	assert.Equal(t, Traffic{Pattern: PatternIncast, Senders: 8, Receiver: -1, Bytes: 64 * unit.MiB}, s.Traffic)

	lossy := load("incast-lossy")
	assert.Equal(t, FCNone, lossy.Network.FlowControl)
	assert.Equal(t, 256*unit.KiB, lossy.Network.Buffer)
	assert.Equal(t, 20*unit.Millisecond, lossy.Until)
	lossy.Name, lossy.Network.FlowControl, lossy.Network.Buffer, lossy.Until = s.Name, s.Network.FlowControl, s.Network.Buffer, s.Until
	assert.Equal(t, s, lossy, "incast-lossy differs from incast only in flow control, buffer and time limit")

	dcqcn := load("incast-dcqcn")
	assert.Equal(t, CCDCQCN, dcqcn.Network.CC)
	dcqcn.Name, dcqcn.Network.CC = s.Name, s.Network.CC
	assert.Equal(t, s, dcqcn, "incast-dcqcn differs from incast only in congestion control")

	ib := load("incast-ibcc")
	assert.Equal(t, IB, ib.Topology.Fabric)
	assert.Equal(t, FCCredit, ib.Network.FlowControl)
	assert.Equal(t, RouteStatic, ib.Network.Routing)
	assert.Equal(t, CCIBCC, ib.Network.CC)
	assert.Equal(t, IBCC{MarkingRate: 1, Timer: 10 * unit.Microsecond, CCTIIncrease: 1, CCTILimit: 127, CCTStep: 0.125}, ib.Network.IBCC, "the defaults")
	assert.Equal(t, 512*unit.KiB, ib.IBCCThreshold(), "a quarter of the buffer")
	ib.Name, ib.Topology.Fabric, ib.Network.FlowControl, ib.Network.Routing, ib.Network.CC = s.Name, s.Topology.Fabric, s.Network.FlowControl, s.Network.Routing, s.Network.CC
	assert.Equal(t, s, ib, "incast-ibcc differs from incast only in fabric, flow control, routing and congestion control")

	s = load("ecmp-collisions")
	assert.Equal(t, 128, s.Endpoints())
	assert.Equal(t, 64, s.Topology.Spines)
	require.Len(t, s.Traffic.Flows, 64)
	for i, f := range s.Traffic.Flows {
		assert.Equal(t, Flow{Src: i, Dst: 64 + i, Bytes: 16 * unit.MiB}, f)
	}

	s = load("permutation")
	assert.Equal(t, 64, s.Endpoints())
	assert.Equal(t, PatternPermutation, s.Traffic.Pattern)
	assert.Equal(t, 16*unit.MiB, s.Traffic.Bytes)

	s = load("perm-1024")
	assert.Equal(t, 1024, s.Endpoints())
	assert.Equal(t, RouteSpray, s.Network.Routing)
	assert.Equal(t, 100.0, s.Topology.LinkGbps)
	assert.Equal(t, unit.Bytes(2_000_000), s.Traffic.Bytes)
}

func TestLoad(t *testing.T) {
	files := map[string]string{
		"mine.yaml": "name: mine\n",
		"incast":    "name: not-the-builtin\n",
		"bad.yaml":  "topology: {hosts: 1}\n",
	}
	readFile := func(name string) ([]byte, error) {
		if doc, ok := files[name]; ok {
			return []byte(doc), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}

	s, err := Load("mine.yaml", readFile, []string{"seed=7"})
	require.NoError(t, err)
	assert.Equal(t, "mine", s.Name)
	assert.Equal(t, uint64(7), s.Seed)

	s, err = Load("incast", readFile, nil)
	require.NoError(t, err)
	assert.Equal(t, "incast", s.Name, "a built-in name wins over a file without a path")

	_, err = Load("bad.yaml", readFile, nil)
	require.Error(t, err)
	assert.Equal(t, "bad.yaml:1: topology.hosts: 1 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)", err.Error())

	_, err = Load("incast", readFile, []string{"topology.hosts=1"})
	require.Error(t, err)
	assert.Equal(t, "--set topology.hosts=1: topology.hosts: 1 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)", err.Error())

	_, err = Load("nosuch", readFile, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), `scenario "nosuch" is neither a file nor a built-in; built-ins are alltoall-moe, dp-llama3-8b-1024, dp-resnet50, ecmp-collisions, hierarchical-allreduce, ib-vs-roce-incast, incast, incast-dcqcn, incast-ibcc, incast-lossy, noisy-neighbor, perm-1024, permutation, ring-allreduce-8, victim-flow`)

	_, err = Load("./missing.yaml", readFile, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "missing.yaml")

	_, err = Load("nosuch", nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "built-ins are alltoall-moe, dp-llama3-8b-1024")
}

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		base  string
		sets  []string
		check func(t *testing.T, s Scenario)
	}{
		{"int", "incast", []string{"topology.hosts=17"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 17, s.Topology.Hosts)
		}},
		{"string", "incast", []string{"network.routing=spray"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, RouteSpray, s.Network.Routing)
		}},
		{"top level", "incast", []string{"seed=7", "name=seven"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, uint64(7), s.Seed)
			assert.Equal(t, "seven", s.Name)
		}},
		{"list item", "ecmp-collisions", []string{"traffic.flows[0].bytes=1MiB"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, Flow{Src: 0, Dst: 64, Bytes: unit.MiB}, s.Traffic.Flows[0])
			assert.Equal(t, 16*unit.MiB, s.Traffic.Flows[1].Bytes)
		}},
		{"append item", "ecmp-collisions", []string{"traffic.flows[64]={src: 127, dst: 0}"}, func(t *testing.T, s Scenario) {
			require.Len(t, s.Traffic.Flows, 65)
			assert.Equal(t, Flow{Src: 127, Dst: 0, Bytes: 16 * unit.MiB}, s.Traffic.Flows[64])
		}},
		{"whole list", "incast", []string{"traffic.pattern=flows", "traffic.flows=[{src: 0, dst: 1}, {src: 2, dst: 3, bytes: 1KiB}]"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, []Flow{{Src: 0, Dst: 1, Bytes: 64 * unit.MiB}, {Src: 2, Dst: 3, Bytes: unit.KiB}}, s.Traffic.Flows)
		}},
		{"missing mapping", "incast", []string{"network.pfc.headroom=200KiB"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 200*unit.KiB, s.Network.PFC.Headroom)
		}},
		{"later wins", "incast", []string{"topology.hosts=5", "topology.hosts=17"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 17, s.Topology.Hosts)
		}},
		{"switch kind", "incast", []string{"topology.kind=fattree", "topology.k=4", "network.routing=spray"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 16, s.Endpoints())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, ok := Builtin(tc.base)
			require.True(t, ok)
			s, err := ParseWith(data, tc.base+".yaml", tc.sets)
			require.NoError(t, err)
			tc.check(t, s)
		})
	}
}

// TestErrors checks every class of error for its location and key; the
// golden files under testdata/errors pin a few messages word for word.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		doc   string
		sets  []string
		where string // "t.yaml:3", "t.yaml" (absent key) or "--set …"
		key   string
		says  string
	}{
		// Document shape.
		{"empty", "", nil, "t.yaml", "", "empty document"},
		{"comments only", "# nothing\n", nil, "t.yaml", "", "empty document"},
		{"null document", "~\n", nil, "t.yaml", "", "empty document"},
		{"list at top", "- a\n- b\n", nil, "t.yaml:1", "", "the top level must be keys"},
		{"scalar at top", "hello\n", nil, "t.yaml:1", "", "the top level must be keys"},
		{"not yaml", "topology:\n  hosts: [1, 2\n", nil, "t.yaml:2", "", "not valid YAML"},
		{"tab indent", "topology:\n\thosts: 3\n", nil, "t.yaml:2", "", "not valid YAML"},
		{"two documents", "name: a\n---\nname: b\n", nil, "t.yaml:2", "", "a second YAML document"},
		{"too big", "name: " + strings.Repeat("x", MaxSourceBytes), nil, "t.yaml", "", "a scenario may have at most"},
		// Keys.
		{"unknown key", "network:\n  buffr: 1MiB\n", nil, "t.yaml:2", "network.buffr", "unknown key; network takes mtu, buffer, flow_control, routing, cc, ecn, cnp_interval, clamp_target_rate, ibcc, pfc, rto, ack_every"},
		{"unknown top key", "\ntopo: {}\n", nil, "t.yaml:2", "topo", "unknown key; the top level takes name, seed, topology, network, traffic, until, sim"},
		{"unknown flow key", "traffic:\n  flows:\n    - {src: 0, dst: 1}\n    - {src: 0, to: 1}\n", nil, "t.yaml:4", "traffic.flows[1].to", "unknown key; traffic.flows[1] takes src, dst, bytes, start"},
		{"duplicate key", "network:\n  mtu: 4096\n  mtu: 9000\n", nil, "t.yaml:3", "network.mtu", "duplicate key; first at line 2"},
		{"complex key", "? [a]\n: 1\n", nil, "t.yaml:1", "", "a key must be a plain name"},
		{"alias loop", "topology: &t {<<: *t}\n", nil, "t.yaml:1", "topology", "merges (<<) nest more than"},
		// Types.
		{"not whole", "topology:\n  hosts: nine\n", nil, "t.yaml:2", "topology.hosts", `"nine" is not a whole number`},
		{"float for int", "topology:\n  hosts: 9.5\n", nil, "t.yaml:2", "topology.hosts", "9.5 is not a whole number"},
		{"quoted int", "topology:\n  hosts: \"9\"\n", nil, "t.yaml:2", "topology.hosts", `"9" is not a whole number; write it without quotes`},
		{"int too large", "topology:\n  hosts: 99999999999999999999\n", nil, "t.yaml:2", "topology.hosts", "not a whole number"},
		{"mapping for int", "topology:\n  hosts: {a: 1}\n", nil, "t.yaml:2", "topology.hosts", "expected a whole number; found a mapping"},
		{"scalar for mapping", "topology: star\n", nil, "t.yaml:1", "topology", `expected keys (topology takes kind, hosts,`},
		{"scalar for list", "traffic:\n  flows: 3\n", nil, "t.yaml:2", "traffic.flows", "expected a list"},
		{"bool", "topology:\n  rail_optimized: maybe\n", nil, "t.yaml:2", "topology.rail_optimized", `"maybe" is not true or false`},
		{"float", "topology:\n  link_gbps: fast\n", nil, "t.yaml:2", "topology.link_gbps", `"fast" is not a number`},
		{"infinite", "topology:\n  link_gbps: .inf\n", nil, "t.yaml:2", "topology.link_gbps", ".inf is not a finite number"},
		{"size", "network:\n  buffer: lots\n", nil, "t.yaml:2", "network.buffer", `size "lots" is not a size`},
		{"negative size", "network:\n  mtu: -4096\n", nil, "t.yaml:2", "network.mtu", `size "-4096" is negative: it must be ≥ 0`},
		{"time", "network:\n  rto: 100\n", nil, "t.yaml:2", "network.rto", `time "100" is not a duration`},
		{"negative time", "traffic:\n  start: -1us\n", nil, "t.yaml:2", "traffic.start", `time "-1us" is negative: it must be ≥ 0`},
		{"negative seed", "seed: -1\n", nil, "t.yaml:1", "seed", "use a whole number from 0 to 18446744073709551615"},
		{"null value", "topology:\n  hosts:\n", nil, "t.yaml:2", "topology.hosts", "no value"},
		// Enums.
		{"kind", "topology:\n  kind: ring\n", nil, "t.yaml:2", "topology.kind", `"ring" is not a topology kind; use star, dgx, leafspine or fattree`},
		{"fabric", "topology:\n  fabric: infiniband\n", nil, "t.yaml:2", "topology.fabric", `use ib, roce or ethernet`},
		{"flow control", "network:\n  flow_control: xon\n", nil, "t.yaml:2", "network.flow_control", "use none, credit or pfc"},
		{"routing", "network:\n  routing: ecmpp\n", nil, "t.yaml:2", "network.routing", "use static, ecmp, adaptive or spray"},
		{"cc dcqcn on ib", "topology: {fabric: ib}\nnetwork:\n  cc: dcqcn\n", nil, "t.yaml:3", "network.cc", "dcqcn is RoCE's congestion control (ECN marks and CNPs over Ethernet); on fabric ib use cc: ibcc"},
		{"cc dcqcn at flow level", "network: {cc: dcqcn}\nsim: {fidelity: flow}\n", nil, "t.yaml:1", "network.cc", "dcqcn runs only at packet level: the flow-level model has no queues to mark; use sim.fidelity: packet, or cc: none"},
		{"cc ibcc on roce", "network:\n  cc: ibcc\n", nil, "t.yaml:2", "network.cc", "ibcc is InfiniBand's congestion control (FECN and BECN bits); on fabric roce use cc: dcqcn, or fabric: ib"},
		{"cc ibcc on ethernet", "topology: {fabric: ethernet}\nnetwork: {cc: ibcc}\n", nil, "t.yaml:2", "network.cc", "on fabric ethernet use cc: dcqcn, or fabric: ib"},
		{"cc ibcc lossy", "topology: {fabric: ib}\nnetwork: {flow_control: none, cc: ibcc}\n", nil, "t.yaml:2", "network.cc", "ibcc works with InfiniBand's credit flow control; use flow_control: credit, or cc: none"},
		{"cc ibcc at flow level", "topology: {fabric: ib}\nnetwork: {cc: ibcc}\nsim: {fidelity: flow}\n", nil, "t.yaml:2", "network.cc", "ibcc runs only at packet level: the flow-level model has no queues to mark; use sim.fidelity: packet, or cc: none"},
		{"cc unknown", "network:\n  cc: bbr\n", nil, "t.yaml:2", "network.cc", `"bbr" is not a congestion control; use none, dcqcn (RoCE) or ibcc (InfiniBand)`},
		{"ibcc threshold negative", "network:\n  ibcc: {threshold: -1KiB}\n", nil, "t.yaml:2", "network.ibcc.threshold", "negative"},
		{"ibcc threshold above buffer", "network:\n  buffer: 1MiB\n  ibcc: {threshold: 2MiB}\n", nil, "t.yaml:3", "network.ibcc.threshold", "2MiB is more than the 1MiB port buffer; use threshold: 256KiB or less (0: a quarter of the buffer)"},
		{"ibcc marking rate", "network:\n  ibcc: {marking_rate: 0}\n", nil, "t.yaml:2", "network.ibcc.marking_rate", "0 is not allowed: marking_rate (mark 1 in this many packets) must be at least 1 (e.g. marking_rate: 1)"},
		{"ibcc marking rate high", "name: x\n", []string{"network.ibcc.marking_rate=70000"}, "--set network.ibcc.marking_rate=70000", "network.ibcc.marking_rate", "must be at most 65535"},
		{"ibcc becn interval", "network:\n  ibcc: {becn_interval: -1us}\n", nil, "t.yaml:2", "network.ibcc.becn_interval", "negative"},
		{"ibcc timer short", "network:\n  ibcc: {timer: 100ns}\n", nil, "t.yaml:2", "network.ibcc.timer", "100ns is too short: it must be from 1us to 1s (e.g. timer: 10us)"},
		{"ibcc ccti limit", "network:\n  ibcc: {ccti_limit: 20000}\n", nil, "t.yaml:2", "network.ibcc.ccti_limit", "20000 is too many: ccti_limit must be at most 16383 (e.g. ccti_limit: 127)"},
		{"ibcc ccti increase", "network:\n  ibcc: {ccti_increase: 0}\n", nil, "t.yaml:2", "network.ibcc.ccti_increase", "must be at least 1"},
		{"ibcc ccti min", "network:\n  ibcc: {ccti_min: 127}\n", nil, "t.yaml:2", "network.ibcc.ccti_min", "127 must be below ccti_limit (127) (e.g. ccti_min: 0)"},
		{"ibcc ccti min negative", "network:\n  ibcc: {ccti_min: -1}\n", nil, "t.yaml:2", "network.ibcc.ccti_min", "negative"},
		{"ibcc cct step", "network:\n  ibcc: {cct_step: 0}\n", nil, "t.yaml:2", "network.ibcc.cct_step", "0 is not allowed: the delay per CCTI step is in packet times, above 0 and at most 64 (e.g. cct_step: 0.125)"},
		{"ecn kmin above kmax", "network:\n  cc: dcqcn\n  ecn: {kmin: 500KiB, kmax: 400KiB}\n", nil, "t.yaml:3", "network.ecn.kmin", "500KiB must be below kmax (400KiB) (e.g. kmin: 100KiB)"},
		{"ecn kmin above derived kmax", "network:\n  cc: dcqcn\n  ecn: {kmin: 2MiB}\n", nil, "t.yaml:3", "network.ecn.kmin", "2MiB must be below kmax (1638KiB) (e.g. kmin: 409KiB)"},
		{"ecn kmax above buffer", "network:\n  buffer: 1MiB\n  ecn: {kmax: 2MiB}\n", nil, "t.yaml:3", "network.ecn.kmax", "2MiB is more than the 1MiB port buffer; use kmax: 819KiB or less"},
		{"ecn negative", "network:\n  ecn: {kmin: -1KiB}\n", nil, "t.yaml:2", "network.ecn.kmin", "negative"},
		{"ecn pmax zero", "network:\n  ecn: {pmax: 0}\n", nil, "t.yaml:2", "network.ecn.pmax", "0 is not allowed: pmax is the marking probability at kmax, above 0 and at most 1 (e.g. pmax: 0.2)"},
		{"ecn pmax above 1", "network:\n  ecn: {pmax: 1.5}\n", nil, "t.yaml:2", "network.ecn.pmax", "1.5 is not allowed"},
		{"ecn pmax set", "name: x\n", []string{"network.ecn.pmax=-0.1"}, "--set network.ecn.pmax=-0.1", "network.ecn.pmax", "-0.1 is not allowed"},
		{"cnp interval", "network:\n  cnp_interval: -1us\n", nil, "t.yaml:2", "network.cnp_interval", "negative"},
		{"cnp interval long", "network:\n  cnp_interval: 2s\n", nil, "t.yaml:2", "network.cnp_interval", "too long: it must be at most 1s (e.g. cnp_interval: 50us)"},
		{"pattern", "traffic:\n  pattern: ring\n", nil, "t.yaml:2", "traffic.pattern", "use flows, incast, permutation, alltoall or none"},
		{"fidelity unknown", "sim:\n  fidelity: fluid\n", nil, "t.yaml:2", "sim.fidelity", "use packet or flow"},
		{"fidelity", "sim:\n  fidelity: exact\n", nil, "t.yaml:2", "sim.fidelity", "use packet or flow"},
		// Topology.
		{"star hosts", "topology:\n  kind: star\n  hosts: 0\n", nil, "t.yaml:3", "topology.hosts", "0 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)"},
		{"star too many", "topology: {hosts: 70000}\n", nil, "t.yaml:1", "topology.hosts", "at most 65536"},
		{"star packet", "topology: {hosts: 9000}\n", nil, "t.yaml:1", "topology.hosts", "packet-level runs (sim.fidelity: packet) allow at most 8192"},
		{"dgx nodes", "topology: {kind: dgx, nodes: 0}\n", nil, "t.yaml:1", "topology.nodes", "0 is not allowed"},
		{"dgx gpus", "topology: {kind: dgx, gpus_per_node: 17}\n", nil, "t.yaml:1", "topology.gpus_per_node", "at most 16"},
		{"dgx one gpu", "topology: {kind: dgx, gpus_per_node: 1}\n", nil, "t.yaml:1", "topology.gpus_per_node", "nobody to talk to"},
		{"dgx oversub", "topology: {kind: dgx, nodes: 6, oversubscription: 4}\n", nil, "t.yaml:1", "topology.oversubscription", "use 1, 2, 3 or 6"},
		{"dgx spines", "topology: {kind: dgx, nodes: 8, spines: 3}\n", nil, "t.yaml:1", "topology.spines", "3 does not divide the 8 uplinks of each leaf evenly: use 1, 2, 4 or 8"},
		{"leafspine no spines", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8}\n", nil, "t.yaml", "topology.spines", "not set: 4 leaves need spines"},
		{"leafspine spines 0", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8,\n  spines: 0}\n", nil, "t.yaml:2", "topology.spines", "0 is not allowed"},
		{"leafspine spines", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 12,\n  spines: 5}\n", nil, "t.yaml:2", "topology.spines", "use 1, 2, 3, 4, 6 or 12"},
		{"leafspine oversub", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8, spines: 2,\n  oversubscription: 3}\n", nil, "t.yaml:2", "topology.oversubscription", "use 1, 2, 4 or 8"},
		{"leafspine oversub < 1", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8, spines: 2,\n  oversubscription: 0.5}\n", nil, "t.yaml:2", "topology.oversubscription", "it must be ≥ 1"},
		{"leafspine leaves", "topology: {kind: leafspine, leaves: 0, hosts_per_leaf: 8}\n", nil, "t.yaml:1", "topology.leaves", "0 is not allowed"},
		{"leafspine tiny", "topology: {kind: leafspine, leaves: 1, hosts_per_leaf: 1}\n", nil, "t.yaml:1", "topology.hosts_per_leaf", "nobody to talk to"},
		{"leafspine whole nodes", "topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 12, spines: 4, gpus_per_node: 8}\n", nil, "t.yaml:1", "topology.hosts_per_leaf", "use a multiple of 8"},
		{"rail needs gpus", "topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 4,\n  rail_optimized: true}\n", nil, "t.yaml:2", "topology.rail_optimized", "gpus_per_node: 8"},
		{"rail leaves", "topology: {kind: leafspine, leaves: 4, hosts_per_leaf: 8, spines: 4, gpus_per_node: 8,\n  rail_optimized: true}\n", nil, "t.yaml:1", "topology.leaves", "one leaf per GPU of a node (leaves: 8)"},
		{"fattree odd", "topology: {kind: fattree, k: 5}\n", nil, "t.yaml:1", "topology.k", "k must be even, from 4 to 64"},
		{"fattree big", "topology: {kind: fattree, k: 66}\n", nil, "t.yaml:1", "topology.k", "k must be even"},
		{"fattree packet", "topology: {kind: fattree, k: 64}\n", nil, "t.yaml:1", "topology.k", "a k=64 fat tree gives 65536 endpoints; packet-level runs"},
		{"fattree oversub", "topology: {kind: fattree, k: 4, oversubscription: 2}\n", nil, "t.yaml:1", "topology.oversubscription", "full bisection"},
		{"link rate", "topology:\n  link_gbps: 0\n", nil, "t.yaml:2", "topology.link_gbps", "above 0 and at most 100000"},
		{"link latency", "topology:\n  link_latency: 2s\n", nil, "t.yaml:2", "topology.link_latency", "2s is too long"},
		// Network.
		{"mtu", "network:\n  mtu: 100\n", nil, "t.yaml:2", "network.mtu", "100 is not allowed: mtu must be from 256 to 9216 bytes (e.g. mtu: 4096)"},
		{"buffer small", "network: {flow_control: none,\n  buffer: 4KiB}\n", nil, "t.yaml:2", "network.buffer", "a port must hold 2 packets of 4178 bytes (e.g. buffer: 9KiB)"},
		{"buffer large", "network:\n  buffer: 2GiB\n", nil, "t.yaml:2", "network.buffer", "too large: at most 1GiB"},
		{"credit on roce", "network:\n  flow_control: credit\n", nil, "t.yaml:2", "network.flow_control", "on fabric roce use pfc"},
		{"pfc on ib", "topology: {fabric: ib}\nnetwork:\n  flow_control: pfc\n", nil, "t.yaml:3", "network.flow_control", "on fabric ib use credit"},
		{"rto", "network:\n  rto: 10ns\n", nil, "t.yaml:2", "network.rto", "10ns is too short: it must be from 1us to 1s"},
		{"ack every", "network:\n  ack_every: 0\n", nil, "t.yaml:2", "network.ack_every", "at least 1"},
		{"pfc buffer", "network:\n  buffer: 100KiB\n", nil, "t.yaml:2", "network.buffer", "too small for PFC: the headroom alone is 123356 bytes"},
		{"pfc buffer absent", "topology:\n  link_latency: 100us\n", nil, "t.yaml", "network.buffer", "too small for PFC"},
		{"pfc headroom", "network:\n  pfc: {headroom: 64KiB}\n", nil, "t.yaml:2", "network.pfc.headroom", "use headroom: 121KiB or more"},
		{"pfc xon", "network:\n  pfc: {xoff: 1MiB, xon: 1MiB}\n", nil, "t.yaml:2", "network.pfc.xon", "must be below xoff (1MiB)"},
		{"pfc xoff", "network:\n  pfc: {xoff: 2MiB}\n", nil, "t.yaml:2", "network.pfc.xoff", "is more than the 2MiB buffer"},
		{"pfc xoff small", "network:\n  pfc: {xoff: 4KiB}\n", nil, "t.yaml:2", "network.pfc.xoff", "leaves no room for xon"},
		{"pfc headroom big", "network:\n  pfc: {headroom: 2040KiB}\n", nil, "t.yaml:2", "network.pfc.headroom", "leaves no room for xoff and xon"},
		// Traffic.
		{"bytes", "traffic:\n  bytes: 0\n", nil, "t.yaml:2", "traffic.bytes", "0 is not allowed: a flow needs at least 1 byte"},
		{"bytes large", "traffic:\n  bytes: 2TiB\n", nil, "t.yaml:2", "traffic.bytes", "a flow has at most 1TiB"},
		{"senders", "traffic:\n  senders: 9\n", nil, "t.yaml:2", "traffic.senders", "9 is too many: with 9 endpoints, senders must be at most 8"},
		{"senders 0", "traffic:\n  senders: 0\n", nil, "t.yaml:2", "traffic.senders", "at least 1"},
		{"receiver range", "traffic:\n  receiver: 9\n", nil, "t.yaml:2", "traffic.receiver", "9 is not an endpoint: use -1 (the endpoint after the senders) or 0 to 8"},
		{"receiver sender", "topology: {hosts: 16}\ntraffic:\n  receiver: 3\n", nil, "t.yaml:3", "traffic.receiver", "3 is one of the senders (endpoints 0 to 7); use receiver: -1 (endpoint 8) or one of 8 to 15"},
		{"flows empty", "traffic:\n  pattern: flows\n", nil, "t.yaml", "traffic.flows", "pattern flows needs a list of flows"},
		{"flow src", "traffic:\n  flows:\n    - {src: 9, dst: 1}\n", nil, "t.yaml:3", "traffic.flows[0].src", "9 is not an endpoint: there are 9, numbered 0 to 8"},
		{"flow self", "traffic:\n  flows:\n    - {src: 0, dst: 1}\n    - {src: 2,\n       dst: 2}\n", nil, "t.yaml:4", "traffic.flows[1]", "src and dst are both 2"},
		{"flow bytes", "traffic:\n  flows:\n    - {src: 0, dst: 1, bytes: 0}\n", nil, "t.yaml:3", "traffic.flows[0].bytes", "omit bytes to use traffic.bytes, 64MiB"},
		{"flow start", "traffic:\n  flows:\n    - {src: 0, dst: 1, start: 1000s}\n", nil, "t.yaml:3", "traffic.flows[0].start", "too long"},
		{"alltoall", "topology: {hosts: 1025}\ntraffic:\n  pattern: alltoall\n", nil, "t.yaml:1", "topology.hosts", "alltoall takes at most 1024 endpoints"},
		{"packets", "traffic:\n  bytes: 1TiB\n", nil, "t.yaml:2", "traffic.bytes", "1TiB for each of 8 flows comes to 2147483648 packets of 4KiB; packet-level runs allow at most 200000000"},
		{"mtu 0 with flows", "network:\n  mtu: 0\ntraffic:\n  flows: [{src: 0, dst: 1}]\n", nil, "t.yaml:2", "network.mtu", "0 is not allowed"},
		{"flow packets", "traffic:\n  flows:\n    - {src: 0, dst: 1, bytes: 1TiB}\n", nil, "t.yaml:3", "traffic.flows", "1 flows come to 268435456 packets"},
		// Run.
		{"until", "until: 1000s\n", nil, "t.yaml:1", "until", "1000s is too long: at most 100s"},
		{"name", "name: ''\n", nil, "t.yaml:1", "name", "must not be empty"},
		{"sample interval", "sim:\n  sample_interval: 10ns\n", nil, "t.yaml:2", "sim.sample_interval", "10ns is too short"},
		// --set.
		{"set syntax", "name: x\n", []string{"foo"}, "--set foo", "", "expected key.path=value"},
		{"set unknown", "name: x\n", []string{"topology.hostz=3"}, "--set topology.hostz=3", "", "unknown key; topology takes kind, hosts,"},
		{"set below scalar", "name: x\n", []string{"topology.hosts.x=3"}, "--set topology.hosts.x=3", "", "topology.hosts has no keys below it"},
		{"set list without index", "name: x\n", []string{"traffic.flows.src=3"}, "--set traffic.flows.src=3", "", "traffic.flows is a list; name an item, e.g. traffic.flows[0].src"},
		{"set index", "name: x\n", []string{"traffic.flows[x].src=3"}, "--set traffic.flows[x].src=3", "", `"flows[x]" is not a key or a list item`},
		{"set index not list", "name: x\n", []string{"topology[0]=3"}, "--set topology[0]=3", "", "topology is not a list"},
		{"set index range", "traffic:\n  flows: [{src: 0, dst: 1}]\n", []string{"traffic.flows[5].src=3"}, "--set traffic.flows[5].src=3", "", "traffic.flows has 1 items, [0] to [0]; use traffic.flows[1] to add one"},
		{"set through scalar", "topology: star\n", []string{"topology.hosts=3"}, "--set topology.hosts=3", "", "topology is not a mapping (line 1)"},
		{"set bad yaml", "name: x\n", []string{"traffic.flows=[{src: 0"}, "--set traffic.flows=[{src: 0", "", "the value is not YAML"},
		{"set value invalid", "name: x\n", []string{"topology.hosts=0"}, "--set topology.hosts=0", "topology.hosts", "0 is not allowed: a star needs at least 2 hosts"},
		{"set value type", "name: x\n", []string{"topology.hosts=nine"}, "--set topology.hosts=nine", "topology.hosts", `"nine" is not a whole number`},
		{"set empty value", "name: x\n", []string{"topology.hosts="}, "--set topology.hosts=", "topology.hosts", "no value"},
		{"set in list", "traffic:\n  flows: [{src: 0, dst: 1}]\n", []string{"traffic.flows[0].dst=0"}, "t.yaml:2", "traffic.flows[0]", "src and dst are both 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWith([]byte(tc.doc), "t.yaml", tc.sets)
			require.Error(t, err)
			first, _, _ := strings.Cut(err.Error(), "\n")
			prefix := tc.where + ": "
			if tc.key != "" {
				prefix += tc.key + ": "
			}
			assert.True(t, strings.HasPrefix(first, prefix), "%q should start with %q", first, prefix)
			assert.Contains(t, first, tc.says)

			var e *Error
			require.True(t, errors.As(err, &e), "%T is not an *Error", err)
			assert.Equal(t, tc.key, e.Key)
		})
	}
}

func TestManyErrors(t *testing.T) {
	_, err := Parse([]byte("network:\n  mtu: 1\n  rto: 1ns\n  ack_every: 0\ntraffic:\n  bytes: 0\n"), "t.yaml")
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	assert.Equal(t, []string{
		"t.yaml:2: network.mtu: 1 is not allowed: mtu must be from 256 to 9216 bytes (e.g. mtu: 4096)",
		"t.yaml:3: network.rto: 1ns is too short: it must be from 1us to 1s (e.g. rto: 100us)",
		"t.yaml:4: network.ack_every: 0 is not allowed: ack_every must be at least 1 (e.g. ack_every: 16)",
		"t.yaml:6: traffic.bytes: 0 is not allowed: a flow needs at least 1 byte (e.g. bytes: 64MiB)",
	}, lines)

	var flows strings.Builder
	flows.WriteString("traffic:\n  flows:\n")
	for range 30 {
		flows.WriteString("    - {src: 0, dst: 0}\n")
	}
	_, err = Parse([]byte(flows.String()), "t.yaml")
	require.Error(t, err)
	lines = strings.Split(err.Error(), "\n")
	assert.Len(t, lines, maxErrors+1)
	assert.Equal(t, "… and 1 more", lines[maxErrors], "reporting stops soon after maxErrors")
}

func TestValidate(t *testing.T) {
	s := Default()
	require.NoError(t, s.Validate())

	s.Topology.Hosts = 1
	s.Network.Routing = "magic"
	err := s.Validate()
	require.Error(t, err)
	assert.Equal(t, "topology.hosts: 1 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)\n"+
		`network.routing: "magic" is not a routing mode; use static, ecmp, adaptive or spray`, err.Error())

	// Values that YAML cannot produce but Go can must not get through either.
	for _, mutate := range []func(s *Scenario){
		func(s *Scenario) { s.Network.MTU = -1 },
		func(s *Scenario) { s.Network.Buffer = -1 },
		func(s *Scenario) { s.Topology.LinkLatency = -1 },
		func(s *Scenario) { s.Network.PFC.XOn = -1 },
		func(s *Scenario) { s.Traffic.Start = -1 },
		func(s *Scenario) { s.Until = -1 },
		func(s *Scenario) { s.Sim.SampleInterval = -1 },
		func(s *Scenario) {
			s.Topology.Kind, s.Topology.Leaves, s.Topology.HostsPerLeaf, s.Topology.Spines = LeafSpine, 2, 8, -1
		},
		func(s *Scenario) { s.Topology.Kind, s.Topology.Nodes, s.Topology.GPUsPerNode = DGX, 4, 8 }, // spines 0
		func(s *Scenario) { s.Topology.Kind, s.Topology.K = FatTree, 0 },
		func(s *Scenario) { s.Topology.Fabric = "" },
	} {
		s := Default()
		mutate(&s)
		assert.Error(t, s.Validate())
	}
}

func TestWire(t *testing.T) {
	for _, tc := range []struct {
		fabric string
		kind   link.Kind
	}{{IB, link.IB}, {RoCE, link.RoCE}, {Ethernet, link.Ethernet}} {
		s := Default()
		s.Topology.Fabric, s.Topology.LinkGbps = tc.fabric, 200
		kind, rate := s.Wire()
		assert.Equal(t, tc.kind, kind)
		assert.Equal(t, 200*unit.Gbps, rate)
	}
	s := Default()
	w := s.Wiring()
	assert.Equal(t, link.RoCE, w.Fabric)
	assert.Equal(t, s.Topology.LinkLatency, w.Latency)
	assert.InDelta(t, 450*DefaultNVLinkEfficiency, w.NVLink.GBps(), 1e-9, "the default calibrates NVLink to measured NCCL rates")
	s.Topology.Fabric = "tokenring"
	assert.Panics(t, func() { s.Wire() })
}

func TestPFCThresholds(t *testing.T) {
	s := Default() // 400 Gb/s RoCE, 1us links, 300ns switches, mtu 4096, 2MiB buffer
	pkt := 4096 + link.RoCEHeader
	head := unit.Bytes(2*50_000) + 2*pkt + 15_000 // 2 × 1us × 50 GB/s + 2 packets + 300ns × 50 GB/s
	xoff, xon, headroom := s.PFCThresholds()
	assert.Equal(t, head, headroom)
	assert.Equal(t, 2*unit.MiB-head, xoff)
	assert.Equal(t, 2*unit.MiB-head-2*pkt, xon)

	s.Network.PFC = PFC{XOff: unit.MiB, XOn: 512 * unit.KiB, Headroom: 256 * unit.KiB}
	xoff, xon, headroom = s.PFCThresholds()
	assert.Equal(t, unit.MiB, xoff)
	assert.Equal(t, 512*unit.KiB, xon)
	assert.Equal(t, 256*unit.KiB, headroom)
	assert.NoError(t, s.Validate())

	s.Network.PFC = PFC{Headroom: 256 * unit.KiB}
	xoff, xon, _ = s.PFCThresholds()
	assert.Equal(t, 2*unit.MiB-256*unit.KiB, xoff, "xoff follows an explicit headroom")
	assert.Equal(t, xoff-2*pkt, xon)
}

// TestECNThresholds checks the DCQCN marking defaults of REFERENCE.md (100 KB
// and 400 KB per 25 Gb/s, pmax 0.2), their cap at 80 % of the buffer, and
// explicit values.
func TestECNThresholds(t *testing.T) {
	for _, tc := range []struct {
		name       string
		sets       []string
		kmin, kmax unit.Bytes
		pmax       float64
	}{
		{"25G", []string{"topology.link_gbps=25"}, 100 * unit.KB, 400 * unit.KB, 0.2},
		{"100G", []string{"topology.link_gbps=100"}, 400 * unit.KB, 1600 * unit.KB, 0.2},
		{"400G deep buffer", []string{"network.buffer=16MiB"}, 1600 * unit.KB, 6400 * unit.KB, 0.2},
		{"400G capped", nil, 409 * unit.KiB, 1638 * unit.KiB, 0.2},
		{"explicit kmax", []string{"network.ecn.kmax=1MiB"}, 256 * unit.KiB, unit.MiB, 0.2},
		{"explicit", []string{"network.ecn.kmin=50KiB", "network.ecn.kmax=200KiB", "network.ecn.pmax=1"}, 50 * unit.KiB, 200 * unit.KiB, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := Builtin("incast-dcqcn")
			s, err := ParseWith(data, "incast-dcqcn.yaml", tc.sets)
			require.NoError(t, err)
			kmin, kmax, pmax := s.ECNThresholds()
			assert.Equal(t, tc.kmin, kmin, "kmin")
			assert.Equal(t, tc.kmax, kmax, "kmax")
			assert.Equal(t, tc.pmax, pmax, "pmax")
			assert.Less(t, kmax, s.Network.Buffer+1, "kmax fits the buffer")
		})
	}
}

// TestIBCCThreshold checks the FECN threshold: a quarter of the buffer
// (rounded down to whole KiB) unless set.
func TestIBCCThreshold(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want unit.Bytes
	}{
		{nil, 512 * unit.KiB},
		{[]string{"network.buffer=1000KB"}, 244 * unit.KiB},
		{[]string{"network.ibcc.threshold=100KB"}, 100 * unit.KB},
		{[]string{"network.ibcc.threshold=2MiB"}, 2 * unit.MiB},
	} {
		data, _ := Builtin("incast-ibcc")
		s, err := ParseWith(data, "incast-ibcc.yaml", tc.sets)
		require.NoError(t, err, "%v", tc.sets)
		assert.Equal(t, tc.want, s.IBCCThreshold(), "%v", tc.sets)
	}

	s := Default() // a scenario built in Go can hold what YAML cannot
	s.Network.IBCC.Threshold = -unit.KiB
	err := s.Validate()
	require.Error(t, err)
	assert.Equal(t, "network.ibcc.threshold: -1KiB is negative: it must be > 0, or 0 for a quarter of the buffer", err.Error())
}

// TestMarshalRoundTrip checks that a parsed scenario printed as YAML reads
// back the same, so that a resolved scenario can be saved with a result.
func TestMarshalRoundTrip(t *testing.T) {
	for _, b := range Builtins() {
		s, err := Load(b.Name, nil, nil)
		require.NoError(t, err)
		out, err := yaml.Marshal(s)
		require.NoError(t, err)
		back, err := Parse(out, b.Name+" printed")
		require.NoError(t, err, string(out))
		assert.Equal(t, s, back, b.Name)
	}
}

// TestGolden pins whole error messages. Each testdata/errors/NAME.yaml may
// start with "# --set key=value" lines; its error goes to NAME.golden.
// Refresh with: go test ./sim/scenario -update
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/errors/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			require.NoError(t, err)
			var sets []string
			for line := range strings.Lines(string(data)) {
				set, ok := strings.CutPrefix(line, "# --set ")
				if !ok {
					break
				}
				sets = append(sets, strings.TrimSpace(set))
			}
			_, err = ParseWith(data, filepath.Base(in), sets)
			require.Error(t, err)
			got := err.Error() + "\n"

			golden.Equal(t, strings.TrimSuffix(in, ".yaml")+".golden", []byte(got))
		})
	}
}

func TestStormErrors(t *testing.T) {
	for in, want := range map[string]string{
		"network: {flow_control: pfc, pfc: {storms: [{endpoint: 99, start: 0us, end: 1ms}]}}\n": "network.pfc.storms[0].endpoint: 99 is not an endpoint: use 0 to 8",
		"network: {flow_control: pfc, pfc: {storms: [{endpoint: 1, start: 2ms, end: 1ms}]}}\n":  "network.pfc.storms[0].end",
		"topology: {fabric: ib}\nnetwork: {pfc: {storms: [{endpoint: 1, end: 1ms}]}}\n":         "pause storms need flow_control: pfc",
	} {
		_, err := Parse([]byte(in), "t.yaml")
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}
