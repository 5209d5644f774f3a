package coll

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contrib is the set of ranks whose input a piece of data holds.
type contrib []bool

func (c contrib) full() bool {
	for _, v := range c {
		if !v {
			return false
		}
	}
	return true
}

// replay runs a schedule's data movement: state[rank][chunk] is the set of ranks
// whose input that rank's copy of the chunk holds. Reductions must never add a
// contribution twice; copies must only forward what the sender has.
func replay(t *testing.T, s *Schedule, init func(rank, chunk int) contrib) [][]contrib {
	n := s.Ranks
	state := make([][]contrib, n)
	for r := range n {
		state[r] = make([]contrib, s.Chunks)
		for c := range s.Chunks {
			state[r][c] = init(r, c)
		}
	}
	for si, st := range s.Steps {
		before := make([][]contrib, n)
		for r := range n {
			before[r] = make([]contrib, s.Chunks)
			for c := range s.Chunks {
				before[r][c] = append(contrib(nil), state[r][c]...)
			}
		}
		for _, tr := range st.Transfers {
			require.GreaterOrEqual(t, tr.Parts, 1)
			for c := tr.Chunk; c < tr.Chunk+tr.Parts; c++ {
				src, dst := before[tr.Src][c], state[tr.Dst][c]
				for k := range n {
					if !src[k] {
						continue
					}
					if tr.Reduce {
						require.False(t, dst[k], "step %d: rank %d gets rank %d's input to chunk %d twice", si, tr.Dst, k, c)
					}
					dst[k] = true
				}
			}
		}
	}
	return state
}

func own(r, c int, n int) contrib {
	v := make(contrib, n)
	v[r] = true
	return v
}

func TestAllReduceSchedulesReduceEverything(t *testing.T) {
	for _, algo := range []string{Ring, Tree, Rabenseifner} {
		for _, n := range []int{2, 4, 8, 16, 5, 7} {
			if algo == Rabenseifner && n&(n-1) != 0 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", algo, n), func(t *testing.T) {
				s, err := Build(AllReduce, algo, Params{Ranks: n})
				require.NoError(t, err)
				require.Positive(t, s.Chunks)
				state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
				for r := range n {
					for c := range s.Chunks {
						assert.True(t, state[r][c].full(), "rank %d chunk %d", r, c)
					}
				}
			})
		}
	}
}

func TestHierarchicalReducesEverything(t *testing.T) {
	for _, shape := range [][2]int{{2, 8}, {4, 8}, {3, 4}} {
		nodes, g := shape[0], shape[1]
		n := nodes * g
		s, err := Build(AllReduce, Hierarchical, Params{Ranks: n, GPUsPerNode: g})
		require.NoError(t, err)
		state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
		for r := range n {
			for c := range s.Chunks {
				require.True(t, state[r][c].full(), "%d×%d: rank %d chunk %d", nodes, g, r, c)
			}
		}
		// Only the rail phases leave the node, and they stay on one rail.
		for _, st := range s.Steps {
			for _, tr := range st.Transfers {
				if tr.Src/g != tr.Dst/g {
					assert.Equal(t, tr.Src%g, tr.Dst%g, "%s crosses rails", st.Phase)
				}
			}
		}
	}
}

func TestReduceScatterLeavesEachRankItsChunk(t *testing.T) {
	for _, algo := range []string{Ring, Rabenseifner} {
		n := 8
		s, err := Build(ReduceScatter, algo, Params{Ranks: n})
		require.NoError(t, err)
		state := replay(t, s, func(r, c int) contrib { return own(r, c, n) })
		for r := range n {
			assert.True(t, state[r][r].full(), "%s: rank %d owns chunk %d", algo, r, r)
		}
	}
}

