package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// The noisy neighbour: a ring all-reduce on hosts 0–7 of a leaf-spine while
// an 8→1 incast hits host 9, on the ring's second leaf. In the incast's
// class the ring sits behind PFC-paused queues; in a class of its own
// (separate queues, its own pauses) it runs within 10 % of running alone.
func TestNoisyNeighborIsolatedByClass(t *testing.T) {
	alone := builtin(t, "noisy-neighbor", "traffic.pattern=none", "traffic.bytes=", "traffic.class=", "traffic.flows=")
	isolated := builtin(t, "noisy-neighbor")
	shared := builtin(t, "noisy-neighbor", "collective.class=storage")
	for _, r := range []struct {
		name string
		t    float64
	}{{"alone", alone.Collective.TimeUs}, {"isolated", isolated.Collective.TimeUs}, {"shared", shared.Collective.TimeUs}} {
		require.Positive(t, r.t, r.name)
	}
	assert.InEpsilon(t, alone.Collective.TimeUs, isolated.Collective.TimeUs, 0.10, "own class: protected")
	assert.Greater(t, shared.Collective.TimeUs, 1.3*alone.Collective.TimeUs, "one lossless class: the incast's pauses slow the ring")
	assert.Less(t, shared.Collective.BusBwGBps, isolated.Collective.BusBwGBps)

	// The incast still runs to the end beside the collective, losslessly.
	for _, r := range []struct {
		name string
		n    int
	}{{"isolated", isolated.Totals.Flows - isolated.Totals.FlowsFinished}, {"shared", shared.Totals.Flows - shared.Totals.FlowsFinished}} {
		assert.Zero(t, r.n, "%s: unfinished flows", r.name)
	}
	assert.Zero(t, isolated.Totals.Drops)
	assert.Positive(t, isolated.Totals.PauseFrames)
	var storagePaused, trainingPaused int64
	for _, l := range isolated.Links {
		for _, c := range l.Classes {
			switch c.Name {
			case "storage":
				storagePaused += c.PauseFrames
			case "training":
				trainingPaused += c.PauseFrames
			}
		}
	}
	assert.Positive(t, storagePaused)
	assert.Zero(t, trainingPaused, "the incast's congestion never pauses the ring's class")
}

// Snapshots name the classes once and give each flow its class's index:
// the ring's transfers in "training", the incast's flows in "storage".
func TestSnapshotFlowClasses(t *testing.T) {
	sc, err := scenario.Load("noisy-neighbor", nil, nil)
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	st.Model.Advance(200 * unit.Microsecond)
	s := st.Snapshot()
	require.Equal(t, []string{"training", "storage"}, s.Classes)
	require.NotEmpty(t, s.Flows)
	for i, f := range s.Flows {
		want := uint8(0)
		if f.Tag < 0 {
			want = 1
		}
		assert.Equal(t, want, f.Class, "flow %d (%d→%d, tag %d)", i, f.Src, f.Dst, f.Tag)
	}

	one, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	st, err = sim.Start(one)
	require.NoError(t, err)
	assert.Nil(t, st.Snapshot().Classes, "one class: no names")
}
