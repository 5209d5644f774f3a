package metrics

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// 64 GPUs, 0.36 s iterations, 75 % busy, 2,048 samples per GPU: worked by hand.
func TestTrainingCost(t *testing.T) {
	tr := &Training{Ranks: 64, IterationUs: 360_000, GPUUtil: 0.75, Batch: 1024, Accumulation: 2, TP: 1}
	c := TrainingCost(tr, 2.5)
	assert.Equal(t, 2.5, c.GPUHourPrice)
	// an hour: 64 GPU-hours, a quarter of them waiting
	assert.Equal(t, CostShare{GPUHours: 64, WaitingGPUHours: 16, Cost: ptr(160), WaitingCost: ptr(40)}, c.PerHour)
	// 1,000 iterations are 360 s = 0.1 h: 6.4 GPU-hours
	assert.Equal(t, CostShare{GPUHours: 6.4, WaitingGPUHours: 1.6, Cost: ptr(16), WaitingCost: ptr(4)}, c.Per1kIters)
	// 131,072 samples per iteration: 10^9 of them take 7,629.39 iterations, 0.762939 h
	assert.Equal(t, CostShare{GPUHours: 48.8281, WaitingGPUHours: 12.207, Cost: ptr(122.07), WaitingCost: ptr(30.5175)}, c.Per1BSamples)

	// tensor parallelism: a group of 4 shares one batch, so a billion samples take 4× the GPU time
	tr.TP = 4
	assert.InEpsilon(t, 4*48.8281, TrainingCost(tr, 2.5).Per1BSamples.GPUHours, 1e-5)
}

// Without a price the report keeps the GPU-hours and leaves the money out;
// with one, a cost of 0 (GPUs never waiting) is still written.
func TestTrainingCostJSON(t *testing.T) {
	tr := &Training{Ranks: 8, IterationUs: 3.6e6, GPUUtil: 1, Batch: 1} // 1,000 iterations: an hour
	out, err := json.Marshal(TrainingCost(tr, 0))
	require.NoError(t, err)
	assert.JSONEq(t, `{"per_hour": {"gpu_hours": 8, "waiting_gpu_hours": 0},
		"per_1k_iterations": {"gpu_hours": 8, "waiting_gpu_hours": 0},
		"per_1b_samples": {"gpu_hours": 1e6, "waiting_gpu_hours": 0}}`, string(out))
	out, err = json.Marshal(TrainingCost(tr, 1))
	require.NoError(t, err)
	assert.JSONEq(t, `{"gpu_hour_price": 1, "per_hour": {"gpu_hours": 8, "waiting_gpu_hours": 0, "cost": 8, "waiting_cost": 0},
		"per_1k_iterations": {"gpu_hours": 8, "waiting_gpu_hours": 0, "cost": 8, "waiting_cost": 0},
		"per_1b_samples": {"gpu_hours": 1e6, "waiting_gpu_hours": 0, "cost": 1e6, "waiting_cost": 0}}`, string(out))
}
