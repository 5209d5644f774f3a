package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/unit"
)

// A job whose iterations would make more flows than the model may keep is
// refused before it starts, with the number of iterations that would fit.
func TestFlowBudgetRefusesJobsPastIt(t *testing.T) {
	const perIter = 160
	assert.NoError(t, flowBudget(perIter, 10, 10*perIter, true), "exactly the budget")
	assert.EqualError(t, flowBudget(perIter, 11, 10*perIter, true),
		"training: 11 iterations of 160 collective transfers each make 1760 flows, more than the 1600 flows a run may make: use training.iterations: 10 or fewer (the report is the last iteration's)")
	assert.EqualError(t, flowBudget(perIter, 1, perIter-1, true),
		"training: an iteration's collectives make 160 transfers, more than the 159 flows a run may make: use fewer training.ranks or a larger training.bucket_cap")
	assert.ErrorContains(t, flowBudget(perIter, 1, perIter-1, false), "use sim: {fidelity: flow}", "step by step, the flow level is the way out")
	assert.ErrorContains(t, flowBudget(perIter, 11, 10*perIter, false), "or sim: {fidelity: flow}")
}

// The count a job checks is what its collectives really send: ResNet-50's
// five buckets on 16 ranks, streamed, make a transfer per pair per phase.
func TestJobCountsItsTransfers(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	gpu, err := GPUPreset("h100")
	require.NoError(t, err)
	cfg := Config{Model: m, GPU: gpu, MFU: 0.18, Batch: 32, BucketCap: 25 * unit.MiB, FirstBucket: unit.MiB,
		Overlap: true, WireBytes: 4, Iterations: 1, Algo: coll.Ring, GPUsPerNode: 1, // a flat ring
		Coll: coll.Options{Channels: 8, Chunk: 4 * unit.MiB, Streamed: true}}
	ranks := make([]int, 16)
	for i := range ranks {
		ranks[i] = i
	}
	cfg.MaxFlows = 5 * 2 * 16
	_, err = Start(countingFabric{}, cfg, ranks, nil)
	assert.NoError(t, err, "5 buckets × 2 phases × 16 pairs fit exactly")
	cfg.MaxFlows--
	_, err = Start(countingFabric{}, cfg, ranks, nil)
	assert.EqualError(t, err, "training: an iteration's collectives make 160 transfers, more than the 159 flows a run may make: use fewer training.ranks or a larger training.bucket_cap")
}

// countingFabric carries nothing: the budget is checked before anything is sent.
type countingFabric struct{}

func (countingFabric) Now() unit.Time                 { return 0 }
func (countingFabric) Send(fabric.Transfer, func())   {}
func (countingFabric) At(unit.Time, func())           {}
func (countingFabric) Latency(src, dst int) unit.Time { return 0 }
