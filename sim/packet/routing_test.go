package packet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

func builtin(t *testing.T, name string, sets ...string) *Model {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	return New(resolve(t, &sc))
}

// checkPath checks that links lead from endpoint src to endpoint dst, hop by hop.
func checkPath(t *testing.T, tp *topo.Topology, links []int32, src, dst int) {
	t.Helper()
	require.NotEmpty(t, links)
	n := tp.Endpoints[src]
	for _, l := range links {
		require.Equal(t, n, tp.Links[l].From, "link %s does not start where the last ended", tp.LinkName(int(l)))
		n = tp.Links[l].To
	}
	assert.Equal(t, tp.Endpoints[dst], n, "the path ends at the destination")
}

func TestECMPPathsAndLinkFlows(t *testing.T) {
	m := builtin(t, "ecmp-collisions")
	m.Advance(50 * unit.Microsecond)
	s := m.Snapshot()
	require.NotNil(t, s.Routing)
	g := s.Routing
	assert.False(t, g.Routes.PerPacket)
	tp := m.Topology()
	want := make([]int32, len(tp.Links))
	for i := range s.Flows {
		p := g.Routes.Path(i)
		require.Len(t, p, 4, "host → leaf → spine → leaf → host")
		checkPath(t, tp, p, s.Flows[i].Src, s.Flows[i].Dst)
		for _, l := range p {
			want[l]++
		}
		// the path is the one the packets take: they are on its links only
		for _, pk := range s.Packets {
			if pk.Flow == i {
				assert.Contains(t, p, int32(pk.Link))
			}
		}
	}
	assert.Equal(t, want, g.LinkFlows, "every flow runs at 50 µs")
	var busiest int32
	for _, l := range tp.Nodes[tp.Endpoints[0]].Out {
		up := tp.Links[l].To // leaf 0
		for _, u := range tp.Nodes[up].Out {
			busiest = max(busiest, g.LinkFlows[u])
		}
	}
	assert.Greater(t, busiest, int32(1), "64 flows hashed onto 64 uplinks collide somewhere")

	m.Run()
	s = m.Snapshot()
	assert.Equal(t, make([]int32, len(tp.Links)), s.Routing.LinkFlows, "finished flows cross nothing")
	assert.Zero(t, s.Routing.ReorderedTotal, "one path per flow keeps packets in order")
}

func TestSprayRecordsTakenLinksAndReordering(t *testing.T) {
	m := builtin(t, "ecmp-collisions", "network.routing=spray", "traffic.bytes=1MiB")
	m.Snapshot() // as a viewer does first: recording starts
	m.Advance(2 * unit.Microsecond)
	early := m.Snapshot()
	m.Advance(20 * unit.Microsecond)
	mid := m.Snapshot()
	g := mid.Routing
	require.True(t, g.Routes.PerPacket)
	tp := m.Topology()
	first := g.Routes.AppendPath(nil, 0, mid.Time)
	assert.Greater(t, len(first), 10, "sprayed packets take many spines")
	for _, l := range first {
		assert.Positive(t, g.LinkFlows[l])
	}
	assert.Less(t, len(g.Routes.AppendPath(nil, 0, early.Time)), len(first), "an earlier snapshot sees only the links taken by then")
	assert.Equal(t, tp.Links[first[0]].From, tp.Endpoints[0], "the first link taken is the sender's")
	m.Run()
	end := m.Snapshot()
	var sum int64
	for i := range end.Flows {
		require.True(t, end.Flows[i].Done)
		sum += end.Reordered(i)
	}
	assert.Positive(t, end.Routing.ReorderedTotal, "spraying over 64 spines reorders")
	assert.Equal(t, end.Routing.ReorderedTotal, sum, "the flows' counts add up to the total")
	assert.Equal(t, m.stats.ooo, sum)
	assert.Empty(t, end.Routing.Reordered, "finished flows' counts live in the route table")
	assert.Len(t, end.Routing.Routes.AppendPath(nil, 0, end.Time), len(end.Routing.Routes.AppendPath(nil, 0, unit.Never)))
}

func TestFlowNames(t *testing.T) {
	m := builtin(t, "victim-flow")
	r := m.Snapshot().Routing.Routes
	assert.Equal(t, "victim", r.Name(7))
	assert.Equal(t, "", r.Name(0))
	assert.Equal(t, "", r.Name(99))
	assert.Empty(t, builtin(t, "permutation").Snapshot().Routing.Routes.Names, "generated flows have no names")
}

func TestUnwatchedRunRecordsNoLinks(t *testing.T) {
	m := builtin(t, "ecmp-collisions", "network.routing=spray", "traffic.bytes=64KiB")
	m.Run()
	assert.Nil(t, m.routes.AppendPath(nil, 0, unit.Never), "no snapshot was taken: nothing recorded")
	assert.False(t, m.routes.Tracked())
}

func TestNoRoutingPictureForCollectives(t *testing.T) {
	for _, name := range []string{"ring-allreduce-8", "dp-resnet50"} {
		sc, err := scenario.Load(name, nil, nil)
		require.NoError(t, err)
		assert.Nil(t, New(resolve(t, &sc)).Snapshot().Routing, "%s: its flows are chunks", name)
	}
	assert.NotNil(t, builtin(t, "incast").Snapshot().Routing)
}

// hopsTo shares one search among the endpoints under one switch: the counts
// are the same as searching from each endpoint, on every kind of fabric
// (a DGX's GPUs, with NVSwitch and NIC links, search on their own).
func TestHopsToSharedMatchesSearch(t *testing.T) {
	for _, name := range []string{"incast", "perm-1024", "ecmp-collisions", "ring-allreduce-8", "alltoall-moe", "hierarchical-allreduce"} {
		m := builtin(t, name, "sim.fidelity=packet")
		tp := m.Topology()
		m.hops = make([][]uint8, len(tp.Endpoints)) // found anew, in an order unlike the flows'
		for e := len(tp.Endpoints) - 1; e >= 0; e-- {
			require.Equal(t, tp.HopsTo(tp.Endpoints[e]), m.hopsTo(int32(e)), "%s: endpoint %d", name, e)
		}
	}
	shared := 0
	for _, h := range builtin(t, "perm-1024").hubHops {
		if h != nil {
			shared++
		}
	}
	assert.Equal(t, 128, shared, "perm-1024: one search per edge switch")
}
