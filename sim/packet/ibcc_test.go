package packet

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// sumIBCounters checks that the per-link and per-flow counters add up to the
// totals, and that every FECN got its BECN (becn_interval 0).
func sumIBCounters(t *testing.T, r *metrics.Result) {
	t.Helper()
	var marks, becns int64
	for _, l := range r.Links {
		marks += l.FECNMarks
		assert.Zero(t, l.ECNMarks, "%s: ibcc does not mark ECN", l.Name)
	}
	for _, f := range r.Flows {
		becns += f.BECNs
		assert.Zero(t, f.CNPs)
	}
	assert.Equal(t, r.Totals.FECNMarks, marks, "every FECN is counted on its link")
	assert.Equal(t, r.Totals.BECNs, becns, "every BECN is counted on its flow")
	assert.Zero(t, r.Totals.ECNMarks)
	assert.Zero(t, r.Totals.CNPs)
}

// queuePeak is the deepest sample of link name's queue from from µs up to to µs.
func queuePeak(t *testing.T, r *metrics.Result, name string, from, to float64) int64 {
	t.Helper()
	s := r.Series
	for _, q := range s.Queues {
		if q.Name != name {
			continue
		}
		var peak int64
		for i, b := range q.Bytes {
			if s.TimeUs[i] >= from && s.TimeUs[i] < to {
				peak = max(peak, b)
			}
		}
		return peak
	}
	t.Fatalf("no queue series for %q", name)
	return 0
}

// The 8 → 1 incast on 400G NDR with credits. Credits alone lose nothing but
// let the receiver's port queue grow to every sender's buffer of credit (8 ×
// 2 MiB) and stay there. With ibcc the switch marks FECN above 512 KiB, the
// senders back off and, after the first burst, the queue stays close to the
// threshold; the flows share the receiver fairly.
func TestIBCCIncast(t *testing.T) {
	sets := []string{"sim.sample_interval=2us"}
	_, credit := runBuiltin(t, "incast-ibcc", append(sets, "network.cc=none")...)
	m, r := runBuiltin(t, "incast-ibcc", sets...)
	threshold := m.net.IBCC.Threshold
	require.Equal(t, 512*unit.KiB, threshold, "a quarter of the 2 MiB buffer")

	for _, res := range []*metrics.Result{credit, r} {
		assert.Zero(t, res.Totals.Drops, "credits lose nothing")
		assert.Zero(t, res.Totals.Retransmits)
		assert.Equal(t, 8, res.Totals.FlowsFinished)
	}
	assert.Zero(t, credit.Totals.FECNMarks, "no marks without congestion control")
	assert.Zero(t, credit.Totals.BECNs)
	assert.Nil(t, credit.Series.FlowRateGbps)

	assert.Positive(t, r.Totals.FECNMarks)
	assert.Equal(t, r.Totals.FECNMarks, r.Totals.BECNs, "a BECN for every FECN")
	sumIBCounters(t, r)
	assert.Equal(t, r.Totals.FECNMarks, linkOf(t, r, "switch→host8").FECNMarks, "only the receiver's port marks")
	assert.Zero(t, linkOf(t, r, "host0→switch").FECNMarks, "hosts do not mark")

	firstFinish := math.Inf(1)
	for _, f := range credit.Flows {
		firstFinish = min(firstFinish, f.FinishUs)
	}
	creditPeak := queuePeak(t, credit, "switch→host8", 1000, firstFinish)
	ibPeak := queuePeak(t, r, "switch→host8", 1000, firstFinish)
	assert.Greater(t, creditPeak, int64(15*unit.MiB), "credits alone: the queue holds nearly all 8 senders' credit")
	assert.Less(t, ibPeak, int64(threshold)*3/2, "ibcc: after the first burst the queue stays near the threshold")
	assert.Less(t, ibPeak*10, creditPeak)

	var mean float64
	for _, f := range r.Flows {
		mean += f.Gbps / 8
	}
	s := r.Series
	require.Len(t, s.FlowRateGbps, 8)
	for i, f := range r.Flows {
		assert.InEpsilon(t, mean, f.Gbps, 0.15, "flow %d: goodput within ±15 %% of the mean", i)
		assert.Positive(t, f.BECNs, "flow %d", i)
		assert.Positive(t, f.MaxCCTI, "flow %d", i)
		assert.LessOrEqual(t, f.MaxCCTI, 127, "flow %d: ccti_limit", i)
		assert.InDelta(t, 400/(1+float64(f.MaxCCTI)/8), f.MinRateGbps, 0.001, "flow %d: the rate of its highest CCTI", i)
		require.Len(t, s.FlowRateGbps[i], len(s.TimeUs))
		assert.Equal(t, 400.0, s.FlowRateGbps[i][0], "flows start at line rate")
		assert.Zero(t, s.FlowRateGbps[i][len(s.TimeUs)-1], "and report 0 once finished")
	}
	t.Logf("peak queue after 1 ms: credit %d B, credit+ibcc %d B (threshold %d B); fecn %d, becns %d; goodput %.1f → %.1f Gb/s; max fct %.0f → %.0f µs; flow goodput mean %.1f Gb/s",
		creditPeak, ibPeak, threshold, r.Totals.FECNMarks, r.Totals.BECNs, credit.Totals.GoodputGbps, r.Totals.GoodputGbps,
		credit.Totals.MaxFctUs, r.Totals.MaxFctUs, mean)
}

