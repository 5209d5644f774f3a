package fluid

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

func run(t *testing.T, sc *scenario.Scenario) (*Model, *metrics.Result) {
	m := New(resolve(t, sc))
	m.Run()
	return m, m.Result()
}

func builtin(t testing.TB, name string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(t, err)
	sc.Sim.Fidelity = scenario.FlowLevel
	return &sc
}

// noTraffic empties a scenario's own traffic, for workloads that Send.
func noTraffic(sc *scenario.Scenario) *scenario.Scenario {
	sc.Traffic.Pattern, sc.Traffic.Flows = scenario.PatternFlows, nil
	return sc
}

func TestOneFlowReachesTheHeaderCeiling(t *testing.T) {
	for _, tc := range []struct {
		fabric string
		gbps   float64
	}{{"roce", 392.1}, {"ib", 397.5}} {
		t.Run(tc.fabric, func(t *testing.T) {
			sc := flowScenario(t, `
name: one
topology: {kind: star, hosts: 2, link_gbps: 400}
traffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 64MiB}]}
`, "topology.fabric="+tc.fabric)
			m, r := run(t, sc)
			require.Len(t, r.Flows, 1)
			f := r.Flows[0]
			assert.True(t, f.Finished)
			assert.InEpsilon(t, tc.gbps, f.Gbps, 0.005, "the flow's rate over its completion time")
			assert.InEpsilon(t, tc.gbps, m.links[0].capacity*8/1e9, 0.0005, "the host link's payload capacity")
			// Latency: two links of 1us, the switch's 300ns, one packet stored and forwarded.
			wantDelay := 2*unit.Microsecond + 300*unit.Nanosecond + m.topo.Links[0].Rate.TxTime(4096+unit.Bytes(m.route.linkHdr[0]))
			assert.Equal(t, wantDelay, m.flows[0].delay)
			assert.Equal(t, int64(64<<20), f.Delivered)
			assert.Equal(t, "flow", r.Fidelity)
		})
	}
}

func TestIncastSharesTheReceiverLink(t *testing.T) {
	_, r := run(t, builtin(t, "incast"))
	require.Len(t, r.Flows, 8)
	bytes := float64(8 * 64 << 20)
	want := bytes * 8 / 392.1e9 * 1e6 // µs
	for _, f := range r.Flows {
		assert.True(t, f.Finished)
		assert.InEpsilon(t, want, f.FctUs, 0.01)
		assert.InEpsilon(t, 392.1/8, f.Gbps, 0.01)
	}
	assert.Equal(t, r.Flows[0].FinishUs, r.Flows[7].FinishUs, "equal shares finish together")
	var receiver metrics.Link
	for _, l := range r.Links {
		if l.Name == "switch→host8" {
			receiver = l
		}
		assert.Zero(t, l.MaxQueueBytes)
		assert.Zero(t, l.Drops)
	}
	assert.InDelta(t, 1, receiver.Util, 0.01, "the receiver's link is full for the whole run")
	assert.InEpsilon(t, 392.1, r.Totals.GoodputGbps, 0.01)
	assert.Equal(t, uint64(8+8+2), r.Totals.Events, "8 starts, 8 deliveries, 2 recomputations (start, drain)")
	require.NotNil(t, r.Series)
	assert.Len(t, r.Series.FlowGbps, 8)
	assert.Len(t, r.Series.Goodput, len(r.Series.TimeUs))
	assert.InEpsilon(t, 392.1, r.Series.Goodput[len(r.Series.Goodput)/2], 0.001, "mid-run goodput")
}

// Max-min fairness: a flow limited elsewhere leaves its unused share to the others.
func TestMaxMinFairness(t *testing.T) {
	sc := flowScenario(t, `
name: maxmin
topology: {kind: star, hosts: 5, link_gbps: 100}
traffic: {pattern: flows, bytes: 64MiB, flows: [{src: 0, dst: 4}, {src: 1, dst: 4}, {src: 1, dst: 3}, {src: 2, dst: 4}]}
`)
	m := New(resolve(t, sc))
	m.At(unit.Microsecond, func() {
		c := m.links[0].capacity // every link alike
		got := make([]float64, 4)
		for i := range got {
			got[i] = m.flows[i].rate / c
		}
		// host4's port is shared by three flows (1/3 each); host1's flow to
		// host3 gets what is left of host1's port: 2/3.
		assert.InDeltaSlice(t, []float64{1. / 3, 1. / 3, 2. / 3, 1. / 3}, got, 1e-12)
	})
	m.Run()
}

