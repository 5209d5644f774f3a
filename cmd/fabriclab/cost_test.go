package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With training.gpu_hour_price the text summary says what the GPU time
// costs; without it the summary has no such line and the JSON no money.
func TestRunTrainingCost(t *testing.T) {
	base := []string{"run", "dp-resnet50", "--set", "sim.fidelity=flow", "--set", "topology.nodes=1"}
	code, out, errOut := cli(append(base, "--set", "training.gpu_hour_price=2.5")...)
	require.Equal(t, 0, code, errOut)
	// 8 GPUs at 2.5: 20.00 an hour
	assert.Regexp(t, `\n          at 2\.5 per GPU-hour: 20\.00 an hour \(0\.\d\d of it waiting\), \d+\.\d\d per 1,000 iterations \(\d+\.\d\d of it waiting\), \d+\.\d\d per billion samples \(\d+\.\d\d of it waiting\)\n`, out)

	code, out, errOut = cli(base...)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "per GPU-hour")
	code, out, errOut = cli(append(base, "--json")...)
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Training struct {
			Cost map[string]any `json:"cost"`
		} `json:"training"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.NotContains(t, doc.Training.Cost, "gpu_hour_price")
	assert.Equal(t, map[string]any{"gpu_hours": 8.0, "waiting_gpu_hours": doc.Training.Cost["per_hour"].(map[string]any)["waiting_gpu_hours"]},
		doc.Training.Cost["per_hour"], "GPU-hours, no money")
}
