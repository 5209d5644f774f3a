package nccltests

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/nodefile"
)

func node(t *testing.T, file string) *nodefile.Node {
	t.Helper()
	data, err := os.ReadFile("../nodefile/testdata/" + file)
	require.NoError(t, err)
	n, err := nodefile.Parse(data)
	require.NoError(t, err)
	return n
}

// UseNode takes the topology file's NICs, their speed (unless the flag
// gives one) and, where the output's GPU is unknown, its GPU; the file and
// the output must agree.
func TestUseNode(t *testing.T) {
	h100 := Shape{Hosts: 2, GPUsPerHost: 8, GPU: "h100", GPUName: "NVIDIA H100 80GB HBM3", Fabric: "ib", NICGbps: 400, NICFrom: "default", Op: "allreduce"}

	s := h100
	require.NoError(t, s.UseNode(node(t, "h100-shared-nic.xml"), 0))
	assert.Equal(t, 4, s.NICs())
	assert.Equal(t, "topology file", s.NICFrom)
	assert.Contains(t, s.YAML(""), "  gpus_per_node: 8\n  nics_per_node: 4\n")

	s = h100
	s.NICGbps, s.NICFrom = 200, "flag"
	require.NoError(t, s.UseNode(node(t, "h100-shared-nic.xml"), 200))
	assert.Equal(t, 200.0, s.NICGbps, "the flag wins over the file")

	s = h100
	s.GPU, s.GPUName = "h200", "NVIDIA H200"
	require.NoError(t, s.UseNode(node(t, "h100-hgx.xml"), 0))
	assert.Equal(t, "h200", s.GPU, "sm 90 is an H100's or an H200's: the output names it")
	assert.Equal(t, 8, s.NICs())

	s = h100
	s.GPU, s.GPUName = "", "Some GPU"
	require.NoError(t, s.UseNode(node(t, "a100-dgx.txt"), 0))
	assert.Equal(t, "a100", s.GPU, "an unknown name takes the file's GPU")
	assert.Equal(t, "default", s.NICFrom, "nvidia-smi does not say the NICs' speed")

	s = h100
	err := s.UseNode(node(t, "a100-dgx.xml"), 0)
	require.Error(t, err)
	assert.Equal(t, "the output's GPUs are NVIDIA H100 80GB HBM3 and the topology file's A100 (sm 80): give the topology of the nodes the test ran on", err.Error())

	s = h100
	s.GPUsPerHost = 4
	err = s.UseNode(node(t, "h100-hgx.xml"), 0)
	require.Error(t, err)
	assert.Equal(t, "the output has 4 GPUs per host and the topology file 8: give the topology of the nodes the test ran on", err.Error())

	assert.Equal(t, 8, h100.NICs(), "a NIC per GPU without a file")
	assert.NotContains(t, h100.YAML(""), "nics_per_node")
}
