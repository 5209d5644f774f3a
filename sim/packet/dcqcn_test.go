package packet

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

func runBuiltin(t *testing.T, name string, sets ...string) (*Model, *metrics.Result) {
	t.Helper()
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(t, err)
	m := New(resolve(t, &sc))
	m.Run()
	return m, m.Result()
}

// sumCounters checks that the per-link and per-flow counters add up to the totals.
func sumCounters(t *testing.T, r *metrics.Result) {
	t.Helper()
	var marks, cnps int64
	for _, l := range r.Links {
		marks += l.ECNMarks
	}
	for _, f := range r.Flows {
		cnps += f.CNPs
	}
	assert.Equal(t, r.Totals.ECNMarks, marks, "every mark is counted on its link")
	assert.Equal(t, r.Totals.CNPs, cnps, "every CNP is counted on its flow")
}

// REFERENCE.md golden scenario 6, DCQCN half, under the paper's rules
// (profile: paper; TestDCQCNIncastNIC has the nic profile): the 8 → 1 incast
// at 400G with PFC. The first burst fills the queue before the first CNP can act (8 flows
// at line rate add 350 bytes per ns; enqueue marking delays the feedback by
// the queueing delay), so the peak is set by PFC as without DCQCN. After it
// the senders are throttled: the queue stays below kmax, the receiver's port
// is hardly ever paused, and nothing is dropped.
func TestDCQCNIncastPFC(t *testing.T) {
	_, pfc := runBuiltin(t, "incast")
	m, r := runBuiltin(t, "incast-dcqcn", "network.dcqcn.profile=paper")
	kmin, kmax := m.net.DCQCN.KMin, m.net.DCQCN.KMax
	assert.Equal(t, 409*unit.KiB, kmin)
	assert.Equal(t, 1638*unit.KiB, kmax)

	assert.Zero(t, r.Totals.Drops)
	assert.Equal(t, 8, r.Totals.FlowsFinished)
	assert.Positive(t, r.Totals.ECNMarks)
	assert.Positive(t, r.Totals.CNPs)
	assert.Zero(t, pfc.Totals.ECNMarks, "no marks without congestion control")
	assert.Zero(t, pfc.Totals.CNPs)
	sumCounters(t, r)
	assert.Positive(t, linkOf(t, r, "switch→host8").ECNMarks, "the bottleneck marks")
	assert.Zero(t, linkOf(t, r, "host0→switch").ECNMarks, "hosts do not mark")
	assert.Less(t, r.Totals.PauseFrames*20, pfc.Totals.PauseFrames, "pause frames drop sharply")

	s := r.Series
	require.Len(t, s.FlowRateGbps, 8)
	var peakAfter int64
	for _, q := range s.Queues {
		if q.Name != "switch→host8" {
			continue
		}
		for i, b := range q.Bytes {
			if s.TimeUs[i] > 1000 {
				peakAfter = max(peakAfter, b)
			}
		}
	}
	assert.Less(t, peakAfter, int64(kmax), "after the first burst the queue stays below kmax")
	for i, f := range r.Flows {
		require.Len(t, s.FlowRateGbps[i], len(s.TimeUs))
		assert.Equal(t, 400.0, s.FlowRateGbps[i][0], "flows start at line rate")
		assert.Positive(t, f.CNPs, "flow %d", i)
		assert.Less(t, f.MinRateGbps, 400.0, "flow %d was slowed", i)
		assert.GreaterOrEqual(t, f.MinRateGbps, 0.1, "flow %d: never below the minimum rate", i)
	}
	t.Logf("peak queue: PFC alone %d B, PFC+DCQCN %d B (after 1 ms %d B); pause frames %d → %d; goodput %.1f → %.1f Gb/s; max fct %.0f → %.0f µs",
		linkOf(t, pfc, "switch→host8").MaxQueueBytes, linkOf(t, r, "switch→host8").MaxQueueBytes, peakAfter,
		pfc.Totals.PauseFrames, r.Totals.PauseFrames, pfc.Totals.GoodputGbps, r.Totals.GoodputGbps, pfc.Totals.MaxFctUs, r.Totals.MaxFctUs)
}

const twoFlows = `
name: two-flows
topology: {kind: star, hosts: 3, fabric: roce, link_gbps: 400}
network: {flow_control: pfc, cc: dcqcn}
traffic: {pattern: flows, flows: [{src: 0, dst: 2, bytes: 1GiB}, {src: 1, dst: 2, bytes: 1GiB, start: 1ms}]}
until: 7ms
sim: {sample_interval: 50us}
`

