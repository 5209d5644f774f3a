package packet_test

import (
	"testing"

	"fabriclab/sim/fluid"
	"fabriclab/sim/network/networktest"
	"fabriclab/sim/packet"
)

// The packet model keeps the models' contract and agrees with the flow model within 5 %.
func TestConformance(t *testing.T) {
	networktest.TestModel(t, networktest.Of(packet.New), networktest.Of(fluid.New), 0.05)
}
