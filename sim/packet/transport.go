package packet

import (
	"fabriclab/sim/link"
	"fabriclab/sim/network"
	"fabriclab/sim/unit"
)

// Transport: flows cut into packets at the sender, receivers that count
// what arrives in order (and keep what arrives out of order), and go-back-N
// with cumulative ACKs, NACKs and a retransmission timeout, as RDMA NICs run
// it (reliable connection): on lossy paths, and on lossless ones too, where
// a forced threshold or a pause storm can still lose or hold up packets.
//
// Selective repeat (network.recovery: sr), as IRN (Mittal et al., SIGCOMM
// 2018) and newer RDMA NICs run it: the receiver keeps what arrives after a
// hole and NACKs the hole; the sender resends only what the receiver lacks,
// from the hole up to what it had sent, before new packets; a timeout does
// the same from the first unacknowledged packet. The NACK stands for IRN's
// selective ACK: the sender skips what the receiver holds when it resends
// (the model reads the receiver's state then, a round trip fresher than a
// NIC would know it). IRN's BDP flow control is not modelled.

// transport is how flows packetise and recover.
type transport struct {
	mtu         int32
	fabric      link.Kind // the kind of host and switch links
	fabricHdr   int32     // the fabric's per-packet header bytes
	linkLatency unit.Time // of host and switch links
	ackEvery    int32
	rto         unit.Time
	sr          bool      // selective repeat, else go-back-N
	drain       unit.Time // the time a full lossy queue takes to drain at the fabric's rate
	timed       []int32   // lossless flows with an armed timer (rtoTick)
	tickDue     bool      // an evRTOTick is scheduled
	lossy       bool      // no flow control: the default class is lossy
}

type flow struct {
	src, dst    int32 // endpoint indices
	srcNode     int32
	dstNode     int32
	bytes       int64
	npkts       int32
	start       unit.Time
	port        int32 // first-hop port
	path        int32 // static and ECMP routing: where the flow's links start in paths, else -1
	hash        uint64
	ctrlDelay   unit.Time // one-way latency of control packets back to the sender
	rtoFloor    unit.Time // lossy: the round trip with every queue on the path full
	onPort      bool
	nextSeq     int32
	maxSent     int32
	una         int32 // first packet not yet acknowledged
	rtoAt       unit.Time
	rtoArmed    bool
	rtx, rtxEnd int32    // selective repeat: resend the packets in [rtx, rtxEnd) the receiver lacks
	highRecv    int32    // receiver: one past the highest packet that arrived
	expected    int32    // receiver: next in-order packet
	acked       int32    // receiver: expected when it last sent an ACK
	ooo         []uint64 // receiver: packets that arrived ahead of expected
	nackFor     int32
	received    int64 // payload bytes
	finish      unit.Time
	done        bool
	retrans     int64
	outOfOrder  int64
	class       uint8
	lossless    bool          // its class is lossless: the timer starts long
	backoff     uint8         // lossless: timeouts in a row without progress
	onDone      func()        // workload callback when the last byte arrives
	sentAll     bool          // every packet has left the sender once
	label       network.Label // the workload's labels (chunk id, step)
	nextInLine  int32         // the flow queued behind this one on its stream, or -1
	pace        *pacer        // congestion control's pacing of the flow, nil without
}

// activate puts flow i on its first-hop port's round robin.
func (m *Model) activate(i int32, f *flow) {
	if f.onPort || f.spent() {
		return
	}
	if f.maxSent == 0 && m.faults != nil { // its start: nothing sent yet
		m.starting(i)
	}
	f.onPort = true
	p := &m.ports[f.port]
	if p.cls != nil {
		p.cls[f.class].flows = append(p.cls[f.class].flows, i)
	} else {
		p.flows = append(p.flows, i)
	}
	m.try(p)
}

// spent reports that f has nothing to send: every packet sent, and no
// selective resend due.
func (f *flow) spent() bool { return f.nextSeq >= f.npkts && !f.resendDue() }

// resendDue moves f's selective resend past what the receiver holds and
// reports whether a packet is left to resend.
func (f *flow) resendDue() bool {
	for f.rtx < f.rtxEnd && (f.rtx < f.expected || f.hasOOO(f.rtx)) {
		f.rtx++
	}
	return f.rtx < f.rtxEnd
}

