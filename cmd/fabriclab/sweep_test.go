package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/golden"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

func TestParseVary(t *testing.T) {
	for _, tc := range []struct {
		in, key string
		values  []string
	}{
		{"traffic.senders=1,2,4", "traffic.senders", []string{"1", "2", "4"}},
		{"network.cc= dcqcn , none", "network.cc", []string{"dcqcn", "none"}},
		{"k=only", "k", []string{"only"}},
		{"topology.hosts=3..6", "topology.hosts", []string{"3", "4", "5", "6"}},
		{"k=5..5", "k", []string{"5"}},
		{"topology.nodes=1..16*2", "topology.nodes", []string{"1", "2", "4", "8", "16"}},
		{"k=3..30*3", "k", []string{"3", "9", "27"}},
		{"k=-2..1", "k", []string{"-2", "-1", "0", "1"}},
		{"k=9223372036854775806..9223372036854775807", "k", []string{"9223372036854775806", "9223372036854775807"}},
		{"k=4611686018427387904..9223372036854775807*2", "k", []string{"4611686018427387904"}},
	} {
		key, values, err := parseVary(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.key, key, tc.in)
		if tc.values != nil {
			assert.Equal(t, tc.values, values, tc.in)
		}
	}
	_, values, err := parseVary("k=1..9223372036854775807*2")
	require.NoError(t, err)
	assert.Len(t, values, 63, "2^0 … 2^62, without overflowing")

	_, values, err = parseVary("k=1..10000")
	require.NoError(t, err)
	assert.Len(t, values, maxSweepRuns, "a range of exactly the limit is allowed")
	assert.Equal(t, "10000", values[len(values)-1])
}

func TestParseVaryErrors(t *testing.T) {
	const list = "want key=v1,v2,... or key=lo..hi or key=lo..hi*2"
	const rng = "a range is lo..hi (whole numbers, lo ≤ hi) or lo..hi*f (lo ≥ 1, f ≥ 2), e.g. topology.nodes=1..2048*2"
	for in, want := range map[string]string{
		"traffic.senders": list,
		"=1,2":            list,
		"k=":              list,
		"k=1,,2":          "an empty value",
		"k=1, ":           "an empty value",
		"k=4..1":          rng,
		"k=a..3":          rng,
		"k=1..b":          rng,
		"k=1..8*1":        rng,
		"k=0..8*2":        rng,
		"k=1..8*x":        rng,
		"k=1.5..3":        rng,
		"k=1..10001":      "more than 10000 values; a sweep makes at most 10000 runs: use a coarser range (lo..hi*2)",
		"k=-20000..-1":    "more than 10000 values",
		"k=1..8*":         rng,
		"k=1..":           rng,
		"k=..8":           rng,
	} {
		_, _, err := parseVary(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), "--vary "+strconv.Quote(in)+": ", "the error names the flag and its value")
		assert.Contains(t, err.Error(), want, in)
	}
}

func TestSweepCombos(t *testing.T) {
	keys, combos, err := sweepCombos([]string{"a=1,2", "b=x,y,z"})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, keys)
	assert.Equal(t, [][]string{
		{"a=1", "b=x"}, {"a=1", "b=y"}, {"a=1", "b=z"},
		{"a=2", "b=x"}, {"a=2", "b=y"}, {"a=2", "b=z"},
	}, combos, "every combination, the last key varying fastest")

	_, combos, err = sweepCombos([]string{"a=1..4", "b=1..8*2", "c=p,q,r"})
	require.NoError(t, err)
	assert.Len(t, combos, 4*4*3)
	seen := map[string]bool{}
	for _, c := range combos {
		require.Len(t, c, 3)
		seen[strings.Join(c, " ")] = true
	}
	assert.Len(t, seen, len(combos), "no combination twice")

	_, combos, err = sweepCombos([]string{"a=1..100", "b=1..100"})
	require.NoError(t, err)
	assert.Len(t, combos, maxSweepRuns, "exactly the limit is allowed")

	_, _, err = sweepCombos([]string{"a=1..100", "b=1..101"})
	require.Error(t, err)
	assert.Equal(t, "--vary a × b makes 10100 runs, too many: at most 10000; vary fewer values or use a coarser range (lo..hi*2)", err.Error())

	// Too many runs are refused before they are listed (10^8 lists would not fit).
	start := time.Now()
	_, _, err = sweepCombos([]string{"a=1..10000", "b=1..10000", "c=1..10000"})
	assert.ErrorContains(t, err, "--vary a × b makes 100000000 runs, too many")
	assert.Less(t, time.Since(start), 5*time.Second)

	_, _, err = sweepCombos([]string{"a=1,2", "b"})
	assert.ErrorContains(t, err, `--vary "b": want key=`)
}

func TestSweepErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep"}, "usage: fabriclab sweep FILE|NAME --vary"},
		{[]string{"sweep", "incast"}, "say what to vary, e.g. --vary topology.nodes=1,2,4,8"},
		{[]string{"sweep", "incast", "--vary", "traffic.senders"}, `--vary "traffic.senders": want key=v1,v2`},
		{[]string{"sweep", "incast", "--vary", "a=1..1000", "--vary", "b=1..11"}, "--vary a × b makes 11000 runs, too many"},
		// A failing first combination stops the sweep before any run, and the
		// error says which.
		{[]string{"sweep", "incast", "--vary", "traffic.senders=0,2"}, "with traffic.senders=0: --set traffic.senders=0:"},
		// A key varied twice would be run with its last value and labelled with both.
		{[]string{"sweep", "incast", "--vary", "seed=1,2", "--vary", "traffic.senders=2", "--vary", "seed=3,4"},
			"--vary seed is given twice: give all its values in one --vary, e.g. --vary seed=1,2,4,8"},
		{[]string{"sweep", "incast", "--vary", "traffic.sendrs=2"}, "with traffic.sendrs=2: --set traffic.sendrs=2: unknown key; traffic takes"},
		{[]string{"sweep", "nosuch", "--vary", "seed=1,2"}, `with seed=1: scenario "nosuch" is neither a file nor a built-in`},
		{[]string{"sweep", "incast", "--vary", "seed=1", "--jobs", "x"}, `invalid value "x" for flag -jobs`},
	} {
		code, out, errOut := cli(tc.args...)
		assert.NotEqual(t, 0, code, "%v", tc.args)
		assert.Empty(t, out, "%v: nothing on stdout", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

// Small sweeps of a packet-level traffic scenario and of a collective, as a
// table and as CSV.
var sweeps = []struct {
	name string
	args []string
}{
	{"incast", []string{"incast", "--set", "traffic.bytes=512KiB", "--vary", "traffic.senders=2..8*2", "--vary", "network.buffer=256KiB,1MiB"}},
	{"incast-lossy", []string{"incast-lossy", "--set", "traffic.bytes=256KiB", "--vary", "network.buffer=32KiB,256KiB"}},
	{"allreduce", []string{"ring-allreduce-8", "--vary", "collective.algo=ring,tree", "--vary", "collective.bytes=1048576..16777216*4"}},
}

func TestSweepOutput(t *testing.T) {
	for _, sw := range sweeps {
		for _, format := range []struct{ ext, flag string }{{"txt", ""}, {"csv", "--csv"}} {
			args := append([]string{"sweep"}, sw.args...)
			if format.flag != "" {
				args = append(args, format.flag)
			}
			code, out, errOut := cli(args...)
			require.Equal(t, 0, code, errOut)
			golden.Equal(t, "testdata/sweep-"+sw.name+"."+format.ext, []byte(out))
		}
	}
}

func TestSweepCSVHasOneRowPerRun(t *testing.T) {
	code, out, errOut := cli("sweep", "incast", "--set", "traffic.bytes=64KiB", "--vary", "traffic.senders=2,3,4", "--vary", "seed=1,2", "--csv")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 1+3*2, "a header and a row per run")
	assert.Equal(t, "traffic.senders,seed,sim_time_us,goodput_gbps,max_fct_us,drops,pause_frames", lines[0])
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		require.Len(t, f, 7, l)
		assert.Equal(t, []string{[]string{"2", "3", "4"}[i/2], []string{"1", "2"}[i%2]}, f[:2], "row %d is its combination", i)
	}
	assert.Contains(t, errOut, "6/6 runs", "progress goes to stderr")
}

