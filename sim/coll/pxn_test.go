package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With PXN an all-to-all's traffic between nodes stays on its rail: every
// transfer between nodes joins GPUs of the same local index, and each GPU's
// NIC carries the (nodes−1)·g shares of its rail, (nodes−1)/nodes of S
// (REFERENCE.md, "PXN and all-to-all": NCCL's proxy is the local GPU with the
// peer's index).
func TestPXNAllToAllStaysOnRails(t *testing.T) {
	const g = 8
	for _, nodes := range []int{2, 3, 4} {
		n := nodes * g
		s, err := Build(AllToAll, Direct, Params{Ranks: n, GPUsPerNode: g, PXN: true})
		require.NoError(t, err)
		require.Len(t, s.Summary, 2, "%d nodes", nodes)
		assert.True(t, s.Pipelined)
		assert.Equal(t, []int{0, 1}, []int{s.Summary[0].NetSteps, s.Summary[1].NetSteps}, "%d nodes: only the rail phase crosses the network", nodes)
		out, in, nvIn, nvOut := make([]int, n), make([]int, n), make([]int, n), make([]int, n)
		for _, ph := range s.Summary {
			for _, p := range ph.Pairs {
				if s.SameNode(p.Src, p.Dst) {
					nvOut[p.Src] += p.Parts
					nvIn[p.Dst] += p.Parts
					continue
				}
				assert.Equal(t, p.Src%g, p.Dst%g, "%d nodes: %d → %d leaves its rail", nodes, p.Src, p.Dst)
				out[p.Src] += p.Parts
				in[p.Dst] += p.Parts
			}
		}
		for r := range n {
			assert.Equal(t, (nodes-1)*g, out[r], "%d nodes: rank %d sends its rail's shares", nodes, r)
			assert.Equal(t, (nodes-1)*g, in[r], "%d nodes: rank %d receives every remote rank's share", nodes, r)
			// Over NVLink: g−1 peers each bring their own share and the
			// nodes−1 shares rank r relays for them.
			assert.Equal(t, (g-1)*nodes, nvIn[r], "%d nodes: rank %d", nodes, r)
			assert.Equal(t, (g-1)*nodes, nvOut[r], "%d nodes: rank %d", nodes, r)
		}
	}
}

// Without PXN (or on one node) direct is every rank sending to every other
// straight, across rails.
func TestDirectAllToAllWithoutPXN(t *testing.T) {
	for _, p := range []Params{{Ranks: 16, GPUsPerNode: 8}, {Ranks: 8, GPUsPerNode: 8, PXN: true}} {
		s, err := Build(AllToAll, Direct, p)
		require.NoError(t, err)
		require.Len(t, s.Summary, 1)
		assert.Len(t, s.Summary[0].Pairs, p.Ranks*(p.Ranks-1), "%+v", p)
	}
}
