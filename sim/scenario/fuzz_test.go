package scenario

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/unit"
)

// checkResult holds a Parse result to its contract: an error made of
// *Error, or a scenario that passes Validate, whose derived values do not
// panic and that reads back the same after printing.
func checkResult(t *testing.T, s Scenario, err error) {
	if err != nil {
		var e *Error
		require.True(t, errors.As(err, &e), "%T %v is not an *Error", err, err)
		return
	}
	require.NoError(t, s.Validate())
	require.GreaterOrEqual(t, s.Endpoints(), 2)
	s.Wire()
	if s.Network.FlowControl == FCPFC {
		xoff, xon, headroom := s.PFCThresholds()
		require.Positive(t, xon)
		require.Less(t, xon, xoff)
		require.LessOrEqual(t, xoff+headroom, s.Network.Buffer)
	}
	out, err := yaml.Marshal(s)
	require.NoError(t, err)
	back, err := Parse(out, "printed")
	require.NoError(t, err, "%s", out)
	require.Equal(t, s, back, "%s", out)
}

func FuzzParse(f *testing.F) {
	for _, b := range Builtins() {
		data, _ := Builtin(b.Name)
		f.Add(data)
	}
	for _, in := range errorCases(f) {
		f.Add([]byte(in.text))
	}
	for _, doc := range []string{
		"", "~", "- a", "a: [", "x: &a {y: *a}", "topology: &t {<<: *t}",
		"topology: {kind: dgx, nodes: 4}", "topology: {kind: leafspine, leaves: 8, hosts_per_leaf: 4, gpus_per_node: 8, rail_optimized: true, spines: 2}",
		"traffic: {flows: [&f {src: 0, dst: 1}, {<<: *f, dst: 2}, *f]}", "network: {pfc: {xoff: 1MiB, xon: 512KiB, headroom: 256KiB}}",
		"topology: {fabric: ib}\nnetwork: {routing: adaptive}", "a: 1\n---\nb: 2",
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		checkResult(t, s, err)
	})
}

func FuzzSet(f *testing.F) {
	for _, set := range []string{
		"topology.hosts=17", "network.routing=spray", "traffic.flows[0].bytes=1MiB", "seed=7",
		"traffic.flows=[{src: 0, dst: 1}]", "traffic.flows[64]={src: 1, dst: 2}", "topology.kind=fattree",
		"network.pfc.xoff=1MiB", "foo", "=", "a.b.c=", "traffic.flows[99999999999].src=1", "topology=*x", "name=&a [*a]",
	} {
		f.Add("ecmp-collisions", set, "topology.k=4")
		f.Add("incast", set, "")
	}
	f.Fuzz(func(t *testing.T, base, set1, set2 string) {
		data, ok := Builtin(base)
		if !ok {
			data = []byte("name: x\n")
		}
		s, err := ParseWith(data, base, []string{set1, set2})
		checkResult(t, s, err)
	})
}

// FuzzValidate feeds Validate shapes and sizes directly, including values
// that YAML cannot produce, so that it never panics and never passes a
// scenario the derived values cannot handle.
func FuzzValidate(f *testing.F) {
	f.Add(uint8(0), 9, 0, 0, 0, 0, int64(4096), int64(2<<20), int64(1_000_000), 8, -1, uint8(0))
	f.Add(uint8(1), 0, 4, 8, 0, 0, int64(4096), int64(2<<20), int64(1_000_000), 8, -1, uint8(1))
	f.Add(uint8(2), 0, 2, 1, 64, 64, int64(0), int64(2<<20), int64(0), 8, -1, uint8(2))
	f.Add(uint8(3), 16, 0, 0, 0, 0, int64(9000), int64(1<<30), int64(1<<40), 0, 3, uint8(3))
	f.Fuzz(func(t *testing.T, kind uint8, hosts, nodesOrLeaves, gpus, perLeaf, spines int,
		mtu, buffer, latency int64, senders, receiver int, pattern uint8) {
		s := Default()
		tp := &s.Topology
		tp.Kind = []string{Star, DGX, LeafSpine, FatTree, "ring"}[int(kind)%5]
		tp.Hosts, tp.Nodes, tp.Leaves, tp.K = hosts, nodesOrLeaves, nodesOrLeaves, hosts
		tp.GPUsPerNode, tp.HostsPerLeaf, tp.Spines = gpus, perLeaf, spines
		tp.RailOptimized = kind&0x80 != 0
		tp.Fabric = []string{RoCE, IB, Ethernet}[int(kind>>3)%3]
		tp.LinkLatency = unit.Time(latency)
		s.Network.MTU, s.Network.Buffer = unit.Bytes(mtu), unit.Bytes(buffer)
		s.Network.FlowControl = []string{FCPFC, FCCredit, FCNone}[int(kind>>5)%3]
		s.Traffic.Pattern = []string{PatternIncast, PatternFlows, PatternPermutation, PatternAllToAll}[int(pattern)%4]
		s.Traffic.Senders, s.Traffic.Receiver = senders, receiver
		s.Traffic.Flows = []Flow{{Src: senders, Dst: receiver, Bytes: unit.Bytes(latency)}}
		if s.Validate() != nil {
			return
		}
		checkResult(t, s, nil)
	})
}
