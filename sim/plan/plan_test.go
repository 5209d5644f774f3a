package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/link"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

func resolve(t *testing.T, name string, sets ...string) *plan.Plan {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	return p
}

// topology.link_gbps reaches the ports one way: the wiring's rate, which
// every host and switch link of the built topology runs at.
func TestLinkRateReachesTheLinks(t *testing.T) {
	p := resolve(t, "hierarchical-allreduce", "topology.link_gbps=200", "topology.nvlink=3", "topology.nvlink_efficiency=0.5")
	assert.Equal(t, 200*unit.Gbps, p.Wiring.Rate)
	assert.Equal(t, link.NVLink3Rate/2, p.Wiring.NVLink)
	kinds := map[link.Kind]int{}
	for _, l := range p.Topology.Links {
		kinds[l.Kind]++
		switch l.Kind {
		case p.Wiring.Fabric:
			assert.Equal(t, p.Wiring.Rate, l.Rate, "link %s", p.Topology.LinkName(l.ID))
		case link.NVLink4:
			assert.Equal(t, p.Wiring.NVLink, l.Rate, "link %s", p.Topology.LinkName(l.ID))
		case link.PCIe5:
			assert.Equal(t, p.Wiring.NIC, l.Rate, "link %s", p.Topology.LinkName(l.ID))
		}
	}
	assert.Len(t, kinds, 3, "fabric, NVLink and PCIe links: %v", kinds)
	assert.Less(t, p.Wiring.NIC, link.PCIe5Rate, "nic_efficiency of a 200G NIC")
}

func TestWiringOfEachFabric(t *testing.T) {
	for fabric, kind := range map[string]link.Kind{"ib": link.IB, "roce": link.RoCE, "ethernet": link.Ethernet} {
		p := resolve(t, "incast", "topology.fabric="+fabric, "network.flow_control=", "network.cc=")
		assert.Equal(t, kind, p.Wiring.Fabric, fabric)
		assert.Equal(t, 400*unit.Gbps, p.Wiring.Rate, fabric)
		assert.Equal(t, unit.Microsecond, p.Wiring.Latency, fabric)
	}
	sc := scenario.Default()
	sc.Topology.Fabric = "tokenring"
	_, err := plan.Resolve(&sc)
	assert.ErrorContains(t, err, `topology.fabric "tokenring" is not a fabric`)
	assert.InDelta(t, 450*scenario.DefaultNVLinkEfficiency, topo.NVLinkRate(4, scenario.DefaultNVLinkEfficiency).GBps(), 1e-9,
		"the default calibrates NVLink to measured NCCL rates")
}

func TestSampleInterval(t *testing.T) {
	assert.Equal(t, plan.DefaultSampleInterval, resolve(t, "incast").SampleInterval)
	assert.Equal(t, 50*unit.Microsecond, resolve(t, "incast", "until=10ms").SampleInterval, "about 200 samples of until")
	assert.Equal(t, unit.Microsecond, resolve(t, "incast", "until=10us").SampleInterval, "at least 1 µs")
	assert.Equal(t, 3*unit.Microsecond, resolve(t, "incast", "until=10ms", "sim.sample_interval=3us").SampleInterval, "sim.sample_interval")
}

// The plan holds what the run reads and nothing else: two scenarios that
// differ only in keys the run does not read give equal plans. (A document
// that sets such a key is refused; a scenario built in Go is not.)
func TestEqualPlansRunAlike(t *testing.T) {
	for _, tc := range []struct {
		name    string
		builtin string
		change  func(sc *scenario.Scenario)
		equal   bool
	}{
		{"the same scenario", "incast", func(*scenario.Scenario) {}, true},
		{"the same collective", "hierarchical-allreduce", func(*scenario.Scenario) {}, true},
		{"the same training", "dp-resnet50", func(*scenario.Scenario) {}, true},
		{"a rate", "incast", func(sc *scenario.Scenario) { sc.Topology.LinkGbps = 200 }, false},
		{"hosts of a leafspine", "permutation", func(sc *scenario.Scenario) { sc.Topology.Hosts = 5 }, true},
		{"ecn without dcqcn", "incast", func(sc *scenario.Scenario) { sc.Network.ECN.KMin = 100 * unit.KiB }, true},
		{"ecn with dcqcn", "incast-dcqcn", func(sc *scenario.Scenario) { sc.Network.ECN.KMin = 100 * unit.KiB }, false},
		{"ibcc keys without ibcc", "incast", func(sc *scenario.Scenario) { sc.Network.IBCC.Timer = 20 * unit.Microsecond }, true},
		{"pfc thresholds without pfc", "incast-lossy", func(sc *scenario.Scenario) { sc.Network.PFC.Headroom = unit.MiB }, true},
		{"senders", "incast", func(sc *scenario.Scenario) { sc.Traffic.Senders = 4 }, false},
		{"senders of a permutation", "permutation", func(sc *scenario.Scenario) { sc.Traffic.Senders = 4 }, true},
		{"the seed", "permutation", func(sc *scenario.Scenario) { sc.Seed = 2 }, false},
		{"collective bytes", "ring-allreduce-8", func(sc *scenario.Scenario) { sc.Collective.Bytes = 2 * unit.GiB }, false},
		{"a training knob", "dp-resnet50", func(sc *scenario.Scenario) { sc.Training.Batch = 64 }, false},
		{"the price of a GPU-hour", "dp-resnet50", func(sc *scenario.Scenario) { sc.Training.GPUHourPrice = 3 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Load(tc.builtin, nil, nil)
			require.NoError(t, err)
			a, err := plan.Resolve(&sc)
			require.NoError(t, err)
			tc.change(&sc)
			b, err := plan.Resolve(&sc)
			require.NoError(t, err)
			assert.Equal(t, tc.equal, a.Equal(b))
		})
	}
}

