package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/scenario"
)

// The table has nccl-tests' all_reduce_perf layout; busbw climbs with size
// to the multi-node ring's ~380 GB/s (REFERENCE.md, "8 × H100, 8 × 400G").
func TestNCCLTestsTable(t *testing.T) {
	code, out, errOut := cli("nccl-tests", "hierarchical-allreduce", "--set", "topology.nodes=2", "--algo", "ring", "-b", "8", "-e", "8G", "-f", "4")
	require.Equal(t, 0, code, errOut)
	golden.Equal(t, "testdata/nccl-tests-allreduce.txt", []byte(out))
	var rows, tuning []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		switch {
		case strings.Contains(l, " NCCL INFO "):
			tuning = append(tuning, l)
		case !strings.HasPrefix(l, "#"):
			rows = append(rows, l)
		}
	}
	require.Len(t, rows, 16, "8 B to 8 GiB by 4")
	require.Len(t, tuning, 16, "NCCL's TUNING line before each row")
	assert.Equal(t, "n0:1000:1000 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..15}", tuning[0], "16 channels: two per NIC")
	assert.Contains(t, tuning[len(tuning)-1], "AllReduce: 8589934592 Bytes -> Algo RING proto SIMPLE")
	assert.Contains(t, out, "\n# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 4(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	assert.Contains(t, out, "\n#  Rank 15 Group  0 Pid   1015 on         n1 device  7 [0000:55:00] NVIDIA H100 80GB HBM3\n")
	first, last := strings.Fields(rows[0]), strings.Fields(rows[len(rows)-1])
	require.Len(t, last, 13, "size count type redop root, then time algbw busbw #wrong twice")
	assert.Equal(t, []string{"8", "2", "float", "sum", "-1"}, first[:5])
	assert.Equal(t, []string{"8589934592", "2147483648"}, last[:2])
	assert.Equal(t, last[5:9], last[9:13], "in place and out of place agree")
	assert.Regexp(t, `^3[6-9]\d\.\d\d$`, last[7], "busbw at 8 GiB")
}

// On a traffic scenario the collective runs alone, its traffic keys gone
// (kept, they are keys the run ignores: an error).
func TestNCCLTestsOnATrafficScenario(t *testing.T) {
	code, out, errOut := cli("nccl-tests", "incast", "-b", "1M", "-e", "1M")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "1048576", "a row for 1 MiB")
}

// Without --op and --algo, and without a collective in the scenario, it runs
// allreduce on a ring.
func TestNCCLTestsDefaultsToAllReduceOnARing(t *testing.T) {
	code, out, errOut := cli("nccl-tests", "incast", "-b", "1M", "-e", "1M")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "# fabriclab nccl-tests: incast, allreduce/ring on ")
}

// A broadcast's rows name no reduction and the scenario's root.
func TestNCCLTestsBroadcastRowsHaveTheRoot(t *testing.T) {
	code, out, errOut := cli("nccl-tests", "hierarchical-allreduce", "--set", "collective.op=broadcast",
		"--set", "collective.root=3", "--set", "collective.algo=ring", "-b", "1M", "-e", "1M")
	require.Equal(t, 0, code, errOut)
	var row []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			row = strings.Fields(l)
		}
	}
	require.Len(t, row, 13)
	assert.Equal(t, []string{"1048576", "262144", "float", "none", "3"}, row[:5])
}

func TestNCCLTestsSizes(t *testing.T) {
	sizes, err := ncclSizes(8, 64, 2, 0)
	require.NoError(t, err)
	assert.Len(t, sizes, 4)
	sizes, err = ncclSizes(1024, 4096, 1, 1024)
	require.NoError(t, err)
	assert.Len(t, sizes, 4)
	b, err := parseNCCLSize("e", "8G")
	require.NoError(t, err)
	assert.EqualValues(t, 8<<30, b)
	b, err = parseNCCLSize("b", "64MiB")
	require.NoError(t, err)
	assert.EqualValues(t, 64<<20, b)
}

func TestNCCLTestsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-b", "1G", "-e", "8"}, "is above -e"},
		{[]string{"-b", "lots"}, `-b "lots": want a size`},
		{[]string{"-f", "1"}, "-f 1: use a factor of 2 or more"},
		{[]string{"-b", "1", "-e", "1G", "-f", "1", "-i", "1"}, "more than 64 sizes"},
		{[]string{"--op", "gather"}, "unknown operation"},
	} {
		code, _, errOut := cli(append([]string{"nccl-tests", "hierarchical-allreduce"}, tc.args...)...)
		assert.Equal(t, 1, code, tc.args)
		assert.Contains(t, errOut, tc.want, tc.args)
	}
}

// nccl-tests reads a scenario file once, however many sizes it runs, through
// the size-limited reader.
func TestNCCLTestsReadsTheFileOnce(t *testing.T) {
	data, ok := scenario.Builtin("ring-allreduce-8")
	require.True(t, ok)
	path := filepath.Join(t.TempDir(), "ring.yaml")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	reads := 0
	readScenario = func(p string) ([]byte, error) { reads++; return scenario.ReadFile(p) }
	defer func() { readScenario = scenario.ReadFile }()

	code, out, errOut := cli("nccl-tests", path, "-b", "1M", "-e", "8M")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 4, strings.Count(out, "  float  "), "four sizes:\n%s", out)
	assert.Equal(t, 1, reads, "the file is read once")
}

// A device, a FIFO and files too big are refused by name before any read
// (os.ReadFile read /dev/zero to 3.4 GB, a 5 GiB file to 4.1 GB, and waited
// for a FIFO's writer forever).
func TestNCCLTestsRefusesSpecialAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, nil, 0o644))
		require.NoError(t, os.Truncate(p, size)) // takes no disk
		return p
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := mkfifo(fifo); err != nil {
		t.Logf("no FIFO here: %v", err)
	}
	for _, tc := range []struct{ name, path, want string }{
		{"device", "/dev/zero", "/dev/zero is a device, not a regular file: give the path of a scenario YAML file"},
		{"fifo", fifo, fifo + " is a named pipe (FIFO), not a regular file: give the path"},
		{"5GiB", sparse("huge.yaml", 5<<30), "huge.yaml is too big: a scenario file may have at most 8388608 bytes (8 MiB)"},
		{"8MiB+1", sparse("over.yaml", scenario.MaxSourceBytes+1), "over.yaml is too big: a scenario file may have at most 8388608 bytes (8 MiB)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			var code int
			var out, errOut string
			n := allocated(func() { code, out, errOut = cli("nccl-tests", tc.path, "-b", "8", "-e", "64") })
			assert.Equal(t, 1, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
			assert.Less(t, n, uint64(1<<20), "refused before reading")
		})
	}
}

// The TUNING line names what ran in NCCL's words: on one H100 node algo auto
// runs Ring/LL for small sizes and NVLS from a few MiB (REFERENCE.md, "NCCL's
// choice of algorithm and protocol"); SHARP on a switch of hosts is CollNet.
func TestNCCLTestsTuningLines(t *testing.T) {
	code, out, errOut := cli("nccl-tests", "ring-allreduce-8", "--algo", "auto", "--set", "sim.fidelity=flow", "-b", "8", "-e", "1G", "-f", "128")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "\nn0:1000:1000 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..7}\n")
	assert.Contains(t, out, "\nn0:1000:1000 [0] NCCL INFO AllReduce: 16777216 Bytes -> Algo NVLS proto SIMPLE channel{Lo..Hi}={0..7}\n")
	code, out, errOut = cli("nccl-tests", "incast", "--algo", "innetwork", "--op", "allreduce", "-b", "1M", "-e", "1M")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "\nh0:1000:1000 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo COLLNET_DIRECT proto SIMPLE ")
	assert.Contains(t, out, "\n#  Rank  8 Group  0 Pid   1008 on         h8 device  0 [0000:29:00] NVIDIA H100 80GB HBM3\n")
}