// victimYAML: on two leaves joined by two spines (four uplinks per leaf,
// adaptive routing), seven hosts — three on leaf 0, four on leaf 1 — send to
// leaf1.host0. At 500 µs leaf0.host1 starts an unrelated flow to leaf1.host1,
// whose port is idle; it crosses the same uplinks and spine ports as the
// three remote hot flows.
const victimYAML = `
name: victim
topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 8, spines: 2, oversubscription: 2, fabric: ib, link_gbps: 400}
network: {flow_control: credit, routing: adaptive, cc: ibcc}
traffic:
  pattern: flows
  bytes: 64MiB
  flows:
    - {src: 0, dst: 8}
    - {src: 2, dst: 8}
    - {src: 3, dst: 8}
    - {src: 10, dst: 8}
    - {src: 11, dst: 8}
    - {src: 12, dst: 8}
    - {src: 13, dst: 8}
    - {src: 1, dst: 9, bytes: 8MiB, start: 500us}
until: 2ms
`

// Under credits alone the hot spot's backlog fills leaf 1's buffers, then the
// spines', then leaf 0's uplinks (a congestion tree), and the victim's packets
// wait behind hot ones at every hop: head-of-line blocking. With ibcc the hot
// senders are slowed at the source, the tree never forms, and the victim runs
// near line rate; the spine ports it crosses are never the root of congestion,
// so it is never marked.
func TestIBCCVictimFlow(t *testing.T) {
	victimGbps := func(r *metrics.Result) float64 {
		f := r.Flows[7]
		end := f.FinishUs
		if !f.Finished {
			end = r.Totals.SimTimeUs
		}
		return float64(f.Delivered) * 8 / ((end - f.StartUs) * 1e3)
	}
	_, credit := runYAML(t, victimYAML, "network.cc=none")
	_, r := runYAML(t, victimYAML)
	for _, res := range []*metrics.Result{credit, r} {
		assert.Zero(t, res.Totals.Drops)
		require.Len(t, res.Flows, 8)
	}
	before, after := victimGbps(credit), victimGbps(r)
	assert.Less(t, before, 100.0, "credits alone: the victim is blocked behind the hot spot")
	assert.Greater(t, after, 350.0, "ibcc: the victim runs near line rate")
	assert.True(t, r.Flows[7].Finished)
	assert.Zero(t, r.Flows[7].BECNs, "the victim is never marked")
	assert.Equal(t, 400.0, r.Flows[7].MinRateGbps)
	sumIBCounters(t, r)

	for _, name := range []string{"spine0→leaf1", "leaf0→spine0"} {
		assert.Greater(t, linkOf(t, credit, name).MaxQueueBytes, int64(unit.MiB), "credits alone: %s is part of the congestion tree", name)
		assert.Less(t, linkOf(t, r, name).MaxQueueBytes, int64(64*unit.KiB), "ibcc: %s stays short", name)
		assert.Zero(t, linkOf(t, r, name).FECNMarks, "%s is not a root of congestion", name)
	}
	assert.Equal(t, r.Totals.FECNMarks, linkOf(t, r, "leaf1→leaf1.host0").FECNMarks, "only the hot spot marks")
	t.Logf("victim: credit %.1f Gb/s, credit+ibcc %.1f Gb/s; spine0→leaf1 peak queue %d → %d B",
		before, after, linkOf(t, credit, "spine0→leaf1").MaxQueueBytes, linkOf(t, r, "spine0→leaf1").MaxQueueBytes)
}

