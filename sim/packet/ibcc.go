package packet

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// InfiniBand congestion control (cc: ibcc), after the IBA congestion control
// annex (A10), simplified:
//
//   - A switch egress port on a fabric link whose queue (the packet leaving
//     included) is above network.ibcc.threshold sets the FECN bit on the
//     packets it forwards — one in marking_rate of them, deterministically.
//     Only a root of congestion marks: a port that is out of credit for its
//     next packet is a victim of congestion further on (IBA's Victim_Mask
//     off) and leaves its packets unmarked.
//   - The destination answers each FECN with a BECN to the source, out of
//     band after the flow's control delay; with becn_interval at most one per
//     flow per interval.
//   - The source keeps a CCTI per flow, starting at ccti_min: each BECN adds
//     ccti_increase (up to ccti_limit); a timer takes 1 off every period
//     while it is above ccti_min. The timer is the flow's own, started when
//     its CCTI leaves ccti_min, and evaluated lazily (no events).
//   - After each packet the flow waits CCT[CCTI] on top of the packet's
//     serialisation. The table is a linear ramp, CCT[i] = i · cct_step packet
//     times (the flow's own last packet at its first link's rate), so the
//     flow's rate is line / (1 + i · cct_step); the real annex's table holds
//     arbitrary shift/multiplier entries that a subnet manager loads. A
//     CCTI that drops while the flow waits applies from the next packet on.
type ibcc struct {
	m            *Model // the model it controls
	threshold    int64
	markingRate  int64
	becnInterval unit.Time
	timer        unit.Time
	increase     int32
	limit, min   int32
	cct          []float64 // CCT[i]: delay after a packet, in its serialisation times
	ports        []ibPort  // per port

	flows            []*cctState // by flow
	fecnMarks, becns int64
}

// ibPort is one egress port's FECN marking.
type ibPort struct {
	marks    bool  // a switch port of the fabric
	eligible int64 // packets forwarded above the threshold, for marking_rate
	fecn     int64 // packets marked
}

// cctState is one flow's congestion control: the CCTI at its source and the
// BECN pacing at its receiver.
type cctState struct {
	pacer
	ccti    int32
	maxCCTI int32
	tick    unit.Time // when the timer next takes 1 off, while ccti > min

	lastBECN unit.Time // receiver: when it last sent a BECN
	becns    int64     // receiver: BECNs sent
}

func newIBCC(m *Model) *ibcc {
	b := m.net.IBCC
	c := &ibcc{
		m:            m,
		threshold:    int64(b.Threshold),
		markingRate:  int64(b.MarkingRate),
		becnInterval: b.BECNInterval,
		timer:        b.Timer,
		increase:     int32(b.CCTIIncrease),
		limit:        int32(b.CCTILimit),
		min:          int32(b.CCTIMin),
		cct:          make([]float64, b.CCTILimit+1),
		ports:        make([]ibPort, len(m.topo.Links)),
	}
	for i := range c.cct {
		c.cct[i] = float64(i) * b.CCTStep
	}
	for i, l := range m.topo.Links {
		c.ports[i].marks = m.isSwitch[l.From] && l.Kind == m.fabric
	}
	return c
}

var _ congestionControl = (*ibcc)(nil)

// InfiniBand CC under the congestionControl contract: congested root ports
// mark FECN as packets leave, receivers answer with BECNs, sources raise
// their CCTI and wait CCT[CCTI] after each packet.
func (c *ibcc) newFlow(int32) *pacer {
	s := &cctState{ccti: c.min, maxCCTI: c.min}
	c.flows = append(c.flows, s)
	return &s.pacer
}
func (c *ibcc) enqueue(*port, *pkt)               {}
func (c *ibcc) forward(p *port, x *pkt)           { c.forwardFECN(p, x) }
func (c *ibcc) sent(i int32, f *flow, wire int32) { c.sentBytes(f, c.flows[i], wire) }
func (c *ibcc) marked(i int32, f *flow)           { c.becn(i, f) }
func (c *ibcc) notified(i int32)                  { c.raiseCCTI(i) }
func (c *ibcc) timerDue(int32)                    { panic("packet: ibcc schedules no timer") }