// REFERENCE.md golden scenario 6: two flows sharing a bottleneck, the second
// starting 1 ms after the first, split it 50/50 ± 10 % within 5 ms.
func TestDCQCNTwoFlowsConverge(t *testing.T) {
	_, r := runYAML(t, twoFlows)
	s := r.Series
	require.Len(t, s.FlowGbps, 2)
	require.Len(t, s.FlowRateGbps, 2)
	var a, b, rateA, rateB float64
	for i, tu := range s.TimeUs {
		if i > 0 && s.TimeUs[i-1] >= 5000 && tu <= 6000 { // 4 to 5 ms after the second flow starts
			a += s.FlowGbps[0][i]
			b += s.FlowGbps[1][i]
			rateA += s.FlowRateGbps[0][i]
			rateB += s.FlowRateGbps[1][i]
		}
		if tu < 1000 {
			assert.Zero(t, s.FlowRateGbps[1][i], "the second flow has not started")
		}
	}
	require.Positive(t, a+b)
	share := a / (a + b)
	assert.InDelta(t, 0.5, share, 0.05, "goodput split 50/50 ± 10 %% (a %.1f, b %.1f)", a, b)
	assert.InDelta(t, 0.5, rateA/(rateA+rateB), 0.05, "sending rates split 50/50 ± 10 %%")
	assert.Zero(t, r.Totals.Drops)
	sumCounters(t, r)
	t.Logf("5–6 ms: flow 0 %.1f%%, flow 1 %.1f%% of the goodput; total goodput %.1f Gb/s", 100*share, 100*(1-share), r.Totals.GoodputGbps)
}

// REFERENCE.md golden scenario 6: the same seed gives the same run (marking
// draws from the run's random source), another seed another one.
func TestDCQCNDeterministic(t *testing.T) {
	encode := func(sets ...string) string {
		_, r := runYAML(t, twoFlows, append([]string{"until=2ms"}, sets...)...)
		out, err := json.Marshal(r)
		require.NoError(t, err)
		return string(out)
	}
	first := encode()
	assert.Equal(t, first, encode())
	assert.NotEqual(t, first, encode("seed=2"))
}

// REFERENCE.md golden scenario 6: the lossy incast (no flow control, 256 KiB
// buffers) drops far less with DCQCN.
func TestDCQCNLossyIncast(t *testing.T) {
	_, none := runBuiltin(t, "incast-lossy", "until=5ms")
	m, r := runBuiltin(t, "incast-lossy", "until=5ms", "network.cc=dcqcn")
	kmax := m.net.DCQCN.KMax
	assert.Equal(t, unit.Bytes(204*unit.KiB), kmax, "80 % of the 256 KiB buffer")
	assert.Positive(t, none.Totals.Drops)
	assert.Less(t, r.Totals.Drops*20, none.Totals.Drops, "drops fall more than twentyfold")
	assert.Greater(t, r.Totals.GoodputGbps, 10*none.Totals.GoodputGbps)
	assert.Positive(t, r.Totals.ECNMarks)
	sumCounters(t, r)
	t.Logf("lossy incast, 5 ms: drops %d → %d, goodput %.1f → %.1f Gb/s", none.Totals.Drops, r.Totals.Drops, none.Totals.GoodputGbps, r.Totals.GoodputGbps)
}

// An uncongested flow is never marked or paced: it reaches the ceiling of
// REFERENCE.md golden scenario 3 as without congestion control.
func TestDCQCNIdleFabric(t *testing.T) {
	_, r := runYAML(t, `
name: one-flow
topology: {kind: star, hosts: 2, fabric: roce, link_gbps: 400}
network: {cc: dcqcn}
traffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 16MiB}]}
`)
	require.Len(t, r.Flows, 1)
	assert.InEpsilon(t, 392.1, r.Flows[0].Gbps, 0.01)
	assert.Zero(t, r.Totals.ECNMarks)
	assert.Zero(t, r.Flows[0].CNPs)
	assert.Equal(t, 400.0, r.Flows[0].MinRateGbps)
}

// TestREDMarking checks the marking probability: 0 up to kmin, pmax at kmax
// rising linearly, 1 above.
func TestREDMarking(t *testing.T) {
	m, _ := runYAML(t, twoFlows, "until=1us", "network.ecn.kmin=100KB", "network.ecn.kmax=300KB", "network.ecn.pmax=0.4")
	p := &m.ports[0]
	for _, tc := range []struct {
		queue int64
		want  float64
	}{{0, 0}, {100_000, 0}, {200_000, 0.2}, {300_000, 0.4}, {300_001, 1}, {5_000_000, 1}} {
		p.ecnMarks = 0
		const n = 20000
		for range n {
			m.ctl.(*dcqcn).mark(p, &pkt{}, tc.queue)
		}
		assert.InDelta(t, tc.want, float64(p.ecnMarks)/n, 0.015, "queue %d", tc.queue)
	}
}