// The same seed gives the same run, byte for byte.
func TestIBCCDeterministic(t *testing.T) {
	encode := func(sets ...string) string {
		_, r := runBuiltin(t, "incast-ibcc", append([]string{"until=1ms"}, sets...)...)
		out, err := json.Marshal(r)
		require.NoError(t, err)
		return string(out)
	}
	first := encode()
	assert.Contains(t, first, `"fecn_marks":`)
	assert.Contains(t, first, `"becns":`)
	assert.Contains(t, first, `"max_ccti":`)
	assert.Equal(t, first, encode())
	assert.NotEqual(t, first, encode("seed=2"), "the NIC jitter draws from the seed")
}

// Without ibcc none of its keys appear in the JSON.
func TestIBCCKeysAbsentWithoutIt(t *testing.T) {
	for _, sets := range [][]string{{"until=200us"}, {"until=200us", "network.cc=dcqcn"}} {
		_, r := runBuiltin(t, "incast", sets...)
		out, err := json.Marshal(r)
		require.NoError(t, err)
		for _, key := range []string{"fecn_marks", "becns", "max_ccti"} {
			assert.NotContains(t, string(out), key, "%v", sets)
		}
	}
}

// An uncongested flow is never marked or slowed: it reaches NDR's 397.5 Gb/s
// ceiling as without congestion control.
func TestIBCCIdleFabric(t *testing.T) {
	_, r := runYAML(t, `
name: one-flow
topology: {kind: star, hosts: 2, fabric: ib, link_gbps: 400}
network: {cc: ibcc}
traffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 16MiB}]}
`)
	require.Len(t, r.Flows, 1)
	assert.InEpsilon(t, 397.5, r.Flows[0].Gbps, 0.01)
	assert.Zero(t, r.Totals.FECNMarks)
	assert.Zero(t, r.Flows[0].BECNs)
	assert.Zero(t, r.Flows[0].MaxCCTI)
	assert.Equal(t, 400.0, r.Flows[0].MinRateGbps)
}

const twoIBFlows = `
name: two-ib-flows
topology: {kind: star, hosts: 3, fabric: ib, link_gbps: 400}
network: {cc: ibcc}
traffic: {pattern: flows, flows: [{src: 0, dst: 2, bytes: 1MiB}, {src: 1, dst: 2, bytes: 1MiB}]}
until: 1us
`

// TestFECNMarking checks which packets a port marks: none at or below the
// threshold, one in marking_rate above it, none on a port out of credit for
// its next packet (a victim), any on a port to an endpoint, none on a host's
// port.
func TestFECNMarking(t *testing.T) {
	m, _ := runYAML(t, twoIBFlows, "network.ibcc.threshold=100KB", "network.ibcc.marking_rate=4")
	c := m.ctl.(*ibcc)
	full := int64(m.mtu + m.fabricHdr)
	var sw *port // switch → host2
	for i, l := range m.topo.Links {
		if l.To == m.topo.Endpoints[2] {
			sw = &m.ports[i]
		}
	}
	require.NotNil(t, sw)
	host := &m.ports[m.topo.Nodes[m.topo.Endpoints[0]].Out[0]]
	require.True(t, sw.toEnd)
	require.True(t, c.ports[sw.id].marks)
	require.False(t, c.ports[host.id].marks)

	forward := func(p *port, queue, credit int64, n int) (marked int) {
		p.qBytes, p.credit = queue, credit
		for range n {
			x := &pkt{size: int32(full)}
			c.forwardFECN(p, x)
			if x.ecn {
				marked++
			}
		}
		return marked
	}
	assert.Zero(t, forward(sw, 100_000, 0, 40), "at the threshold")
	assert.Equal(t, 10, forward(sw, 100_001, 0, 40), "above it: 1 in 4")
	assert.Equal(t, int64(10), c.ports[sw.id].fecn)
	assert.Equal(t, int64(10), c.fecnMarks)
	assert.Zero(t, forward(host, 1<<30, 1<<30, 40), "hosts never mark")

	// The same port feeding a switch under credits: a root while it has credit
	// for the next packet, a victim once it has not.
	sw.toEnd = false
	c.ports[sw.id].eligible = 0
	assert.Equal(t, 10, forward(sw, 1<<20, 2*full, 40), "credit for one more packet: a root")
	assert.Zero(t, forward(sw, 1<<20, 2*full-1, 40), "not enough for the next: a victim")
}

