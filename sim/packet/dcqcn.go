package packet

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// DCQCN: switches mark packets ECN by RED on the instantaneous egress queue;
// a receiver that gets a marked packet sends its sender a CNP, at most one
// per flow per network.cnp_interval (NVIDIA's min_time_between_cnps); the
// sender cuts the flow's rate, raises it again by its increase events, and
// paces the flow's packets at that rate. network.dcqcn picks the rules:
//
// Profile nic (the default) follows the HPCC ns-3 artifact's model of
// ConnectX NICs (alibaba-edu/High-Precision-Congestion-Control,
// simulation/src/point-to-point/model/rdma-hw.cc, "Mellanox's version of
// DCQCN", lines 615–738) and NVIDIA's documented firmware parameters:
//
//   - the first CNP of a flow sets α to initial_alpha and starts α's timer and
//     the rate-decrease timer; it changes no rate by itself (cnp_received_mlx,
//     rdma-hw.cc:638–653, RateOnFirstCnp 1.0 at :62–66);
//   - α's timer (alpha_update_period, dce_tcp_rtt) runs on its own: every
//     period α ← (1 − g)·α + g if a CNP came in it, else α ← (1 − g)·α
//     (UpdateAlphaMlx, :618–633);
//   - every rate_reduce_period (rate_reduce_monitor_period), if a CNP came in
//     it, the sender cuts: RT ← RC if clamp_target_rate or the timer has raised
//     the rate since the last cut, RC ← max(RC·(1 − α/2), min_rate), and the
//     increase timer restarts (CheckRateDecreaseMlx, :655–677; ClampTargetRate
//     false at :67–71);
//   - every time_reset after a cut is an increase event with stage s (events
//     since the cut): s < F fast recovery RC ← (RC + RT)/2; s = F additive
//     increase RT += R_AI; s > F hyper increase RT += R_HAI, then RC ← (RC +
//     RT)/2, RT at most the line rate (RateIncEventTimerMlx and what it calls,
//     :683–738). With F = 1 hyper increase starts at the third event. There
//     is no byte counter (byte_reset 0); set one, and its events advance the
//     same stage;
//   - switches mark a packet as it leaves the queue, by the queue it leaves
//     behind (switch-node.cc:201–213, switch-mmu.cc ShouldSendCN :99–110).
//
// Profile paper keeps Zhu et al.'s rules (REFERENCE.md): a cut on every CNP,
// α ← (1 − g)·α + g at the cut and one decay per alpha_update_period
// without a CNP, fast recovery while both the timer's and the byte
// counter's stages are at most F, additive increase once one passes F,
// hyper increase by i·R_HAI once both do, marking at enqueue.
//
// Both: flows start at line rate; a flow that comes within R_AI of the line
// rate is back at line rate and unpaced (the artifact's rate creeps up to it
// by halving the gap forever).

// maxAlphaDecays bounds α's catch-up: (1 − 1/256)^10000 is 1e-17, as good as 0.
const maxAlphaDecays = 10000

var _ congestionControl = (*dcqcn)(nil)

// dcqcn holds one run's DCQCN parameters.
type dcqcn struct {
	m           *Model  // the model it controls
	kmin, kmax  int64   // RED thresholds on a switch egress queue, bytes
	pmax        float64 // marking probability at kmax
	cnpInterval unit.Time
	lineRate    unit.Rate // the fabric's link rate: where flows start and the ceiling
	nic         bool      // the nic profile's rules, else the paper's
	atDequeue   bool      // switches mark as packets leave the queue

	timeReset   unit.Time // the increase timer
	byteReset   int64     // the byte counter, bytes; 0: none
	threshold   int32     // F
	rAI, rHAI   unit.Rate // additive and hyper increase steps
	minRate     unit.Rate
	keep        float64   // min_dec_fac: the fraction of the rate a cut keeps at least
	reduceEvery unit.Time // nic: the rate-decrease timer; 0: cut on every CNP
	g, alpha0   float64   // α's gain and its value at the first CNP
	alphaEvery  unit.Time // α's timer
	clamp       bool      // the target takes the current rate on every cut

	flows          []*rateControl // by flow
	ecnMarks, cnps int64
}

