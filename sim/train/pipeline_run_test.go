package train_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
)

// freeBubble runs sc's training job on a fabric where communication is free.
func freeBubble(t *testing.T, sc scenario.Scenario) float64 {
	t.Helper()
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	ranks := make([]int, p.Training.Ranks)
	for i := range ranks {
		ranks[i] = i
	}
	f := &train.FreeFabric{}
	var res metrics.Training
	_, err = train.Start(f, p.Training.Config, ranks, func(r metrics.Training) { res = r })
	require.NoError(t, err)
	f.Run()
	require.Positive(t, res.IterationUs)
	return res.BubbleFraction
}

// On the fabric, the sends between stages take time and the bubble grows
// past what free communication gives, which is at least the published
// (p−1)/(m+p−1) (REFERENCE.md, "Pipeline parallelism"; GPT-2's stages are
// not equal: the last holds the head). Without tensor parallelism, so
// that the only waits inside the pipeline are its sends.
func TestPipelineBubbleOnTheFabric(t *testing.T) {
	formula := train.BubbleFraction(train.OneFOneB, 4, 8, 1)
	for _, placement := range []string{"tp-pp-dp", "tp-dp-pp"} { // stages inside a node, and across the two
		sc := sc(t, "pp-gpt-1f1b", []string{"training.tp=1", "training.placement=" + placement})
		res, err := sim.Run(sc)
		require.NoError(t, err)
		require.NotNil(t, res.Training)
		free := freeBubble(t, sc)
		assert.Greater(t, free, formula, placement)
		assert.Greater(t, res.Training.BubbleFraction, free, "%s: the sends between stages take time", placement)
	}
}

// Placing a tensor-parallel group across the nodes (pp-dp-tp) puts every
// tensor-parallel all-reduce on the network: the GPUs wait far longer than
// with the group inside a node (tp-pp-dp, the default).
func TestPipelinePlacementCost(t *testing.T) {
	util := map[string]float64{}
	for _, placement := range []string{"tp-pp-dp", "pp-dp-tp"} {
		res, err := sim.Run(sc(t, "pp-gpt-1f1b", []string{"training.placement=" + placement}))
		require.NoError(t, err)
		util[placement] = res.Training.GPUUtil
	}
	assert.Less(t, util["pp-dp-tp"], util["tp-pp-dp"]*0.8)
}
