// Package sim runs a scenario and reports what happened. The model itself lives
// in sub-packages: engine (clock and events), unit, link (presets), topo,
// scenario (YAML), packet (the packet-level model) and metrics (the report).
package sim

import (
	"fmt"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
)

// Run simulates a validated scenario.
func Run(sc scenario.Scenario) (*metrics.Result, error) {
	var f fabric.Fabric
	switch sc.Sim.Fidelity {
	case scenario.Packet, "":
		f = packet.New(&sc)
	default:
		return nil, fmt.Errorf("sim.fidelity %q is not implemented yet; use packet", sc.Sim.Fidelity)
	}
	var co *metrics.Collective
	if c := &sc.Collective; c.Op != "" {
		ranks := c.Ranks
		if ranks == 0 {
			ranks = sc.Endpoints()
		}
		g := 0
		if sc.Topology.GPUsPerNode > 1 {
			g = sc.Topology.GPUsPerNode
		}
		sched, err := coll.Build(c.Op, c.Algo, coll.Params{Ranks: ranks, GPUsPerNode: g, Root: c.Root})
		if err != nil {
			return nil, fmt.Errorf("collective: %w", err)
		}
		eps := make([]int, ranks)
		for i := range eps {
			eps[i] = i
		}
		opts := coll.Options{Bytes: c.Bytes, Channels: c.Channels, Chunk: c.Chunk, Alpha: c.Alpha,
			Streamed: sc.Sim.Fidelity == scenario.FlowLevel}
		coll.Run(f, sched, eps, opts, func(r metrics.Collective) { co = &r })
	}
	f.Run()
	res := f.Result()
	res.Collective = co
	return res, nil
}