func newDCQCN(m *Model) *dcqcn {
	d := m.net.DCQCN
	return &dcqcn{
		m:    m,
		kmin: int64(d.KMin), kmax: int64(d.KMax), pmax: d.PMax,
		cnpInterval: d.CNPInterval,
		lineRate:    d.LineRate,
		nic:         d.NIC,
		atDequeue:   d.AtDequeue,
		timeReset:   d.TimeReset,
		byteReset:   int64(d.ByteReset),
		threshold:   int32(d.Threshold),
		rAI:         d.AIRate,
		rHAI:        d.HAIRate,
		minRate:     d.MinRate,
		keep:        float64(d.MinDecFac) / 100,
		reduceEvery: d.RateReducePeriod,
		g:           d.G,
		alpha0:      d.InitialAlpha,
		alphaEvery:  d.AlphaUpdatePeriod,
		clamp:       d.ClampTargetRate,
	}
}

// rateControl is one flow's DCQCN state: the reaction point at its sender
// and the notification point at its receiver.
type rateControl struct {
	rc, rt  unit.Rate // current and target rate
	minRC   unit.Rate // the lowest rc so far, for the report
	alpha   float64   // the congestion estimate
	alphaAt unit.Time // paper: the last cut, α has decayed once per period since; nic: α's next timer event
	alphaCN bool      // nic: a CNP came since α's last update
	cut     bool      // a CNP has arrived
	limited bool      // rc is below the line rate: the flow is paced and its timer runs

	timerStage, byteStage int32 // rate-increase events since the last cut
	bytes                 int64 // bytes sent towards the next byte-counter event
	incAt                 unit.Time
	cutDue                bool      // nic: a CNP waits for the rate-decrease timer
	cutAt                 unit.Time // nic: the rate-decrease timer's next event
	timerAt               unit.Time // when the one pending evCCTimer fires; stale ones are ignored
	timerArmed            bool

	pacer

	lastCNP unit.Time // receiver: when it last sent a CNP
	cnps    int64     // receiver: CNPs sent
}

// DCQCN under the congestionControl contract: switches mark as packets
// join (or leave) a queue, receivers answer with CNPs, senders cut and raise
// the rate.
func (c *dcqcn) newFlow(int32) *pacer {
	r := &rateControl{rc: c.lineRate, rt: c.lineRate, minRC: c.lineRate, alpha: c.alpha0}
	c.flows = append(c.flows, r)
	return &r.pacer
}
func (c *dcqcn) enqueue(p *port, x *pkt) {
	if !c.atDequeue {
		c.mark(p, x, p.qBytes)
	}
}
func (c *dcqcn) forward(p *port, x *pkt) {
	if c.atDequeue {
		c.mark(p, x, p.qBytes-int64(x.size))
	}
}
func (c *dcqcn) sent(i int32, f *flow, wire int32) { c.sentBytes(f, c.flows[i], wire) }
func (c *dcqcn) marked(i int32, f *flow)           { c.notify(i, f) }
func (c *dcqcn) notified(i int32)                  { c.cnpArrived(i) }
func (c *dcqcn) timerDue(i int32)                  { c.rateTimer(i) }

// What DCQCN reports: ECN marks, CNPs, and each flow's rate.
func (c *dcqcn) counts() ccCounts { return ccCounts{ecnMarks: c.ecnMarks, cnps: c.cnps} }
func (c *dcqcn) counterSeries(out *metrics.CounterSeries, samples []counterSample) {
	for _, v := range samples {
		out.CNPs = append(out.CNPs, v.cc.cnps)
	}
}
func (c *dcqcn) reportFlow(i int32, _ *flow, r *metrics.Flow) {
	r.CNPs, r.MinRateGbps = c.flows[i].cnps, metrics.Round(c.flows[i].minRC.Gbps(), 3)
}
func (c *dcqcn) linkMarks(i int) (ecn, fecn int64) { return c.m.ports[i].ecnMarks, 0 }
func (c *dcqcn) marking(s *snap.Marking)           { s.ECNKmin, s.ECNKmax = c.kmin, c.kmax }
func (c *dcqcn) rate(i int32, _ *flow) unit.Rate   { return c.flows[i].rc }
func (c *dcqcn) notice(i int32) (string, unit.Time, bool) {
	return "cnp", c.flows[i].lastCNP, c.flows[i].cnps > 0
}

