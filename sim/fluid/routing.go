package fluid

import (
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/traffic"
)

// Routing as the viewer sees it (snap.Routes): a flow's links are the ones
// it was routed over (every minimal path when split), and a link carries
// the flows sending over it.

func (m *Model) initRoutes() {
	perPacket := m.routing == scenario.RouteAdaptive || m.routing == scenario.RouteSpray
	m.routes = snap.NewRoutes(perPacket, int64(m.mtu), len(m.links), false, func(i int) []int32 { return m.flows[i].links })
	m.routes.Names = traffic.Names(m.sc)
}

// routingNow pictures where the flows go now; nil for a collective or
// training, whose flows are chunks (the routing view is for traffic).
func (m *Model) routingNow() *snap.Routing {
	if m.sc.Collective.Op != "" || m.sc.Training.Model != "" {
		return nil
	}
	g := &snap.Routing{Routes: m.routes, LinkFlows: make([]int32, len(m.links))}
	for i := range m.links {
		g.LinkFlows[i] = int32(len(m.links[i].flows))
	}
	return g
}