// makePkt makes flow i's next packet (in m.sending: transmit copies it into its event).
func (m *Model) makePkt(i int32, f *flow) *pkt {
	seq := f.nextSeq
	if f.resendDue() {
		seq = f.rtx
		f.rtx++
	} else {
		f.nextSeq++
	}
	x := &m.sending
	x.flow, x.seq, x.inLink, x.class, x.ecn, x.hop = i, seq, -1, f.class, false, 0 // field by field (see pkt.set)
	x.payload = m.mtu
	if seq == f.npkts-1 {
		x.payload = int32(f.bytes - int64(f.npkts-1)*int64(m.mtu))
	}
	x.size = x.payload + m.fabricHdr
	if seq < f.maxSent {
		f.retrans++
		m.stats.retrans++
	}
	f.maxSent = max(f.maxSent, f.nextSeq)
	if f.nextSeq == f.npkts && !f.sentAll {
		f.sentAll = true
		if f.nextInLine >= 0 {
			m.at(m.eng.Now(), evFlowStart, 0, f.nextInLine, 0)
		}
	}
	if !f.rtoArmed {
		f.rtoArmed = true
		f.rtoAt = m.eng.Now() + m.rtoOf(f)
		if f.lossless {
			m.armLossless(i)
		} else {
			m.at(f.rtoAt, evRTO, 0, i, 0)
		}
	}
	return x
}

// deliver hands x to its receiver.
func (m *Model) deliver(x *pkt) {
	i := x.flow
	f := &m.flows[i]
	s, payload := x.seq, int64(x.payload)
	if x.ecn {
		m.ctl.marked(i, f)
	}
	now := m.eng.Now()
	f.highRecv = max(f.highRecv, s+1)
	switch {
	case s == f.expected:
		f.expected++
		f.received += payload
		for f.expected < f.npkts && f.hasOOO(f.expected) {
			f.clearOOO(f.expected)
			f.expected++
		}
		if m.sr && !m.perPacket && f.expected < f.highRecv {
			m.nackHole(i, f) // a resend filled one hole; the next is known
		}
	case s > f.expected:
		if m.sr && !m.perPacket {
			m.nackHole(i, f) // and keep s
		} else if !m.perPacket {
			// Go-back-N receivers drop what arrives after a gap and ask once for the gap.
			m.stats.gaps++
			if f.nackFor != f.expected {
				f.nackFor = f.expected
				m.at(now+f.ctrlDelay, evNack, 0, i, int64(f.expected))
			}
			return
		}
		if f.hasOOO(s) {
			return
		}
		f.setOOO(s)
		f.received += payload
		f.outOfOrder++
		m.stats.ooo++
	default:
		return // duplicate
	}
	m.series.rx(int(i), payload)
	// One ACK per ack_every packets in order, and one for the last: when
	// filling a hole moves expected past a multiple of ack_every (it need
	// not land on one), that ACK is due too.
	if f.expected/m.ackEvery > f.acked/m.ackEvery || f.expected == f.npkts && f.acked < f.npkts {
		f.acked = f.expected
		e := m.eng.AtRef(now + f.ctrlDelay) // m.at, inlined by hand
		e.kind, e.c, e.a, e.gen = evAck, 0, i, int64(f.expected)
	}
	if f.expected == f.npkts && !f.done {
		f.done, f.finish = true, now
		f.ooo = nil
		m.routes.Finished(i, f.outOfOrder)
		m.finished++
		if cb := f.onDone; cb != nil {
			f.onDone = nil
			cb() // may add flows: f is not used after this
		}
		m.run.StopIf(m.idle())
	}
}

// nackHole asks f's sender once for the hole at expected (selective
// repeat on a single path, where a gap means a loss; a sprayed flow's gaps
// are mostly reordering, so it waits for its timer, as IRN suggests).
func (m *Model) nackHole(i int32, f *flow) {
	if f.nackFor != f.expected {
		f.nackFor = f.expected
		m.at(m.eng.Now()+f.ctrlDelay, evNack, 0, i, int64(f.expected))
	}
}

func (f *flow) hasOOO(s int32) bool {
	w := int(s) / 64
	return w < len(f.ooo) && f.ooo[w]&(1<<(uint(s)%64)) != 0
}

func (f *flow) setOOO(s int32) {
	w := int(s) / 64
	if w >= len(f.ooo) {
		f.ooo = append(f.ooo, make([]uint64, w+1-len(f.ooo))...)
	}
	f.ooo[w] |= 1 << (uint(s) % 64)
}

func (f *flow) clearOOO(s int32) { f.ooo[int(s)/64] &^= 1 << (uint(s) % 64) }

