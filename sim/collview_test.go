package sim_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/coll"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// collCases are collectives of every algorithm, small enough to run twice.
// The built-in ring (1 GiB, 4 MiB chunks: four chunks per rank's slice of a
// channel) runs at 64 MiB with 256 KiB chunks: the same four chunks per slice,
// the same schedule and transfers, a sixteenth of the packets.
var collCases = []struct {
	name string
	sets []string
}{
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.chunk=256KiB"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=tree"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=rabenseifner"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=innetwork"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=auto"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.op=reducescatter"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.op=allgather"}},
	{"ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.op=broadcast"}},
	{"alltoall-moe", nil},
	{"alltoall-moe", []string{"collective.algo=pairwise"}},
	{"hierarchical-allreduce", nil},
	{"hierarchical-allreduce", []string{"collective.execution=steps"}},
	{"hierarchical-allreduce", []string{"collective.algo=ring"}},
	{"hierarchical-allreduce", []string{"collective.algo=tree"}},
	{"hierarchical-allreduce", []string{"collective.algo=nvlstree"}},
}

// A collective's snapshots follow it: the share moved only grows, the step
// stays within its phase, every list stays within its bound; and the last
// snapshot carries exactly the algbw and busbw that fabriclab run's JSON
// reports.
func TestCollectiveSnapshotsEndOnTheRunsFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, tc := range collCases {
		t.Run(tc.name+" "+join(tc.sets), func(t *testing.T) {
			sc, err := scenario.Load(tc.name, os.ReadFile, tc.sets)
			require.NoError(t, err)
			res, err := sim.Run(sc)
			require.NoError(t, err)
			require.NotNil(t, res.Collective)
			js, err := json.Marshal(res)
			require.NoError(t, err)
			var out struct {
				Collective struct {
					TimeUs    float64 `json:"time_us"`
					AlgBwGBps float64 `json:"algbw_GBps"`
					BusBwGBps float64 `json:"busbw_GBps"`
				} `json:"collective"`
			}
			require.NoError(t, json.Unmarshal(js, &out))

			st, err := sim.Start(sc)
			require.NoError(t, err)
			end := unit.Time(out.Collective.TimeUs * float64(unit.Microsecond))
			last := -1.0
			for i := 1; i <= 8; i++ {
				st.Model.Advance(end * unit.Time(i) / 9)
				s := st.Snapshot()
				c := s.Collective
				require.NotNil(t, c)
				bounded(t, c)
				assert.False(t, c.Finished, "finished before its end at %v", s.Time)
				assert.GreaterOrEqual(t, c.Done, last, "the share moved went back at %v", s.Time)
				assert.Less(t, c.Done, 1.0)
				last = c.Done
				assert.Equal(t, s.Time, c.Elapsed, "the collective starts at 0")
				if !c.Streamed {
					assert.True(t, c.Step >= 1 && c.Step <= c.Steps, "step %d of %d", c.Step, c.Steps)
					assert.GreaterOrEqual(t, c.AllSteps, c.Steps)
				}
				assert.Equal(t, c.PhaseNames[c.PhaseIndex], c.Phase)
				if c.Done > 0 {
					a, b := coll.Bandwidths(c.Op, c.Ranks, unit.Bytes(c.Done*float64(c.Bytes)), c.Elapsed)
					assert.InDelta(t, a, c.AlgBwGBps, 1e-9)
					assert.InDelta(t, b, c.BusBwGBps, 1e-9)
				}
			}
			st.Model.Run()
			c := st.Snapshot().Collective
			require.True(t, c.Finished)
			assert.Equal(t, 1.0, c.Done)
			assert.Equal(t, out.Collective.AlgBwGBps, c.AlgBwGBps, "algbw as fabriclab run --json reports it")
			assert.Equal(t, out.Collective.BusBwGBps, c.BusBwGBps, "busbw as fabriclab run --json reports it")
			assert.InDelta(t, out.Collective.TimeUs, c.Elapsed.Micros(), 1e-6)
			if c.Op == coll.ReduceScatter { // each GPU ends with its own chunk reduced, only
				require.True(t, c.ColOwner)
				for r := range c.Rows {
					for k := range c.Cols {
						v := c.Cells[r*c.Cols+k]
						if r == k {
							assert.Equal(t, uint8(255), v, "GPU %d's own chunk", r)
						} else {
							assert.Less(t, v, uint8(255), "GPU %d's copy of chunk %d", r, k)
						}
					}
				}
			} else if c.Kind == snap.Reduced && c.Rows > 0 {
				for i, v := range c.Cells {
					require.Equal(t, uint8(255), v, "cell %d of %d×%d is not fully reduced at the end", i, c.Rows, c.Cols)
				}
				for i, v := range c.Slot {
					require.Equal(t, uint8(255), v, "slot cell %d", i)
				}
			}
			if c.Kind == snap.Received {
				for i, v := range c.Cells {
					require.Equal(t, uint8(255), v, "cell %d: not all received", i)
				}
			}
		})
	}
}

