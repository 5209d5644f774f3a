package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// A Routes rebuilt from the news a RouteReader reads at each frame answers
// as the run's own Routes (with its path function into the model) for every
// built-in: at each frame as it is recorded, and for every frame once the
// run has ended (as the canvas plays them back).
func TestRoutesFromData(t *testing.T) {
	for _, b := range scenario.Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			var sets []string
			if b.Name == "perm-1024" && testing.Short() {
				sets = []string{"topology.k=8"} // the one spraying built-in, smaller
			}
			sc, err := scenario.Load(b.Name, nil, sets)
			require.NoError(t, err)
			st, err := sim.Start(sc)
			require.NoError(t, err)
			var (
				frames []*snap.Snapshot
				reader snap.RouteReader
				data   *snap.Routes
			)
			uses, finals := 0, 0
			defer func() { t.Logf("%d frames, %d uses, %d finished out of order", len(frames), uses, finals) }()
			more := true
			for to := unit.Microsecond; more; to *= 2 { // dense early, where flows start
				more = st.Model.Advance(to)
				s := st.Snapshot()
				if s.Routing == nil {
					require.Empty(t, frames, "a run pictures its routing from the first frame or never")
					return
				}
				live := s.Routing.Routes
				if data == nil {
					data = snap.RoutesFromData(live.PerPacket, live.MTU, live.Names)
				}
				news := reader.Read(live, s.NumFlows())
				uses, finals = uses+len(news.Uses), finals+len(news.Final)
				data.Apply(news)
				sameRoutes(t, s, data)
				frames = append(frames, s)
			}
			for _, s := range frames {
				sameRoutes(t, s, data)
			}
		})
	}
}

// sameRoutes checks that data answers for s as s's own Routes does.
func sameRoutes(t *testing.T, s *snap.Snapshot, data *snap.Routes) {
	t.Helper()
	live := s.Routing.Routes
	require.Equal(t, [4]bool{live.PerPacket, live.Tracked(), live.Truncated}, [4]bool{data.PerPacket, data.Tracked(), data.Truncated}, "at %v", s.Time)
	require.Equal(t, live.MTU, data.MTU)
	copied := *s
	g := *s.Routing
	g.Routes = data
	copied.Routing = &g
	for f := -1; f < s.NumFlows(); f++ {
		if !assert.Equal(t, live.AppendPath(nil, f, s.Time), data.AppendPath(nil, f, s.Time), "flow %d at %v", f, s.Time) ||
			!assert.Equal(t, live.Name(f), data.Name(f), "flow %d", f) ||
			!assert.Equal(t, s.Reordered(f), copied.Reordered(f), "flow %d at %v", f, s.Time) {
			return
		}
	}
}
