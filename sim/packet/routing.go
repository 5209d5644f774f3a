package packet

import (
	"fabriclab/sim/snap"
)

// Routing as the viewer sees it: each flow's path, the flows each link
// carries, and reordering under per-packet routing (snap.Routes).

// initRoutes makes the run's route table. Static and ECMP paths are walked
// when first asked for (they depend only on the flow's hash); under
// per-packet routing the links packets take are recorded as they go, from
// the first snapshot on (a run nobody watches records nothing).
func (m *Model) initRoutes(names []string, workload bool) {
	m.routes = snap.NewRoutes(m.perPacket, int64(m.mtu), len(m.topo.Links), false, m.flowPath)
	m.routes.Names = names
	m.workload = workload
}

// flowPath is the links of flow i's path under static or ECMP routing:
// those it was given at its start, or, once rerouted (hop by hop), those
// choose picks now.
func (m *Model) flowPath(i int) []int32 {
	f := &m.flows[i]
	if m.perPacket {
		return nil // recorded as packets go (took)
	}
	if f.path >= 0 {
		var path []int32
		for k := f.path; ; k++ {
			path = append(path, m.paths[k])
			if int32(m.topo.Links[m.paths[k]].To) == f.dstNode {
				return path
			}
		}
	}
	path := []int32{f.port}
	for n := int32(m.topo.Links[f.port].To); n != f.dstNode; {
		l := m.choose(n, f.dst, f, nil)
		path = append(path, l)
		n = int32(m.topo.Links[l].To)
	}
	return path
}

// took records, under per-packet routing, that flow i's packet takes link l now.
func (m *Model) took(i int32, l int32) {
	if m.perPacket && !m.flows[i].done {
		m.routes.Took(i, l, m.eng.Now())
	}
}

// routingNow pictures where the flows go now; nil for a collective or
// training, whose flows are chunks (the routing view is for traffic).
func (m *Model) routingNow() *snap.Routing {
	if m.workload {
		return nil
	}
	now := m.eng.Now()
	if m.perPacket {
		m.routes.Track()
	}
	g := &snap.Routing{Routes: m.routes, LinkFlows: make([]int32, len(m.ports)), ReorderedTotal: m.stats.ooo}
	var buf []int32
	for i := range m.flows {
		f := &m.flows[i]
		if f.done || !(f.onPort || f.nextSeq > 0) {
			continue
		}
		buf = m.routes.AppendPath(buf[:0], i, now)
		for _, l := range buf {
			g.LinkFlows[l]++
		}
		if f.outOfOrder > 0 {
			g.Reordered = append(g.Reordered, snap.FlowCount{Flow: int32(i), N: f.outOfOrder})
		}
	}
	return g
}
