package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// algo: auto takes what NCCL's tuning model (tuning.cc) would: NVLS for
// large all-reduces on one H100 node, trees for small ones across nodes
// (their latency grows with log2(nodes), a ring's with the ranks), rings for
// large ones.
func TestChooseFollowsNCCLTuning(t *testing.T) {
	oneNode := Params{Ranks: 8, GPUsPerNode: 8, OneSwitch: true}
	eight := Params{Ranks: 64, GPUsPerNode: 8}
	for _, tc := range []struct {
		op    string
		p     Params
		bytes int64
		want  string
	}{
		{AllReduce, oneNode, 1 << 30, InNetwork},
		{AllReduce, eight, 8 << 30, Ring},
		{AllReduce, eight, 1 << 30, Ring},
		{AllReduce, eight, 64 << 10, Tree},
		{AllReduce, Params{Ranks: 512, GPUsPerNode: 8}, 16 << 20, Tree},
		{ReduceScatter, eight, 64 << 10, Ring},
		{AllToAll, eight, 1 << 20, Direct},
		{Broadcast, eight, 1 << 20, Ring},
	} {
		assert.Equal(t, tc.want, Choose(tc.op, tc.p, tc.bytes), "%s on %d ranks, %d bytes", tc.op, tc.p.Ranks, tc.bytes)
	}
}

func TestBuildAutoBuildsTheChoice(t *testing.T) {
	p := Params{Ranks: 64, GPUsPerNode: 8, Bytes: 64 << 10}
	s, err := Build(AllReduce, Auto, p)
	require.NoError(t, err)
	assert.Equal(t, Tree, s.Algo)
	p.Bytes = 8 << 30
	s, err = Build(AllReduce, Auto, p)
	require.NoError(t, err)
	assert.Equal(t, Ring, s.Algo)
	assert.Equal(t, 16, s.Lanes)
}

// On whole dgx nodes (NVSwitch) large all-reduces take NVLSTree; without
// NVSwitch, on one node, or for small messages, the choice is as before.
func TestChooseNVLSTree(t *testing.T) {
	two := Params{Ranks: 16, GPUsPerNode: 8, NVSwitch: true}
	for _, tc := range []struct {
		p     Params
		bytes int64
		want  string
	}{
		{two, 8 << 30, NVLSTree},
		{Params{Ranks: 64, GPUsPerNode: 8, NVSwitch: true}, 8 << 30, NVLSTree},
		{Params{Ranks: 16, GPUsPerNode: 8}, 8 << 30, Ring},
		{Params{Ranks: 8, GPUsPerNode: 8, NVSwitch: true, OneSwitch: true}, 8 << 30, InNetwork},
		{Params{Ranks: 12, GPUsPerNode: 8, NVSwitch: true}, 8 << 30, Ring},
		{two, 64 << 10, Tree},
		{two, 2 << 20, Tree},
		{two, 16 << 20, NVLSTree},
	} {
		assert.Equal(t, tc.want, Choose(AllReduce, tc.p, tc.bytes), "%d ranks, %d bytes", tc.p.Ranks, tc.bytes)
	}
	assert.Equal(t, Ring, Choose(ReduceScatter, two, 8<<30))
}