func TestAllGatherSpreadsEveryChunk(t *testing.T) {
	for _, algo := range []string{Ring, Rabenseifner} {
		n := 8
		s, err := Build(AllGather, algo, Params{Ranks: n})
		require.NoError(t, err)
		state := replay(t, s, func(r, c int) contrib {
			v := make(contrib, n)
			v[r] = r == c // rank r starts with its own chunk r
			return v
		})
		for r := range n {
			for c := range n {
				assert.True(t, state[r][c][c], "%s: rank %d has chunk %d", algo, r, c)
			}
		}
	}
}

func TestAllToAllDeliversEveryPair(t *testing.T) {
	for _, algo := range []string{Direct, Pairwise} {
		n := 6
		s, err := Build(AllToAll, algo, Params{Ranks: n})
		require.NoError(t, err)
		got := map[[2]int]int{}
		for _, st := range s.Steps {
			for _, tr := range st.Transfers {
				assert.Equal(t, tr.Dst, tr.Chunk, "the chunk for rank d goes to d")
				got[[2]int{tr.Src, tr.Dst}]++
			}
		}
		assert.Len(t, got, n*(n-1), algo)
		for k, v := range got {
			assert.Equal(t, 1, v, "%v", k)
		}
	}
}

func TestBroadcastReachesEveryRank(t *testing.T) {
	n := 6
	s, err := Build(Broadcast, Ring, Params{Ranks: n, Root: 2})
	require.NoError(t, err)
	state := replay(t, s, func(r, c int) contrib { v := make(contrib, n); v[0] = r == 2; return v })
	for r := range n {
		assert.True(t, state[r][0][0], "rank %d", r)
	}
}

// Every schedule moves exactly the bytes of its cost model, in units of the
// message size S: ring all-reduce 2(n−1)/n·S per rank, and so on.
func TestBytesMatchCostModels(t *testing.T) {
	const n = 8
	for _, tc := range []struct {
		op, algo string
		params   Params
		perRank  float64 // S per rank sent
		total    float64 // S over all ranks, if perRank varies
	}{
		{AllReduce, Ring, Params{Ranks: n}, 2.0 * (n - 1) / n, 0},
		{AllReduce, Rabenseifner, Params{Ranks: n}, 2.0 * (n - 1) / n, 0},
		{ReduceScatter, Ring, Params{Ranks: n}, float64(n-1) / n, 0},
		{AllGather, Ring, Params{Ranks: n}, float64(n-1) / n, 0},
		{ReduceScatter, Rabenseifner, Params{Ranks: n}, float64(n-1) / n, 0},
		{AllToAll, Direct, Params{Ranks: n}, float64(n-1) / n, 0},
		{AllToAll, Pairwise, Params{Ranks: n}, float64(n-1) / n, 0},
		// Trees: every rank but the root sends its half up each tree and every
		// edge carries it down again: 4(n−1) halves in all.
		{AllReduce, Tree, Params{Ranks: n}, 0, 2.0 * (n - 1)},
		{Broadcast, Ring, Params{Ranks: n}, 0, n - 1},
		// 4 nodes × 8 GPUs (32 ranks): (g−1)/g·S twice over NVLink plus 2(N−1)/(g·N)·S on the rail.
		{AllReduce, Hierarchical, Params{Ranks: 32, GPUsPerNode: 8}, 2*7.0/8 + 2*3.0/32, 0},
	} {
		t.Run(tc.op+"/"+tc.algo, func(t *testing.T) {
			s, err := Build(tc.op, tc.algo, tc.params)
			require.NoError(t, err)
			var total float64
			require.Len(t, s.PartsSent(), tc.params.Ranks, "a count per rank")
			for r, parts := range s.PartsSent() {
				sent := float64(parts) / float64(s.Chunks)
				total += sent
				if tc.perRank > 0 {
					assert.InDelta(t, tc.perRank, sent, 1e-12, "rank %d", r)
				}
			}
			if tc.total > 0 {
				assert.InDelta(t, tc.total, total, 1e-12)
			}
		})
	}
}

