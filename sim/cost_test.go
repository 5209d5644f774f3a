package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// training.gpu_hour_price feeds the report only: the run is the same with and
// without it, and the costs are the GPU-hours at the price.
func TestGPUHourPriceOnlyReports(t *testing.T) {
	base := []string{"topology.nodes=2", "sim.fidelity=flow"}
	free := builtin(t, "dp-resnet50", base...)
	paid := builtin(t, "dp-resnet50", append(base, "training.gpu_hour_price=3")...)
	require.NotNil(t, free.Training.Cost)
	require.NotNil(t, paid.Training.Cost)
	assert.Nil(t, free.Training.Cost.PerHour.Cost, "no price, no money")
	assert.Zero(t, free.Training.Cost.GPUHourPrice)

	c := paid.Training.Cost
	assert.Equal(t, 3.0, c.GPUHourPrice)
	for name, s := range map[string]struct{ hours, waiting float64 }{
		"per hour": {c.PerHour.GPUHours, c.PerHour.WaitingGPUHours}, "per 1k": {c.Per1kIters.GPUHours, c.Per1kIters.WaitingGPUHours},
	} {
		assert.Positive(t, s.waiting, name)
		assert.Less(t, s.waiting, s.hours, name)
	}
	assert.InEpsilon(t, 3*c.Per1kIters.WaitingGPUHours, *c.Per1kIters.WaitingCost, 1e-5)
	assert.InEpsilon(t, 3*c.Per1BSamples.GPUHours, *c.Per1BSamples.Cost, 1e-5)
	assert.Equal(t, float64(paid.Training.Ranks), c.PerHour.GPUHours, "an hour of the job is an hour of every GPU")

	// the GPU-hours are the same, and so is everything else
	assert.Equal(t, free.Training.Cost.Per1kIters.GPUHours, c.Per1kIters.GPUHours)
	free.Training.Cost, paid.Training.Cost = nil, nil
	assert.Equal(t, free, paid)
}
