package packet_test

import (
	"testing"

	"fabriclab/sim/fluid"
	"fabriclab/sim/network"
	"fabriclab/sim/network/networktest"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
)

// The packet model keeps the models' contract and agrees with the flow model within 5 %.
func TestConformance(t *testing.T) {
	networktest.TestModel(t,
		func(sc *scenario.Scenario) network.Model { return packet.New(sc) },
		func(sc *scenario.Scenario) network.Model { return fluid.New(sc) },
		0.05)
}
