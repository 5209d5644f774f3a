package sim_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// A run whose steps are cut every n events (AdvanceEvents) is the run
// uncut: the same snapshot at every frame's time, the same events, the
// same result, for caps of one event, of seven and of 64, at the
// packet level with traffic, a collective, training and a PFC storm, and
// at the flow level. Every call handles at most its cap, and each goes on
// from the event the one before stopped at: an event lost or handled twice
// changes the count, the snapshots or the result.
func TestEventCapsKeepTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, tc := range []struct {
		name  string
		sets  []string
		frame unit.Time // the time between snapshots
	}{
		{"incast", []string{"traffic.bytes=1MiB"}, 2 * unit.Microsecond},
		{"perm-1024", []string{"until=3us"}, 100 * unit.Nanosecond},
		{"noisy-neighbor", []string{"until=100us"}, 10 * unit.Microsecond},
		{"ring-allreduce-8", []string{"collective.bytes=8MiB"}, 20 * unit.Microsecond},
		{"alltoall-moe", []string{"until=20us"}, 2 * unit.Microsecond},
		{"dp-resnet50", []string{"until=3ms"}, 500 * unit.Microsecond},
		{"hierarchical-allreduce", nil, 500 * unit.Microsecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Load(tc.name, os.ReadFile, tc.sets)
			require.NoError(t, err)
			want, err := sim.Start(sc)
			require.NoError(t, err)
			var wantSnaps []*snap.Snapshot
			for at := unit.Time(0); want.Model.Advance(at); at += tc.frame {
				wantSnaps = append(wantSnaps, want.Snapshot())
			}
			wantSnaps = append(wantSnaps, want.Snapshot())
			require.Greater(t, len(wantSnaps), 3)
			for _, n := range []uint64{1, 7, 64} {
				got, err := sim.Start(sc)
				require.NoError(t, err)
				calls, cut, i := 0, 0, 0
				for at := unit.Time(0); ; at += tc.frame {
					more, reached := true, false
					for !reached {
						e0 := got.Model.Events()
						more, reached = got.Model.AdvanceEvents(at, n)
						calls++
						require.LessOrEqual(t, got.Model.Events()-e0, n, "caps of %d: call %d", n, calls)
						if !reached {
							cut++
							require.Equal(t, n, got.Model.Events()-e0, "caps of %d: call %d stopped short of its cap", n, calls)
							require.True(t, more, "caps of %d: a cut step ends the run", n)
						}
					}
					require.Less(t, i, len(wantSnaps), "caps of %d: the run goes on past the uncut one's end", n)
					equalSnapshots(t, wantSnaps[i], got.Snapshot(), "caps of %d: the snapshot at %s", n, got.Model.Now())
					i++
					if !more {
						break
					}
				}
				require.Equal(t, len(wantSnaps), i, "caps of %d: the run ends where the uncut one does", n)
				if n == 1 {
					assert.Greater(t, cut, calls/2, "most steps of single events are cut")
				}
				if n < 64 { // (dp-resnet50's frames are under 64 events)
					assert.Positive(t, cut, "caps of %d: no step was cut", n)
				}
				assert.Equal(t, want.Model.Events(), got.Model.Events(), "caps of %d: events", n)
				require.Equal(t, want.Result(), got.Result(), "caps of %d", n)
			}
		})
	}
}

// equalSnapshots checks two snapshots equal, a routing table by its paths
// (its Routes holds a func).
func equalSnapshots(t *testing.T, want, got *snap.Snapshot, msg string, args ...any) {
	t.Helper()
	if want.Routing != nil && got.Routing != nil {
		for i := range want.Flows {
			require.Equal(t, want.Routing.Routes.AppendPath(nil, i, want.Time), got.Routing.Routes.AppendPath(nil, i, got.Time), "flow %d's path", i)
		}
		w, g := *want.Routing, *got.Routing
		w.Routes, g.Routes = nil, nil
		wc, gc := *want, *got
		wc.Routing, gc.Routing = &w, &g
		want, got = &wc, &gc
	}
	// (not require.Equal: its diff of perm-1024's snapshots takes minutes)
	require.True(t, assert.ObjectsAreEqual(want, got), append([]any{msg}, args...)...)
}
