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
//
// The model is split by element, as htsim splits queue, pipe and sink:
// port.go (egress queues and wires), flowctl.go (credits, PFC), route.go,
// transport.go (flows, receivers, go-back-N), cc.go (the congestion control
// contract), events.go (the run loop).
package packet

import (
	"math"
	"slices"

	"fabriclab/sim/engine"
	"fabriclab/sim/fabric"
	"fabriclab/sim/link"
	"fabriclab/sim/network"
	"fabriclab/sim/plan"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/traffic"
	"fabriclab/sim/unit"
)

var _ network.Model = (*Model)(nil)

// Model is one packet-level simulation.
type Model struct {
	net  plan.Network // the network settings the run reads
	topo *topo.Topology
	eng  *engine.Sim[event]
	run  network.Run[event]

	faults     *faults // link faults (faults.go); nil without any
	nodes              // forwarding and routing (route.go)
	ports      []port  // by link: egress queue and wire (port.go)
	chunks     chunks  // the queues' packet storage (fifo.go)
	buffers            // flow control (flowctl.go)
	classSet           // traffic classes (classes.go)
	transport          // packets, acknowledgements, timeouts (transport.go)
	congestion         // congestion control (cc.go)
	flows      []flow
	// The packet being sent (made, or taken out of a queue) until
	// transmit copies it into its arrival event.
	sending  pkt
	finished int

	routes *snap.Routes // paths and names for the viewer (routing.go)

	recLinks []snap.Link // Record's buffers (snapshot.go)
	recFlows []snap.Flow
	// workload says a collective or training makes the flows (chunks, not
	// the traffic the routing view is for)
	workload bool

	stats struct {
		drops, retrans, timeouts, pauseFrames, ooo int64
		gaps                                       int64 // packets a go-back-N receiver discarded after a hole
	}
	series sampler
	// dropHook, if set (by tests), drops the packets it returns true for
	// as they reach a switch.
	dropHook func(*pkt) bool
}

// New builds a model of a plan.
func New(p *plan.Plan) *Model {
	b := NewBuild(p)
	for !b.Step(math.MaxInt) {
	}
	return b.Model()
}

// Build is a model being built a few flows at a time (Step), so that a
// caller with a frame to draw can build a large fabric's traffic between
// frames: perm-1024's 1,024 flows find their routes as they are added. The
// model is the same however the steps fall: the flows are added in order,
// drawing from the model's random stream in the same order as New.
type Build struct {
	m     *Model
	plan  *plan.Plan // until the build is done
	specs []traffic.Flow
	added int // specs added so far
	done  bool
}

// NewBuild builds all of a model of a plan but its flows.
func NewBuild(p *plan.Plan) *Build {
	m := newModel(p)
	m.flows = make([]flow, 0, len(p.Flows))
	return &Build{m: m, plan: p, specs: p.Flows}
}

// Step adds up to n more flows (n ≥ 1), finishing the model after the last,
// and reports whether the model is built.
func (b *Build) Step(n int) bool {
	if b.done {
		return true
	}
	m := b.m
	end := b.added + min(max(n, 1), len(b.specs)-b.added)
	for _, s := range b.specs[b.added:end] {
		i := m.addFlow(s.Src, s.Dst, s.Bytes, s.Start, nil)
		m.setClass(&m.flows[i], s.Class)
		m.at(s.Start, evFlowStart, 0, i, 0)
	}
	b.added = end
	if b.added < len(b.specs) {
		return false
	}
	m.addStorms()
	m.series.init(m, b.plan.SampleInterval, b.plan.Until)
	b.done, b.specs, b.plan = true, nil, nil
	return true
}

// Flows is how many flows the model's traffic has, and how many Step has added.
func (b *Build) Flows() (added, all int) {
	if b.done {
		return len(b.m.flows), len(b.m.flows)
	}
	return b.added, len(b.specs)
}

