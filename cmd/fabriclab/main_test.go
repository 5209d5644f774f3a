package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cli(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestRunSummary(t *testing.T) {
	code, out, errOut := cli("run", "incast", "--set", "traffic.bytes=1MiB")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "incast — star, roce 400 Gb/s, flow control pfc")
	assert.Contains(t, out, "busiest links")
	assert.Contains(t, out, "switch→host8")
	assert.Contains(t, out, "8/8 flows finished")
}

func TestRunJSONKeys(t *testing.T) {
	code, out, errOut := cli("run", "incast", "--set", "traffic.bytes=1MiB", "--json", "--seed", "4")
	require.Equal(t, 0, code, errOut)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.EqualValues(t, 4, doc["seed"])
	totals := doc["totals"].(map[string]any)
	for _, k := range []string{"sim_time_us", "events", "drops", "retransmits", "pause_frames", "ecn_marks", "goodput_gbps"} {
		assert.Contains(t, totals, k)
	}
	flows := doc["flows"].([]any)
	require.Len(t, flows, 8)
	for _, k := range []string{"src", "dst", "bytes", "start_us", "finish_us", "fct_us", "gbps"} {
		assert.Contains(t, flows[0], k)
	}
	links := doc["links"].([]any)
	require.NotEmpty(t, links)
	for _, k := range []string{"name", "kind", "gbps", "util", "max_queue_bytes", "drops", "pause_us"} {
		assert.Contains(t, links[0], k)
	}
	assert.Contains(t, doc, "series")
}

func TestRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: two\ntopology: {kind: star, hosts: 2}\ntraffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 1MiB}]}\n"), 0o644))
	code, out, errOut := cli("run", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "1/1 flows finished")
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "usage: fabriclab run"},
		{[]string{"run", "nosuch"}, `fabriclab run: scenario "nosuch" is neither a file nor a built-in; built-ins are alltoall-moe,`},
		{[]string{"run", "incast", "--set", "topology.hosts=0"}, "topology.hosts"},
		{[]string{"run", "incast", "--set", "network.buffr=1MiB"}, "--set network.buffr=1MiB: unknown key; network takes mtu, buffer,"},
		{[]string{"run", "incast", "--seed", "-3"}, `--seed "-3": want a whole number ≥ 0, e.g. --seed 7`},
		{[]string{"run", "incast", "permutation"}, "one scenario at a time"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		code, _, errOut := cli(tc.args...)
		assert.NotEqual(t, 0, code, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

func TestScenarios(t *testing.T) {
	code, out, _ := cli("scenarios")
	require.Equal(t, 0, code)
	for _, name := range []string{"incast", "incast-lossy", "ecmp-collisions", "permutation", "perm-1024"} {
		assert.Contains(t, out, name+" ")
	}
}

// The text summary of a training run says how it is laid out and what one GPU does.
func TestRunTrainingSummary(t *testing.T) {
	code, out, errOut := cli("run", "dp-resnet50", "--set", "sim.fidelity=flow", "--set", "topology.nodes=1")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "training: resnet50 on 8 × h100")
	assert.Regexp(t, `batch 256 × 1 micro-batches per GPU, sharding none, tp 1, mfu 0\.180: \d+ samples/s in all, [67]\d\d\d per GPU`, out)

	// It names activation checkpointing when a run uses it.
	code, out, errOut = cli("run", "dp-resnet50", "--set", "sim.fidelity=flow", "--set", "topology.nodes=1",
		"--set", "training.model=llama3-8b", "--set", "training.checkpointing=full")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "sharding fsdp, checkpointing full, tp 1")
}