// A lossy flow's timer is rto, but never shorter than the path's worst
// round trip (every queue on it full, rtoFloor): a timer that fires before
// the hole it resent can arrive resends it behind the duplicates of the last
// timeout, where it is dropped again, for ever (a sprayed 4→1 incast at 25G
// with 512 KiB buffers did, its 168 µs queue outlasting the 100 µs rto).
//
// Lossless classes drop nothing but queue without such a bound: a PFC
// incast can hold a flow's packets behind its neighbours' for milliseconds,
// and a pause storm for as long as it lasts. So their timer, like an RDMA
// NIC's on a lossless fabric, starts at losslessRTO × rto and doubles after
// each timeout in a row (up to maxBackoff times); any progress resets it.
const (
	losslessRTO = 64
	maxBackoff  = 8
)

// rtoOf is f's retransmission timeout.
func (m *Model) rtoOf(f *flow) unit.Time {
	if !f.lossless {
		return max(m.rto, f.rtoFloor)
	}
	return losslessRTO * m.rto << f.backoff
}

func (m *Model) ack(i int32, upto int32) {
	f := &m.flows[i]
	if upto > f.una {
		f.una = upto
		f.backoff = 0
		f.rtoAt = m.eng.Now() + m.rtoOf(f)
	}
}

func (m *Model) nack(i int32, from int32) {
	f := &m.flows[i]
	if from > f.una {
		f.una = from
	}
	if m.sr {
		m.resend(i, f, from)
		return
	}
	if from < f.nextSeq {
		f.nextSeq = from
		f.rtoAt = m.eng.Now() + m.rtoOf(f)
		m.activate(i, f)
	}
}

func (m *Model) timeout(i int32) {
	f := &m.flows[i]
	f.rtoArmed = false
	if f.una >= f.npkts || f.done {
		return
	}
	if f.una >= f.maxSent {
		return // everything sent is acknowledged; the next send re-arms the timer
	}
	f.rtoArmed = true
	if m.eng.Now() >= f.rtoAt {
		m.goBack(i, f)
	}
	m.at(f.rtoAt, evRTO, 0, i, 0)
}

// goBack is f's timer running out: nothing acknowledged for a whole
// timeout, so the sender goes back to the first unacknowledged packet.
func (m *Model) goBack(i int32, f *flow) {
	m.stats.timeouts++
	if f.lossless && f.backoff < maxBackoff {
		f.backoff++
	}
	if m.sr {
		m.resend(i, f, f.una)
		return
	}
	f.nextSeq = f.una
	f.rtoAt = m.eng.Now() + m.rtoOf(f)
	m.activate(i, f)
}

// resend starts f's selective resend at from, up to what it has sent.
func (m *Model) resend(i int32, f *flow, from int32) {
	if f.rtx >= f.rtxEnd || from < f.rtx {
		f.rtx = from
	}
	f.rtxEnd = max(f.rtxEnd, f.maxSent)
	f.rtoAt = m.eng.Now() + m.rtoOf(f)
	m.activate(i, f)
}

// Lossless timers are many (a collective has thousands of flows) and long:
// an event each would sit in the event heap for milliseconds, making every
// other event dearer. So they share one coarse clock instead, as NICs' timers
// do: a tick every losslessRTO/ticksPerRTO × rto, while any is armed, that
// expires the timers due (at most one tick late, an eighth of a timeout).
const ticksPerRTO = 8

// armLossless arms lossless flow i's timer on the shared clock.
func (m *Model) armLossless(i int32) {
	m.timed = append(m.timed, i)
	if !m.tickDue {
		m.tickDue = true
		m.at(m.eng.Now()+losslessRTO*m.rto/ticksPerRTO, evRTOTick, 0, 0, 0)
	}
}

// rtoTick expires the lossless timers that are due and drops the ones
// that no longer run.
func (m *Model) rtoTick() {
	m.tickDue = false
	now := m.eng.Now()
	w := 0
	// goBack may arm other flows' timers: they join the end of m.timed and
	// this loop sees them too (in place: w never passes r).
	for r := 0; r < len(m.timed); r++ {
		i := m.timed[r]
		f := &m.flows[i]
		if f.done || f.una >= f.maxSent {
			f.rtoArmed = false // the next send re-arms it
			continue
		}
		if now >= f.rtoAt {
			m.goBack(i, f)
		}
		m.timed[w] = i
		w++
	}
	m.timed = m.timed[:w]
	if w > 0 {
		m.tickDue = true
		m.at(now+losslessRTO*m.rto/ticksPerRTO, evRTOTick, 0, 0, 0)
	}
}
