package protocol

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

// workerExamples are one worker message of each type, every field set;
// each has its golden file, testdata/worker/TYPE.json.
var (
	workerCommandExamples = []WorkerCommand{
		Begin{RunID: 3, YAML: "name: x\n", Sets: []string{"traffic.senders=4"}, Side: "left", HeapLimitMiB: 1024, Lang: "zh"},
		Early{Query: "?controls=1&lang=zh&first=load", Load: &Load{Scenario: "incast", Sets: []string{"traffic.senders=4"}, Step: "lossy", Figures: []string{"totals.drops | count"}}},
		Cancel{RunID: 3},
		Explain{ID: 2, Text: "# nccl-tests version 2.13.8\n#  Rank  0 Group  0 Pid 1 on node-a device  0 [0x29] NVIDIA H100 80GB HBM3\n", NICGbps: 200, Fabric: "roce", Op: "allreduce",
			Topo: "\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV18\tPIX\n"},
	}
	workerEventExamples = []WorkerEvent{
		WorkerReady{Version: "3f2a9c1e"},
		Begun{RunID: 3, Name: "incast", Endpoints: 9, Links: 18, UntilUs: 500, Early: true},
		Recorded{RunID: 3, Index: 12, TUs: 1.2, Bytes: 1640, Progress: 0.25, EtaS: 2.5},
		Computing{RunID: 3, Progress: 0.42, EtaS: 1.5},
		Halved{RunID: 3},
		RunResult{RunID: 3, Result: `{"totals":{"sim_time_us":10955}}`},
		ResultRest{RunID: 3, Bytes: 2350},
		WorkerError{RunID: 3, Message: "场景 incast 太大，浏览器画布容纳不下"},
		Explained{ID: 2, Header: []string{"all_reduce_perf, 16 ranks on 2 host(s) × 8 NVIDIA H100 80GB HBM3", "expected: a healthy cluster of 2 node(s) of 8 H100 on an NVSwitch"},
			Node: &ExplainedNode{Format: "NCCL topology (XML)", GPUs: 8, GPU: "h100", GPUGuess: true, NICs: 4, NICGbps: 400, RateGbps: 400, Path: "PXB", GDR: true}, ErrorIn: "topo",
			Rows:     []ExplainedRow{{Bytes: 1 << 30, MeasuredTimeUs: 10314, ExpectedTimeUs: 4392.75, MeasuredBusBw: 195.2, ExpectedBusBw: 458.32, Ratio: 0.43, Algo: "NVLS_TREE", Proto: "SIMPLE"}},
			Findings: []Finding{{Kind: "nics", Text: "From 1GiB, busbw is 195 GB/s, 43 % of the 458 GB/s expected"}},
			YAML:     "name: explain\ntopology:\n  kind: dgx\n", PartBytes: 1 << 30, Error: "line 53: a result row of 12 columns"},
	}
)

// Each worker message's JSON is pinned by a golden file and reads back as
// the same message; every type has an example.
func TestWorkerGolden(t *testing.T) {
	for _, c := range workerCommandExamples {
		data, err := EncodeWorkerCommand(c)
		require.NoError(t, err)
		golden.Equal(t, filepath.Join("testdata", "worker", typeName(c)+".json"), append(data, '\n'))
		back, err := DecodeWorkerCommand(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, c, back, "%s", data)
	}
	for _, e := range workerEventExamples {
		data, err := EncodeWorkerEvent(e)
		require.NoError(t, err)
		golden.Equal(t, filepath.Join("testdata", "worker", typeName(e)+".json"), append(data, '\n'))
		back, err := DecodeWorkerEvent(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, e, back, "%s", data)
	}
	have := map[string]bool{}
	for _, c := range workerCommandExamples {
		have[typeName(c)] = true
	}
	for _, e := range workerEventExamples {
		have[typeName(e)] = true
	}
	for _, m := range append(anys(WorkerCommands), anys(WorkerEvents)...) {
		assert.True(t, have[typeName(m)], "%s has no example", typeName(m))
	}
}