// Model is the model, once Step has reported it built.
func (b *Build) Model() *Model {
	if !b.done {
		panic("packet: Build.Model before the build is done")
	}
	return b.m
}

// newModel is a model with its fabric, routing, ports and flow control, and
// no traffic yet.
func newModel(p *plan.Plan) *Model {
	n := &p.Net
	m := &Model{net: *n, topo: p.Topology, eng: engine.New[event](p.Seed)}
	m.routing = n.Routing
	m.perPacket = n.Routing.PerPacket()
	m.sr = n.SR
	m.mtu, m.ackEvery, m.rto = int32(n.MTU), int32(n.AckEvery), n.RTO
	m.lossy = n.FlowControl == plan.Lossy
	m.buffer = int64(n.Buffer)
	m.fabric, m.linkLatency = p.Wiring.Fabric, p.Wiring.Latency
	m.fabricHdr = int32(link.Header(m.fabric))
	m.xoff, m.xon = int64(n.XOff), int64(n.XOn)
	m.initNodes()
	m.initRoutes(p.Names, p.Workload())
	m.initCongestion()
	m.initPorts()
	m.initClasses()
	m.initPools()
	m.drain = p.Wiring.Rate.TxTime(unit.Bytes(m.deepestLossyQueue()))
	m.run = network.NewRun(m.eng, p)
	m.initFaults(p)
	return m
}

// addFlow adds a flow that the caller starts with evFlowStart or activate.
func (m *Model) addFlow(src, dst int, bytes unit.Bytes, start unit.Time, done func()) int32 {
	i := int32(len(m.flows))
	if len(m.flows) == cap(m.flows) {
		// Double: append's 1.25× copied a collective's flows (which hold
		// pointers, so the collector scans each copy) many times over.
		m.flows = slices.Grow(m.flows, len(m.flows))
	}
	m.flows = append(m.flows, flow{})
	m.run.CountFlow(len(m.flows))
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
	f.lossless = m.classes[f.class].lossless
	f.pace = m.ctl.newFlow(i)
	// The 5-tuple: addresses, a random UDP source port (as RoCE picks per QP), port 4791.
	sport := uint64(m.eng.Rand().IntN(1<<14) + 49152)
	f.hash = topo.FlowHash(f.src, f.dst, sport)
	hops := m.hopsTo(f.dst)
	f.port = m.choose(f.srcNode, f.dst, f, nil)
	f.path = -1
	if !m.perPacket {
		// The whole flow takes one path: found once here, not at every hop of every packet.
		f.path = int32(len(m.paths))
		m.paths = append(m.paths, f.port)
		for n := int32(m.topo.Links[f.port].To); n != f.dstNode; {
			l := m.choose(n, f.dst, f, nil)
			m.paths = append(m.paths, l)
			n = int32(m.topo.Links[l].To)
		}
	}
	// Control packets come back over as many hops, without queueing.
	n := unit.Time(hops[f.srcNode])
	f.ctrlDelay = n*m.linkLatency + (n-1)*m.net.SwitchLatency
	f.rtoFloor = 2*f.ctrlDelay + n*m.drain
	return i
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
	if tr.Storage {
		f := &m.flows[i]
		f.class = uint8(m.net.StorageClass)
		f.lossless = m.classes[f.class].lossless
	}
	if tail, ok := m.run.Streams.Join(tr, i); ok && !m.flows[tail].sentAll {
		m.flows[tail].nextInLine = i // starts when tail has been sent
		return
	}
	m.activate(i, &m.flows[i])
}

// At runs fn at time t.
func (m *Model) At(t unit.Time, fn func()) { m.at(t, evCall, 0, m.run.Calls.Add(fn), 0) }

// SetEventBudget bounds the events the run may handle (network.MaxEvents unless set).
func (m *Model) SetEventBudget(n uint64) { m.run.SetEventBudget(n) }

// SetFlowBudget bounds the flows the run may make (network.MaxRunFlows unless set).
func (m *Model) SetFlowBudget(n int) { m.run.SetFlowBudget(n) }