func TestNetworkSettings(t *testing.T) {
	n := resolve(t, "incast").Net
	assert.Equal(t, plan.PFC, n.FlowControl)
	assert.Equal(t, plan.ECMP, n.Routing)
	assert.Positive(t, n.XOff)
	assert.Less(t, n.XOn, n.XOff)
	assert.Equal(t, []plan.Class{{Name: "default", Weight: 1, Lossless: true}}, n.Classes)
	assert.Nil(t, n.DCQCN)
	assert.Nil(t, n.IBCC)
	assert.Nil(t, n.Shared)

	lossy := resolve(t, "incast-lossy").Net
	assert.Equal(t, plan.Lossy, lossy.FlowControl)
	assert.Zero(t, lossy.XOff, "no pause thresholds without PFC")
	assert.False(t, lossy.Classes[0].Lossless)

	d := resolve(t, "incast-dcqcn", "network.dcqcn.profile=paper").Net.DCQCN
	require.NotNil(t, d)
	assert.Equal(t, 409*unit.KiB, d.KMin)
	assert.Equal(t, 1638*unit.KiB, d.KMax)
	assert.False(t, d.NIC)
	assert.False(t, d.AtDequeue, "the paper marks on enqueue")
	assert.Equal(t, unit.Rate(80e6), d.AIRate, "5 Mb/s per 25 Gb/s at 400G")
	assert.Equal(t, unit.Rate(800e6), d.HAIRate)

	b := resolve(t, "incast-ibcc").Net.IBCC
	require.NotNil(t, b)
	assert.Equal(t, 512*unit.KiB, b.Threshold, "a quarter of the 2 MiB buffer")

	assert.Equal(t, plan.Spray, resolve(t, "permutation", "network.routing=spray").Net.Routing)
	assert.True(t, plan.Spray.PerPacket())
	assert.False(t, plan.ECMP.PerPacket())
}

func TestWorkloads(t *testing.T) {
	p := resolve(t, "ring-allreduce-8")
	require.NotNil(t, p.Collective)
	assert.Nil(t, p.Training)
	assert.Empty(t, p.Flows, "the collective makes the flows")
	assert.Equal(t, 8, p.Collective.Ranks)
	assert.NotNil(t, p.Collective.Schedule.Steps, "a packet-level run takes every step")

	streamed := resolve(t, "ring-allreduce-8", "sim.fidelity=flow").Collective
	assert.True(t, streamed.Options.Streamed)
	assert.Nil(t, streamed.Schedule.Steps, "a streamed run without a viewer needs only the summary")
	sched, err := streamed.ScheduleFor(true)
	require.NoError(t, err)
	assert.NotNil(t, sched.Steps, "a viewer needs the steps")
	assert.Equal(t, streamed.Schedule.Summary, sched.Summary)

	tr := resolve(t, "dp-resnet50", "training.gpu_hour_price=2.5").Training
	require.NotNil(t, tr)
	assert.Equal(t, 2.5, tr.GPUHourPrice)
	assert.Equal(t, int64(plan.MaxRunFlows), tr.Config.MaxFlows)

	flows := resolve(t, "victim-flow")
	assert.NotEmpty(t, flows.Names, "victim-flow names its flows")
	assert.LessOrEqual(t, len(flows.Names), len(flows.Flows))
}
