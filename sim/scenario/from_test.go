//go:build !js

// The browser build reads no topology files (from_js.go).

package scenario

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"fabriclab/sim/nodefile"
)

// fromScenario writes a scenario and a copy of sim/nodefile's test file node
// beside it in a directory of their own, and loads the scenario with sets.
func fromScenario(t *testing.T, yamlText, node string, sets ...string) (Scenario, error) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "nodefile", "testdata", node))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "nodes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nodes", node), data, 0o644))
	path := filepath.Join(dir, "run.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yamlText), 0o644))
	return Load(path, ReadFile, sets)
}

// TestFromFillsTheNode: the file sets the keys the scenario leaves out.
func TestFromFillsTheNode(t *testing.T) {
	for _, tc := range []struct {
		node         string
		gpu          string
		nvlink, nics int
		gbps         float64
		path         nodefile.Path
	}{
		{"h100-hgx.xml", "h100", 4, 8, 400, nodefile.PIX},
		{"h100-shared-nic.xml", "h100", 4, 4, 400, nodefile.PIX},
		{"a100-dgx.xml", "a100", 3, 8, 200, nodefile.PIX},
		{"a100-dgx.txt", "a100", 3, 8, 400, nodefile.PXB}, // nvidia-smi does not say the NICs' speed: link_gbps keeps its default
		{"sys-nic.txt", "h100", 4, 2, 400, nodefile.NODE},
	} {
		s, err := fromScenario(t, "name: mine\ntopology: {from: nodes/"+tc.node+", nodes: 2, fabric: ib}\ncollective: {op: allreduce, algo: ring}\nsim: {fidelity: flow}\n", tc.node)
		require.NoError(t, err, tc.node)
		tp := s.Topology
		assert.Equal(t, DGX, tp.Kind, tc.node)
		assert.Equal(t, 8, tp.GPUsPerNode, tc.node)
		assert.Equal(t, tc.nics, tp.NICsPerNode, tc.node)
		assert.Equal(t, tc.gpu, tp.GPU, tc.node)
		assert.Equal(t, tc.nvlink, tp.NVLink, tc.node)
		assert.Equal(t, tc.gbps, tp.LinkGbps, tc.node)
		assert.Equal(t, TopologyGPUs[tc.gpu].Efficiency, tp.NVLinkEfficiency, tc.node)
		require.NotNil(t, tp.Node, tc.node)
		assert.Equal(t, tc.path, tp.Node.Path, tc.node)

		// Written back, the scenario holds what the file said and no
		// topology.from: it runs where there are no files.
		out, err := yaml.Marshal(s)
		require.NoError(t, err)
		assert.NotContains(t, string(out), "from:")
		again, err := Parse(out, "again.yaml")
		require.NoError(t, err, string(out))
		again.Topology.Node, again.Topology.From = tp.Node, tp.From
		assert.Equal(t, s, again, tc.node)
	}
}

// TestFromErrors: a key the file contradicts, a file that is not there or
// not a node, and no file system.
func TestFromErrors(t *testing.T) {
	const base = "name: mine\ntopology: {from: nodes/h100-shared-nic.xml, nodes: 2}\n"
	for _, tc := range []struct {
		name, yaml string
		sets       []string
		want       string
	}{
		{"gpus", base, []string{"topology.gpus_per_node=4"}, "--set topology.gpus_per_node=4: topology.gpus_per_node: 4, but topology.from (nodes/h100-shared-nic.xml) has 8 GPUs: remove one of them"},
		{"nics", "name: mine\ntopology:\n  from: nodes/h100-shared-nic.xml\n  nodes: 2\n  nics_per_node: 8\n", nil,
			"run.yaml:5: topology.nics_per_node: 8, but topology.from (nodes/h100-shared-nic.xml) has 4 NICs that serve them: remove one of them"},
		{"gpu", base, []string{"topology.gpu=a100"}, "--set topology.gpu=a100: topology.gpu: a100, but topology.from (nodes/h100-shared-nic.xml) has GPUs of sm 90: h100 or h200: remove one of them"},
		{"kind", base, []string{"topology.kind=star"}, "--set topology.kind=star: topology.kind: star, but topology.from (nodes/h100-shared-nic.xml) describes a dgx node (GPUs on an NVSwitch): remove one of them"},
		{"speed", base, []string{"topology.link_gbps=200"}, "--set topology.link_gbps=200: topology.link_gbps: 200, but topology.from (nodes/h100-shared-nic.xml) has NICs at 400 Gb/s: remove one of them"},
		{"missing", "name: mine\ntopology: {from: nodes/nope.xml}\n", nil,
			`run.yaml:2: topology.from: "nodes/nope.xml": no such file (a path relative to the scenario's file): give NCCL's topology dump (NCCL_TOPO_DUMP_FILE) or nvidia-smi topo -m's output`},
		{"not a node", "name: mine\ntopology: {from: run.yaml}\n", nil,
			"run.yaml:2: topology.from: run.yaml: no header of GPU0, GPU1, … columns: not nvidia-smi topo -m output (nor NCCL's topology XML, which starts with <system>)"},
	} {
		_, err := fromScenario(t, tc.yaml, "h100-shared-nic.xml", tc.sets...)
		if assert.Error(t, err, tc.name) {
			assert.Contains(t, err.Error(), tc.want, tc.name)
		}
	}
	// H100 or H200: sm 90 does not say, the scenario may.
	s, err := fromScenario(t, base, "h100-shared-nic.xml", "topology.gpu=h200")
	require.NoError(t, err)
	assert.Equal(t, "h200", s.Topology.GPU)
	// NV18 without names: H100, H200 or B200.
	s, err = fromScenario(t, "name: mine\ntopology: {from: nodes/sys-nic.txt, nodes: 2}\n", "sys-nic.txt", "topology.gpu=b200")
	require.NoError(t, err)
	assert.Equal(t, "b200", s.Topology.GPU)
	assert.Equal(t, 5, s.Topology.NVLink)
	_, err = fromScenario(t, "name: mine\ntopology: {from: nodes/sys-nic.txt, nodes: 2}\n", "sys-nic.txt", "topology.gpu=a100")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "topology.gpu: a100, but topology.from (nodes/sys-nic.txt) has GPUs of NV18: h100, h200 or b200: remove one of them")

	// Parse has no files: the browser, lessons and built-ins.
	_, err = Parse([]byte(base), "page")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "\n", "one error, and no other key's about the star the scenario would otherwise be")
	assert.Equal(t, `page:2: topology.from: "nodes/h100-shared-nic.xml": reading a node's topology needs a file system, and this scenario has none (the browser, a lesson or a built-in): run it with fabriclab run, or write the keys the file would set (topology.kind: dgx, gpus_per_node, nics_per_node, gpu, link_gbps)`, err.Error())
}
