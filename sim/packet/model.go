// Package packet is the packet-level fabric model: messages cut into MTU-sized
// packets with real header overheads cross egress queues with finite buffers,
// under lossy, credit-based or PFC flow control, routed statically, by ECMP
// hash, adaptively or by spraying.
//
// With cc: dcqcn, switches mark ECN, receivers return CNPs and senders pace
// each flow at its DCQCN rate (dcqcn.go). With cc: ibcc, switches mark FECN,
// receivers return BECNs and senders pace each flow by its congestion
// control table index (ibcc.go).
//
// Simplifications: control traffic (ACK, NACK, CNP, PFC pause frames, credit
// updates) travels out of band with the path's propagation and switch latency
// but does not queue behind data; NVLink and PCIe hops are always
// credit-based (lossless), whatever the fabric uses. Buffers are static per
// port, or a shared pool per switch with dynamic thresholds; with several
// traffic classes each port queues and pauses them apart (classes.go).
package packet

import (
	"fmt"

	"fabriclab/sim/engine"
	"fabriclab/sim/fabric"
	"fabriclab/sim/link"
	"fabriclab/sim/network"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/traffic"
	"fabriclab/sim/unit"
)

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
	evSample                    // record a time-series sample
	evCall                      // run callback a
	evCNP                       // flow a's sender receives a congestion notification
	evRateTimer                 // flow a's DCQCN rate-increase timer
	evPace                      // port a may send a paced flow's packet (generation gen)
	evBECN                      // flow a's source receives a BECN (ibcc)
	evStorm                     // endpoint port a starts (gen 1) or stops (gen 0) a pause storm
)

type event struct {
	kind evKind
	c    uint8 // traffic class, for per-class credits and pauses
	a    int32
	gen  int64
	p    *pkt
}

type pkt struct {
	flow    int32
	seq     int32
	payload int32
	size    int32 // buffer bytes: payload + fabric header
	inLink  int32 // the link it arrived on (-1 at the source)
	class   uint8 // traffic class (network.classes)
	ecn     bool  // a switch marked it congestion experienced (ECN CE, or InfiniBand's FECN)
}

type fcMode uint8

const (
	fcNone fcMode = iota
	fcCredit
	fcPFC
)

// port is one egress port (one direction of a link) and, for PFC and
// credits, the ingress accounting of the node at its far end.
type port struct {
	id       int32
	to       int32
	rate     unit.Rate
	latency  unit.Time
	hopDelay unit.Time // latency plus the far node's switch latency
	hdr      int32     // this link's per-packet header bytes
	fc       fcMode
	toEnd    bool // feeds an endpoint (which consumes at line rate)
	fromEnd  bool // an endpoint's NIC port: its packets get a little timing jitter

	q      fifo
	qBytes int64
	// busyUntil is when the packet on the wire is out; wake says a txDone
	// event is due then (only scheduled when something waits to be sent).
	busyUntil unit.Time
	wake      bool

	credit int64

	pauseState
	pfcIngress

	// cls holds one queue per traffic class when there are several (see
	// classes.go); the port's own queue, flows, credit and pause are then unused.
	cls   []classQueue
	drr   int  // the class deficit round robin serves
	fresh bool // drr's class has not had its quantum for this visit
	// nPaused counts paused classes; pausedSince is when the first was paused.
	nPaused int

	flows []int32 // endpoint ports: flows sending through this port, served round robin
	rr    int

	// DCQCN: ecn says the port marks packets (switch ports of the fabric);
	// paceAt is when a paced flow may send next, if paceArmed (generation paceGen).
	ecn       bool
	paceArmed bool
	paceAt    unit.Time
	paceGen   int64

	recent [recentTx]txRecord // the last packets put on this wire, for snapshots
	nTx    int64

	txWire   int64
	maxQ     int64
	drops    int64
	ecnMarks int64
}

// pauseState is what a PFC pause frame sets: on a port, or on one class of it.
type pauseState struct {
	pausedUntil unit.Time
	pauseGen    int64
	pausedSince unit.Time
	paused      bool
	pauseTime   unit.Time
	pauseFrames int64
}

// pfcIngress is the far end's ingress accounting of a link (PFC), for the
// whole link or one class.
type pfcIngress struct {
	inBytes    int64
	xoffSent   bool
	refreshGen int64
}

func (p *port) queued() int { return p.q.len() }

