package packet

import (
	"fmt"

	"fabriclab/sim/unit"
)

// The run loop: the model's events and how each is handled.

type evKind uint8

const (
	evArrive      evKind = iota // packet p reaches node a
	evTxDone                    // port a finished serialising
	evFlowStart                 // flow a starts
	evCredit                    // port a gets gen bytes of credit back
	evPause                     // port a receives a pause frame of gen quanta
	evPauseExpire               // port a's pause (generation gen) ends
	evPFCRefresh                // ingress link a re-sends XOFF (generation gen)
	evAck                       // flow a's sender learns gen packets arrived in order
	evNack                      // flow a's sender is asked to go back to packet gen
	evRTO                       // flow a's retransmission timer
	evRTOTick                   // the lossless flows' shared timer clock
	evSample                    // record a time-series sample
	evCall                      // run callback a
	evNotify                    // a congestion notification (CNP, BECN) reaches flow a's sender
	evCCTimer                   // flow a's congestion control timer
	evPace                      // port a may send a paced flow's packet (generation gen)
	evStorm                     // endpoint port a starts (gen 1) or stops (gen 0) a pause storm
	evFault                     // link fault a/4 enters phase a%4 (faults.go)
)

type event struct {
	kind evKind
	c    uint8 // traffic class, for per-class credits and pauses
	a    int32
	gen  int64
	p    pkt // evArrive's packet, by value (no pointer: the engine's slots are not scanned)
}

// at schedules an event of kind k at t, filling in every field but the
// packet (evArrive's own): engine.AtRef, with no event copied.
func (m *Model) at(t unit.Time, k evKind, c uint8, a int32, gen int64) *event {
	e := m.eng.AtRef(t)
	e.kind, e.c, e.a, e.gen = k, c, a, gen
	return e
}

// Run runs until every flow has finished, the time limit or the event budget.
func (m *Model) Run() {
	for m.Advance(unit.Never) {
	}
}

// Advance runs every event up to time t and reports whether the run goes on
// past it. The clock ends at t unless the run ended first.
func (m *Model) Advance(t unit.Time) bool {
	more, _ := m.AdvanceEvents(t, 0)
	return more
}

// AdvanceEvents is Advance handling at most n events (0: no bound), and
// says whether it reached t; a call cut short leaves the rest of the step
// to the next (network.Model).
func (m *Model) AdvanceEvents(t unit.Time, n uint64) (more, reached bool) {
	t, ok := m.run.Begin(t, m.idle())
	if !ok {
		return false, true
	}
	m.run.Cap(n)
	for !m.run.Stopped { // the loop of network.Run.Advance, calling handle directly
		ev := m.eng.NextRef(t) // in its slot: no copy (events hold no pointers)
		if ev == nil {
			break
		}
		// The three most frequent kinds here, without a call to handle
		// (calls and the switch's jumps are dear in WebAssembly).
		switch ev.kind {
		case evArrive:
			// The packet is read in its slot, which the engine keeps until
			// the next NextRef (transmit's events take other slots).
			m.arrive(ev.a, &ev.p)
		case evTxDone:
			p := &m.ports[ev.a]
			p.wake = false
			m.try(p)
		case evCredit:
			m.credited(&m.ports[ev.a], ev.c, ev.gen)
		default:
			m.handle(ev)
		}
	}
	if m.run.Cut() {
		return true, false
	}
	return m.run.End(t, func() { m.series.final(m) }), true
}

// Events is how many events the engine has handled.
func (m *Model) Events() uint64 { return m.eng.Events() }

// idle reports whether every flow has finished and no callback is pending.
func (m *Model) idle() bool { return m.finished == len(m.flows) && m.run.Calls.Pending() == 0 }

// handle runs an event of every kind but the three that Advance's loop runs
// itself (evArrive, evTxDone, evCredit).
func (m *Model) handle(ev *event) {
	switch ev.kind {
	case evFlowStart:
		f := &m.flows[ev.a]
		f.start = m.eng.Now()
		m.activate(ev.a, f)
	case evPause:
		m.pause(&m.ports[ev.a], ev.c, ev.gen)
	case evPauseExpire:
		m.pauseExpired(&m.ports[ev.a], ev.c, ev.gen)
	case evStorm:
		m.storm(&m.ports[ev.a], ev.gen == 1)
	case evFault:
		m.fault(int(ev.a/4), int(ev.a%4))
	case evPFCRefresh:
		m.refreshPause(&m.ports[ev.a], ev.c, ev.gen)
	case evAck:
		m.ack(ev.a, int32(ev.gen))
	case evNack:
		m.nack(ev.a, int32(ev.gen))
	case evRTO:
		m.timeout(ev.a)
	case evRTOTick:
		m.rtoTick()
	case evSample:
		m.series.sample(m)
	case evNotify:
		m.ctl.notified(ev.a)
	case evCCTimer:
		m.ctl.timerDue(ev.a)
	case evPace:
		m.paceDue(&m.ports[ev.a], ev.gen)
	case evCall:
		m.run.Calls.Run(ev.a)
		m.run.StopIf(m.idle())
	default:
		panic(fmt.Sprintf("packet: unknown event kind %d", ev.kind))
	}
}
