package packet

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// congestionControl is a congestion control algorithm as the model drives
// it: dcqcn.go, ibcc.go, and noCC for cc: none. The model tells it, at the
// current time:
//
//   - newFlow: flow i is added (flows are added in order, from 0); it makes
//     the flow's state and returns its pacer.
//   - enqueue: packet x is about to join the queue of p, a switch port on a
//     fabric link (p.qBytes does not count x yet); it may mark x (x.ecn).
//   - forward: x, at the head of the queue of such a port p, leaves it for
//     the wire (p.qBytes still counts x; with traffic classes, x is at the
//     head of its class's queue); it may mark x.
//   - sent: flow i (f) started a packet of wire bytes on its first link.
//   - marked: flow i's receiver got a marked packet; it may answer with an
//     evNotify event for i, after f.ctrlDelay.
//   - notified: a notification (CNP, BECN) reached flow i's sender.
//   - timerDue: flow i's evCCTimer event, which it scheduled, is due. It
//     may have scheduled several and must ignore those it has superseded.
//
// It may change only its own state and the flow's pacer — the rate the
// flow may send at, as the earliest time of its next packet (nextSend) —
// and schedule its own events (evNotify, evCCTimer) and pace wake-ups
// (paceWake) on the model's engine; queues, credits and pauses are not its
// business. It counts its marks and notifications.
//
// The report and the snapshot ask it, and never which algorithm runs:
//
//   - counts: its run-wide counts so far (the result's totals, and one
//     sample of the counter series).
//   - counterSeries: appends to c the series it reports beyond ECN marks,
//     one value per sample.
//   - reportFlow: fills in flow i's (f's) figures in the result.
//   - linkMarks: the packets port i marked, as ECN and as FECN.
//   - marking: fills in the queue depths its switches mark at.
//   - rate: flow i's (f's) sending rate now (it is under way).
//   - notice: the last notification flow i's receiver sent, its kind ("cnp",
//     "becn") and when; ok false if none.
//
// A new algorithm is its own file with a type that implements all of these,
// a case in initCongestion, and its keys in sim/scenario; counts it
// reports that no other does need a field in ccCounts and in metrics.
type congestionControl interface {
	newFlow(i int32) *pacer
	enqueue(p *port, x *pkt)
	forward(p *port, x *pkt)
	sent(i int32, f *flow, wire int32)
	marked(i int32, f *flow)
	notified(i int32)
	timerDue(i int32)

	counts() ccCounts
	counterSeries(c *metrics.CounterSeries, samples []counterSample)
	reportFlow(i int32, f *flow, r *metrics.Flow)
	linkMarks(i int) (ecn, fecn int64)
	marking(s *snap.Marking)
	rate(i int32, f *flow) unit.Rate
	notice(i int32) (kind string, at unit.Time, ok bool)
}

// ccCounts are a congestion control's run-wide counts; each algorithm
// fills in those it has.
type ccCounts struct {
	ecnMarks, cnps   int64 // dcqcn
	fecnMarks, becns int64 // ibcc
}

// initCongestion sets up the run's congestion control, by network.cc: the
// one place that picks an algorithm by name. It comes before the ports,
// which it watches if it paces.
func (m *Model) initCongestion() {
	switch {
	case m.net.DCQCN != nil:
		m.ctl = newDCQCN(m)
	case m.net.IBCC != nil:
		m.ctl = newIBCC(m)
	default:
		m.ctl = noCC{}
	}
	_, none := m.ctl.(noCC)
	m.paced = !none
}

// noCC is cc: none: no port is watched and no flow paced, so the model
// never calls its run methods; it reports nothing.
type noCC struct{}

var _ congestionControl = noCC{}

func (noCC) newFlow(int32) *pacer                                  { return nil }
func (noCC) enqueue(*port, *pkt)                                   { panic("packet: no congestion control watches a port") }
func (noCC) forward(*port, *pkt)                                   { panic("packet: no congestion control watches a port") }
func (noCC) sent(int32, *flow, int32)                              { panic("packet: no congestion control paces a flow") }
func (noCC) marked(int32, *flow)                                   { panic("packet: no congestion control marks") }
func (noCC) notified(int32)                                        { panic("packet: no congestion control notifies") }
func (noCC) timerDue(int32)                                        { panic("packet: no congestion control schedules a timer") }
func (noCC) counts() ccCounts                                      { return ccCounts{} }
func (noCC) counterSeries(*metrics.CounterSeries, []counterSample) {}
func (noCC) reportFlow(int32, *flow, *metrics.Flow)                {}
func (noCC) linkMarks(int) (ecn, fecn int64)                       { return 0, 0 }
func (noCC) marking(*snap.Marking)                                 {}
func (noCC) rate(int32, *flow) unit.Rate                           { return 0 }
func (noCC) notice(int32) (string, unit.Time, bool)                { return "", 0, false }

// congestion is the run's congestion control.
type congestion struct {
	ctl   congestionControl
	paced bool   // an algorithm runs (not noCC): fabric switch ports are watched, flows paced
	scan  uint64 // round-robin scans of paced flows, for pacer.scan
}

// pacer is when a congestion-controlled flow may send its next packet.
type pacer struct {
	lastSend unit.Time // when the flow's last packet started
	lastWire int32     // its size on the first link
	nextSend unit.Time // when the next may start (0: now)
	scan     uint64    // the last round-robin scan that skipped this flow
}

// nextPaced is nextFromFlows under congestion control: the round robin skips
// flows whose rate does not let them send yet, and if none may, the port
// wakes up when the earliest may.
func (m *Model) nextPaced(p *port) *pkt {
	now := m.eng.Now()
	m.scan++
	wake := unit.Never
	// Each flow is skipped at most once per scan (a removal may move one
	// already skipped to the cursor; stamps keep the count right).
	for skipped := 0; len(p.flows) > 0 && skipped < len(p.flows); {
		i, f, ok := m.cursor(p)
		if !ok {
			continue
		}
		r := f.pace
		if r.nextSend > now {
			wake = min(wake, r.nextSend)
			if r.scan != m.scan {
				r.scan = m.scan
				skipped++
			}
			continue
		}
		x := m.makePkt(i, f)
		m.ctl.sent(i, f, int32(x.payload+p.hdr))
		return x
	}
	if wake < unit.Never && (!p.paceArmed || wake < p.paceAt) {
		m.paceWake(p, wake)
	}
	return nil
}

// paceWake makes t (or now, if t is past) the port's one pending pace wake-up.
func (m *Model) paceWake(p *port, t unit.Time) {
	p.paceGen++
	p.paceArmed = true
	p.paceAt = max(t, m.eng.Now())
	m.at(p.paceAt, evPace, 0, p.id, p.paceGen)
}

// paceDue is port p's pace wake-up (generation gen) if it is still the one due.
func (m *Model) paceDue(p *port, gen int64) {
	if p.paceArmed && gen == p.paceGen {
		p.paceArmed = false
		m.try(p)
	}
}