func (p *port) push(x *pkt) {
	p.q.add(x)
	p.qBytes += int64(x.size)
	if p.qBytes > p.maxQ {
		p.maxQ = p.qBytes
	}
}

func (p *port) pop() *pkt {
	x := p.q.take()
	p.qBytes -= int64(x.size)
	return x
}

// recentTx is how many of a port's last transmissions a snapshot can show.
const recentTx = 4

type txRecord struct {
	start, arrive unit.Time
	flow          int32
	marked        bool // ECN congestion experienced
}

type flow struct {
	src, dst   int32 // endpoint indices
	srcNode    int32
	dstNode    int32
	bytes      int64
	npkts      int32
	start      unit.Time
	port       int32 // first-hop port
	hash       uint64
	ctrlDelay  unit.Time // one-way latency of control packets back to the sender
	onPort     bool
	nextSeq    int32
	maxSent    int32
	una        int32 // lossy: first packet not yet acknowledged
	rtoAt      unit.Time
	rtoArmed   bool
	expected   int32    // receiver: next in-order packet
	ooo        []uint64 // receiver: packets that arrived ahead of expected
	nackFor    int32
	received   int64 // payload bytes
	finish     unit.Time
	done       bool
	retrans    int64
	outOfOrder int64
	class      uint8
	lossy      bool          // drops are possible: go-back-N with ACKs and a timeout
	onDone     func()        // workload callback when the last byte arrives
	sentAll    bool          // every packet has left the sender once
	label      network.Label // the workload's labels (chunk id, step)
	nextInLine int32         // the flow queued behind this one on its stream, or -1
	cc         *rateControl  // DCQCN state, nil without congestion control
	ib         *cctState     // InfiniBand congestion control state, nil without cc: ibcc
}

var _ network.Model = (*Model)(nil)

// Model is one packet-level simulation.
type Model struct {
	sc   *scenario.Scenario
	topo *topo.Topology
	eng  *engine.Sim[event]

	ports      []port
	forwards   []bool
	isSwitch   []bool
	endpointOf []int32 // node → endpoint index, -1 for others
	hops       [][]uint8
	nodeSalt   []uint64
	routing    string
	mtu        int32
	fabricHdr  int32
	buffer     int64
	xoff, xon  int64
	ackEvery   int32
	rto        unit.Time
	lossy      bool
	perPacket  bool
	quantum    []unit.Time // per port: one pause quantum
	cc         *dcqcn      // nil without congestion control
	ib         *ibcc       // nil without InfiniBand congestion control
	classes    []classInfo // network.classes; one entry when there is a single class
	collClass  uint8       // class of transfers a workload sends (collective.class)
	pools      []pool      // per node: the shared buffer (buffer_model: shared), else nil
	alpha      float64     // the dynamic threshold's α
	scan       uint64      // round-robin scans of paced flows, for rateControl.scan

	flows    []flow
	pool     []*pkt
	run      network.Run[event]
	finished int
	lastRx   unit.Time

	stats struct {
		drops, retrans, timeouts, pauseFrames, ooo int64
		ecnMarks, cnps                             int64
	}
	series sampler
}