// TestCCTI steps one flow's source through BECNs, the limit and the timer.
func TestCCTI(t *testing.T) {
	m, _ := runYAML(t, twoIBFlows, "network.ibcc.ccti_increase=3", "network.ibcc.ccti_limit=10", "network.ibcc.timer=5us")
	c := m.ctl.(*ibcc)
	f := &m.flows[0]
	s := c.flows[0]
	require.Len(t, c.cct, 11, "entries 0 to ccti_limit")
	assert.Equal(t, 1.0, c.cct[8], "CCT[8] is one packet time: half the rate")
	assert.Equal(t, 200*unit.Gbps, (&cctState{ccti: 8}).rate(400*unit.Gbps, c))
	assert.Zero(t, s.ccti)

	now := m.eng.Now()
	c.raiseCCTI(0)
	assert.Equal(t, int32(3), s.ccti)
	assert.Equal(t, now+5*unit.Microsecond, s.tick, "the timer starts when CCTI leaves ccti_min")
	c.raiseCCTI(0)
	c.raiseCCTI(0)
	c.raiseCCTI(0)
	assert.Equal(t, int32(10), s.ccti, "capped at ccti_limit")
	assert.Equal(t, int32(10), s.maxCCTI)

	s.decay(now+5*unit.Microsecond-1, c)
	assert.Equal(t, int32(10), s.ccti, "not yet")
	s.decay(now+5*unit.Microsecond, c)
	assert.Equal(t, int32(9), s.ccti, "one period: −1")
	s.decay(now+22*unit.Microsecond, c)
	assert.Equal(t, int32(6), s.ccti, "four periods in all (5, 10, 15, 20 µs)")
	s.decay(now+micros(1000), c)
	assert.Zero(t, s.ccti, "never below ccti_min")
	assert.Equal(t, int32(10), s.maxCCTI)

	// Pacing: after a packet, the flow waits its serialisation plus CCT[CCTI] times it.
	s.ccti = 8
	s.tick = unit.Never
	c.sentBytes(f, s, 4122)
	tx := (400 * unit.Gbps).TxTime(4122)
	assert.Equal(t, now+2*tx, s.nextSend)
	c.raiseCCTI(0)
	assert.Equal(t, now+tx+unit.Time(float64(tx)*c.cct[10]), s.nextSend, "a BECN pushes the next packet back")
	s.ccti = 0
	c.sentBytes(f, s, 4122)
	assert.Zero(t, s.nextSend, "CCTI 0 is unpaced")
}

// micros is n microseconds.
func micros(n int64) unit.Time { return unit.Time(n) * unit.Microsecond }

// TestBECNInterval: with becn_interval a receiver sends at most one BECN per
// flow per interval.
func TestBECNInterval(t *testing.T) {
	m, _ := runYAML(t, twoIBFlows, "network.ibcc.becn_interval=4us")
	f, c := &m.flows[0], m.ctl.(*ibcc)
	s := c.flows[0]
	for range 5 {
		c.becn(0, f)
	}
	assert.Equal(t, int64(1), s.becns)
	s.lastBECN -= 4*unit.Microsecond - 1
	c.becn(0, f)
	assert.Equal(t, int64(1), s.becns, "1 ps short of the interval")
	s.lastBECN--
	c.becn(0, f)
	assert.Equal(t, int64(2), s.becns)
	assert.Equal(t, int64(2), c.becns)

	_, all := runBuiltin(t, "incast-ibcc", "until=1ms")
	_, few := runBuiltin(t, "incast-ibcc", "until=1ms", "network.ibcc.becn_interval=10us")
	assert.Equal(t, all.Totals.FECNMarks, all.Totals.BECNs)
	assert.Less(t, few.Totals.BECNs*2, few.Totals.FECNMarks, "fewer BECNs than marks")
	sumIBCounters(t, all)
}
