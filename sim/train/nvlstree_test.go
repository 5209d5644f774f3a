package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
)

// training.algo: nvlstree all-reduces data-parallel groups that hold whole
// dgx nodes with NVLSTree; a group of part of each node's GPUs (tensor
// parallelism inside the nodes) falls back to a ring.
func TestTrainingRunsNVLSTreeOnWholeNodes(t *testing.T) {
	p := coll.Params{Ranks: 32, GPUsPerNode: 8, NVSwitch: true}
	for _, tc := range []struct {
		tp     int
		spread bool
		want   string
	}{
		{1, false, coll.NVLSTree},
		{2, true, coll.NVLSTree},
		{2, false, coll.Ring},
	} {
		scheds, err := Schedules(NoSharding, coll.NVLSTree, p, tc.tp, tc.spread)
		require.NoError(t, err, "tp %d spread %v", tc.tp, tc.spread)
		require.NotEmpty(t, scheds)
		assert.Equal(t, tc.want, scheds[0].Algo, "tp %d spread %v", tc.tp, tc.spread)
	}
	_, err := Schedules(NoSharding, coll.NVLSTree, coll.Params{Ranks: 32, GPUsPerNode: 8}, 1, false)
	assert.ErrorContains(t, err, "nvlstree needs", "without NVSwitch")
}
