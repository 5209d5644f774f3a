package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
)

// A sharded job's reduce-scatter and all-gather with training.algo: ring run
// on NCCL's rail-aligned rings over whole nodes, as collective.algo: ring
// builds them (REFERENCE.md, multi-node collectives: channels, ring shape):
// two lanes per NIC, and every hop between nodes stays on its rail. With
// tensor parallelism the data-parallel group's GPUs of a node sit on
// distinct rails too.
func TestShardedCollectivesRunOnRailRings(t *testing.T) {
	for _, tc := range []struct {
		ranks, gpn, tp int
	}{{16, 8, 1}, {32, 8, 1}, {16, 8, 2}} {
		g := newGroups(tc.ranks, tc.tp, tc.gpn, false)
		p := g.dpParams(false, true)
		scheds, err := Schedules(FSDP, coll.Ring, coll.Params{Ranks: tc.ranks, GPUsPerNode: tc.gpn, NVSwitch: true}, tc.tp, false)
		require.NoError(t, err)
		require.NotEmpty(t, scheds)
		for _, s := range scheds {
			if s.Op == coll.AllReduce {
				continue // tensor parallelism's all-reduce
			}
			assert.Equal(t, 2*p.GPUsPerNode, s.Lanes, "%+v %s", tc, s.Op)
			for _, ph := range s.Summary {
				for _, k := range ph.Pairs {
					if !s.SameNode(k.Src, k.Dst) {
						assert.Equal(t, k.Src%p.GPUsPerNode, k.Dst%p.GPUsPerNode, "%+v %s: %d → %d leaves its rail", tc, s.Op, k.Src, k.Dst)
					}
				}
			}
		}
	}
}
