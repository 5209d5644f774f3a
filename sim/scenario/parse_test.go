package scenario

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

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

// One cluster, one GPU generation: topology.gpu and training.gpu follow
// whichever of the two the document sets (nvlink stands in for gpu).
func TestGPUFollows(t *testing.T) {
	for _, tc := range []struct {
		doc, topology, training string
		nvlink                  int
	}{
		{"topology: {kind: dgx}\ntraining: {model: resnet50}", "h100", "h100", 4},
		{"topology: {kind: dgx}\ntraining: {model: resnet50, gpu: a100}", "a100", "a100", 3},
		{"topology: {kind: dgx, gpu: b200}\ntraining: {model: resnet50}", "b200", "b200", 5},
		{"topology: {kind: dgx, nvlink: 3}\ntraining: {model: resnet50}", "a100", "a100", 3},
		{"topology: {kind: dgx, gpu: h200}\ntraining: {model: resnet50, gpu: h200}", "h200", "h200", 4},
	} {
		s, err := Parse([]byte(tc.doc), "t.yaml")
		require.NoError(t, err, tc.doc)
		assert.Equal(t, tc.topology, s.Topology.GPU, tc.doc)
		assert.Equal(t, tc.training, s.Training.GPU, tc.doc)
		assert.Equal(t, tc.nvlink, s.Topology.NVLink, tc.doc)
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
	assert.Equal(t, []string{"alltoall-moe", "checkpoint-llama3-8b", "dp-llama3-8b-1024", "dp-resnet50", "ecmp-collisions", "hierarchical-allreduce",
		"ib-vs-roce-incast", "incast", "incast-dcqcn", "incast-ibcc", "incast-lossy", "inference-llama3-8b", "link-down", "noisy-neighbor", "perm-1024", "permutation", "pp-gpt-1f1b",
		"ring-allreduce-8", "straggler", "tpu-torus-allreduce", "victim-flow", "victim-flow-lossy"}, names)

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
		LinkLatency: unit.Microsecond, SwitchLatency: 300 * unit.Nanosecond, NVLinkEfficiency: DefaultNVLinkEfficiency,
		NICEfficiency: DefaultNICEfficiency, NVLink: 4, GPU: "h100", StorageGbps: DefaultStorageGbps}, s.Topology)
	assert.Equal(t, Network{MTU: 4096, Buffer: 2 * unit.MiB, FlowControl: FCPFC, Routing: RouteECMP, CC: CCNone,
		ECN: ECN{PMax: 0.2}, CNPInterval: 4 * unit.Microsecond, DCQCN: DCQCNDefaults(DCQCNNIC), RTO: 100 * unit.Microsecond, Recovery: RecoveryGBN, AckEvery: 16, BufferModel: BufferStatic, DTAlpha: 1,
		RerouteDelay: unit.Second, IBCC: IBCC{MarkingRate: 1, Timer: 10 * unit.Microsecond, CCTIIncrease: 1, CCTILimit: 127, CCTStep: 0.125}}, s.Network)
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
	assert.Equal(t, 10*unit.Second, ib.Network.RerouteDelay, "the subnet manager's reroute (REFERENCE.md, Stragglers and failures)")
	ib.Name, ib.Topology.Fabric, ib.Network.FlowControl, ib.Network.Routing, ib.Network.CC = s.Name, s.Topology.Fabric, s.Network.FlowControl, s.Network.Routing, s.Network.CC
	ib.Network.RerouteDelay = s.Network.RerouteDelay
	assert.Equal(t, s, ib, "incast-ibcc differs from incast only in fabric, flow control, routing, congestion control and reroute delay")

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
	assert.Contains(t, err.Error(), `scenario "nosuch" is neither a file nor a built-in; built-ins are alltoall-moe, checkpoint-llama3-8b, dp-llama3-8b-1024, dp-resnet50, ecmp-collisions, hierarchical-allreduce, ib-vs-roce-incast, incast, incast-dcqcn, incast-ibcc, incast-lossy, inference-llama3-8b, link-down, noisy-neighbor, perm-1024, permutation, pp-gpt-1f1b, ring-allreduce-8, straggler, tpu-torus-allreduce, victim-flow`)

	_, err = Load("./missing.yaml", readFile, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "missing.yaml")

	_, err = Load("nosuch", nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "built-ins are alltoall-moe, checkpoint-llama3-8b, dp-llama3-8b-1024")
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
		{"whole list", "incast", []string{"traffic.pattern=flows", "traffic.senders=", "traffic.receiver=", "traffic.flows=[{src: 0, dst: 1}, {src: 2, dst: 3, bytes: 1KiB}]"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, []Flow{{Src: 0, Dst: 1, Bytes: 64 * unit.MiB}, {Src: 2, Dst: 3, Bytes: unit.KiB}}, s.Traffic.Flows)
		}},
		{"missing mapping", "incast", []string{"network.pfc.headroom=200KiB"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 200*unit.KiB, s.Network.PFC.Headroom)
		}},
		{"later wins", "incast", []string{"topology.hosts=5", "topology.hosts=17"}, func(t *testing.T, s Scenario) {
			assert.Equal(t, 17, s.Topology.Hosts)
		}},
		{"switch kind", "incast", []string{"topology.kind=fattree", "topology.hosts=", "topology.k=4", "network.routing=spray"}, func(t *testing.T, s Scenario) {
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
		kind, rate := s.wire()
		assert.Equal(t, tc.kind, kind)
		assert.Equal(t, 200*unit.Gbps, rate)
	}
	s := Default()
	s.Topology.Fabric = "tokenring"
	assert.Panics(t, func() { s.wire() })
}

func TestPFCThresholds(t *testing.T) {
	s := Default() // 400 Gb/s RoCE, 1us links, 300ns switches, mtu 4096, 2MiB buffer
	pkt := 4096 + link.RoCEHeader
	// At 50 GB/s: 2 × 1us of links, 300ns of switch, a 64-byte pause quantum and a
	// quarter packet of jitter (20.89 ns, 1044.5 bytes), rounded up, plus 2 packets.
	head := unit.Bytes(2*50_000+15_000+64+1045) + 2*pkt
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

// TestMarshalRoundTrip checks that a parsed scenario printed as YAML, less
// the keys its settings ignore, reads back the same, so that a resolved
// scenario can be saved with a result.
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

// ValueAt reads a --set path back from a scenario, as a lesson's knob
// names the scenario's own value.
func TestValueAt(t *testing.T) {
	s, err := Parse([]byte("name: v\ntraffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 1MiB}, {src: 2, dst: 1, bytes: 2MiB}]}\n"), "v.yaml")
	require.NoError(t, err)
	assert.Equal(t, "400", s.ValueAt("topology.link_gbps"))
	assert.Equal(t, "1MiB", s.ValueAt("traffic.flows[0].bytes"))
	assert.Equal(t, "2MiB", s.ValueAt("traffic.flows[1].bytes"))
	assert.Equal(t, "not set", s.ValueAt("traffic.flows[3].bytes"))
	assert.Equal(t, "?", s.ValueAt("topology.nosuchkey"))
	assert.Contains(t, s.ValueAt("traffic.flows[0]"), "dst: 1")
}
