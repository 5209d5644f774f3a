package scenario

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/link"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// maxBuildEndpoints bounds the topologies the fuzz targets build, to stay fast.
const maxBuildEndpoints = 2048

// checkBuild builds the topology of a scenario that passed validation, which
// must not panic, and holds it to the scenario: Endpoints() endpoints, each a
// host or GPU, every link paired with its reverse, and every endpoint
// reachable from the first.
func checkBuild(t testing.TB, s *Scenario) {
	t.Helper()
	tp := topo.Build(s.Topology.Shape(), topo.Wiring{Fabric: link.RoCE, Rate: 400 * unit.Gbps, NVLink: link.NVLink4Rate}) // the shape is what is tested
	require.Len(t, tp.Endpoints, s.Endpoints()+s.Topology.StorageNodes, "%s", s.Topology.Shape())
	require.Equal(t, s.Topology.StorageNodes, tp.Storage)
	for _, l := range tp.Links {
		r := tp.Links[l.Reverse]
		require.True(t, r.From == l.To && r.To == l.From && r.Reverse == l.ID, "link %d and its reverse %d", l.ID, l.Reverse)
	}
	hops := tp.HopsTo(tp.Endpoints[0])
	for e, id := range tp.Endpoints {
		role := tp.Nodes[id].Role
		if e >= s.Endpoints() {
			require.Equal(t, topo.Storage, role, "endpoint %d after the hosts and GPUs", e)
		} else {
			require.True(t, role == topo.Host || role == topo.GPU, "endpoint %d is a %s", e, role)
		}
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
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
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
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml")
		if err != nil || s.Endpoints() > maxBuildEndpoints {
			return
		}
		checkBuild(t, &s)
	})
}

// sectionDocs are the documents of testdata/sections.yaml, which use every
// section's keys, lists included, as fuzz seeds.
func sectionDocs(tb testing.TB) []string {
	data, err := os.ReadFile("testdata/sections.yaml")
	require.NoError(tb, err)
	return strings.Split(string(data), "\n---\n")
}

// TestSectionDocs holds the fuzz seeds of testdata/sections.yaml to their
// purpose: each is a valid scenario, and together they write every key.
func TestSectionDocs(t *testing.T) {
	written := map[string]bool{}
	index := regexp.MustCompile(`\[\d+\]`)
	for _, doc := range sectionDocs(t) {
		_, err := Parse([]byte(doc), "sections.yaml")
		require.NoError(t, err, doc)
		var root yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(doc), &root))
		d := &decoder{source: "sections.yaml", origin: map[*yaml.Node]string{}, at: map[string]place{}, budget: 1 << 20}
		s := Default()
		d.mapping(root.Content[0], reflect.ValueOf(&s).Elem(), "", "", 0)
		for key := range d.at {
			written[index.ReplaceAllString(key, "[]")] = true
		}
	}
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		switch {
		case typ.Kind() == reflect.Struct:
			for _, f := range fieldsOf(typ) {
				walk(typ.Field(f.index).Type, join(path, f.key))
			}
		case typ.Kind() == reflect.Slice:
			walk(typ.Elem(), path+"[]")
		case path == "topology.from":
			// It reads a file, which Parse has no way to: from_test.go.
		default:
			assert.True(t, written[path], "no document of testdata/sections.yaml writes %s", path)
		}
	}
	walk(reflect.TypeFor[Scenario](), "")
}