// TestMarkAt: the nic profile marks by the queue a packet leaves behind, the
// paper's by the queue it joins.
func TestMarkAt(t *testing.T) {
	for _, tc := range []struct {
		profile        string
		enqueue, leave bool // marked on joining a queue above kmax, on leaving one
	}{{"nic", false, true}, {"paper", true, false}} {
		m, _ := runYAML(t, twoFlows, "until=1us", "network.dcqcn.profile="+tc.profile)
		p := &m.ports[0]
		p.qBytes = 4 * int64(unit.MiB)
		x := &pkt{size: 4178}
		m.ctl.enqueue(p, x)
		assert.Equal(t, tc.enqueue, x.ecn, "%s: enqueue", tc.profile)
		x = &pkt{size: 4178}
		m.ctl.forward(p, x)
		assert.Equal(t, tc.leave, x.ecn, "%s: dequeue", tc.profile)
		// Leaving a queue of kmin plus itself leaves kmin behind: never marked.
		kmin := m.net.DCQCN.KMin
		p.qBytes = int64(kmin) + int64(x.size)
		for range 1000 {
			x = &pkt{size: 4178}
			m.ctl.(*dcqcn).mark(p, x, p.qBytes-int64(x.size))
			require.False(t, x.ecn)
		}
	}
}

// TestRateControlNIC is the unit trace of the nic profile at 400G: one cut
// (α = 1) halves the rate with the target left at line rate; the increase
// timer's events then halve the gap to it — fast recovery (stage 0, F = 1),
// additive (stage 1), hyper (stage 2 on) — 300, 350, 375, … Gb/s, back to
// line rate once within R_AI of it.
func TestRateControlNIC(t *testing.T) {
	m, _ := runYAML(t, twoFlows, "until=1us")
	f := &m.flows[0]
	c := m.ctl.(*dcqcn)
	r := c.flows[0]
	require.True(t, c.nic)
	assert.Equal(t, unit.Rate(80e6), c.rAI, "5 Mb/s per 25 Gb/s at 400G")
	assert.Equal(t, unit.Rate(800e6), c.rHAI, "50 Mb/s per 25 Gb/s at 400G")
	assert.Equal(t, 300*unit.Microsecond, c.timeReset)
	assert.Equal(t, 4*unit.Microsecond, c.reduceEvery)
	assert.Equal(t, unit.Microsecond, c.alphaEvery)
	assert.Equal(t, int32(1), c.threshold)
	assert.Zero(t, c.byteReset, "no byte counter")
	assert.False(t, c.clamp)
	assert.Equal(t, 4*unit.Microsecond, c.cnpInterval)

	c.reduceRate(0, f)
	assert.Equal(t, 200*unit.Gbps, r.rc, "α = 1: the cut halves the rate")
	assert.Equal(t, 400*unit.Gbps, r.rt, "no timer increase since the last cut: the target stays")
	assert.Equal(t, 1.0, r.alpha, "the nic profile moves α only on its own timer")
	want := []float64{300, 350, 375, 387.5, 393.75, 396.875, 398.4375, 399.21875, 399.609375, 399.8046875, 399.90234375}
	for k, w := range want {
		c.increaseRate(f, r, true)
		assert.InDelta(t, w*1e9, float64(r.rc), 1, "increase event %d", k)
		assert.Equal(t, 400*unit.Gbps, r.rt, "the target is capped at line rate")
		assert.True(t, r.limited)
	}
	c.increaseRate(f, r, true)
	assert.Equal(t, 400*unit.Gbps, r.rc, "within R_AI of line rate: at line rate")
	assert.False(t, r.limited, "and unpaced")

	// A clamped cut (the timer raised the rate): the target takes the rate,
	// and the stages then run FR, AI, HAI from it.
	r.rc, r.rt, r.timerStage, r.alpha = 200*unit.Gbps, 400*unit.Gbps, 3, 0.5
	c.reduceRate(0, f)
	assert.Equal(t, 200*unit.Gbps, r.rt, "RT ← RC")
	assert.InDelta(t, 150e9, float64(r.rc), 1, "RC·(1 − α/2)")
	c.increaseRate(f, r, true)
	assert.InDelta(t, 175e9, float64(r.rc), 1, "fast recovery")
	assert.Equal(t, 200*unit.Gbps, r.rt)
	c.increaseRate(f, r, true)
	assert.Equal(t, 200*unit.Gbps+c.rAI, r.rt, "additive increase at stage F")
	c.increaseRate(f, r, true)
	assert.Equal(t, 200*unit.Gbps+c.rAI+c.rHAI, r.rt, "hyper increase after it, by one R_HAI")
	c.increaseRate(f, r, true)
	assert.Equal(t, 200*unit.Gbps+c.rAI+2*c.rHAI, r.rt)

	// min_dec_fac bounds a cut; min_rate floors it.
	c.keep, r.alpha, r.rc = 0.75, 1, 100*unit.Gbps
	c.reduceRate(0, f)
	assert.InDelta(t, 75e9, float64(r.rc), 1, "min_dec_fac 75: a cut keeps 75 %%")
	c.keep, r.rc = 0, 1.5e6
	c.reduceRate(0, f)
	assert.Equal(t, unit.Rate(1e6), r.rc, "min_rate")
}

