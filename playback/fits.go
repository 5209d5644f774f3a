package playback

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/scenario"
)

// What the browser canvas builds. The packet-level model of an 8,192-host fat
// tree takes seconds to build and its snapshots megabytes each; in a browser
// tab (32-bit WebAssembly memory, shared with the page) such runs belong to
// the flow-level model or to `fabriclab run`.
const (
	BrowserPacketEndpoints = 1024
	BrowserPacketFlows     = 1 << 16
	BrowserEndpoints       = 8192 // flow level
	BrowserFlows           = 1 << 18
)

// FitsBrowser says, before anything is built, whether a validated scenario is
// small enough for the browser canvas, and if not what to do instead.
func FitsBrowser(sc *scenario.Scenario) error {
	endpoints, flows := sc.Endpoints(), sc.TrafficFlows()
	shape := sc.Topology.Shape()
	if sc.Sim.Fidelity == scenario.Packet {
		switch {
		case endpoints > BrowserPacketEndpoints:
			return msg.Errorf("scenario %s is too big for the browser canvas: %s has %d endpoints, and the canvas plays at most %d at packet level; "+
				"use the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow), which plays up to %d, or run it with `fabriclab run`",
				sc.Name, shape.Describe(), endpoints, BrowserPacketEndpoints, BrowserEndpoints)
		case flows > BrowserPacketFlows:
			return msg.Errorf("scenario %s is too big for the browser canvas: its traffic is %d flows, and the canvas plays at most %d at packet level; "+
				"use the flow-level model (sim.fidelity: flow, or set=sim.fidelity=flow), which plays up to %d, or run it with `fabriclab run`",
				sc.Name, flows, BrowserPacketFlows, BrowserFlows)
		}
		return nil
	}
	switch {
	case endpoints > BrowserEndpoints:
		return msg.Errorf("scenario %s is too big for the browser canvas: %s has %d endpoints, and the canvas plays at most %d even with the flow-level model (sim.fidelity: flow); run it with `fabriclab run`",
			sc.Name, shape.Describe(), endpoints, BrowserEndpoints)
	case flows > BrowserFlows:
		return msg.Errorf("scenario %s is too big for the browser canvas: its traffic is %d flows, and the canvas plays at most %d even with the flow-level model (sim.fidelity: flow); run it with `fabriclab run`",
			sc.Name, flows, BrowserFlows)
	}
	return nil
}
