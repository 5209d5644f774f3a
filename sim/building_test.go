package sim_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// A scenario built a few flows at a time (Begin, Step) is the one Start
// builds: the same snapshots along the way and the same result, whatever
// the steps (a step of one flow, of seven, all at once), at the packet
// level with traffic, a collective, training and a PFC storm, and at the
// flow level.
func TestBuildingInStepsIsStart(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, tc := range []struct {
		name string
		sets []string
	}{
		{"incast", nil},
		{"perm-1024", []string{"until=20us"}},
		{"noisy-neighbor", []string{"until=200us"}},
		{"ring-allreduce-8", []string{"collective.bytes=8MiB"}},
		{"dp-resnet50", []string{"until=2ms"}},
		{"hierarchical-allreduce", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Load(tc.name, os.ReadFile, tc.sets)
			require.NoError(t, err)
			const mid = 10 * unit.Microsecond
			for _, n := range []int{1, 7, sim.BuildFlows} {
				want, err := sim.Start(sc)
				require.NoError(t, err)
				b, err := sim.Begin(sc)
				require.NoError(t, err)
				steps := 1
				for !b.Step(n) {
					steps++
					assert.Less(t, b.Progress(), 1.0)
				}
				assert.Equal(t, 1.0, b.Progress())
				if sc.Sim.Fidelity == scenario.Packet && n == 1 {
					assert.Equal(t, max(1, sc.TrafficFlows()), steps, "one step a flow")
				}
				got, err := b.Started()
				require.NoError(t, err)
				want.Model.Advance(mid)
				got.Model.Advance(mid)
				ws, gs := want.Snapshot(), got.Snapshot()
				if ws.Routing != nil && gs.Routing != nil { // Routes holds a func: compare its paths
					for i := range ws.Flows {
						require.Equal(t, ws.Routing.Routes.AppendPath(nil, i, mid), gs.Routing.Routes.AppendPath(nil, i, mid), "steps of %d: flow %d's path", n, i)
					}
					ws.Routing.Routes, gs.Routing.Routes = nil, nil
				}
				// (not require.Equal: its diff of perm-1024's snapshots takes minutes)
				require.True(t, assert.ObjectsAreEqual(ws, gs), "steps of %d: the snapshot at %s differs", n, mid)
				want.Model.Run()
				got.Model.Run()
				require.Equal(t, want.Result(), got.Result(), "steps of %d", n)
			}
		})
	}
}
