package coll

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A schedule built with SummaryOnly has the Summary, phases and step count
// that listing its steps gives, pair for pair in the same order (a streamed
// run makes its flows in that order, which fixes their ECMP hashes).
func TestSummaryOnlyMatchesSteps(t *testing.T) {
	type tc struct {
		op, algo string
		p        Params
	}
	var cases []tc
	for _, n := range []int{2, 3, 5, 8, 12, 16, 24, 64} {
		for _, g := range []int{0, 4, 8} {
			p := Params{Ranks: n, GPUsPerNode: g, NVSwitch: g > 0}
			for _, op := range []string{AllReduce, ReduceScatter, AllGather} {
				cases = append(cases, tc{op, Ring, p}, tc{op, Rabenseifner, p})
			}
			cases = append(cases, tc{AllReduce, Hierarchical, p}, tc{AllReduce, NVLSTree, p}, tc{AllReduce, Tree, p},
				tc{Broadcast, Ring, p}, tc{AllToAll, Pairwise, p})
		}
	}
	checked := 0
	for _, c := range cases {
		name := fmt.Sprintf("%s/%s/n%d/g%d", c.op, c.algo, c.p.Ranks, c.p.GPUsPerNode)
		full, err := Build(c.op, c.algo, c.p)
		if err != nil {
			continue // not a valid combination
		}
		q := c.p
		q.SummaryOnly = true
		sum, err := Build(c.op, c.algo, q)
		require.NoError(t, err, name)
		require.NotNil(t, full.Steps, name)
		require.Equal(t, full.Summary, sum.Summary, name)
		require.Equal(t, full.Phases, sum.Phases, name)
		require.Equal(t, []any{full.Chunks, full.Lanes, full.Pipelined, full.gpn, len(full.Steps)},
			[]any{sum.Chunks, sum.Lanes, sum.Pipelined, sum.gpn, sum.StepCount()}, name)
		checked++
	}
	require.Greater(t, checked, 100)
}

// SummaryOnly leaves the steps of rings and hierarchical schedules out.
func TestSummaryOnlyListsNoSteps(t *testing.T) {
	for _, c := range []struct {
		op, algo string
		p        Params
	}{
		{AllReduce, Ring, Params{Ranks: 1024}},
		{AllGather, Ring, Params{Ranks: 64}},
		{AllReduce, Ring, Params{Ranks: 32, GPUsPerNode: 8}}, // NCCL's rail rings
		{AllReduce, Hierarchical, Params{Ranks: 256, GPUsPerNode: 8}},
		{AllReduce, NVLSTree, Params{Ranks: 64, GPUsPerNode: 8, NVSwitch: true}},
	} {
		c.p.SummaryOnly = true
		s, err := Build(c.op, c.algo, c.p)
		require.NoError(t, err)
		require.Nil(t, s.Steps, c.algo)
		require.NotEmpty(t, s.Summary, c.algo)
	}
}
