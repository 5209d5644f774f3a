package fluid

import (
	"fabriclab/sim/snap"
)

// Routing as the viewer sees it (snap.Routes): a flow's links are the ones
// it was routed over (every minimal path when split), and a link carries
// the flows sending over it.

func (m *Model) initRoutes(names []string) {
	m.routes = snap.NewRoutes(m.routing.PerPacket(), int64(m.mtu), len(m.links), false, func(i int) []int32 { return m.flows[i].links })
	m.routes.Names = names
}

// routingNow pictures where the flows go now; nil for a collective or
// training, whose flows are chunks (the routing view is for traffic).
func (m *Model) routingNow() *snap.Routing {
	if m.workload {
		return nil
	}
	g := &snap.Routing{Routes: m.routes, LinkFlows: make([]int32, len(m.links))}
	for i := range m.links {
		g.LinkFlows[i] = int32(len(m.links[i].flows))
	}
	return g
}
