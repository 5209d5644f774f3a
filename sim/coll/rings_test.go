package coll

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NCCL's rings over whole nodes reduce every chunk of every lane, and leave
// reduce-scatter's chunks one per rank and lane.
func TestNCCLRingsReduceEverything(t *testing.T) {
	for _, shape := range [][2]int{{2, 8}, {3, 8}, {4, 4}, {2, 3}} {
		nodes, g := shape[0], shape[1]
		n := nodes * g
		t.Run(fmt.Sprintf("%dx%d", nodes, g), func(t *testing.T) {
			s, err := Build(AllReduce, Ring, Params{Ranks: n, GPUsPerNode: g})
			require.NoError(t, err)
			require.Equal(t, 2*g, s.Lanes, "two channels per NIC (connect.cc ncclTopoPostset)")
			require.Equal(t, 2*g*n, s.Chunks)
			state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
			for r := range n {
				for c := range s.Chunks {
					require.True(t, state[r][c].full(), "rank %d chunk %d", r, c)
				}
			}
			rs, err := Build(ReduceScatter, Ring, Params{Ranks: n, GPUsPerNode: g})
			require.NoError(t, err)
			state = replay(t, rs, func(r, c int) contrib { return own(r, c, n) })
			for l := range rs.Lanes {
				owners := 0
				for r := range n {
					for c := l * n; c < (l+1)*n; c++ {
						if state[r][c].full() {
							owners++
						}
					}
				}
				assert.Equal(t, n, owners, "lane %d: each of its n chunks reduced on one rank", l)
			}
		})
	}
}

// Every ring passes every rank once; with an even node count every hop
// between nodes stays on one rail (GPU i to GPU i), and each NIC sends and
// receives two lanes (REFERENCE.md, multi-node collectives: channels, ring shape).
func TestNCCLRingsAreRailAligned(t *testing.T) {
	for _, nodes := range []int{2, 4, 3} {
		g := 8
		n := nodes * g
		s, err := Build(AllReduce, Ring, Params{Ranks: n, GPUsPerNode: g})
		require.NoError(t, err)
		step := s.Steps[0]
		require.Len(t, step.Transfers, s.Lanes*n)
		sends, recvs := map[int]int{}, map[int]int{}
		crossings := 0
		perLane := map[int]map[int]bool{}
		for _, tr := range step.Transfers {
			if perLane[tr.Lane] == nil {
				perLane[tr.Lane] = map[int]bool{}
			}
			assert.False(t, perLane[tr.Lane][tr.Src], "lane %d sends twice from %d", tr.Lane, tr.Src)
			perLane[tr.Lane][tr.Src] = true
			if tr.Src/g == tr.Dst/g {
				continue
			}
			sends[tr.Src]++
			recvs[tr.Dst]++
			if tr.Src%g != tr.Dst%g {
				crossings++
				assert.Equal(t, 0, tr.Dst/g, "only the hop back to node 0 may cross rails")
			}
		}
		for l, ranks := range perLane {
			assert.Len(t, ranks, n, "lane %d visits every rank", l)
		}
		if nodes%2 == 0 {
			assert.Zero(t, crossings, "%d nodes: no hop crosses rails", nodes)
			for r := range n {
				assert.Equal(t, 2, sends[r], "%d nodes: NIC of rank %d sends two lanes", nodes, r)
				assert.Equal(t, 2, recvs[r], "%d nodes: NIC of rank %d receives two lanes", nodes, r)
			}
		} else {
			assert.Equal(t, s.Lanes, crossings, "%d nodes: each lane crosses once, back to node 0", nodes)
		}
	}
}

// A ring on one node, or on ranks that are not whole nodes, stays the ring in
// rank order.
func TestRankOrderRingOutsideWholeNodes(t *testing.T) {
	for _, p := range []Params{{Ranks: 8, GPUsPerNode: 8}, {Ranks: 12, GPUsPerNode: 8}, {Ranks: 16}} {
		s, err := Build(AllReduce, Ring, p)
		require.NoError(t, err)
		assert.Zero(t, s.Lanes, "%+v", p)
		assert.Equal(t, p.Ranks, s.Chunks)
	}
}