func TestRingStepIsVisibleInTheSchedule(t *testing.T) {
	// "at step s, GPU i sends chunk (i−s−1) mod n" in reduce-scatter.
	s, err := Build(AllReduce, Ring, Params{Ranks: 4})
	require.NoError(t, err)
	require.Len(t, s.Steps, 6)
	assert.Equal(t, []string{"reduce-scatter", "all-gather"}, s.Phases)
	tr := s.Steps[1].Transfers[2]
	assert.Equal(t, Transfer{Src: 2, Dst: 3, Chunk: 0, Parts: 1, Reduce: true}, tr)
}

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		op, algo string
		p        Params
		want     string
	}{
		{AllReduce, Rabenseifner, Params{Ranks: 6}, "power-of-two rank count, got 6; use ring, or 4 or 8 ranks"},
		{AllToAll, Ring, Params{Ranks: 4}, "ring does not do alltoall; for alltoall use direct, pairwise, auto"},
		{AllReduce, Hierarchical, Params{Ranks: 8, GPUsPerNode: 8}, "at least 2 whole multi-GPU nodes"},
		{"gather", Ring, Params{Ranks: 4}, `unknown operation "gather"`},
		{AllReduce, "magic", Params{Ranks: 4}, `unknown algorithm "magic"`},
		{AllReduce, Ring, Params{Ranks: 1}, "at least 2 ranks"},
		{AllReduce, InNetwork, Params{Ranks: 16, GPUsPerNode: 8}, "innetwork is modelled on one switch"},
	} {
		_, err := Build(tc.op, tc.algo, tc.p)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestBusFactor(t *testing.T) {
	// REFERENCE.md golden scenario 2: S = 8 GiB, t = 40 ms → 214.75, 375.8 (n = 8),
	// 402.65 (n = 16), exact to the figures' rounding.
	algbw, busbw := Bandwidths(AllReduce, 8, 8<<30, 40_000_000_000)
	assert.InDelta(t, 214.75, algbw, 0.005)
	assert.InDelta(t, 375.8, busbw, 0.05)
	_, busbw16 := Bandwidths(AllReduce, 16, 8<<30, 40_000_000_000)
	assert.InDelta(t, 402.65, busbw16, 0.005)
	assert.Equal(t, 1.0, BusFactor(Broadcast, 8))
	assert.Equal(t, 7.0/8, BusFactor(AllGather, 8))
	assert.Equal(t, 7.0/8, BusFactor(AllToAll, 8))
}

// The summaries written directly for huge rings match those summed from steps.
func TestDirectSummariesMatchSteps(t *testing.T) {
	for _, tc := range []struct {
		op, algo string
		n, g     int
	}{{AllReduce, Ring, 8, 0}, {ReduceScatter, Ring, 6, 0}, {AllGather, Ring, 5, 0}, {AllReduce, Hierarchical, 32, 8}, {AllReduce, Hierarchical, 12, 4}} {
		s, err := Build(tc.op, tc.algo, Params{Ranks: tc.n, GPUsPerNode: tc.g})
		require.NoError(t, err)
		direct := &Schedule{}
		summarize(direct, tc.op, tc.algo, tc.n, tc.g)
		assert.Equal(t, s.Chunks, direct.Chunks)
		assert.Equal(t, s.Phases, direct.Phases, "%s/%s", tc.op, tc.algo)
		require.Len(t, direct.Summary, len(s.Summary))
		for i := range s.Summary {
			assert.Equal(t, s.Summary[i].Steps, direct.Summary[i].Steps)
			assert.ElementsMatch(t, s.Summary[i].Pairs, direct.Summary[i].Pairs, "%s/%s phase %d", tc.op, tc.algo, i)
		}
	}
	// 16,384 GPUs: summary only.
	s, err := Build(AllReduce, Hierarchical, Params{Ranks: 16384, GPUsPerNode: 8})
	require.NoError(t, err)
	assert.Nil(t, s.Steps)
	assert.Len(t, s.Summary, 4)
}
