package scenario

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/unit"
)

// checkResult holds a result of parsing input (the document and the --set
// values) to its contract: an error passes checkError, a scenario
// checkScenario.
func checkResult(t *testing.T, input string, s Scenario, err error) {
	if err != nil {
		checkError(t, input, err)
		return
	}
	checkScenario(t, s)
}

// checkError holds an error to what the README promises: every problem is an
// *Error that names its place — a line or a key path, or a --set, or for a
// problem with the whole document its source — and shows no Go internals
// (unless the input wrote them, since messages quote it).
func checkError(t *testing.T, input string, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	require.LessOrEqual(t, len(errs), maxErrors+1)
	for i, err := range errs {
		if i == maxErrors {
			require.Regexp(t, `^… and \d+ more$`, err.Error())
			break
		}
		var e *Error
		require.True(t, errors.As(err, &e), "%T %v is not an *Error", err, err)
		require.NotEmpty(t, e.Msg, "%v", e)
		wholeDocument := e.Source != "" && (strings.HasPrefix(e.Msg, "empty document") ||
			strings.HasPrefix(e.Msg, "not valid YAML") || strings.HasPrefix(e.Msg, "is "))
		placed := e.Line > 0 || e.Key != "" || strings.HasPrefix(e.Source, "--set ") || wholeDocument
		require.True(t, placed, "%q names no place", e.Error())
		require.True(t, utf8.ValidString(e.Error()), "%q is not UTF-8", e.Error())
		require.Negative(t, strings.IndexFunc(e.Error(), unprintable), "%q would reach a terminal raw", e.Error())
		for _, internal := range []string{"%!", "<nil>", "reflect", "scenario.", "goroutine"} {
			if !strings.Contains(input, internal) {
				require.NotContains(t, e.Error(), internal)
			}
		}
	}
}

// checkScenario holds an accepted scenario to its contract: it passes
// Validate, has 2 to MaxEndpoints endpoints (MaxPacketEndpoints at packet
// level), derived values that hold together, reads back the same after
// printing, and builds (up to maxBuildEndpoints).
func checkScenario(t *testing.T, s Scenario) {
	require.NoError(t, s.Validate())
	n := s.Endpoints()
	require.GreaterOrEqual(t, n, 2)
	require.LessOrEqual(t, n, MaxEndpoints)
	if s.Sim.Fidelity == Packet {
		require.LessOrEqual(t, n, MaxPacketEndpoints)
	}
	s.wire()
	if s.Network.FlowControl == FCPFC {
		xoff, xon, headroom := s.PFCThresholds()
		require.Positive(t, xon)
		require.Less(t, xon, xoff)
		require.LessOrEqual(t, xoff+headroom, s.Network.Buffer)
	}
	out, err := yaml.Marshal(s) // without the keys its settings ignore (MarshalYAML)
	require.NoError(t, err)
	back, err := Parse(out, "printed")
	require.NoError(t, err, "%s", out)
	again, err := yaml.Marshal(back)
	require.NoError(t, err)
	require.Equal(t, string(out), string(again), "every key it uses reads back the same")
	if n <= maxBuildEndpoints {
		checkBuild(t, &s)
	}
}

// addSeeds seeds a fuzz target with the built-ins, the error cases, the
// documents of testdata/sections.yaml and docs.
func addSeeds(f *testing.F, docs ...string) {
	for _, b := range Builtins() {
		data, _ := Builtin(b.Name)
		f.Add(data)
	}
	for _, in := range errorCases(f) {
		f.Add([]byte(in.text))
	}
	for _, doc := range append(sectionDocs(f), docs...) {
		f.Add([]byte(doc))
	}
}

func FuzzParse(f *testing.F) {
	addSeeds(f,
		"", "~", "- a", "a: [", "x: &a {y: *a}", "topology: &t {<<: *t}",
		"topology: {kind: dgx, nodes: 4}", "topology: {kind: leafspine, leaves: 8, hosts_per_leaf: 4, gpus_per_node: 8, rail_optimized: true, spines: 2}",
		"traffic: {flows: [&f {src: 0, dst: 1}, {<<: *f, dst: 2}, *f]}", "network: {pfc: {xoff: 1MiB, xon: 512KiB, headroom: 256KiB}}",
		"topology: {fabric: ib}\nnetwork: {routing: adaptive}", "a: 1\n---\nb: 2",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		checkResult(t, string(data), s, err)
		again, errAgain := Parse(data, "fuzz.yaml")
		require.Equal(t, s, again, "the same input parses to the same scenario")
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(errAgain), "and the same errors")
	})
}

func FuzzSet(f *testing.F) {
	for _, set := range []string{
		"topology.hosts=17", "network.routing=spray", "traffic.flows[0].bytes=1MiB", "seed=7",
		"traffic.flows=[{src: 0, dst: 1}]", "traffic.flows[64]={src: 1, dst: 2}", "topology.kind=fattree",
		"topology.kind=torus", "topology.dims=[3, 1, 2]", "network.pfc.xoff=1MiB", "topology.storage_nodes=2", "training.checkpoint_every=1", "foo", "=", "a.b.c=", "traffic.flows[99999999999].src=1", "topology=*x", "name=&a [*a]",
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
		checkResult(t, string(data)+set1+set2, s, err)
	})
}

// FuzzValidate feeds Validate shapes and sizes directly, including values
// that YAML cannot produce: what it accepts holds to checkScenario (so Parse
// accepts it too once printed), and every problem it finds names its key.
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
		err := s.Validate()
		if err == nil {
			checkScenario(t, s)
			return
		}
		checkError(t, "", err)
		for _, e := range strings.Split(err.Error(), "\n") {
			require.Regexp(t, `^([a-z_.]+(\[\d+\])?)+: |^… and \d+ more$`, e, "a scenario built in Go has no lines: every problem names its key")
		}
	})
}