func bounded(t *testing.T, c *snap.Collective) {
	t.Helper()
	assert.LessOrEqual(t, c.Rows, snap.MaxCollRows)
	assert.LessOrEqual(t, c.Cols, snap.MaxCollCols)
	assert.Len(t, c.Cells, c.Rows*c.Cols)
	if c.Slot != nil {
		assert.Len(t, c.Slot, c.Rows*c.Cols)
	}
	assert.LessOrEqual(t, len(c.Sends), snap.MaxCollSends)
	assert.LessOrEqual(t, len(c.Spans), snap.MaxCollSpans)
	assert.NotEmpty(t, c.Sends)
}

func join(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}

// Beyond 64 GPUs the matrix has a row per node, beyond 64 nodes a row per 64th
// of the GPUs; a schedule too large to list step by step has no matrix. A
// snapshot's collective stays a few kilobytes.
func TestCollectiveSnapshotStaysSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, tc := range []struct {
		nodes, rowRanks int
	}{{4, 1}, {16, 8}, {128, 16}, {512, 0}} {
		st := started(t, "hierarchical-allreduce", "topology.nodes="+itoa(tc.nodes), "collective.bytes=64MiB")
		st.Model.Advance(200 * unit.Microsecond)
		c := st.Snapshot().Collective
		require.NotNil(t, c)
		bounded(t, c)
		if tc.rowRanks == 0 {
			assert.Empty(t, c.Cells, "%d nodes", tc.nodes)
		} else {
			assert.Equal(t, tc.rowRanks, c.RowRanks, "%d nodes", tc.nodes)
			assert.Equal(t, (tc.nodes*8+tc.rowRanks-1)/tc.rowRanks, c.Rows, "%d nodes", tc.nodes)
			assert.NotEmpty(t, c.Slot, "%d nodes", tc.nodes)
		}
		size := len(c.Cells) + len(c.Slot) + len(c.Sends)*16 + len(c.Spans)*32
		assert.LessOrEqual(t, size, 2*64*64+snap.MaxCollSends*16+snap.MaxCollSpans*32, "%d nodes", tc.nodes)
	}
}

// started is the built-in scenario name with sets, started.
func started(t *testing.T, name string, sets ...string) *sim.Started {
	t.Helper()
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	return st
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A snapshot of NCCL's rings or trees on whole dgx nodes carries their
// routes, the same in every frame: channel 0's ring on 2 nodes goes
// through node 0's GPUs in order and node 1's backwards, crossing the
// network twice; a tree's hops go from each GPU to its parent, the heads'
// across the network. Other algorithms carry none.
func TestCollectiveSnapshotRoutes(t *testing.T) {
	// at is the collective's snapshot after 50 µs, and then after 250.
	at := func(sets ...string) (*snap.Collective, *snap.Collective) {
		t.Helper()
		st := started(t, "hierarchical-allreduce", append([]string{"topology.nodes=2", "collective.bytes=64MiB"}, sets...)...)
		st.Model.Advance(50 * unit.Microsecond)
		c := st.Snapshot().Collective
		require.NotNil(t, c)
		st.Model.Advance(250 * unit.Microsecond)
		return c, st.Snapshot().Collective
	}
	c, later := at("collective.algo=ring")
	require.Len(t, c.Routes, 256, "16 channels of 16 hops")
	var order []int32
	net := 0
	for _, h := range c.Routes {
		if h.Lane == 0 {
			order = append(order, h.Src)
			if h.Net {
				net++
			}
		}
	}
	assert.Equal(t, []int32{0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8}, order)
	assert.Equal(t, 2, net, "into node 1 and back")
	assert.Equal(t, c.Routes, later.Routes, "the routes do not change")

	c, _ = at("collective.algo=tree")
	require.Len(t, c.Routes, 16*15, "16 channels, every rank but the root")
	net = 0
	for _, h := range c.Routes {
		if h.Lane == 0 && h.Net {
			net++
			assert.Equal(t, [2]int32{8, 0}, [2]int32{h.Src, h.Dst}, "node 1's head under node 0's")
		}
	}
	assert.Equal(t, 1, net)

	c, _ = at("collective.algo=hierarchical")
	assert.Nil(t, c.Routes)

	// On 4 nodes not every channel fits: whole ones, a tree lane beside
	// its twin on the other tree.
	c, _ = at("collective.algo=tree", "topology.nodes=4")
	var lanes []int32
	for _, h := range c.Routes {
		if len(lanes) == 0 || lanes[len(lanes)-1] != h.Lane {
			lanes = append(lanes, h.Lane)
		}
	}
	assert.Equal(t, []int32{0, 8, 1, 9, 2, 10, 3, 11}, lanes)
	assert.Len(t, c.Routes, 8*31)
}

// On one dgx node the snapshot carries the ring once per channel the
// runner runs (ring-allreduce-8: 8), each through the GPUs in order, none
// across the network.
func TestCollectiveSnapshotOneNodeRing(t *testing.T) {
	st := started(t, "ring-allreduce-8", "collective.bytes=64MiB")
	st.Model.Advance(20 * unit.Microsecond)
	c := st.Snapshot().Collective
	require.NotNil(t, c)
	require.Equal(t, 8, c.Lanes)
	require.Len(t, c.Routes, 8*8)
	for i, h := range c.Routes {
		assert.Equal(t, snap.Send{Src: int32(i % 8), Dst: int32((i + 1) % 8), Lane: int32(i / 8)}, h)
	}
}