func TestSweepSameWithAnyJobs(t *testing.T) {
	for _, sw := range sweeps {
		var outs []string
		for _, jobs := range []string{"1", "2", "5"} {
			code, out, errOut := cli(append(append([]string{"sweep"}, sw.args...), "--csv", "--jobs", jobs)...)
			require.Equal(t, 0, code, errOut)
			outs = append(outs, out)
		}
		assert.Equal(t, outs[0], outs[1], "%s: --jobs 1 and --jobs 2", sw.name)
		assert.Equal(t, outs[0], outs[2], "%s: --jobs 1 and --jobs 5", sw.name)
	}
}

func TestSweepJobsAreCappedAtTheCoresAndRuns(t *testing.T) {
	cores := runtime.NumCPU()
	assert.Equal(t, min(cores, 2), sweepJobs(1_000_000, 2), "no more jobs than runs")
	assert.Equal(t, cores, sweepJobs(1_000_000, 10_000), "no more jobs than cores")
	assert.Equal(t, 1, sweepJobs(0, 5))
	assert.Equal(t, 1, sweepJobs(-3, 5))

	// --jobs 20000 for two runs starts two workers at most, not 20,000
	// goroutines (each with its stack: --jobs 1000000 took 4.7 GB).
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, _, errOut := cli("sweep", "incast", "--set", "traffic.bytes=64KiB", "--vary", "seed=1,2", "--jobs", "20000")
	runtime.ReadMemStats(&after)
	require.Equal(t, 0, code, errOut)
	// StackSys can shrink between the reads (stacks freed by a GC), so compare signed.
	grown := int64(after.StackSys) - int64(before.StackSys)
	assert.Less(t, grown, int64(8<<20), "stack memory of the sweep's goroutines")
}

// manyFlows is a flow-level scenario listing n flows (YAML aliases keep the file small).
func manyFlows(n int) []byte {
	var b strings.Builder
	b.WriteString("name: many-flows\ntopology: {kind: star, hosts: 16}\nsim: {fidelity: flow}\ntraffic:\n  pattern: flows\n  flows: [&f {src: 0, dst: 1, bytes: 4KiB}")
	b.WriteString(strings.Repeat(", *f", n-1))
	b.WriteString("]\n")
	return []byte(b.String())
}

// A sweep parses each combination when it runs it and keeps only each run's
// row: the memory in use when a run starts does not grow with the runs made.
func TestSweepParsesLazilyAndKeepsRowsOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	const flows, runs = 1 << 14, 12 // one parsed scenario is 768 KiB of flows; its result lists 4,096
	path := filepath.Join(t.TempDir(), "flows.yaml")
	require.NoError(t, os.WriteFile(path, manyFlows(flows), 0o644))

	var inUse []uint64
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	runScenario = func(sc scenario.Scenario) (*metrics.Result, error) {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		inUse = append(inUse, ms.HeapAlloc-min(base, ms.HeapAlloc))
		return sim.Run(sc)
	}
	defer func() { runScenario = sim.Run }()
	code, out, errOut := cli("sweep", path, "--vary", "seed=1.."+strconv.Itoa(runs), "--csv", "--jobs", "1")
	require.Equal(t, 0, code, errOut)
	require.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 1+runs)
	require.Len(t, inUse, runs)
	const budget = 2 << 20 // the scenario being run (768 KiB), and the rows
	for i, n := range inUse {
		assert.Less(t, n, uint64(budget), "heap in use when run %d starts", i+1)
	}
	assert.Less(t, inUse[runs-1], inUse[1]+(1<<20), "the last run starts with about the memory the second did")
}

// A combination that fails after others have run does not lose their rows:
// they are printed, then the error names the failing combination.
func TestSweepKeepsTheRowsBeforeAFailure(t *testing.T) {
	for _, format := range []string{"csv", "table"} {
		args := []string{"sweep", "incast", "--set", "traffic.bytes=64KiB", "--vary", "traffic.senders=2,3,0,4", "--jobs", "1"}
		if format == "csv" {
			args = append(args, "--csv")
		}
		code, out, errOut := cli(args...)
		assert.Equal(t, 1, code, format)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		require.GreaterOrEqual(t, len(lines), 3, "%s: a header and the rows of 2 and 3:\n%s", format, out)
		assert.Contains(t, lines[0], "traffic.senders", format)
		assert.Contains(t, lines[0], "goodput_gbps", format)
		for i, want := range []string{"2", "3"} {
			assert.Equal(t, want, strings.FieldsFunc(lines[1+i], func(r rune) bool { return r == ',' || r == ' ' })[0], "%s: row %d", format, i+1)
		}
		for _, l := range lines[1:] {
			assert.False(t, strings.HasPrefix(strings.TrimSpace(l), "0"), "%s: no row for the failing value: %s", format, l)
		}
		assert.Regexp(t, `the sweep stopped \(the [23] of 4 runs that finished are above\): with traffic.senders=0: --set traffic.senders=0:`, errOut, format)
	}
}