// A flow starting on links no other flow uses recomputes only its own rate;
// one joining a shared link recomputes every flow on it.
func TestRecomputeTouchesOnlyTheComponent(t *testing.T) {
	sc := noTraffic(flowScenario(t, "name: inc\ntopology: {kind: star, hosts: 8}\n"))
	m := New(resolve(t, sc))
	for _, src := range []int{0, 1, 2} {
		m.Send(fabric.Transfer{Src: src, Dst: 3, Bytes: unit.MiB}, nil)
	}
	var unrelated, related uint64
	m.At(5*unit.Microsecond, func() {
		before := m.stats.refilled
		m.Send(fabric.Transfer{Src: 4, Dst: 5, Bytes: unit.MiB}, nil)
		m.At(m.Now(), func() { unrelated = m.stats.refilled - before })
	})
	m.At(6*unit.Microsecond, func() {
		before := m.stats.refilled
		m.Send(fabric.Transfer{Src: 6, Dst: 3, Bytes: unit.MiB}, nil)
		m.At(m.Now(), func() { related = m.stats.refilled - before })
	})
	m.Run()
	assert.Equal(t, uint64(1), unrelated, "only the new flow, not the three sharing host3's port")
	assert.Equal(t, uint64(4), related, "the new flow and the three it joins")
}

// Callbacks can Send and schedule more callbacks; Run returns once nothing is left.
func TestCallbacksChainAndRunStopsWhenIdle(t *testing.T) {
	sc := noTraffic(flowScenario(t, "name: cb\ntopology: {kind: star, hosts: 4}\n"))
	m := New(resolve(t, sc))
	var log []string
	m.Send(fabric.Transfer{Src: 0, Dst: 1, Bytes: unit.MiB}, func() {
		log = append(log, "first")
		first := m.Now()
		m.At(first+10*unit.Microsecond, func() {
			log = append(log, "timer")
			assert.Equal(t, first+10*unit.Microsecond, m.Now())
			m.Send(fabric.Transfer{Src: 1, Dst: 2, Bytes: unit.MiB}, func() { log = append(log, "second") })
		})
	})
	m.Send(fabric.Transfer{Src: 2, Dst: 2, Bytes: unit.MiB}, func() { log = append(log, "local") })
	m.Run()
	r := m.Result()
	assert.Equal(t, []string{"local", "first", "timer", "second"}, log)
	assert.Equal(t, 2, r.Totals.FlowsFinished)
	assert.Equal(t, r.Flows[1].FinishUs, r.Totals.SimTimeUs, "the run ends with the last delivery")
	assert.Equal(t, uint64(2+2+2+4), r.Totals.Events, "2 starts, 2 deliveries, 2 At callbacks, 4 recomputations")
}

func TestUntilStopsTheRun(t *testing.T) {
	sc := builtin(t, "incast", "until=100us")
	m, r := run(t, sc)
	assert.Equal(t, 100*unit.Microsecond, m.Now())
	assert.Equal(t, 100.0, r.Totals.SimTimeUs)
	assert.Zero(t, r.Totals.FlowsFinished)
	perFlow := 392.1e9 / 8 / 8 * 100e-6
	for _, f := range r.Flows {
		assert.False(t, f.Finished)
		assert.InEpsilon(t, perFlow, float64(f.Delivered), 0.001)
	}
	assert.InDelta(t, 100, r.Series.TimeUs[len(r.Series.TimeUs)-1], 1e-9)

	// A run with nothing to do ends at once, limit or not.
	empty := noTraffic(flowScenario(t, "name: e\n"))
	m, _ = run(t, empty)
	assert.Zero(t, m.Now())
	empty.Until = 7 * unit.Microsecond
	m, _ = run(t, empty)
	assert.Zero(t, m.Now())
}

// Flows started at the same time on independent links keep their own drains;
// a flow that finishes frees its share for the others at once.
func TestShareIsReleasedOnDrain(t *testing.T) {
	sc := flowScenario(t, `
name: release
topology: {kind: star, hosts: 3, link_gbps: 100}
traffic: {pattern: flows, flows: [{src: 0, dst: 2, bytes: 1MiB}, {src: 1, dst: 2, bytes: 3MiB}]}
`)
	m, r := run(t, sc)
	c := m.links[0].capacity
	// Both at c/2 until the small one has sent 1 MiB; the large one then has 2 MiB left at c.
	drain1 := float64(1<<20) / (c / 2)
	drain2 := drain1 + float64(2<<20)/c
	delay := m.flows[0].delay.Seconds()
	assert.InEpsilon(t, (drain1+delay)*1e6, r.Flows[0].FinishUs, 1e-6)
	assert.InEpsilon(t, (drain2+delay)*1e6, r.Flows[1].FinishUs, 1e-6)
}
