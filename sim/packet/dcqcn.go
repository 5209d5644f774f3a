package packet

import (
	"fabriclab/sim/unit"
)

// DCQCN (Zhu et al., SIGCOMM 2015) with the parameters of REFERENCE.md, as in
// the public HPCC ns-3 artifact. Switches mark packets ECN by RED on the
// instantaneous egress queue as they enqueue them; a receiver that gets a
// marked packet sends its sender a CNP, at most one per flow per
// network.cnp_interval; the sender cuts the flow's rate, then raises it again
// by timer and byte counter, and paces the flow's packets at that rate.
const (
	// dcqcnG is the gain of α's moving average.
	dcqcnG = 1.0 / 256
	// dcqcnPeriod is both α's decay timer and the rate-increase timer.
	dcqcnPeriod = 55 * unit.Microsecond
	// dcqcnStages is F: the fast-recovery stages before additive increase.
	dcqcnStages = 5
	// dcqcnByteCounter is B: every B bytes sent is a rate-increase event, as
	// the timer is (10 MB, the DCQCN paper's and the ns-3 artifact's value).
	dcqcnByteCounter = 10 * int64(unit.MB)
	// dcqcnMinRate is the floor of a flow's rate (the ns-3 artifact's minimum).
	dcqcnMinRate = 100e6 * unit.BitPerSecond
	// maxAlphaDecays bounds α's catch-up: (1 − g)^10000 is 1e-17, as good as 0.
	maxAlphaDecays = 10000
)

var _ congestionControl = (*dcqcn)(nil)

// dcqcn holds one run's DCQCN parameters.
type dcqcn struct {
	m           *Model  // the model it controls
	kmin, kmax  int64   // RED thresholds on a switch egress queue, bytes
	pmax        float64 // marking probability at kmax
	cnpInterval unit.Time
	lineRate    unit.Rate // the fabric's link rate: where flows start and the ceiling
	rAI, rHAI   unit.Rate // additive and hyper increase steps
	minRate     unit.Rate
	clamp       bool // the target takes the current rate on every CNP
}

func newDCQCN(m *Model) *dcqcn {
	sc := m.sc
	kmin, kmax, pmax := sc.ECNThresholds()
	_, rate := sc.Wire()
	per25G := float64(rate) / 25e9
	return &dcqcn{
		m:    m,
		kmin: int64(kmin), kmax: int64(kmax), pmax: pmax,
		cnpInterval: sc.Network.CNPInterval,
		lineRate:    rate,
		rAI:         unit.Rate(5e6 * per25G),
		rHAI:        unit.Rate(50e6 * per25G),
		minRate:     min(dcqcnMinRate, rate),
		clamp:       sc.Network.ClampTargetRate,
	}
}

// rateControl is one flow's DCQCN state: the reaction point at its sender
// and the notification point at its receiver.
type rateControl struct {
	rc, rt  unit.Rate // current and target rate
	minRC   unit.Rate // the lowest rc so far, for the report
	alpha   float64   // the congestion estimate; 1 until the first CNP
	alphaAt unit.Time // the last CNP: α has decayed once per period since
	cut     bool      // a CNP has arrived
	limited bool      // rc is below the line rate: the flow is paced and its timer runs

	timerStage, byteStage int32 // rate-increase events since the last CNP
	bytes                 int64 // bytes sent towards the next byte-counter event
	timerAt               unit.Time
	timerArmed            bool // an evCCTimer is pending (it re-arms itself until timerAt)

	pacer

	lastCNP unit.Time // receiver: when it last sent a CNP
	cnps    int64     // receiver: CNPs sent
}

// DCQCN under the congestionControl contract: switches mark as packets
// join a queue, receivers answer with CNPs, senders cut and raise the rate.
func (c *dcqcn) newFlow(f *flow) *pacer {
	f.cc = &rateControl{rc: c.lineRate, rt: c.lineRate, minRC: c.lineRate, alpha: 1}
	return &f.cc.pacer
}
func (c *dcqcn) enqueue(p *port, x *pkt)  { c.m.mark(p, x) }
func (c *dcqcn) forward(*port, *pkt)      {}
func (c *dcqcn) sent(f *flow, wire int32) { c.m.sentDCQCN(f, wire) }
func (c *dcqcn) marked(i int32, f *flow)  { c.m.notify(i, f) }
func (c *dcqcn) notified(i int32)         { c.m.reduceRate(i) }
func (c *dcqcn) timerDue(i int32)         { c.m.rateTimer(i) }

// mark marks x, which joins p's queue, with RED's probability for the queue it finds.
func (m *Model) mark(p *port, x *pkt) {
	c, q := m.cc, p.qBytes
	switch {
	case q <= c.kmin:
		return
	case q <= c.kmax:
		prob := float64(c.pmax * float64(q-c.kmin) / float64(c.kmax-c.kmin)) // float64(…) stops FMA fusion: amd64 and wasm agree
		if m.eng.Rand().Float64() >= prob {
			return
		}
	}
	x.ecn = true
	p.ecnMarks++
	m.stats.ecnMarks++
}

