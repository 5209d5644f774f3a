package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On one node NCCL's tree is a chain through the 8 GPUs (REFERENCE.md,
// multi-node collectives: tree shape), 2·7 NVLink steps up and down as
// tuning.cc counts them, as many as the ring's 2·(8−1): the tree is no
// faster than the ring at any size on one node (at 1 GiB both are
// bandwidth-bound: within 2 %).
func TestOneNodeTreeIsNoFasterThanTheRing(t *testing.T) {
	for _, bytes := range []string{"8B", "1MiB", "1GiB"} {
		ring := builtin(t, "ring-allreduce-8", "collective.bytes="+bytes).Collective
		tree := builtin(t, "ring-allreduce-8", "collective.bytes="+bytes, "collective.algo=tree").Collective
		require.NotNil(t, ring)
		require.NotNil(t, tree)
		assert.Equal(t, 14, tree.Steps, bytes)
		assert.Equal(t, ring.Steps, tree.Steps, bytes)
		assert.Greater(t, tree.TimeUs, 0.98*ring.TimeUs, bytes)
	}
}
