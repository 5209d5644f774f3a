package coll

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On one node NCCL's tree is a chain through the GPUs, one per channel
// (REFERENCE.md, multi-node collectives: tree shape; tuning.cc counts
// 2·(ppn−1) NVLink steps): every hop joins neighbours of the lane's chain,
// the chain is g−1 deep, and every chunk ends reduced on every GPU. Plain
// hosts keep the balanced double binary tree.
func TestOneNodeTreeIsAChain(t *testing.T) {
	for _, shape := range [][2]int{{8, 8}, {4, 8}, {2, 2}} {
		n, g := shape[0], shape[1]
		t.Run(fmt.Sprintf("%d of %d", n, g), func(t *testing.T) {
			s, err := Build(AllReduce, Tree, Params{Ranks: n, GPUsPerNode: g})
			require.NoError(t, err)
			require.Equal(t, 2*n, s.Lanes)
			assert.False(t, s.Pipelined, "streamed, the phases' latencies add up as tuning.cc's")
			assert.Equal(t, 2*(n-1), s.StepCount(), "up and down a chain of %d", n)
			for _, ph := range s.Summary {
				assert.Equal(t, n-1, ph.Steps)
				assert.Zero(t, ph.NetSteps)
			}
			state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
			for r := range n {
				for c := range s.Chunks {
					require.True(t, state[r][c].full(), "rank %d chunk %d", r, c)
				}
			}
			for _, st := range s.Steps {
				for _, tr := range st.Transfers {
					head := tr.Lane % n
					up, down := mod(tr.Src-head, n), mod(tr.Dst-head, n)
					if tr.Reduce {
						assert.Equal(t, up-1, down, "lane %d: %d sends up the chain to %d", tr.Lane, tr.Src, tr.Dst)
					} else {
						assert.Equal(t, up+1, down, "lane %d: %d sends down the chain to %d", tr.Lane, tr.Src, tr.Dst)
					}
				}
			}
		})
	}
	s, err := Build(AllReduce, Tree, Params{Ranks: 8})
	require.NoError(t, err)
	assert.Zero(t, s.Lanes, "plain hosts: the double binary tree")
	assert.Equal(t, 2*3, s.StepCount(), "log2(8) deep each way")
}