// The Summary written from the rings is the one summed from the steps.
func TestNCCLRingSummaryMatchesSteps(t *testing.T) {
	for _, op := range []string{AllReduce, ReduceScatter, AllGather} {
		s, err := Build(op, Ring, Params{Ranks: 24, GPUsPerNode: 8})
		require.NoError(t, err)
		require.NotNil(t, s.Steps)
		fromSteps := &Schedule{Steps: s.Steps}
		summarizeSteps(fromSteps)
		assert.Equal(t, s.Phases, fromSteps.Phases, op)
		require.Len(t, fromSteps.Summary, len(s.Summary))
		for i := range s.Summary {
			assert.Equal(t, fromSteps.Summary[i].Steps, s.Summary[i].Steps)
			assert.ElementsMatch(t, fromSteps.Summary[i].Pairs, s.Summary[i].Pairs, "%s phase %d", op, i)
		}
	}
	// 2,048 nodes: the summary only.
	s, err := Build(AllReduce, Ring, Params{Ranks: 16384, GPUsPerNode: 8})
	require.NoError(t, err)
	assert.Nil(t, s.Steps)
	require.Len(t, s.Summary, 2)
	assert.Equal(t, []int{2 * 16383 * 16}, uniq(s.PartsSent()), "every rank sends 2(n−1) parts per lane")
}

func uniq(v []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// NCCL's trees over whole nodes reduce every lane's chunk onto every rank;
// each lane is one tree (one root, every other rank one parent) whose hops
// between nodes join the heads of one rail (REFERENCE.md, multi-node
// collectives: tree shape).
func TestNCCLTreesReduceEverything(t *testing.T) {
	for _, shape := range [][2]int{{2, 8}, {3, 4}, {4, 8}, {5, 2}} {
		nodes, g := shape[0], shape[1]
		n := nodes * g
		t.Run(fmt.Sprintf("%dx%d", nodes, g), func(t *testing.T) {
			s, err := Build(AllReduce, Tree, Params{Ranks: n, GPUsPerNode: g})
			require.NoError(t, err)
			require.Equal(t, 2*g, s.Lanes)
			require.True(t, s.Pipelined)
			state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
			for r := range n {
				for c := range s.Chunks {
					require.True(t, state[r][c].full(), "rank %d chunk %d", r, c)
				}
			}
			ups := map[[2]int]int{} // [lane, rank] → parent
			for _, st := range s.Steps {
				for _, tr := range st.Transfers {
					if tr.Src/g != tr.Dst/g {
						assert.Equal(t, tr.Lane%g, tr.Src%g, "lane %d leaves a node from its NIC's GPU", tr.Lane)
						assert.Equal(t, tr.Lane%g, tr.Dst%g, "lane %d enters a node at its NIC's GPU", tr.Lane)
					}
					if tr.Reduce {
						_, twice := ups[[2]int{tr.Lane, tr.Src}]
						assert.False(t, twice, "lane %d: rank %d has one parent", tr.Lane, tr.Src)
						ups[[2]int{tr.Lane, tr.Src}] = tr.Dst
					}
				}
			}
			assert.Len(t, ups, s.Lanes*(n-1), "every rank but each lane's root sends up once")
			depth := 0
			for u := 1; u < nodes; u <<= 1 {
				depth++
			}
			for _, ph := range s.Summary {
				assert.LessOrEqual(t, ph.NetSteps, depth, "network steps: the node tree's depth")
				assert.Positive(t, ph.NetSteps)
			}
		})
	}
}

// The double binary tree's two trees (trees.cc): with an even count the
// second mirrors the first, with an odd one it is shifted by one; each has
// one root and every rank reaches it.
func TestDoubleBinaryTree(t *testing.T) {
	assert.Equal(t, []int{-1, 2, 4, 2, 0}, parents(5, 0), "ncclGetBtree by hand: 0 → 4 → 2 → 1, 3")
	assert.Equal(t, -1, dtree(4, 3, 1), "mirror: rank 3 is the second tree's root")
	assert.Equal(t, -1, dtree(5, 1, 1), "shift: rank 1 is the second tree's root")
	for _, n := range []int{2, 3, 4, 7, 8, 16} {
		for tr := range 2 {
			roots := 0
			for r := range n {
				if dtree(n, r, tr) < 0 {
					roots++
				}
				steps := 0
				for u := r; u >= 0 && steps <= n; u = dtree(n, u, tr) {
					steps++
				}
				assert.LessOrEqual(t, steps, n, "n %d tree %d: rank %d reaches the root", n, tr, r)
			}
			assert.Equal(t, 1, roots, "n %d tree %d", n, tr)
		}
	}
}

func parents(n, tree int) []int {
	p := make([]int, n)
	for r := range n {
		p[r] = dtree(n, r, tree)
	}
	return p
}
