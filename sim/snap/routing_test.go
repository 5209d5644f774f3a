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

func TestRoutingBytes(t *testing.T) {
	assert.Zero(t, (*Routing)(nil).Bytes())
	small := (&Routing{}).Bytes()
	assert.Equal(t, small+4*100+16*2, (&Routing{LinkFlows: make([]int32, 100), Reordered: make([]FlowCount, 2)}).Bytes())
}

func TestTookStaysBounded(t *testing.T) {
	r := NewRoutes(true, 4096, 64*MaxTracked/4, true, nil) // a bitset of MaxTracked/4 words a flow
	for f := range int32(5) {
		r.Took(f, 1, 0)
	}
	assert.True(t, r.Truncated, "the fifth flow's bitset is over the bound")
	assert.Empty(t, r.AppendPath(nil, 4, unit.Never))
	assert.Equal(t, []int32{1}, r.AppendPath(nil, 3, unit.Never))
	r.Finished(0, 0)
	r.Took(5, 2, 0)
	assert.Equal(t, []int32{2}, r.AppendPath(nil, 5, unit.Never), "a finished flow's bitset is given back")

	r = NewRoutes(true, 4096, 64, true, nil)
	for i := range MaxTracked + 1 {
		r.Took(int32(i/64), int32(i%64), 0)
	}
	assert.True(t, r.Truncated)
	assert.Equal(t, MaxTracked, r.uses, "no more uses than the bound")
}

// A reader returns only what is new; a Routes built from its news answers
// as the run's, truncation included.
func TestRouteReaderNews(t *testing.T) {
	live := NewRoutes(true, 4096, 64*MaxTracked/2, true, nil) // two flows' bitsets fill the bound
	live.Took(0, 3, 5)
	var c RouteReader
	data := RoutesFromData(true, 4096, nil)
	data.Apply(c.Read(live, 1))
	live.Took(0, 4, 9)
	live.Took(1, 2, 9)
	live.Took(2, 1, 9) // over the bound
	live.Finished(1, 7)
	n := c.Read(live, 3)
	assert.Equal(t, []FlowUse{{0, Use{4, 9}}, {1, Use{2, 9}}}, n.Uses)
	assert.Equal(t, []FlowCount{{1, 7}}, n.Final)
	data.Apply(n)
	assert.True(t, data.Truncated)
	assert.Equal(t, []int32{3}, data.AppendPath(nil, 0, 8))
	assert.Equal(t, []int32{3, 4}, data.AppendPath(nil, 0, 9))
	assert.Equal(t, live.final, data.final)
	assert.Empty(t, c.Read(live, 3).Uses, "nothing new")
}

func TestRerouteKeepsTheEarlierPath(t *testing.T) {
	links := []int32{1, 2}
	r := NewRoutes(false, 4096, 8, false, func(int) []int32 { return links })
	r.Reroute(0, []int32{3, 4}, 10) // the model changes its links after
	links = []int32{3, 4}
	r.Reroute(0, []int32{1, 2}, 20)
	assert.Equal(t, []int32{1, 2}, r.AppendPath(nil, 0, 9), "before the move: the first path")
	assert.Equal(t, []int32{3, 4}, r.AppendPath(nil, 0, 10))
	assert.Equal(t, []int32{1, 2}, r.AppendPath(nil, 0, 25), "moved back")
	assert.Equal(t, []int32{1, 2}, r.Path(0), "Path is the first")
	var c RouteReader
	d := RoutesFromData(false, 4096, nil)
	d.Apply(c.Read(r, 1))
	assert.Equal(t, []int32{3, 4}, d.AppendPath(nil, 0, 15), "the moves travel with the news")
	assert.Empty(t, c.Read(r, 1).Moves, "read once")
}
