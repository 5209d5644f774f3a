// Package sim runs a scenario and reports what happened. The model itself lives
// in sub-packages: engine (clock and events), unit, link (presets), topo,
// scenario (YAML), packet (the packet-level model) and metrics (the report).
package sim

import (
	"fmt"

	"fabriclab/sim/metrics"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
)

// Run simulates a validated scenario.
func Run(sc scenario.Scenario) (*metrics.Result, error) {
	switch sc.Sim.Fidelity {
	case scenario.Packet, "":
		m := packet.New(&sc)
		m.Run()
		return m.Result(), nil
	}
	return nil, fmt.Errorf("sim.fidelity %q is not implemented yet; use packet", sc.Sim.Fidelity)
}
