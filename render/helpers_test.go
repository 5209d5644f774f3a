package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// run is a scenario played at the packet level up to a time, with the
// snapshots a viewer would have kept on the way.
type run struct {
	name     string
	topo     *topo.Topology
	history  []*snap.Snapshot // evenly spaced, the last one is the current
	training bool             // a training run (Options.Training)
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

// runEnd is a time at or just past the end of the run res reports: its
// SimTimeUs is rounded to the nanosecond, so the end may lie half a
// nanosecond later (dp-llama3-8b-1024's did: its view stopped short of the
// end, "iteration 1 under way").
func runEnd(res *metrics.Result) unit.Time {
	return unit.Time(res.Totals.SimTimeUs*float64(unit.Microsecond)) + unit.Nanosecond
}

// frame is the frame a viewer would draw of r on L.
func (r *run) frame(L *Layout) *Frame {
	return &Frame{Layout: L, Cur: r.cur(), Prev: r.prev(2), History: r.history}
}

// lookDir is $RENDER_LOOK, where the look tests write PNGs for a person to
// look at; without it the test is skipped, saying what it would write.
func lookDir(t *testing.T, what string) string {
	t.Helper()
	dir := os.Getenv("RENDER_LOOK")
	if dir == "" {
		t.Skipf("set RENDER_LOOK=/tmp to write the PNGs of %s", what)
	}
	return dir
}

// writeLook writes dl as the PNG dir/name.
func writeLook(t *testing.T, dir, name string, dl *DisplayList) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	require.NoError(t, err)
	require.NoError(t, WritePNG(f, dl, 1))
	require.NoError(t, f.Close())
}

// lookThemes are the looks the look tests draw each view in: light, dark and
// presenter (dark, big text), with the file-name tag of each.
var lookThemes = []struct {
	tag string
	opt Options
}{{"", Options{}}, {"-dark", Options{Dark: true}}, {"-presenter", Options{Presenter: true, Dark: true}}}

// lookSizes are the canvas sizes of a laptop and of a 1024×768 projector.
var lookSizes = []struct{ w, h float64 }{{1280, 720}, {1024, 768}}
