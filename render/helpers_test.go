package render

import (
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim"
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

// play loads a built-in scenario (with --set overrides), starts it as the
// player does, and advances to until in steps steps.
func play(tb testing.TB, name string, sets []string, until unit.Time, steps int) *run {
	tb.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(tb, err)
	st, err := sim.Start(sc)
	require.NoError(tb, err)
	r := &run{name: sc.Name, topo: st.Model.Topology()}
	for i := 1; i <= steps; i++ {
		st.Model.Advance(until * unit.Time(i) / unit.Time(steps))
		r.history = append(r.history, st.Snapshot())
	}
	return r
}

// frame is the frame a viewer would draw of r on L.
func (r *run) frame(L *Layout) *Frame {
	return &Frame{Layout: L, Cur: r.cur(), Prev: r.prev(2), History: r.history}
}
