package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/unit"
)

// A job whose iterations would make more flows than the model may keep is
// refused before it starts, with the number of iterations that would fit.
func TestCheckFlowsRefusesJobsPastTheFlowBudget(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	sched, err := coll.Build(coll.AllReduce, "ring", coll.Params{Ranks: 16, GPUsPerNode: 8})
	require.NoError(t, err)
	buckets := Buckets(m, unit.MiB, 25*unit.MiB, 4)
	cfg := Config{Model: m, BytesPerParam: 4, Iterations: 1, Coll: coll.Options{Channels: 8, Chunk: 4 * unit.MiB, Streamed: true}}

	var perIter int64
	for _, b := range buckets {
		o := cfg.Coll
		o.Bytes = unit.Bytes(b.Params * 4)
		perIter += sched.TransferCount(o)
	}
	require.Len(t, buckets, 5)
	assert.Equal(t, int64(5*2*16), perIter, "streamed ring: a transfer per pair (16) per phase (2) per bucket")

	cfg.MaxFlows = 10 * perIter
	cfg.Iterations = 10
	assert.NoError(t, checkFlows(cfg, sched, buckets), "exactly the budget")
	cfg.Iterations = 11
	assert.EqualError(t, checkFlows(cfg, sched, buckets),
		"training: 11 iterations of 160 all-reduce transfers each make 1760 flows, more than the 1600 a run may make: use training.iterations: 10 or fewer (the report is the last iteration's)")

	cfg.Iterations, cfg.MaxFlows = 1, perIter-1
	assert.EqualError(t, checkFlows(cfg, sched, buckets),
		"training: an iteration's all-reduces make 160 transfers, more than the 159 flows a run may make: use fewer training.ranks or a larger training.bucket_cap")
	cfg.Coll.Streamed = false
	assert.ErrorContains(t, checkFlows(cfg, sched, buckets), "use sim: {fidelity: flow}", "step by step, the flow level is the way out")

	cfg.MaxFlows = 0
	assert.NoError(t, checkFlows(cfg, sched, buckets), "no budget")
}