// notify is the receiver's answer to a marked packet of flow i: a CNP unless
// it sent one less than cnp_interval ago.
func (m *Model) notify(i int32, f *flow) {
	r, now := f.cc, m.eng.Now()
	if f.done || r.cnps > 0 && now-r.lastCNP < m.cc.cnpInterval {
		return
	}
	r.lastCNP = now
	r.cnps++
	m.stats.cnps++
	m.eng.At(now+f.ctrlDelay, event{kind: evNotify, a: i})
}

// reduceRate is flow i's sender receiving a CNP.
func (m *Model) reduceRate(i int32) {
	f := &m.flows[i]
	if f.done {
		return
	}
	r, c, now := f.cc, m.cc, m.eng.Now()
	if r.cut {
		r.decayAlpha(now)
	}
	r.cut = true
	// RT ← RC on every CNP, as the paper gives it; with clamp_target_rate off
	// (the HPCC ns-3 artifact's default) only if the rate timer has raised the
	// rate since the last cut, so a burst of CNPs cannot drag the target down
	// with the rate.
	if c.clamp || r.timerStage != 0 {
		r.rt = r.rc
	}
	r.rc = max(unit.Rate(float64(r.rc)*float64(1-r.alpha/2)), c.minRate)
	r.alpha = float64((1-dcqcnG)*r.alpha) + dcqcnG // float64(…) stops FMA fusion: amd64 and wasm agree
	r.alphaAt = now
	r.minRC = min(r.minRC, r.rc)
	r.timerStage, r.byteStage, r.bytes = 0, 0, 0
	r.limited = true
	r.timerAt = now + dcqcnPeriod // the pending timer, if any, re-arms itself for this
	if !r.timerArmed {
		r.timerArmed = true
		m.eng.At(r.timerAt, event{kind: evCCTimer, a: i})
	}
	m.repace(f)
}

// decayAlpha applies the α timer's decays since the last CNP: one per period
// without a CNP, as a timer restarted by every CNP would.
func (r *rateControl) decayAlpha(now unit.Time) {
	k := (now - r.alphaAt) / dcqcnPeriod
	if k > maxAlphaDecays {
		r.alpha = 0
		return
	}
	for ; k > 0; k-- {
		r.alpha *= 1 - dcqcnG
	}
}

// rateTimer is flow i's rate-increase timer.
func (m *Model) rateTimer(i int32) {
	f := &m.flows[i]
	r, now := f.cc, m.eng.Now()
	r.timerArmed = false
	if f.done || !r.limited {
		return
	}
	if now < r.timerAt {
		r.timerArmed = true // a CNP restarted the timer
		m.eng.At(r.timerAt, event{kind: evCCTimer, a: i})
		return
	}
	r.timerStage++
	m.increaseRate(f)
	if r.limited {
		r.timerAt = now + dcqcnPeriod
		r.timerArmed = true
		m.eng.At(r.timerAt, event{kind: evCCTimer, a: i})
	}
}

// increaseRate is one rate-increase event (timer or byte counter): fast
// recovery towards the target while both counters are at most F, additive
// increase of the target once one passes F, hyper increase by i·R_HAI once
// both do (i: how far the smaller one is past F). A flow that comes within
// R_AI of the line rate is back at line rate, unpaced.
func (m *Model) increaseRate(f *flow) {
	r, c := f.cc, m.cc
	t, b := r.timerStage, r.byteStage
	switch {
	case max(t, b) <= dcqcnStages:
	case min(t, b) > dcqcnStages:
		r.rt += unit.Rate(float64(min(t, b)-dcqcnStages) * float64(c.rHAI)) // unit.Rate(…) stops FMA fusion: amd64 and wasm agree
	default:
		r.rt += c.rAI
	}
	r.rt = min(r.rt, c.lineRate)
	r.rc = (r.rt + r.rc) / 2
	if r.rc >= c.lineRate-c.rAI {
		r.rc, r.rt = c.lineRate, c.lineRate
		r.limited = false
	}
	m.repace(f)
}

// repace recomputes when f may send next after its rate changed, and brings
// its port's wake-up forward if that is now earlier.
func (m *Model) repace(f *flow) {
	r := f.cc
	r.nextSend = 0
	if r.limited && r.lastWire > 0 {
		r.nextSend = r.lastSend + r.rc.TxTime(unit.Bytes(r.lastWire))
	}
	if p := &m.ports[f.port]; f.onPort && p.paceArmed && r.nextSend < p.paceAt {
		m.paceWake(p, r.nextSend)
	}
}

// sentDCQCN paces f after a packet of wire bytes and counts them towards the byte counter.
func (m *Model) sentDCQCN(f *flow, wire int32) {
	r := f.cc
	r.lastSend, r.lastWire = m.eng.Now(), wire
	if !r.limited {
		return
	}
	r.nextSend = r.lastSend + r.rc.TxTime(unit.Bytes(wire))
	r.bytes += int64(wire)
	if r.bytes >= dcqcnByteCounter {
		r.bytes -= dcqcnByteCounter
		r.byteStage++
		m.increaseRate(f)
	}
}