// New builds a model for a validated scenario.
func New(sc *scenario.Scenario) *Model {
	t := topo.Build(sc)
	m := &Model{
		sc: sc, topo: t, eng: engine.New[event](sc.Seed),
		routing: sc.Network.Routing, mtu: int32(sc.Network.MTU),
		buffer: int64(sc.Network.Buffer), ackEvery: int32(sc.Network.AckEvery), rto: sc.Network.RTO,
		lossy:     sc.Network.FlowControl == scenario.FCNone,
		perPacket: sc.Network.Routing == scenario.RouteAdaptive || sc.Network.Routing == scenario.RouteSpray,
	}
	kind, _ := sc.Wire()
	m.fabricHdr = int32(link.Header(kind))
	xoff, xon, _ := sc.PFCThresholds()
	m.xoff, m.xon = int64(xoff), int64(xon)

	n := len(t.Nodes)
	m.forwards = make([]bool, n)
	m.isSwitch = make([]bool, n)
	m.endpointOf = make([]int32, n)
	m.nodeSalt = make([]uint64, n)
	for i, nd := range t.Nodes {
		m.forwards[i] = nd.Role.Forwards()
		m.isSwitch[i] = nd.Role.IsSwitch()
		m.endpointOf[i] = -1
		m.nodeSalt[i] = m.eng.Rand().Uint64()
	}
	for e, id := range t.Endpoints {
		m.endpointOf[id] = int32(e)
	}
	m.hops = make([][]uint8, len(t.Endpoints))

	fc := fcNone
	switch sc.Network.FlowControl {
	case scenario.FCCredit:
		fc = fcCredit
	case scenario.FCPFC:
		fc = fcPFC
	}
	if sc.Network.CC == scenario.CCDCQCN {
		m.cc = newDCQCN(sc)
	}
	m.ports = make([]port, len(t.Links))
	m.quantum = make([]unit.Time, len(t.Links))
	for i, l := range t.Links {
		p := &m.ports[i]
		p.id, p.to, p.rate, p.latency = int32(i), int32(l.To), l.Rate, l.Latency
		p.hopDelay = l.Latency
		if t.Nodes[l.To].Role.Forwards() {
			p.hopDelay += sc.Topology.SwitchLatency
		}
		p.hdr = int32(link.Header(l.Kind))
		p.fc = fc
		if l.Kind == link.NVLink4 || l.Kind == link.PCIe5 {
			p.fc = fcCredit
		}
		p.toEnd = !t.Nodes[l.To].Role.Forwards()
		p.fromEnd = !t.Nodes[l.From].Role.Forwards()
		p.credit = m.buffer
		p.ecn = m.cc != nil && m.isSwitch[l.From] && l.Kind == kind
		m.quantum[i] = l.Rate.TxTime(64) // 512 bit times
	}
	if sc.Network.CC == scenario.CCIBCC {
		m.ib = newIBCC(m)
	}
	m.initClasses()
	m.initPools()
	m.run = network.NewRun(m.eng, sc)
	m.addFlows()
	m.addStorms()
	m.series.init(m)
	return m
}

// hopsTo returns (computing once) the hop counts to endpoint e.
func (m *Model) hopsTo(e int32) []uint8 {
	h := m.hops[e]
	if h == nil {
		h = m.topo.HopsTo(m.topo.Endpoints[e])
		m.hops[e] = h
	}
	return h
}

func (m *Model) addFlows() {
	specs := traffic.Flows(m.sc)
	m.flows = make([]flow, 0, len(specs))
	for _, s := range specs {
		i := m.addFlow(s.Src, s.Dst, s.Bytes, s.Start, nil)
		m.setClass(&m.flows[i], s.Class)
		m.eng.At(s.Start, event{kind: evFlowStart, a: i})
	}
}

// addFlow adds a flow that the caller starts with evFlowStart or activate.
func (m *Model) addFlow(src, dst int, bytes unit.Bytes, start unit.Time, done func()) int32 {
	i := int32(len(m.flows))
	m.flows = append(m.flows, flow{})
	f := &m.flows[i]
	f.src, f.dst = int32(src), int32(dst)
	f.srcNode, f.dstNode = int32(m.topo.Endpoints[src]), int32(m.topo.Endpoints[dst])
	f.bytes = int64(bytes)
	f.npkts = int32((f.bytes + int64(m.mtu) - 1) / int64(m.mtu))
	f.start = start
	f.nackFor = -1
	f.nextInLine = -1
	f.label = network.NoLabel
	f.onDone = done
	f.class = m.collClass
	f.lossy = m.lossy || !m.classes[f.class].lossless
	if m.cc != nil {
		f.cc = m.cc.newRateControl()
	}
	if m.ib != nil {
		f.ib = m.ib.newCCTState()
	}
	// The 5-tuple: addresses, a random UDP source port (as RoCE picks per QP), port 4791.
	sport := uint64(m.eng.Rand().IntN(1<<14) + 49152)
	f.hash = topo.FlowHash(f.src, f.dst, sport)
	hops := m.hopsTo(f.dst)
	f.port = m.choose(f.srcNode, f.dst, hops, f, nil)
	// Control packets come back over as many hops, without queueing.
	n := unit.Time(hops[f.srcNode])
	f.ctrlDelay = n*m.sc.Topology.LinkLatency + (n-1)*m.sc.Topology.SwitchLatency
	return i
}

