package render

import (
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/metrics"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// run is a scenario played at the packet level up to a time, with the
// snapshots a viewer would have kept on the way.
type run struct {
	name    string
	topo    *topo.Topology
	history []*snap.Snapshot // evenly spaced, the last one is the current
}

func (r *run) cur() *snap.Snapshot { return r.history[len(r.history)-1] }

// prev is the snapshot k steps before the current one.
func (r *run) prev(k int) *snap.Snapshot { return r.history[max(0, len(r.history)-1-k)] }

// play loads a built-in scenario (with --set overrides), starts its traffic or
// collective as sim.Run would, and advances to until in steps steps.
func play(tb testing.TB, name string, sets []string, until unit.Time, steps int) *run {
	tb.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(tb, err)
	m := packet.New(&sc)
	if c := &sc.Collective; c.Op != "" {
		ranks := c.Ranks
		if ranks == 0 {
			ranks = sc.Endpoints()
		}
		sched, err := coll.Build(c.Op, c.Algo, sc.CollParams(ranks, c.Root))
		require.NoError(tb, err)
		eps := make([]int, ranks)
		for i := range eps {
			eps[i] = i
		}
		coll.Run(m, sched, eps, coll.Options{Bytes: c.Bytes, Channels: c.Channels, Chunk: c.Chunk, Alpha: c.Alpha},
			func(metrics.Collective, []unit.Time) {})
	}
	r := &run{name: sc.Name, topo: m.Topology()}
	for i := 1; i <= steps; i++ {
		m.Advance(until * unit.Time(i) / unit.Time(steps))
		r.history = append(r.history, m.Snapshot())
	}
	return r
}

// frame is the frame a viewer would draw of r on L.
func (r *run) frame(L *Layout) *Frame {
	return &Frame{Layout: L, Cur: r.cur(), Prev: r.prev(2), History: r.history}
}
