package fluid

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/packet"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// agreeWithin is how far the flow model's completion times may be from the packet model's.
const agreeWithin = 0.05

func packetScenario(sc *scenario.Scenario) *scenario.Scenario {
	p := *sc
	p.Sim.Fidelity = scenario.Packet
	return &p
}

// Static traffic: every flow finishes within 5 % of the packet model's time.
func TestAgreesWithPacketModel(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sc      func(t *testing.T) *scenario.Scenario
		perFlow float64 // tolerance per flow; the mean and the run's length take agreeWithin
	}{
		{"incast", func(t *testing.T) *scenario.Scenario { return builtin(t, "incast") }, agreeWithin},
		{"incast-ib", func(t *testing.T) *scenario.Scenario {
			return builtin(t, "incast", "topology.fabric=ib", "network.flow_control=credit", "traffic.bytes=8MiB")
		}, agreeWithin},
		// The leaf uplinks and spine downlinks run at exactly 100 % load. Spraying
		// packets at random there makes queues random-walk and PFC pause the
		// senders now and then, which costs the packet model 3–7 % on cross-leaf
		// flows; the flow model splits perfectly evenly and has no queues.
		{"permutation-spray", func(t *testing.T) *scenario.Scenario {
			return builtin(t, "permutation", "network.routing=spray", "traffic.bytes=4MiB")
		}, 0.08},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := tc.sc(t)
			_, fr := run(sc)
			pm := packet.New(packetScenario(sc))
			pm.Run()
			pr := pm.Result()
			require.Len(t, fr.Flows, len(pr.Flows))
			for i := range pr.Flows {
				require.True(t, pr.Flows[i].Finished)
				require.True(t, fr.Flows[i].Finished)
				assert.InEpsilon(t, pr.Flows[i].FinishUs, fr.Flows[i].FinishUs, tc.perFlow, "flow %d %d→%d", i, pr.Flows[i].Src, pr.Flows[i].Dst)
			}
			assert.InEpsilon(t, pr.Totals.MeanFctUs, fr.Totals.MeanFctUs, agreeWithin)
			assert.InEpsilon(t, pr.Totals.SimTimeUs, fr.Totals.SimTimeUs, tc.perFlow)
			assert.InEpsilon(t, pr.Totals.GoodputGbps, fr.Totals.GoodputGbps, tc.perFlow)
		})
	}
}

// ECMP picks the packet model's paths for a scenario's own flows: the same
// collisions, so the same flows are slow.
func TestECMPCollidesLikeThePacketModel(t *testing.T) {
	sc := builtin(t, "ecmp-collisions", "traffic.bytes=4MiB")
	_, fr := run(sc)
	pm := packet.New(packetScenario(sc))
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

// ringSteps runs a ring among ranks: every rank sends a chunk to the next,
// and forwards each chunk it receives until each has taken steps hops. It
// returns a function that reports when the last one arrived.
func ringSteps(f fabric.Fabric, ranks []int, chunk unit.Bytes, steps int) func() unit.Time {
	n := len(ranks)
	var end unit.Time
	var hop func(r, s int)
	hop = func(r, s int) {
		if s == steps {
			end = max(end, f.Now())
			return
		}
		f.Send(fabric.Transfer{Src: ranks[r], Dst: ranks[(r+1)%n], Bytes: chunk}, func() { hop((r+1)%n, s+1) })
	}
	for r := range n {
		hop(r, 0)
	}
	return func() unit.Time { return end }
}

// Send-driven workloads finish within 5 % of the packet model's time.
func TestWorkloadsAgreeWithPacketModel(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		ranks      int
		chunk      unit.Bytes
		steps      int
	}{
		{"dgx-node", "name: ring\ntopology: {kind: dgx, nodes: 1}\n", 8, 4 * unit.MiB, 7},
		{"leafspine", "name: ring\ntopology: {kind: leafspine, leaves: 4, hosts_per_leaf: 4, spines: 4}\n", 16, unit.MiB, 15},
		// InfiniBand's static routing: both models take the same paths (ECMP
		// would hash Send-driven flows differently and collide elsewhere).
		{"dgx-cluster-ib", "name: ring\ntopology: {kind: dgx, nodes: 4, gpus_per_node: 4, fabric: ib}\n", 16, unit.MiB, 3},
		{"fattree-ib", "name: ring\ntopology: {kind: fattree, k: 4, fabric: ib}\n", 16, 2 * unit.MiB, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := noTraffic(flowScenario(t, tc.yaml))
			ranks := make([]int, tc.ranks)
			for i := range ranks {
				ranks[i] = i
			}
			fm := New(sc)
			fEnd := ringSteps(fm, ranks, tc.chunk, tc.steps)
			fm.Run()
			pm := packet.New(packetScenario(sc))
			pEnd := ringSteps(pm, ranks, tc.chunk, tc.steps)
			pm.Run()
			require.Positive(t, pEnd())
			assert.InEpsilon(t, pEnd().Micros(), fEnd().Micros(), agreeWithin)
			assert.Equal(t, fm.Now(), fEnd(), "the run ends with the last delivery")
			assert.Equal(t, tc.ranks*tc.steps, fm.Result().Totals.FlowsFinished)
		})
	}
}
