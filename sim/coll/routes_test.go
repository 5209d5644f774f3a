package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lanesOf groups a schedule's Routes by lane.
func lanesOf(s *Schedule) map[int][]Hop {
	out := map[int][]Hop{}
	for _, h := range s.Routes {
		out[h.Lane] = append(out[h.Lane], h)
	}
	return out
}

// The rings' routes are the rings the schedule runs: each lane's hops in
// its order, every rank once, the last back to the first; on 2 nodes of 8
// channel 0 goes through node 0's GPUs 0…7, leaves by GPU 7 to node 1,
// which it goes through backwards (the odd node's rings alternate).
func TestRingRoutes(t *testing.T) {
	for _, summary := range []bool{false, true} {
		s, err := Build(AllReduce, Ring, Params{Ranks: 16, GPUsPerNode: 8, SummaryOnly: summary})
		require.NoError(t, err)
		lanes := lanesOf(s)
		require.Len(t, lanes, s.Lanes)
		rings := railRings(16, 8)
		for l, hops := range lanes {
			require.Len(t, hops, 16, "lane %d", l)
			for k, h := range hops {
				assert.Equal(t, Hop{From: rings[l][k], To: rings[l][(k+1)%16], Lane: l}, h)
			}
		}
		var order []int
		for _, h := range lanes[0] {
			order = append(order, h.From)
		}
		assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8}, order)
	}
	big, err := Build(AllReduce, Ring, Params{Ranks: 512, GPUsPerNode: 8, SummaryOnly: true})
	require.NoError(t, err)
	assert.Nil(t, big.Routes, "beyond MaxRouteHops")
}

// The trees' routes are each rank's parent: a chain in each node from the
// GPU of the lane's NIC, its head under another node's head; lane l and
// l+g share the chain, on the double binary tree's two trees.
func TestTreeRoutes(t *testing.T) {
	s, err := Build(AllReduce, Tree, Params{Ranks: 32, GPUsPerNode: 8})
	require.NoError(t, err)
	lanes := lanesOf(s)
	require.Len(t, lanes, 16)
	parent := func(l int) map[int]int {
		out := map[int]int{}
		for _, h := range lanes[l] {
			out[h.From] = h.To
		}
		return out
	}
	p0 := parent(0)
	assert.Len(t, p0, 31, "every rank but the root")
	for k := range 4 {
		for i := 1; i < 8; i++ {
			assert.Equal(t, k*8+i-1, p0[k*8+i], "node %d's chain from GPU 0", k)
		}
	}
	heads := map[int]int{}
	for k := range 4 {
		if p, ok := p0[k*8]; ok {
			heads[k] = p / 8
			assert.Zero(t, p%8, "a head's parent is another node's head")
		}
	}
	assert.Equal(t, map[int]int{1: 2, 2: 0, 3: 2}, heads, "NCCL's binary tree over 4 nodes (ncclGetBtree): 0 ← 2 ← 1, 3")
	p8 := parent(8)
	for k := range 4 {
		for i := 1; i < 8; i++ {
			assert.Equal(t, p0[k*8+i], p8[k*8+i], "lane 8 shares lane 0's chain")
		}
	}
	assert.NotEqual(t, p0[8], p8[8], "on the other tree")
	p3 := parent(3)
	assert.Equal(t, 3, p3[4], "lane 3's chain starts at GPU 3")
}

// On one node the ring's route is the ring the steps run, through the GPUs
// in order and back (lane 0: the runner runs it on every channel); a
// broadcast's chain and other algorithms have none.
func TestOneNodeRingRoute(t *testing.T) {
	for _, op := range []string{AllReduce, ReduceScatter, AllGather} {
		s, err := Build(op, Ring, Params{Ranks: 8, GPUsPerNode: 8})
		require.NoError(t, err)
		want := make([]Hop, 8)
		for k := range 8 {
			want[k] = Hop{From: k, To: (k + 1) % 8, Lane: 0}
		}
		assert.Equal(t, want, s.Routes, op)
		assert.Zero(t, s.Lanes, "copied per channel by the runner")
		for _, step := range s.Steps {
			for _, tr := range step.Transfers {
				assert.Equal(t, (tr.Src+1)%8, tr.Dst, "%s: the steps run the same ring", op)
			}
		}
	}
	for _, c := range []struct {
		op, algo string
		p        Params
	}{
		{Broadcast, Ring, Params{Ranks: 8, GPUsPerNode: 8}},
		{AllReduce, Ring, Params{Ranks: 8}},
		{AllReduce, Rabenseifner, Params{Ranks: 8, GPUsPerNode: 8}},
	} {
		s, err := Build(c.op, c.algo, c.p)
		require.NoError(t, err)
		assert.Nil(t, s.Routes, "%s/%s", c.op, c.algo)
	}
}
