package packet

import (
	"fabriclab/sim/link"
	"fabriclab/sim/plan"
	"fabriclab/sim/unit"
)

// Ports and queues: a packet joins an egress queue at a switch (or is made
// by a flow at its sender), waits its turn and is serialised onto the wire,
// which carries it to the next node after the link's latency.

type pkt struct {
	flow    int32
	seq     int32
	payload int32
	size    int32 // buffer bytes: payload + fabric header
	inLink  int32 // the link it arrived on (-1 at the source)
	class   uint8 // traffic class (network.classes)
	ecn     bool  // a switch marked it congestion experienced (ECN CE, or InfiniBand's FECN)
	hop     uint8 // links it has been sent on: its place on its flow's path
}

// port is one egress port (one direction of a link) and, for PFC and
// credits, the ingress accounting of the node at its far end.
type port struct {
	// Hot fields first, by cache line: what arrive, try and transmit read.
	id         int32
	to         int32
	rate       unit.Rate
	latency    unit.Time
	hopDelay   unit.Time // latency plus the far node's switch latency
	busyUntil  unit.Time // when the packet on the wire is out
	lastArrive unit.Time // when the last packet put on this wire reaches the far end
	qBytes     int64
	hdr        int32 // this link's per-packet header bytes
	fc         fcMode
	toEnd      bool      // feeds an endpoint (which consumes at line rate)
	down       bool      // its link is down (faults): it sends nothing
	fromEnd    bool      // an endpoint's NIC port: its packets get a little timing jitter
	fullWire   int64     // a full packet's bytes on this wire …
	fullTx     unit.Time // … and its time on it
	// watched says congestion control sees the packets queued here (a
	// switch port on a fabric link).
	watched bool

	wake bool // a txDone event is due at busyUntil (only scheduled when something waits to be sent)
	q    fifo
	// cls holds one queue per traffic class when there are several (see
	// classes.go); the port's own queue, flows, credit and pause are then unused.
	cls []classQueue

	flows  []int32 // endpoint ports: flows sending through this port, served round robin
	rr     int
	credit int64
	pfcIngress

	pauseState
	txWire int64
	maxQ   int64

	recent [recentTx]txRecord // the last packets put on this wire, for snapshots
	nTx    int64

	drr   int  // the class deficit round robin serves
	fresh bool // drr's class has not had its quantum for this visit
	// nPaused counts paused classes; pausedSince is when the first was paused.
	nPaused int

	// paceAt is when a paced flow may send next, if paceArmed (generation paceGen).
	paceArmed bool
	paceAt    unit.Time
	paceGen   int64

	drops    int64
	ecnMarks int64 // packets marked ECN here (dcqcn counts them, linkMarks reports them)
}

// initPorts sets up a port for each link.
func (m *Model) initPorts() {
	fc := fcNone
	switch m.net.FlowControl {
	case plan.Credit:
		fc = fcCredit
	case plan.PFC:
		fc = fcPFC
	}
	m.ports = make([]port, len(m.topo.Links))
	m.quantum = make([]unit.Time, len(m.topo.Links))
	for i, l := range m.topo.Links {
		p := &m.ports[i]
		p.id, p.to, p.rate, p.latency = int32(i), int32(l.To), l.Rate, l.Latency
		p.hopDelay = l.Latency
		if m.topo.Nodes[l.To].Role.Forwards() {
			p.hopDelay += m.net.SwitchLatency
		}
		p.hdr = int32(link.Header(l.Kind))
		p.fullWire = int64(m.mtu + p.hdr)
		p.fullTx = l.Rate.TxTime(unit.Bytes(p.fullWire))
		p.fc = fc
		if l.Kind == link.NVLink4 || l.Kind == link.PCIe5 {
			p.fc = fcCredit
		}
		p.toEnd = !m.topo.Nodes[l.To].Role.Forwards()
		p.fromEnd = !m.topo.Nodes[l.From].Role.Forwards()
		p.credit = m.buffer
		p.watched = m.paced && m.isSwitch[l.From] && l.Kind == m.fabric
		m.quantum[i] = l.Rate.TxTime(plan.PauseQuantumBytes)
	}
}

func (p *port) queued() int { return p.q.len() }

func (p *port) push(c *chunks, x *pkt) {
	p.q.add(c, x)
	p.qBytes += int64(x.size)
	if p.qBytes > p.maxQ {
		p.maxQ = p.qBytes
	}
}

// recentTx is how many of a port's last transmissions a snapshot can show.
const recentTx = 4

type txRecord struct {
	start, arrive unit.Time
	flow          int32
	marked        bool // ECN congestion experienced
}

