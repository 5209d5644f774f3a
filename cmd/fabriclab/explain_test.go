package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

// explain sets each size beside a healthy cluster of the output's shape
// (2 × 8 H100, NCCL's own choice) and names the NICs: the sample has half
// the bandwidth of fabriclab's own ring from 64 MiB.
func TestExplainSample(t *testing.T) {
	code, out, errOut := cli("explain", "testdata/explain-half-nics.txt")
	require.Equal(t, 0, code, errOut)
	golden.Equal(t, "testdata/explain-half-nics.golden", []byte(out))
	assert.Contains(t, out, "16 ranks on 2 host(s) × 8 NVIDIA H100 80GB HBM3")
	assert.Contains(t, out, "400 Gb/s per GPU (the default: pass --nic-gbps)")
	assert.Contains(t, out, "4 of 8 against NCCL's RING")

	code, out, errOut = cli("explain", "testdata/explain-half-nics.txt", "--nic-gbps", "200")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "200 Gb/s per GPU (--nic-gbps)")
	assert.NotContains(t, out, "NICs of each node carried", "at 200 Gb/s per GPU the sample's bandwidth is what the NICs give")
}

// "-" reads standard input.
func TestExplainStdin(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "explain-half-nics.txt"))
	require.NoError(t, err)
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	code, out, errOut := cli("explain", "-")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "# fabriclab explain -: all_reduce_perf, 16 ranks")
}

func TestExplainErrors(t *testing.T) {
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.txt")
	data, err := os.ReadFile(filepath.Join("testdata", "explain-half-nics.txt"))
	require.NoError(t, err)
	at := bytes.Index(data, []byte("   134217728 "))
	require.Positive(t, at)
	require.NoError(t, os.WriteFile(cut, data[:at+40], 0o644)) // mid-row, as a copy cut short

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", cut}, "cut.txt: line 53: a result row of"},
		{[]string{"explain", filepath.Join(dir, "missing.txt")}, "missing.txt"},
		{[]string{"explain", "testdata/explain-half-nics.txt", "--fabric", "ethernet"}, `--fabric "ethernet": want ib or roce`},
		{[]string{"explain", "testdata/explain-half-nics.txt", "--nic-gbps", "-5"}, "--nic-gbps -5"},
		{[]string{"explain", "testdata/explain-half-nics.txt", "--op", "reduce"}, `--op "reduce"`},
	} {
		code, _, errOut := cli(c.args...)
		assert.NotEqual(t, 0, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
	}
}

// --topo takes the node from a topology file: with 4 NICs per node, each
// shared by two GPUs (sim/nodefile's test file), the sample's ring is what
// the node gives (it had 4 of 8 NICs against a NIC per GPU), and the
// header says what the file described.
func TestExplainTopo(t *testing.T) {
	shared := filepath.Join("..", "..", "sim", "nodefile", "testdata", "h100-shared-nic.xml")
	code, out, errOut := cli("explain", "testdata/explain-half-nics.txt", "--topo", shared)
	require.Equal(t, 0, code, errOut)
	golden.Equal(t, "testdata/explain-topo-shared-nic.golden", []byte(out))
	assert.Contains(t, out, "# node: NCCL topology (XML): 8 × H100")
	assert.Contains(t, out, "4 NICs per node each shared by 2 GPUs, InfiniBand at 400 Gb/s per NIC (from the topology file)")
	assert.Contains(t, out, "what NCCL's RING gives (192 GB/s expected)", "the ring's expected busbw is the 4 NICs' 4 × 48 GB/s")
	assert.NotContains(t, out, "NICs of each node carried")

	// A node whose NICs are across the CPU: explain says NCCL stages through
	// host memory there, and that the figures do not model it.
	code, out, errOut = cli("explain", "testdata/explain-half-nics.txt", "--topo", filepath.Join("..", "..", "sim", "nodefile", "testdata", "sys-nic.txt"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "2 NICs per node each shared by 4 GPUs")
	assert.Contains(t, out, "The topology file puts GPU 0 NODE from its NIC mlx5_0 (across the CPU)")
	assert.Contains(t, out, "fabriclab does not model the staging")

	for _, c := range []struct {
		file, want string
	}{
		{"a100-dgx.txt", "the output's GPUs are NVIDIA H100 80GB HBM3 and the topology file's A100 (NVIDIA A100-SXM4-80GB)"},
		{"missing.xml", "--topo: stat"},
	} {
		code, _, errOut := cli("explain", "testdata/explain-half-nics.txt", "--topo", filepath.Join("..", "..", "sim", "nodefile", "testdata", c.file))
		assert.NotEqual(t, 0, code, c.file)
		assert.Contains(t, errOut, c.want, c.file)
	}
}
