package scenario

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Fidelities.
const (
	Packet    = "packet" // every packet is simulated
	FlowLevel = "flow"   // flows share links by max-min fairness
)

// Sim picks the model and what it records.
type Sim struct {
	Fidelity       string    `yaml:"fidelity"`        // packet | flow
	SampleInterval unit.Time `yaml:"sample_interval"` // time-series period; 0 picks about 200 samples
}

// sim checks until and the sim keys; endpoints is known when topoOK.
func (c *checker) sim(endpoints int, topoOK bool) {
	s := c.s
	if s.Until < 0 {
		c.fail("until", "%s is negative: it must be ≥ 0 (0 runs until every flow finishes)", c.text("until", s.Until))
	} else if s.Until > MaxUntil {
		c.fail("until", "%s is too long: at most %s (0 runs until every flow finishes)", c.text("until", s.Until), MaxUntil)
	}
	switch s.Sim.Fidelity {
	case Packet:
	case FlowLevel:
		if r := s.Network.Routing; (r == RouteSpray || r == RouteAdaptive) && topoOK && endpoints > MaxPacketEndpoints {
			c.fail("network.routing", "%s at flow level splits every flow over all shortest paths, which takes too much memory past %d endpoints (%s has %d); use routing: ecmp or static",
				r, MaxPacketEndpoints, s.Topology.Shape().Describe(), endpoints)
		}
	default:
		c.oneOf("sim.fidelity", s.Sim.Fidelity, msg.F("a fidelity"), Packet, FlowLevel)
	}
	if si := s.Sim.SampleInterval; si != 0 {
		c.duration("sim.sample_interval", si, MinSampleInterval, MaxUntil, "10us")
	}
}