// mark marks x, which joins or leaves p's queue, with RED's probability for
// the queue q it finds or leaves behind.
func (c *dcqcn) mark(p *port, x *pkt, q int64) {
	switch {
	case q <= c.kmin:
		return
	case q <= c.kmax:
		prob := float64(c.pmax * float64(q-c.kmin) / float64(c.kmax-c.kmin)) // float64(…) stops FMA fusion: amd64 and wasm agree
		if c.m.eng.Rand().Float64() >= prob {
			return
		}
	}
	x.ecn = true
	p.ecnMarks++
	c.ecnMarks++
}

// notify is the receiver's answer to a marked packet of flow i: a CNP unless
// it sent one less than cnp_interval ago.
func (c *dcqcn) notify(i int32, f *flow) {
	r, now := c.flows[i], c.m.eng.Now()
	if f.done || r.cnps > 0 && now-r.lastCNP < c.cnpInterval {
		return
	}
	r.lastCNP = now
	r.cnps++
	c.cnps++
	c.m.at(now+f.ctrlDelay, evNotify, 0, i, 0)
}

// cnpArrived is flow i's sender receiving a CNP.
func (c *dcqcn) cnpArrived(i int32) {
	f := &c.m.flows[i]
	if f.done {
		return
	}
	r, now := c.flows[i], c.m.eng.Now()
	if !c.nic {
		if r.cut {
			r.decayAlpha(now, c)
		}
		r.cut = true
		c.reduceRate(i, f)
		return
	}
	if !r.cut {
		// The first CNP: α starts at initial_alpha, its timer and the
		// decrease timer start (+1 ns: the artifact's decrease check
		// follows α's update at the same period boundary).
		r.cut = true
		r.alpha, r.alphaCN, r.alphaAt = c.alpha0, false, now+c.alphaEvery
		r.cutAt = now + c.reduceEvery + unit.Nanosecond
	} else {
		r.updateAlpha(now, c)
		r.alphaCN = true
	}
	if c.reduceEvery == 0 {
		c.reduceRate(i, f)
		return
	}
	if !r.cutDue {
		r.cutDue = true
		if r.cutAt < now { // the decrease timer's next event after now
			r.cutAt += (now - r.cutAt + c.reduceEvery - 1) / c.reduceEvery * c.reduceEvery
		}
		c.armTimer(i, f)
	}
}

// updateAlpha (nic) runs α's timer events up to now: the first after a CNP
// raises α, the others decay it.
func (r *rateControl) updateAlpha(now unit.Time, c *dcqcn) {
	if r.alphaAt > now {
		return
	}
	k := (now-r.alphaAt)/c.alphaEvery + 1
	r.alphaAt += k * c.alphaEvery
	if r.alphaCN {
		r.alpha = float64((1-c.g)*r.alpha) + c.g // float64(…) stops FMA fusion: amd64 and wasm agree
		r.alphaCN = false
		k--
	}
	r.decay(k, c.g)
}

// decayAlpha (paper) applies α's decays since the last cut: one per period
// without a CNP, as a timer restarted by every CNP would.
func (r *rateControl) decayAlpha(now unit.Time, c *dcqcn) {
	r.decay((now-r.alphaAt)/c.alphaEvery, c.g)
}

// decay multiplies α by (1 − g) k times.
func (r *rateControl) decay(k unit.Time, g float64) {
	if k > maxAlphaDecays {
		r.alpha = 0
		return
	}
	for ; k > 0; k-- {
		r.alpha *= 1 - g
	}
}

// reduceRate is a cut of flow f's rate.
func (c *dcqcn) reduceRate(i int32, f *flow) {
	r, now := c.flows[i], c.m.eng.Now()
	// RT ← RC on every cut with clamp_target_rate (the paper); without it
	// only if the timer has raised the rate since the last cut, so a burst
	// of CNPs cannot drag the target down with the rate.
	if c.clamp || r.timerStage != 0 {
		r.rt = r.rc
	}
	keep := max(float64(1-r.alpha/2), c.keep) // float64(…) stops FMA fusion: amd64 and wasm agree
	r.rc = max(unit.Rate(float64(r.rc)*keep), c.minRate)
	if !c.nic {
		r.alpha = float64((1-c.g)*r.alpha) + c.g // float64(…) stops FMA fusion: amd64 and wasm agree
		r.alphaAt = now
	}
	r.minRC = min(r.minRC, r.rc)
	r.timerStage, r.byteStage, r.bytes = 0, 0, 0
	r.limited = true
	r.incAt = now + c.timeReset
	c.armTimer(i, f)
	c.repace(f, r)
}