// What InfiniBand CC reports: FECN marks, BECNs, and each flow's CCTI and rate.
func (c *ibcc) counts() ccCounts { return ccCounts{fecnMarks: c.fecnMarks, becns: c.becns} }
func (c *ibcc) counterSeries(out *metrics.CounterSeries, samples []counterSample) {
	for _, v := range samples {
		out.FECNMarks = append(out.FECNMarks, v.cc.fecnMarks)
		out.BECNs = append(out.BECNs, v.cc.becns)
	}
}
func (c *ibcc) reportFlow(i int32, f *flow, r *metrics.Flow) {
	s := c.flows[i]
	r.BECNs, r.MaxCCTI = s.becns, int(s.maxCCTI)
	r.MinRateGbps = metrics.Round((&cctState{ccti: s.maxCCTI}).rate(c.m.ports[f.port].rate, c).Gbps(), 3)
}
func (c *ibcc) linkMarks(i int) (ecn, fecn int64) { return 0, c.ports[i].fecn }
func (c *ibcc) marking(s *snap.Marking)           { s.FECN = c.threshold }
func (c *ibcc) notice(i int32) (string, unit.Time, bool) {
	return "becn", c.flows[i].lastBECN, c.flows[i].becns > 0
}

// rate is flow i's injection rate now.
func (c *ibcc) rate(i int32, f *flow) unit.Rate {
	s := c.flows[i]
	s.decay(c.m.eng.Now(), c)
	return s.rate(c.m.ports[f.port].rate, c)
}

// decay applies the timer's decrements due by now.
func (s *cctState) decay(now unit.Time, c *ibcc) {
	if s.ccti <= c.min || now < s.tick {
		return
	}
	k := (now-s.tick)/c.timer + 1
	if k >= unit.Time(s.ccti-c.min) {
		s.ccti = c.min
		return
	}
	s.ccti -= int32(k)
	s.tick += k * c.timer
}

// rate is the flow's injection rate at line rate line for its current CCTI.
func (s *cctState) rate(line unit.Rate, c *ibcc) unit.Rate {
	return unit.Rate(float64(line) / (1 + c.cct[s.ccti]))
}

// forwardFECN is port p forwarding x from its queue: it marks x if p is a
// congested root port and x is due for a mark.
func (c *ibcc) forwardFECN(p *port, x *pkt) {
	m := c.m
	ip := &c.ports[p.id]
	if !ip.marks || p.qBytes <= c.threshold {
		return
	}
	if p.fc == fcCredit && !p.toEnd && p.credit-int64(x.size) < int64(m.mtu+m.fabricHdr) {
		return // out of credit for the next packet: a victim, not a root
	}
	ip.eligible++
	if (ip.eligible-1)%c.markingRate != 0 {
		return
	}
	x.ecn = true
	ip.fecn++
	c.fecnMarks++
}

// becn is flow i's receiver answering a FECN: a BECN back to the source,
// unless it sent one less than becn_interval ago.
func (c *ibcc) becn(i int32, f *flow) {
	s, now := c.flows[i], c.m.eng.Now()
	if f.done || c.becnInterval > 0 && s.becns > 0 && now-s.lastBECN < c.becnInterval {
		return
	}
	s.lastBECN = now
	s.becns++
	c.becns++
	c.m.at(now+f.ctrlDelay, evNotify, 0, i, 0)
}

// raiseCCTI is flow i's source receiving a BECN.
func (c *ibcc) raiseCCTI(i int32) {
	f := &c.m.flows[i]
	if f.done {
		return
	}
	s, now := c.flows[i], c.m.eng.Now()
	s.decay(now, c)
	if s.ccti <= c.min {
		s.tick = now + c.timer // the timer starts
	}
	s.ccti = min(s.ccti+c.increase, c.limit)
	s.maxCCTI = max(s.maxCCTI, s.ccti)
	if s.lastWire > 0 {
		s.nextSend = s.lastSend + c.injectionDelay(f, s, s.lastWire)
	}
}

// injectionDelay is how long after starting a packet of wire bytes flow f
// (state s) may start the next: its serialisation plus CCT[CCTI] times it.
func (c *ibcc) injectionDelay(f *flow, s *cctState, wire int32) unit.Time {
	tx := c.m.ports[f.port].rate.TxTime(unit.Bytes(wire))
	return tx + unit.Time(float64(tx)*c.cct[s.ccti])
}

// sentBytes paces f (state s) after a packet of wire bytes.
func (c *ibcc) sentBytes(f *flow, s *cctState, wire int32) {
	now := c.m.eng.Now()
	s.lastSend, s.lastWire = now, wire
	s.decay(now, c)
	s.nextSend = 0
	if c.cct[s.ccti] > 0 {
		s.nextSend = now + c.injectionDelay(f, s, wire)
	}
}
