package fluid

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/sim/metrics"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
)

// agreeWithin is how far the flow model's completion times may be from the
// packet model's (conformance_test.go checks the common cases).
const agreeWithin = 0.05

func packetScenario(sc *scenario.Scenario) *scenario.Scenario {
	p := *sc
	p.Sim.Fidelity = scenario.Packet
	return &p
}

// ECMP picks the packet model's paths for a scenario's own flows: the same
// collisions, so the same flows are slow.
func TestECMPCollidesLikeThePacketModel(t *testing.T) {
	sc := builtin(t, "ecmp-collisions", "traffic.bytes=4MiB")
	_, fr := run(t, sc)
	pm := packet.New(resolve(t, packetScenario(sc)))
	pm.Run()
	pr := pm.Result()
	slow := 0
	for i := range pr.Flows {
		if fr.Flows[i].Gbps < 300 {
			slow++
			assert.Less(t, pr.Flows[i].Gbps, 300.0, "flow %d shares a spine in both models", i)
		}
	}
	assert.Positive(t, slow, "64 flows on 64 spines collide somewhere")
	used := func(links []metrics.Link) []string {
		var names []string
		for _, l := range links {
			names = append(names, l.Name)
		}
		return names
	}
	assert.Equal(t, used(pr.Links), used(fr.Links), "the same links carry traffic")
	assert.InEpsilon(t, pr.Totals.SimTimeUs, fr.Totals.SimTimeUs, agreeWithin)
}
