package packet

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// fixedRate is a third congestion control written against the contract
// alone, in this one file: it paces every flow at a fixed rate, marks the
// packets that leave a switch queue deeper than mark bytes, and counts the
// marks each receiver sees (it notifies no sender).
type fixedRate struct {
	m     *Model
	fixed unit.Rate
	mark  int64
	flows []*fixedFlow
	marks []int64 // by port
	total int64
	seen  int64
}

type fixedFlow struct {
	pacer
	seen     int64
	lastSeen unit.Time
}

var _ congestionControl = (*fixedRate)(nil)

func (c *fixedRate) newFlow(int32) *pacer {
	s := &fixedFlow{}
	c.flows = append(c.flows, s)
	return &s.pacer
}
func (c *fixedRate) enqueue(*port, *pkt) {}
func (c *fixedRate) forward(p *port, x *pkt) {
	if p.qBytes > c.mark {
		x.ecn = true
		c.marks[p.id]++
		c.total++
	}
}
func (c *fixedRate) sent(i int32, _ *flow, wire int32) {
	s := c.flows[i]
	s.lastSend, s.lastWire = c.m.eng.Now(), wire
	s.nextSend = s.lastSend + c.fixed.TxTime(unit.Bytes(wire))
}
func (c *fixedRate) marked(i int32, _ *flow) {
	c.flows[i].seen++
	c.flows[i].lastSeen = c.m.eng.Now()
	c.seen++
}
func (c *fixedRate) notified(int32) { panic("fixedRate notifies no sender") }
func (c *fixedRate) timerDue(int32) { panic("fixedRate schedules no timer") }

func (c *fixedRate) counts() ccCounts { return ccCounts{ecnMarks: c.total, cnps: c.seen} }
func (c *fixedRate) counterSeries(out *metrics.CounterSeries, samples []counterSample) {
	for _, v := range samples {
		out.CNPs = append(out.CNPs, v.cc.cnps)
	}
}
func (c *fixedRate) reportFlow(i int32, _ *flow, r *metrics.Flow) {
	r.CNPs, r.MinRateGbps = c.flows[i].seen, c.fixed.Gbps()
}
func (c *fixedRate) linkMarks(i int) (ecn, fecn int64) { return c.marks[i], 0 }
func (c *fixedRate) marking(s *snap.Marking)           { s.ECNKmin, s.ECNKmax = c.mark, c.mark }
func (c *fixedRate) rate(int32, *flow) unit.Rate       { return c.fixed }
func (c *fixedRate) notice(i int32) (string, unit.Time, bool) {
	return "cnp", c.flows[i].lastSeen, c.flows[i].seen > 0
}

// TestThirdAlgorithm: the report and the snapshot show what a congestion
// control answers, whichever it is — here one the model has never heard of.
func TestThirdAlgorithm(t *testing.T) {
	sc, err := scenario.ParseWith([]byte(`
name: fixed-rate
topology: {kind: star, hosts: 3, fabric: roce, link_gbps: 400}
network: {flow_control: pfc, cc: dcqcn}
traffic: {pattern: flows, flows: [{src: 0, dst: 2, bytes: 16MiB}, {src: 1, dst: 2, bytes: 16MiB}]}
sim: {sample_interval: 50us}
`), t.Name(), nil)
	require.NoError(t, err)
	b := NewBuild(resolve(t, &sc)) // cc: dcqcn only to have the fabric's switch ports watched
	m := b.m
	c := &fixedRate{m: m, fixed: 300 * unit.Gbps, mark: 100_000, marks: make([]int64, len(m.ports))}
	m.ctl = c
	for !b.Step(math.MaxInt) {
	}

	require.True(t, m.Advance(200*unit.Microsecond))
	s := m.Snapshot()
	assert.Equal(t, snap.Marking{ECNKmin: 100_000, ECNKmax: 100_000}, s.Marking)
	require.Len(t, s.Flows, 2)
	for i, f := range s.Flows {
		assert.Equal(t, 300.0, f.RateGbps, "flow %d under way", i)
	}
	require.Positive(t, c.total, "two flows at 300 Gb/s into one 400 Gb/s port queue")
	var marks int64
	for i, l := range s.Links {
		assert.Equal(t, c.marks[i], l.ECNMarks, "link %d", i)
		marks += l.ECNMarks
	}
	assert.Equal(t, c.total, marks)
	kinds := map[string]int{}
	for _, ctl := range s.Controls {
		kinds[ctl.Kind]++
	}
	assert.Equal(t, map[string]int{"cnp": 2}, kinds, "each flow's receiver has just seen a mark (control delay > 50 ns)")

	m.Run()
	r := m.Result()
	assert.Equal(t, c.total, r.Totals.ECNMarks)
	assert.Equal(t, c.seen, r.Totals.CNPs)
	assert.Equal(t, c.total, c.seen, "every marked packet reached its receiver")
	assert.Zero(t, r.Totals.FECNMarks)
	require.Len(t, r.Flows, 2)
	for i, f := range r.Flows {
		assert.Equal(t, c.flows[i].seen, f.CNPs, "flow %d", i)
		assert.Equal(t, 300.0, f.MinRateGbps, "flow %d", i)
	}
	var linkMarks int64
	for _, l := range r.Links {
		assert.Equal(t, c.marks[l.ID], l.ECNMarks, "link %d", l.ID)
		linkMarks += l.ECNMarks
	}
	assert.Equal(t, c.total, linkMarks)

	cs := r.Series.Counters
	require.NotNil(t, cs)
	require.NotEmpty(t, cs.CNPs)
	assert.Len(t, cs.CNPs, len(r.Series.TimeUs))
	assert.Equal(t, c.seen, cs.CNPs[len(cs.CNPs)-1])
	assert.Equal(t, c.total, cs.ECNMarks[len(cs.ECNMarks)-1])
	assert.Nil(t, cs.BECNs)
	require.Len(t, r.Series.FlowRateGbps, 2)
	assert.Contains(t, r.Series.FlowRateGbps[0], 300.0, "the rate while the flow is under way")
}
