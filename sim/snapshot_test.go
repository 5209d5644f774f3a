package sim_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// A training run's snapshots say what each GPU does: computing through the
// forward, backward and optimizer steps the report's timeline lists, and
// only communicating while it waits for the last gradients.
func TestSnapshotActivityFollowsTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, fidelity := range []string{"packet", "flow"} {
		t.Run(fidelity, func(t *testing.T) {
			activityFollowsTraining(t, []string{"sim.fidelity=" + fidelity}, "backward", "waiting for gradients", "optimizer")
		})
	}
	// FSDP waits for its first unit's parameters; accumulation runs several
	// forward and backward passes per step.
	t.Run("fsdp", func(t *testing.T) {
		activityFollowsTraining(t, []string{"sim.fidelity=flow", "training.sharding=fsdp", "training.accumulation=2"},
			"forward", "backward", "waiting for parameters", "waiting for gradients", "optimizer")
	})
}

func activityFollowsTraining(t *testing.T, set []string, labels ...string) {
	sc, err := scenario.Load("dp-resnet50", nil, set)
	require.NoError(t, err)
	res, err := sim.Run(sc)
	require.NoError(t, err)
	require.NotNil(t, res.Training)
	require.NotEmpty(t, res.Training.Timeline)
	lane := res.Training.Timeline[0].Intervals

	st, err := sim.Start(sc)
	require.NoError(t, err)
	n := len(st.Model.Topology().Endpoints)
	at := func(us float64) *snap.Snapshot {
		st.Model.Advance(unit.Time(us * float64(unit.Microsecond)))
		s := st.Snapshot()
		require.Len(t, s.Activity, n)
		return s
	}
	checked := map[string]bool{}
	for _, iv := range lane { // compute and idle lanes come first, in time order
		if iv.Kind == "communicate" {
			continue
		}
		switch iv.Kind {
		case "compute":
			s := at((iv.StartUs + iv.EndUs) / 2)
			for ep, a := range s.Activity {
				assert.Equal(t, snap.Computing, a, "%s at %v: endpoint %d", iv.Label, s.Time, ep)
			}
		case "idle":
			// A streamed collective waits out each phase's step latencies with
			// nothing on the wire, so look at a few points of the wait.
			on := false
			for _, f := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
				s := at(iv.StartUs + f*(iv.EndUs-iv.StartUs))
				assert.NotContains(t, s.Activity, snap.Computing, "%s at %v", iv.Label, s.Time)
				on = on || slices.Contains(s.Activity, snap.Communicating)
			}
			assert.True(t, on, "%s: the last buckets are on the wire", iv.Label)
		}
		checked[iv.Label] = true
	}
	for _, l := range labels {
		assert.True(t, checked[l], "%s in %v", l, checked)
	}

	last := at(2 * res.Totals.SimTimeUs)
	assert.Equal(t, make([]snap.Activity, n), last.Activity, "all idle after the run")
}

// Without a training workload the activity comes from the flows alone.
func TestSnapshotActivityFromFlows(t *testing.T) {
	sc, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	st.Model.Advance(50 * unit.Microsecond)
	s := st.Snapshot()
	require.Len(t, s.Activity, 9)
	for ep, a := range s.Activity {
		assert.Equal(t, snap.Communicating, a, "endpoint %d: 8 senders and their receiver", ep)
	}
}