func TestSweepCombosRefusesAKeyTwice(t *testing.T) {
	_, _, err := sweepCombos([]string{"seed=1,2", " seed =3"})
	assert.EqualError(t, err, "--vary seed is given twice: give all its values in one --vary, e.g. --vary seed=1,2,4,8")
	keys, combos, err := sweepCombos([]string{"seed=1,2", "traffic.seed=3"})
	require.NoError(t, err, "a key that only ends like another is another key")
	assert.Equal(t, []string{"seed", "traffic.seed"}, keys)
	assert.Len(t, combos, 2)
}

// A sweep of a file reads it once, not once a run, whatever the jobs.
func TestSweepReadsTheFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: s\ntraffic: {senders: 2, bytes: 64KiB}\n"), 0o644))
	var reads atomic.Int32
	readScenario = func(p string) ([]byte, error) { reads.Add(1); return scenario.ReadFile(p) }
	defer func() { readScenario = scenario.ReadFile }()
	code, out, errOut := cli("sweep", path, "--vary", "seed=1..6", "--csv", "--jobs", "2")
	require.Equal(t, 0, code, errOut)
	assert.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 1+6)
	assert.EqualValues(t, 1, reads.Load())
}

// A training sweep gets a bubble_fraction column when a run has pipeline
// stages (0 for the runs without), and none otherwise.
func TestSweepBubbleColumn(t *testing.T) {
	fig := func(bubble string) []string { return []string{"16", "1", "1", "0.5", "0.5", "100", bubble, "", "", ""} }
	runs := []sweepRun{{sets: []string{"training.pp=1"}, kind: trainingRun, figures: fig("")},
		{sets: []string{"training.pp=4"}, kind: trainingRun, figures: fig("0.3256")}}
	header, rows := sweepTable([]string{"training.pp"}, runs)
	assert.Equal(t, "bubble_fraction", header[len(header)-1])
	assert.Equal(t, []string{"1", "16", "1", "1", "0.5", "0.5", "100", "0"}, rows[0])
	assert.Equal(t, "0.3256", rows[1][len(rows[1])-1])
	header, rows = sweepTable([]string{"training.pp"}, runs[:1])
	assert.NotContains(t, header, "bubble_fraction")
	assert.Len(t, rows[0], len(header))
}

// A training sweep gets the checkpoint's columns when a run writes one (0
// for the runs without), after the bubble's when both are there.
func TestSweepCheckpointColumns(t *testing.T) {
	fig := func(bubble, ckpt string) []string {
		return []string{"16", "1", "1", "0.5", "0.5", "100", bubble, ckpt, ckpt, ckpt}
	}
	runs := []sweepRun{{sets: []string{"training.checkpoint_every=0"}, kind: trainingRun, figures: fig("", "")},
		{sets: []string{"training.checkpoint_every=1"}, kind: trainingRun, figures: fig("", "7.5")}}
	header, rows := sweepTable([]string{"training.checkpoint_every"}, runs)
	assert.Equal(t, []string{"checkpoint_us", "iteration_checkpoint_us", "checkpoint_exposed_us"}, header[len(header)-3:])
	assert.NotContains(t, header, "bubble_fraction")
	assert.Equal(t, []string{"0", "16", "1", "1", "0.5", "0.5", "100", "0", "0", "0"}, rows[0])
	assert.Equal(t, []string{"7.5", "7.5", "7.5"}, rows[1][len(rows[1])-3:])
	runs[0].figures = fig("0.25", "")
	header, rows = sweepTable([]string{"training.checkpoint_every"}, runs)
	assert.Equal(t, "bubble_fraction", header[len(header)-4])
	assert.Equal(t, []string{"0.25", "0", "0", "0"}, rows[0][len(rows[0])-4:])
	assert.Equal(t, []string{"0", "7.5", "7.5", "7.5"}, rows[1][len(rows[1])-4:])
}