// A bad message to the worker is an error that says what to send.
func TestDecodeWorkerCommandErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"fabriclab":"begin","scenario":"incast"}`:                                                     "begin needs run_id",
		`{"fabriclab":"begin","run_id":1}`:                                                              "begin needs yaml (a scenario) or scenario",
		`{"fabriclab":"begin","run_id":1,"scenario":"a","yaml":"b"}`:                                    "one of them",
		`{"fabriclab":"begin","run_id":1,"scenario":"a","side":"top"}`:                                  `side "top": use left or right`,
		`{"fabriclab":"begin","run_id":1,"scenario":"a","heap_limit_mib":-1}`:                           "give 0 (the default) up to 4096",
		`{"fabriclab":"begin","run_id":1,"scenario":"a","lang":"fr"}`:                                   `lang "fr": use en or zh`,
		`{"fabriclab":"begin","run_id":"1","scenario":"a"}`:                                             `worker command begin: field "run_id" is a JSON string; give a whole number`,
		`{"fabriclab":"cancel"}`:                                                                        "cancel needs the run_id of a begin",
		`{"fabriclab":"explain","text":"# nccl-tests"}`:                                                 "explain needs id",
		`{"fabriclab":"explain","id":1,"text":" \n"}`:                                                   "explain needs text: an nccl-tests output",
		`{"fabriclab":"begin","run_id":1,"scenario":"a","set":["` + strings.Repeat("x", 65<<10) + `"]}`: "begin: the set overrides are too long: at most 64 KiB in all",
		`{"fabriclab":"play"}`:                                                                          `unknown worker command "play"; use one of begin, early, cancel, explain`,
		`{"fabriclab":"early","query":"","load":{"scenario":"incast","left":{"scenario":"incast"}}}`:    "load needs both left and right",
		`{"fabriclab":"early","query":"` + strings.Repeat("x", MaxQuery+1) + `"}`:                       "early: the query is 256 KiB: at most 256 KiB",
		`{"fabriclab":"early","query":"?compare=1&left=incast&right=incast","side":"middle"}`:           `early: side "middle": use left or right (a comparison's), or leave it out for one run`,
		`[1]`: `worker command is not JSON like {"fabriclab": "begin", ...}`,
	} {
		_, err := DecodeWorkerCommand([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
	_, err := DecodeWorkerEvent([]byte(`{"fabriclab":"ready"}`))
	assert.ErrorContains(t, err, `unknown worker event "ready"; use one of worker_ready, begun, recorded, computing, halved, result, result_rest, worker_error, explained`)
}

// A run's report goes whole from the worker, however long (perm-1024's is
// 1.7 MB: it was refused as longer than a command, and the run never ended);
// commands to the worker keep a command's limit.
func TestWorkerEventsCarryLongReports(t *testing.T) {
	long := strings.Repeat("x", 2<<20)
	e, err := DecodeWorkerEvent([]byte(`{"fabriclab":"result","run_id":1,"result":"` + long + `"}`))
	require.NoError(t, err)
	assert.Len(t, e.(RunResult).Result, len(long))
	_, err = DecodeWorkerCommand([]byte(`{"fabriclab":"begin","run_id":1,"yaml":"` + long + `"}`))
	_, err = DecodeWorkerCommand([]byte(`{"fabriclab":"begin","run_id":1,"yaml":"` + long + long + `"}`))
	assert.ErrorContains(t, err, "worker command too long: at most 2176 KiB")
	_, err = DecodeWorkerCommand([]byte(`{"fabriclab":"explain","id":1,"text":"` + long[:MaxOutput+1] + `"}`))
	assert.ErrorContains(t, err, "explain: the output is 1024 KiB: at most 1024 KiB")
	_, err = DecodeWorkerCommand([]byte(`{"fabriclab":"explain","id":1,"text":"x","topo":"` + long[:MaxTopo+1] + `"}`))
	assert.ErrorContains(t, err, "explain: the topology is 1024 KiB: at most 1024 KiB")
}

// Every worker event with a run_id says its run (RunOf) and takes another
// (WithRunID, as an early run's messages do when a begin takes it over);
// the others are about no run.
func TestWorkerEventsRun(t *testing.T) {
	for _, e := range workerEventExamples {
		data, err := EncodeWorkerEvent(e)
		require.NoError(t, err)
		var fields map[string]any
		require.NoError(t, json.Unmarshal(data, &fields))
		id, has := fields["run_id"]
		if !has {
			assert.Zero(t, RunOf(e), "%T", e)
			assert.Equal(t, e, WithRunID(e, 99), "%T", e)
			continue
		}
		assert.Equal(t, id, float64(RunOf(e)), "%T", e)
		moved := WithRunID(e, 99)
		assert.Equal(t, 99, RunOf(moved), "%T", e)
		again, err := EncodeWorkerEvent(WithRunID(moved, RunOf(e)))
		require.NoError(t, err)
		assert.Equal(t, string(data), string(again), "%T: only its run_id changes", e)
	}
}
