package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nvlstree needs 2+ whole nodes on NVSwitch; the error names what to use.
func TestNVLSTreeNeedsWholeDGXNodes(t *testing.T) {
	for _, p := range []Params{
		{Ranks: 8, GPUsPerNode: 8, NVSwitch: true, OneSwitch: true},
		{Ranks: 12, GPUsPerNode: 8, NVSwitch: true},
		{Ranks: 16, GPUsPerNode: 8},
		{Ranks: 16},
	} {
		_, err := Build(AllReduce, NVLSTree, p)
		assert.ErrorContains(t, err, "nvlstree needs ranks spanning at least 2 whole dgx nodes", "%+v", p)
	}
	_, err := Build(AllGather, NVLSTree, Params{Ranks: 16, GPUsPerNode: 8, NVSwitch: true})
	assert.ErrorContains(t, err, "nvlstree does not do allgather")
	_, err = Build(AllReduce, InNetwork, Params{Ranks: 16, GPUsPerNode: 8, NVSwitch: true})
	assert.ErrorContains(t, err, "use nvlstree")
}

// The link loads: each GPU link carries (1 + 1/g) of the buffer each way at
// NVLS efficiency over the two NVLS phases, each NIC 2(nodes−1)/nodes of its
// GPU's 1/g, to its rail peer on the next node.
func TestNVLSTreeLinkLoads(t *testing.T) {
	for _, nodes := range []int{2, 4} {
		n := 8 * nodes
		s, err := Build(AllReduce, NVLSTree, Params{Ranks: n, GPUsPerNode: 8, NVSwitch: true})
		require.NoError(t, err)
		assert.True(t, s.Pipelined)
		require.Len(t, s.Summary, 4)
		assert.Equal(t, []string{"reduce in node (NVLS)", "reduce across nodes (rail)", "broadcast across nodes (rail)", "broadcast in node (NVLS)"}, s.Phases)
		buf := float64(s.Chunks)
		var nvlink, nic float64
		for _, ph := range s.Summary {
			for _, p := range ph.Pairs {
				if p.Src != 3 {
					continue
				}
				if s.SameNode(p.Src, p.Dst) {
					assert.Equal(t, 4, p.Dst)
					nvlink += float64(p.Parts)
				} else {
					assert.Equal(t, 3+8, p.Dst, "rail peer on the next node")
					nic += float64(p.Parts)
				}
			}
		}
		assert.InEpsilon(t, (1+1.0/8)*BusFactor(AllReduce, 8)/NVLSBusBwRatio, nvlink/buf, 1e-3, "%d nodes", nodes)
		assert.InEpsilon(t, 2*float64(nodes-1)/float64(nodes)/8, nic/buf, 1e-9, "%d nodes", nodes)
		// The step list moves the same bytes as the summary.
		var sent int
		for _, st := range s.Steps {
			for _, tr := range st.Transfers {
				if tr.Src == 3 {
					sent += tr.Parts
				}
			}
		}
		assert.Equal(t, s.PartsSent()[3], sent)
		depth := map[int]int{2: 1, 4: 2}[nodes]
		assert.Equal(t, depth, s.Summary[1].NetSteps, "tuning.cc counts log2(nodes) network steps")
		assert.Equal(t, 0, s.Summary[0].NetSteps)
	}
}