// Latency is the one-way latency of a full packet from src to dst on an idle fabric.
func (m *Model) Latency(src, dst int) unit.Time {
	if src == dst {
		return 0
	}
	hops := m.hopsTo(int32(dst))
	dstNode := int32(m.topo.Endpoints[dst])
	var d unit.Time
	for n := int32(m.topo.Endpoints[src]); n != dstNode; {
		want := hops[n] - 1
		for _, l := range m.topo.Nodes[n].Out {
			to := int32(m.topo.Links[l].To)
			if hops[to] == want && (m.forwards[to] || to == dstNode) {
				p := &m.ports[l]
				if m.forwards[n] {
					d += p.rate.TxTime(unit.Bytes(m.mtu + p.hdr))
				}
				d += p.hopDelay
				n = to
				break
			}
		}
	}
	return d
}

// Now is the current simulated time.
func (m *Model) Now() unit.Time { return m.eng.Now() }

// Send starts a transfer now; done runs when its last byte arrives.
func (m *Model) Send(tr fabric.Transfer, done func()) {
	if network.Local(tr) {
		m.At(m.eng.Now(), done)
		return
	}
	i := m.addFlow(tr.Src, tr.Dst, tr.Bytes, m.eng.Now(), done)
	m.flows[i].label = network.LabelOf(tr)
	if tail, ok := m.run.Streams.Join(tr, i); ok && !m.flows[tail].sentAll {
		m.flows[tail].nextInLine = i // starts when tail has been sent
		return
	}
	m.activate(i, &m.flows[i])
}

// At runs fn at time t.
func (m *Model) At(t unit.Time, fn func()) { m.eng.At(t, event{kind: evCall, a: m.run.Calls.Add(fn)}) }

// SetEventBudget bounds the events the run may handle (network.MaxEvents unless set).
func (m *Model) SetEventBudget(n uint64) { m.run.SetEventBudget(n) }

// idle reports whether every flow has finished and no callback is pending.
func (m *Model) idle() bool { return m.finished == len(m.flows) && m.run.Calls.Pending() == 0 }

// Run runs until every flow has finished, the time limit or the event budget.
func (m *Model) Run() {
	for m.Advance(unit.Never) {
	}
}

// Advance runs every event up to time t and reports whether the run goes on
// past it. The clock ends at t unless the run ended first.
func (m *Model) Advance(t unit.Time) bool {
	t, ok := m.run.Begin(t, m.idle())
	if !ok {
		return false
	}
	for !m.run.Stopped {
		ev, ok := m.eng.Next(t)
		if !ok {
			break
		}
		m.handle(ev)
	}
	if m.run.Pause(t) {
		return true
	}
	m.series.final(m)
	return false
}

func (m *Model) handle(ev event) {
	switch ev.kind {
	case evArrive:
		m.arrive(ev.a, ev.p)
	case evTxDone:
		p := &m.ports[ev.a]
		p.wake = false
		m.try(p)
	case evFlowStart:
		f := &m.flows[ev.a]
		f.start = m.eng.Now()
		m.activate(ev.a, f)
	case evCredit:
		p := &m.ports[ev.a]
		if p.cls != nil {
			p.cls[ev.c].credit += ev.gen
		} else {
			p.credit += ev.gen
		}
		m.try(p)
	case evPause:
		m.pause(&m.ports[ev.a], ev.c, ev.gen)
	case evPauseExpire:
		p := &m.ports[ev.a]
		if ps := p.pauseOf(ev.c); ps.paused && ev.gen == ps.pauseGen {
			m.unpause(p, ev.c)
		}
	case evStorm:
		m.storm(&m.ports[ev.a], ev.gen == 1)
	case evPFCRefresh:
		p := &m.ports[ev.a]
		if in := p.ingressOf(ev.c); in.xoffSent && ev.gen == in.refreshGen {
			m.sendPause(p, ev.c, 0xffff)
		}
	case evAck:
		m.ack(ev.a, int32(ev.gen))
	case evNack:
		m.nack(ev.a, int32(ev.gen))
	case evRTO:
		m.timeout(ev.a)
	case evSample:
		m.series.sample(m)
	case evCNP:
		m.reduceRate(ev.a)
	case evRateTimer:
		m.rateTimer(ev.a)
	case evBECN:
		m.raiseCCTI(ev.a)
	case evPace:
		p := &m.ports[ev.a]
		if p.paceArmed && ev.gen == p.paceGen {
			p.paceArmed = false
			m.try(p)
		}
	case evCall:
		m.run.Calls.Run(ev.a)
		m.run.StopIf(m.idle())
	default:
		panic(fmt.Sprintf("packet: unknown event kind %d", ev.kind))
	}
}