// armTimer makes flow f's one pending evCCTimer the earliest of its due
// timers: the rate-decrease check (a CNP waits for it) and the increase
// timer (while the rate is limited).
func (c *dcqcn) armTimer(i int32, f *flow) {
	r := c.flows[i]
	at := unit.Never
	if r.cutDue {
		at = r.cutAt
	}
	if r.limited {
		at = min(at, r.incAt)
	}
	if at == unit.Never || r.timerArmed && r.timerAt <= at {
		return
	}
	r.timerArmed, r.timerAt = true, at
	c.m.at(at, evCCTimer, 0, i, 0)
}

// rateTimer is flow i's congestion control timer: a rate-decrease check, a
// rate-increase event, or both (the cut first).
func (c *dcqcn) rateTimer(i int32) {
	f := &c.m.flows[i]
	r, now := c.flows[i], c.m.eng.Now()
	if !r.timerArmed || now != r.timerAt {
		return // superseded by an earlier one
	}
	r.timerArmed = false
	if f.done {
		return
	}
	if r.cutDue && now >= r.cutAt {
		r.cutDue = false
		r.updateAlpha(now, c)
		r.cutAt = now + c.reduceEvery
		c.reduceRate(i, f)
	}
	if r.limited && now >= r.incAt {
		r.incAt = now + c.timeReset
		c.increaseRate(f, r, true)
	}
	c.armTimer(i, f)
}

// increaseRate is one rate-increase event, of the timer or the byte counter.
// A flow that comes within R_AI of the line rate is back at line rate, unpaced.
func (c *dcqcn) increaseRate(f *flow, r *rateControl, timer bool) {
	if c.nic {
		// The artifact's stages (RateIncEventMlx): the stage is the number
		// of events since the cut, before this one.
		switch s := r.timerStage + r.byteStage; {
		case s < c.threshold:
		case s == c.threshold:
			r.rt += c.rAI
		default:
			r.rt += c.rHAI
		}
		if timer {
			r.timerStage++
		} else {
			r.byteStage++
		}
	} else {
		// The paper's: both counters at most F after this event is fast
		// recovery, one past F additive, both past F hyper by i·R_HAI.
		if timer {
			r.timerStage++
		} else {
			r.byteStage++
		}
		t, b, F := r.timerStage, r.byteStage, c.threshold
		switch {
		case max(t, b) <= F:
		case min(t, b) > F:
			r.rt += unit.Rate(float64(min(t, b)-F) * float64(c.rHAI)) // unit.Rate(…) stops FMA fusion: amd64 and wasm agree
		default:
			r.rt += c.rAI
		}
	}
	r.rt = min(r.rt, c.lineRate)
	r.rc = (r.rt + r.rc) / 2
	if r.rc >= c.lineRate-c.rAI {
		r.rc, r.rt = c.lineRate, c.lineRate
		r.limited = false
	}
	c.repace(f, r)
}

// repace recomputes when f (state r) may send next after its rate changed,
// and brings its port's wake-up forward if that is now earlier.
func (c *dcqcn) repace(f *flow, r *rateControl) {
	m := c.m
	r.nextSend = 0
	if r.limited && r.lastWire > 0 {
		r.nextSend = r.lastSend + r.rc.TxTime(unit.Bytes(r.lastWire))
	}
	if p := &m.ports[f.port]; f.onPort && p.paceArmed && r.nextSend < p.paceAt {
		m.paceWake(p, r.nextSend)
	}
}

// sentBytes paces f (state r) after a packet of wire bytes and counts them
// towards the byte counter.
func (c *dcqcn) sentBytes(f *flow, r *rateControl, wire int32) {
	r.lastSend, r.lastWire = c.m.eng.Now(), wire
	if !r.limited {
		return
	}
	r.nextSend = r.lastSend + r.rc.TxTime(unit.Bytes(wire))
	if c.byteReset == 0 {
		return
	}
	r.bytes += int64(wire)
	if r.bytes >= c.byteReset {
		r.bytes -= c.byteReset
		c.increaseRate(f, r, false)
	}
}