// TestAlphaTimerNIC: α moves on its own 1 µs timer — up by g for a period
// with a CNP, down by (1 − g) for each without — not at the cut.
func TestAlphaTimerNIC(t *testing.T) {
	m, _ := runYAML(t, twoFlows, "until=1us")
	c := m.ctl.(*dcqcn)
	r := c.flows[0]
	g := c.g
	r.alpha, r.alphaAt, r.alphaCN = 0.5, 10*unit.Microsecond, true
	r.updateAlpha(9*unit.Microsecond, c)
	assert.Equal(t, 0.5, r.alpha, "before the timer's event nothing changes")
	r.updateAlpha(10*unit.Microsecond, c)
	assert.InDelta(t, (1-g)*0.5+g, r.alpha, 1e-15, "a CNP in the period raises α")
	assert.False(t, r.alphaCN)
	a := r.alpha
	r.updateAlpha(13*unit.Microsecond+500*unit.Nanosecond, c)
	assert.InDelta(t, a*(1-g)*(1-g)*(1-g), r.alpha, 1e-15, "three periods without one decay it thrice")
	assert.Equal(t, 14*unit.Microsecond, r.alphaAt, "the next event stays on the 1 µs grid")
}

// TestRateControlPaper steps the paper profile's reaction point through a
// cut, fast recovery, additive and hyper increase.
func TestRateControlPaper(t *testing.T) {
	m, _ := runYAML(t, twoFlows, "until=1us", "network.dcqcn.profile=paper")
	f := &m.flows[0]
	c := m.ctl.(*dcqcn)
	r := c.flows[0]
	require.False(t, c.nic)
	g, F := c.g, c.threshold
	assert.Equal(t, int32(5), F)
	assert.Equal(t, int64(10e6), c.byteReset)
	assert.Equal(t, 50*unit.Microsecond, c.cnpInterval)

	c.cnpArrived(0)
	assert.Equal(t, 400*unit.Gbps, r.rt)
	assert.Equal(t, 200*unit.Gbps, r.rc, "α starts at 1: the first CNP halves the rate")
	assert.Equal(t, 1.0, r.alpha, "(1 − g)·1 + g")
	assert.True(t, r.limited)

	r.alphaAt -= 2 * c.alphaEvery // two α periods without a CNP
	r.timerStage = 1              // the timer raised the rate since the cut: the target follows the rate
	c.cnpArrived(0)
	alpha := 1 * (1 - g) * (1 - g)
	assert.InDelta(t, 200e9*(1-alpha/2), float64(r.rc), 1)
	assert.Equal(t, 200*unit.Gbps, r.rt)
	assert.InDelta(t, (1-g)*alpha+g, r.alpha, 1e-12)

	// Another CNP before any increase: clamped (the paper's default) the
	// target takes the rate; unclamped only the rate drops.
	before, alphaBefore := r.rc, r.alpha
	c.cnpArrived(0)
	assert.Equal(t, before, r.rt, "clamped: RT ← RC")
	r.rc, r.rt, r.alpha = before, 200*unit.Gbps, alphaBefore
	c.clamp = false
	c.cnpArrived(0)
	assert.Equal(t, 200*unit.Gbps, r.rt, "unclamped: the target stays")
	assert.Less(t, r.rc, before)
	r.rc, r.alpha = before, alphaBefore
	c.clamp = true

	rc := r.rc
	for range F {
		c.increaseRate(f, r, true)
		rc = (200*unit.Gbps + rc) / 2
		assert.InDelta(t, float64(rc), float64(r.rc), 1, "fast recovery stage %d", r.timerStage)
		assert.Equal(t, 200*unit.Gbps, r.rt, "fast recovery keeps the target")
	}
	c.increaseRate(f, r, true)
	assert.Equal(t, 200*unit.Gbps+c.rAI, r.rt, "additive increase: one counter past F")
	r.timerStage, r.byteStage = F+2, F+1
	c.increaseRate(f, r, false)
	assert.Equal(t, 200*unit.Gbps+c.rAI+2*c.rHAI, r.rt, "hyper increase: both past F, by 2·R_HAI")

	r.rt, r.rc = 400*unit.Gbps, 399.95*unit.Gbps
	c.increaseRate(f, r, true)
	assert.Equal(t, 400*unit.Gbps, r.rc, "within R_AI of the line rate is the line rate")
	assert.False(t, r.limited, "and unpaced")
	assert.Zero(t, r.nextSend)
}
