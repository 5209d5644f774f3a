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