func (m *Model) newPkt() *pkt {
	if n := len(m.pool); n > 0 {
		p := m.pool[n-1]
		m.pool = m.pool[:n-1]
		return p
	}
	return new(pkt)
}

func (m *Model) free(p *pkt) { m.pool = append(m.pool, p) }

// activate puts flow i on its first-hop port's round robin.
func (m *Model) activate(i int32, f *flow) {
	if f.onPort || f.nextSeq >= f.npkts {
		return
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

// try starts the next transmission on p if the port is free, not paused and has credit.
func (m *Model) try(p *port) {
	if p.paused || m.run.Stopped {
		return
	}
	if p.cls != nil {
		m.tryClasses(p)
		return
	}
	now := m.eng.Now()
	if p.busyUntil > now {
		if !p.wake {
			p.wake = true
			m.eng.At(p.busyUntil, event{kind: evTxDone, a: p.id})
		}
		return
	}
	var x *pkt
	if p.queued() > 0 {
		x = p.q.front()
		if p.fc == fcCredit && !p.toEnd && p.credit < int64(x.size) {
			return
		}
		if m.ib != nil {
			m.forwardFECN(p, x)
		}
		p.pop()
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
	tx := p.rate.TxTime(unit.Bytes(wire))
	p.txWire += wire
	p.busyUntil = now + tx
	x.inLink = p.id
	if !p.wake && p.pending() {
		// (A wake already due now will find the port busy and come back at busyUntil.)
		p.wake = true
		m.eng.At(p.busyUntil, event{kind: evTxDone, a: p.id})
	}
	arrive := now + tx + p.hopDelay
	if p.fromEnd {
		// Real NICs are not phase-locked to each other: without up to a quarter
		// packet time of jitter, synchronised senders would always reach a
		// shared queue in the same order. It never reorders one link's packets.
		arrive += unit.Time(m.eng.Rand().Int64N(int64(tx/4) + 1))
	}
	m.eng.At(arrive, event{kind: evArrive, a: p.to, p: x})
	p.recent[p.nTx%recentTx] = txRecord{start: now, arrive: arrive, flow: x.flow, marked: x.ecn}
	p.nTx++
}

// nextFromFlows makes the next packet of the next flow in round-robin order.
func (m *Model) nextFromFlows(p *port) *pkt {
	if m.cc != nil || m.ib != nil {
		return m.nextPaced(p)
	}
	for len(p.flows) > 0 {
		if p.rr >= len(p.flows) {
			p.rr = 0
		}
		i := p.flows[p.rr]
		f := &m.flows[i]
		if f.nextSeq >= f.npkts {
			m.leave(p, f)
			continue
		}
		p.rr++
		return m.makePkt(i, f)
	}
	return nil
}

// leave takes the flow at p.rr, which has nothing left to send, off the
// round robin (go-back-N re-adds it).
func (m *Model) leave(p *port, f *flow) {
	last := len(p.flows) - 1
	p.flows[p.rr] = p.flows[last]
	p.flows = p.flows[:last]
	f.onPort = false
}

// makePkt makes flow i's next packet.
func (m *Model) makePkt(i int32, f *flow) *pkt {
	x := m.newPkt()
	x.flow, x.seq, x.inLink, x.ecn = i, f.nextSeq, -1, false
	x.class = f.class
	x.payload = m.mtu
	if f.nextSeq == f.npkts-1 {
		x.payload = int32(f.bytes - int64(f.npkts-1)*int64(m.mtu))
	}
	x.size = x.payload + m.fabricHdr
	if f.nextSeq < f.maxSent {
		f.retrans++
		m.stats.retrans++
	}
	f.nextSeq++
	f.maxSent = max(f.maxSent, f.nextSeq)
	if f.nextSeq == f.npkts && !f.sentAll {
		f.sentAll = true
		if f.nextInLine >= 0 {
			m.eng.At(m.eng.Now(), event{kind: evFlowStart, a: f.nextInLine})
		}
	}
	if f.lossy && !f.rtoArmed {
		f.rtoArmed = true
		f.rtoAt = m.eng.Now() + m.rto
		m.eng.At(f.rtoAt, event{kind: evRTO, a: i})
	}
	return x
}

// release frees x's place in the buffer of the node it is leaving.
func (m *Model) release(x *pkt) {
	if x.inLink < 0 {
		return
	}
	in := &m.ports[x.inLink]
	if m.pools != nil {
		m.pools[in.to].used -= int64(x.size)
	}
	switch in.fc {
	case fcCredit:
		if !in.toEnd {
			m.eng.At(m.eng.Now()+in.latency, event{kind: evCredit, c: x.class, a: in.id, gen: int64(x.size)})
		}
	case fcPFC:
		if !m.classes[x.class].lossless {
			return
		}
		ig := in.ingressOf(x.class)
		ig.inBytes -= int64(x.size)
		if ig.xoffSent && ig.inBytes <= m.xonAt(in) {
			ig.xoffSent = false
			m.sendPause(in, x.class, 0)
		}
	}
}

// sendPause sends a PFC frame for class c from the far end of ingress link
// in back to its sender.
func (m *Model) sendPause(in *port, c uint8, quanta int64) {
	m.stats.pauseFrames++
	m.eng.At(m.eng.Now()+in.latency+m.quantum[in.id], event{kind: evPause, c: c, a: in.id, gen: quanta})
	if quanta > 0 {
		ig := in.ingressOf(c)
		ig.refreshGen++
		// Refresh before the pause runs out, as switches do while congested.
		m.eng.At(m.eng.Now()+unit.Time(quanta)*m.quantum[in.id]/2, event{kind: evPFCRefresh, c: c, a: in.id, gen: ig.refreshGen})
	}
}

// pause is a pause frame for class c reaching port p.
func (m *Model) pause(p *port, c uint8, quanta int64) {
	ps := p.pauseOf(c)
	ps.pauseFrames++
	if p.cls != nil {
		p.pauseFrames++
	}
	now := m.eng.Now()
	if quanta == 0 {
		if ps.paused {
			m.unpause(p, c)
		}
		return
	}
	if !ps.paused {
		ps.paused, ps.pausedSince = true, now
		if p.cls != nil {
			if p.nPaused == 0 {
				p.pausedSince = now
			}
			p.nPaused++
		}
	}
	ps.pausedUntil = now + unit.Time(quanta)*m.quantum[p.id]
	ps.pauseGen++
	m.eng.At(ps.pausedUntil, event{kind: evPauseExpire, c: c, a: p.id, gen: ps.pauseGen})
}

func (m *Model) unpause(p *port, c uint8) {
	ps := p.pauseOf(c)
	ps.paused = false
	ps.pauseGen++
	now := m.eng.Now()
	ps.pauseTime += now - ps.pausedSince
	if p.cls != nil {
		p.nPaused--
		if p.nPaused == 0 {
			p.pauseTime += now - p.pausedSince // time with any class paused
		}
	}
	m.try(p)
}

// arrive handles packet x reaching node n.
func (m *Model) arrive(n int32, x *pkt) {
	if !m.forwards[n] {
		m.deliver(x)
		return
	}
	in := &m.ports[x.inLink]
	if m.pools != nil {
		m.pools[n].used += int64(x.size)
	}
	if in.fc == fcPFC && m.classes[x.class].lossless {
		ig := in.ingressOf(x.class)
		ig.inBytes += int64(x.size)
		if m.overflows(n, ig) {
			// Headroom exhausted: a lossless fabric should never get here.
			ig.inBytes -= int64(x.size)
			m.drop(in, x)
			return
		}
		if !ig.xoffSent && ig.inBytes > m.xoffAt(n) {
			ig.xoffSent = true
			m.sendPause(in, x.class, 0xffff)
		}
	}
	f := &m.flows[x.flow]
	out := &m.ports[m.choose(n, f.dst, m.hopsTo(f.dst), f, x)]
	if (out.fc == fcNone || out.fc == fcPFC && !m.classes[x.class].lossless) && m.tailDrop(n, out, x) {
		m.drop(out, x)
		return
	}
	if out.ecn {
		m.mark(out, x)
	}
	if out.cls != nil {
		out.pushClass(x)
	} else {
		out.push(x)
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
	m.free(x)
}

// choose picks the egress port at node n towards endpoint dst among the minimal next hops.
func (m *Model) choose(n int32, dst int32, hops []uint8, f *flow, x *pkt) int32 {
	want := hops[n] - 1
	dstNode := int32(m.topo.Endpoints[dst])
	out := m.topo.Nodes[n].Out
	links := m.topo.Links
	ok := func(l int) bool {
		to := links[l].To
		return hops[to] == want && (m.forwards[to] || int32(to) == dstNode)
	}
	count := 0
	for _, l := range out {
		if ok(l) {
			count++
		}
	}
	if count == 0 {
		panic(fmt.Sprintf("packet: no route from %s to endpoint %d", m.topo.Nodes[n].Name, dst))
	}
	if count == 1 {
		for _, l := range out {
			if ok(l) {
				return int32(l)
			}
		}
	}
	var k int
	switch m.routing {
	case scenario.RouteStatic:
		// d-mod-k: each tier divides the destination by the fan-out below it.
		d := int(dst)
		for range max(m.topo.Nodes[n].Tier-2, 0) {
			d /= count
		}
		k = d % count
	case scenario.RouteECMP:
		k = topo.ECMPPick(f.hash, m.nodeSalt[n], count)
	case scenario.RouteSpray:
		k = m.eng.Rand().IntN(count)
	case scenario.RouteAdaptive:
		best, ties := int64(-1), 0
		for _, l := range out {
			if !ok(l) {
				continue
			}
			p := &m.ports[l]
			load := p.qBytes
			if p.busyUntil > m.eng.Now() {
				load += int64(m.mtu)
			}
			switch {
			case best < 0 || load < best:
				best, ties, k = load, 1, l
			case load == best:
				ties++
				if m.eng.Rand().IntN(ties) == 0 {
					k = l
				}
			}
		}
		return int32(k)
	}
	for _, l := range out {
		if ok(l) {
			if k == 0 {
				return int32(l)
			}
			k--
		}
	}
	panic("packet: unreachable")
}

// deliver hands x to its receiver.
func (m *Model) deliver(x *pkt) {
	i := x.flow
	f := &m.flows[i]
	s, payload := x.seq, int64(x.payload)
	if x.ecn {
		if f.ib != nil {
			m.becn(i, f)
		} else {
			m.notify(i, f)
		}
	}
	m.free(x)
	now := m.eng.Now()
	switch {
	case s == f.expected:
		f.expected++
		f.received += payload
		for f.expected < f.npkts && f.hasOOO(f.expected) {
			f.clearOOO(f.expected)
			f.expected++
		}
	case s > f.expected:
		if f.lossy && !m.perPacket {
			// Go-back-N receivers drop what arrives after a gap and ask once for the gap.
			if f.nackFor != f.expected {
				f.nackFor = f.expected
				m.eng.At(now+f.ctrlDelay, event{kind: evNack, a: i, gen: int64(f.expected)})
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
	m.lastRx = now
	m.series.rx(int(i), payload)
	if f.lossy && (f.expected%m.ackEvery == 0 || f.expected == f.npkts) {
		m.eng.At(now+f.ctrlDelay, event{kind: evAck, a: i, gen: int64(f.expected)})
	}
	if f.expected == f.npkts && !f.done {
		f.done, f.finish = true, now
		f.ooo = nil
		m.finished++
		if cb := f.onDone; cb != nil {
			f.onDone = nil
			cb() // may add flows: f is not used after this
		}
		m.run.StopIf(m.idle())
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

func (m *Model) ack(i int32, upto int32) {
	f := &m.flows[i]
	if upto > f.una {
		f.una = upto
		f.rtoAt = m.eng.Now() + m.rto
	}
}

func (m *Model) nack(i int32, from int32) {
	f := &m.flows[i]
	if from > f.una {
		f.una = from
	}
	if from < f.nextSeq {
		f.nextSeq = from
		f.rtoAt = m.eng.Now() + m.rto
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
	now := m.eng.Now()
	if now < f.rtoAt {
		f.rtoArmed = true
		m.eng.At(f.rtoAt, event{kind: evRTO, a: i})
		return
	}
	// Nothing acknowledged for a whole timeout: go back to the first unacknowledged packet.
	m.stats.timeouts++
	f.nextSeq = f.una
	f.rtoAt = now + m.rto
	f.rtoArmed = true
	m.eng.At(f.rtoAt, event{kind: evRTO, a: i})
	m.activate(i, f)
}
