package snap

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/sim/unit"
)

func TestRoutesPathIsComputedOnce(t *testing.T) {
	calls := 0
	r := NewRoutes(false, 4096, 8, false, func(f int) []int32 { calls++; return []int32{int32(f), 7} })
	assert.Equal(t, []int32{2, 7}, r.Path(2))
	assert.Equal(t, []int32{2, 7}, r.AppendPath(nil, 2, 0))
	assert.Equal(t, 1, calls)
	assert.Nil(t, r.Path(-1))
}

func TestRoutesTookKeepsFirstUse(t *testing.T) {
	r := NewRoutes(true, 4096, 130, true, nil)
	r.Took(1, 129, 5)
	r.Took(1, 3, 9)
	r.Took(1, 129, 12) // taken again: the first time stays
	assert.Equal(t, []int32{129}, r.AppendPath(nil, 1, 8))
	assert.Equal(t, []int32{129, 3}, r.AppendPath(nil, 1, unit.Never))
	assert.Empty(t, r.AppendPath(nil, 0, unit.Never))
	assert.Empty(t, r.AppendPath(nil, 5, unit.Never), "a flow not met yet")
}

func TestReordered(t *testing.T) {
	r := NewRoutes(true, 4096, 4, true, nil)
	r.Finished(0, 12)
	r.Finished(2, 0)
	s := &Snapshot{
		Flows:   []Flow{{Done: true}, {Started: true}, {Done: true}},
		Routing: &Routing{Routes: r, Reordered: []FlowCount{{Flow: 1, N: 3}}},
	}
	assert.Equal(t, []int64{12, 3, 0}, []int64{s.Reordered(0), s.Reordered(1), s.Reordered(2)})
	assert.Zero(t, s.Reordered(3))
	assert.Zero(t, (&Snapshot{}).Reordered(0), "no routing picture")
}
