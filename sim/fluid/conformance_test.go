package fluid_test

import (
	"testing"

	"fabriclab/sim/fluid"
	"fabriclab/sim/network/networktest"
	"fabriclab/sim/packet"
)

// The flow model keeps the models' contract and agrees with the packet model within 5 %.
func TestConformance(t *testing.T) {
	networktest.TestModel(t, networktest.Of(fluid.New), networktest.Of(packet.New), 0.05)
}