// arrive handles packet x reaching node n.
func (m *Model) arrive(n int32, x *pkt) {
	if !m.forwards[n] {
		m.deliver(x)
		return
	}
	if (m.pools != nil || m.ports[x.inLink].fc == fcPFC) && !m.admit(n, x) { // admit has nothing else to do
		return
	}
	f := &m.flows[x.flow]
	var out *port
	if f.path >= 0 {
		out = &m.ports[m.paths[f.path+int32(x.hop)]]
	} else {
		out = &m.ports[m.choose(n, f.dst, f, x)]
	}
	if (out.fc == fcNone || out.fc == fcPFC && !m.isLossless(x.class)) && m.tailDrop(n, out, x) || m.dropHook != nil && m.dropHook(x) {
		m.drop(out, x)
		return
	}
	if out.watched {
		m.ctl.enqueue(out, x)
	}
	if out.cls != nil {
		out.pushClass(&m.chunks, x)
	} else {
		out.push(&m.chunks, x)
	}
	if out.wake && out.busyUntil > m.eng.Now() {
		return // try would do nothing: the port is sending and its wake-up is due (the incast: two arrivals in three)
	}
	m.try(out)
}

func (m *Model) drop(p *port, x *pkt) {
	p.drops++
	if p.cls != nil {
		p.cls[x.class].drops++
	}
	m.stats.drops++
	m.release(x)
}

// try starts the next transmission on p if the port is free, not paused and has credit.
func (m *Model) try(p *port) {
	if p.paused || p.down || m.run.Stopped {
		return
	}
	if p.busyUntil > m.eng.Now() {
		if !p.wake {
			p.wake = true
			e := m.eng.AtRef(p.busyUntil) // m.at, inlined by hand (it is a call over the budget)
			e.kind, e.c, e.a, e.gen = evTxDone, 0, p.id, 0
		}
		return
	}
	if p.cls != nil {
		if x := m.nextByClass(p); x != nil {
			m.transmit(p, x)
		}
		return
	}
	var x *pkt
	if p.queued() > 0 {
		x = p.q.front()
		if p.fc == fcCredit && !p.toEnd && p.credit < int64(x.size) {
			return
		}
		if p.watched {
			m.ctl.forward(p, x)
		}
		m.sending.set(x) // p.pop, inlined by hand
		p.q.drop(&m.chunks)
		x = &m.sending
		p.qBytes -= int64(x.size)
		m.release(x)
	} else if len(p.flows) > 0 {
		if p.fc == fcCredit && !p.toEnd && p.credit < int64(m.mtu+m.fabricHdr) {
			return
		}
		x = m.nextFromFlows(p)
		if x == nil {
			return
		}
	} else {
		return
	}
	if p.fc == fcCredit && !p.toEnd {
		p.credit -= int64(x.size)
	}
	m.transmit(p, x)
}

// transmit puts x on p's wire now.
func (m *Model) transmit(p *port, x *pkt) {
	now := m.eng.Now()
	wire := int64(x.payload + p.hdr)
	tx := p.fullTx
	if wire != p.fullWire {
		tx = p.rate.TxTime(unit.Bytes(wire))
	}
	p.txWire += wire
	p.busyUntil = now + tx
	x.inLink = p.id
	x.hop++
	if m.perPacket { // took's test, inlined by hand
		m.took(x.flow, p.id)
	}
	if !p.wake && p.pending() {
		// (A wake already due now will find the port busy and come back at busyUntil.)
		p.wake = true
		e := m.eng.AtRef(p.busyUntil) // m.at, inlined by hand
		e.kind, e.c, e.a, e.gen = evTxDone, 0, p.id, 0
	}
	arrive := now + tx + p.hopDelay
	if p.fromEnd {
		// Real NICs are not phase-locked to each other: without up to a quarter
		// packet time of jitter, synchronised senders would always reach a
		// shared queue in the same order. It never reorders one link's
		// packets: a short packet right behind a jittered full one arrives
		// just after it (at the same time, the engine keeps their order).
		arrive += unit.Time(m.eng.Int64N(int64(tx/4) + 1))
		arrive = max(arrive, p.lastArrive)
	}
	p.lastArrive = arrive
	e := m.eng.AtRef(arrive) // m.at, inlined by hand
	e.kind, e.c, e.a, e.gen = evArrive, 0, p.to, 0
	e.p.set(x)
	r := &p.recent[uint64(p.nTx)%recentTx] // field by field: no struct built and copied
	r.start, r.arrive, r.flow, r.marked = now, arrive, x.flow, x.ecn
	p.nTx++
}

// nextFromFlows makes the next packet of the next flow in round-robin order.
func (m *Model) nextFromFlows(p *port) *pkt {
	if m.paced {
		return m.nextPaced(p)
	}
	for len(p.flows) > 0 {
		if i, f, ok := m.cursor(p); ok {
			return m.makePkt(i, f)
		}
	}
	return nil
}

// cursor returns the flow at p's round-robin cursor and moves the cursor on;
// a flow with nothing left to send is taken off the round robin instead (ok false).
func (m *Model) cursor(p *port) (i int32, f *flow, ok bool) {
	if p.rr >= len(p.flows) {
		p.rr = 0
	}
	i = p.flows[p.rr]
	f = &m.flows[i]
	if f.spent() {
		m.leave(p, f)
		return i, f, false
	}
	p.rr++
	return i, f, true
}

// leave takes the flow at p.rr, which has nothing left to send, off the
// round robin (go-back-N re-adds it).
func (m *Model) leave(p *port, f *flow) {
	last := len(p.flows) - 1
	p.flows[p.rr] = p.flows[last]
	p.flows = p.flows[:last]
	f.onPort = false
}
