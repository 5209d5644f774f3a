// Package fluid is the flow-level fabric model, for scale: flows are fluids
// that share links max-min fairly, with rates recomputed only when a flow
// starts or drains, and only for the flows that share links with it directly
// or transitively. It runs the same scenarios and workloads as the packet
// model and reports the same metrics.
//
// Simplifications: no queues, drops, pauses or congestion control — a flow
// gets its max-min fair share at once; a link carries payload at its rate
// times the fabric's header efficiency for full MTU packets; a flow holds its
// share on every link of its path until its last byte leaves the sender and
// is delivered one path latency later; adaptive routing and spraying split a
// flow evenly over all minimal paths.
package fluid

import (
	"fmt"
	"math"
	"slices"

	"fabriclab/sim/engine"
	"fabriclab/sim/fabric"
	"fabriclab/sim/link"
	"fabriclab/sim/network"
	"fabriclab/sim/plan"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

type evKind uint8

const (
	evStart   evKind = iota // flow a starts
	evDrain                 // the earliest projected drain may be due
	evShare                 // recompute the rates of the flows touched since the last time
	evDeliver               // flow a's last byte arrives
	evCall                  // run callback a
	evSample                // record a time-series sample
	evFault                 // link fault a/4 enters phase a%4 (faults.go)
)

type event struct {
	kind evKind
	a    int32
}

type flowState uint8

const (
	waiting flowState = iota // not started
	active                   // sending
	drained                  // last byte sent, not yet delivered
	done                     // delivered
)

type flow struct {
	src, dst int32 // endpoint indices
	bytes    int64
	start    unit.Time
	delay    unit.Time // one-way latency: drained to delivered
	links    []int32
	weights  []float64 // the flow's share on each link; nil: 1 on all
	pos      []int32   // index of the flow's entry in each link's list
	hash     uint64    // ECMP: the 5-tuple's hash
	state    flowState

	rate       float64   // payload bytes per second
	fair       float64   // rate just computed by water-filling
	remaining  float64   // bytes left to send at lastT
	lastT      unit.Time // when remaining was last brought up to date
	drainAt    unit.Time // projected time the last byte leaves
	heapIdx    int32     // place in the drain heap, -1 when not in it
	nextInLine int32     // the flow queued behind this one on its stream, or -1
	finish     unit.Time
	mark       uint32 // component search generation
	frozen     uint32 // water-filling generation in which the rate was fixed
	onDone     func()
	label      network.Label // the workload's labels (chunk id, step)
}

func (f *flow) weight(k int) float64 {
	if f.weights == nil {
		return 1
	}
	return f.weights[k]
}

// sent is the payload the flow has sent by t (not before lastT).
func (f *flow) sent(t unit.Time) float64 {
	switch f.state {
	case waiting:
		return 0
	case active:
		return float64(f.bytes) - max(f.remaining-float64(f.rate*float64(t-f.lastT))/1e12, 0) // float64(…) stops FMA fusion: amd64 and wasm agree
	}
	return float64(f.bytes)
}

// entry is one active flow on a link: the flow and which of its links this is.
type entry struct{ flow, k int32 }

// linkState is one direction of a cable.
type linkState struct {
	capacity float64   // payload bytes per second: rate × header efficiency
	load     float64   // payload bytes per second now
	lastT    unit.Time // when carried was last brought up to date
	carried  float64   // payload bytes carried up to lastT
	flows    []entry   // active flows crossing the link
	mark     uint32    // component search generation
}

func (l *linkState) carriedAt(t unit.Time) float64 {
	return l.carried + float64(l.load*float64(t-l.lastT))/1e12 // float64(…) stops FMA fusion: amd64 and wasm agree
}

var _ network.Model = (*Model)(nil)

// Model is one flow-level simulation.
type Model struct {
	topo     *topo.Topology
	eng      *engine.Sim[event]
	route    *router
	routing  plan.Routing
	mtu      unit.Bytes
	workload bool // a collective or training makes the flows
	nodeSalt []uint64

	links   []linkState
	flows   []flow
	slab    []int32 // what take has not yet handed out
	pathBuf []int32 // a path as the router finds it, before take

	routes *snap.Routes // paths and names for the viewer (routing.go)
	rec    recording    // what changed since the last Record (snapshot.go)

	drains  drainHeap
	armedAt unit.Time // the earliest evDrain pending (Never if none)

	dirty      []int32 // links whose flows changed since the last evShare
	shareArmed bool
	markGen    uint32
	compLinks  []int32
	compFlows  []int32
	fill       filler

	run         network.Run[event]
	activeFlows int
	finished    int

	// Everything sent so far, for the goodput series: sentAcc at sentT plus totalRate since.
	sentAcc   float64
	sentT     unit.Time
	totalRate float64

	stats struct {
		events     uint64 // flow starts and deliveries, callbacks, rate recomputations
		recomputes uint64 // water-fillings
		refilled   uint64 // flows whose rates a water-filling computed
		searched   uint64 // flow–link entries the component searches looked at
	}
	series sampler
	faults *faults // nil without link faults
}

// New builds a model of a plan.
func New(p *plan.Plan) *Model {
	t := p.Topology
	m := &Model{
		topo: t, eng: engine.New[event](p.Seed), route: newRouter(t, p.Net.SwitchLatency),
		routing: p.Net.Routing, mtu: p.Net.MTU, workload: p.Workload(), armedAt: unit.Never,
	}
	// Salts drawn as the packet model draws them, so that static flows hash alike.
	m.nodeSalt = make([]uint64, len(t.Nodes))
	for i := range m.nodeSalt {
		m.nodeSalt[i] = m.eng.Rand().Uint64()
	}
	m.links = make([]linkState, len(t.Links))
	for i, l := range t.Links {
		m.links[i].capacity = float64(l.Rate) / 8 * link.Efficiency(l.Kind, m.mtu)
	}
	m.fill.init(len(t.Links))
	m.rec.init(len(t.Links))
	m.initRoutes(p.Names)
	m.run = network.NewRun(m.eng, p)
	m.flows = make([]flow, 0, len(p.Flows))
	for _, s := range p.Flows {
		i := m.addFlow(s.Src, s.Dst, s.Bytes, s.Start, nil)
		m.eng.At(s.Start, event{kind: evStart, a: i})
	}
	m.series.init(m, p.SampleInterval)
	m.initFaults(p)
	return m
}

// addFlow adds a flow and routes it; the caller starts it.
func (m *Model) addFlow(src, dst int, bytes unit.Bytes, start unit.Time, done func()) int32 {
	if len(m.flows) >= math.MaxInt32 {
		panic("fluid: too many flows")
	}
	i := int32(len(m.flows))
	if len(m.flows) == cap(m.flows) {
		m.flows = slices.Grow(m.flows, len(m.flows)) // double: append's 1.25× copied 65,536 flows five times over
	}
	m.flows = append(m.flows, flow{
		src: int32(src), dst: int32(dst), bytes: int64(bytes), start: start, heapIdx: -1, onDone: done, nextInLine: -1,
		label: network.NoLabel,
	})
	m.run.CountFlow(len(m.flows))
	f := &m.flows[i]
	// The 5-tuple: addresses, a random UDP source port (as RoCE picks per QP), port 4791.
	sport := uint64(m.eng.IntN(1<<14) + 49152)
	f.hash = topo.FlowHash(f.src, f.dst, sport)
	srcNode, dstNode := int32(m.topo.Endpoints[src]), int32(m.topo.Endpoints[dst])
	payload := min(bytes, m.mtu)
	var links []int32
	switch {
	case m.routing.PerPacket():
		links, f.weights, f.delay = m.route.split(srcNode, dstNode, payload, m.pathBuf[:0], nil)
		if allOne(f.weights) {
			f.weights = nil // a single minimal path
		}
	default:
		links, f.delay = m.route.path(srcNode, dstNode, payload, func(n int32, c []int32) int32 {
			return m.pick(n, c, f)
		}, m.pathBuf[:0])
	}
	m.pathBuf = links
	n := len(links)
	buf := m.take(2 * n)
	f.links, f.pos = buf[:n:n], buf[n:]
	copy(f.links, links)
	return i
}

// take returns n int32s carved from a shared block, for a flow's links and
// positions: two allocations a flow less (and the path's growing ones), which
// WebAssembly pays for far more than native code.
func (m *Model) take(n int) []int32 {
	if n > len(m.slab) {
		m.slab = make([]int32, max(n, 1<<14))
	}
	s := m.slab[:n:n]
	m.slab = m.slab[n:]
	return s
}

func allOne(weights []float64) bool {
	for _, w := range weights {
		if w != 1 {
			return false
		}
	}
	return true
}

// pick chooses among the minimal next hops at node n as the packet model does
// for a whole flow: d-mod-k for static routing, else the flow's hash salted
// per switch.
func (m *Model) pick(n int32, c []int32, f *flow) int32 {
	count := len(c)
	var k int
	if m.routing == plan.Static {
		k = m.topo.DModK(int(n), f.dst, count)
	} else {
		k = topo.ECMPPick(f.hash, m.nodeSalt[n], count)
	}
	return c[k]
}

// Latency is the one-way latency of a full packet from src to dst on an idle fabric.
func (m *Model) Latency(src, dst int) unit.Time {
	if src == dst {
		return 0
	}
	links, d := m.route.path(int32(m.topo.Endpoints[src]), int32(m.topo.Endpoints[dst]), m.mtu,
		func(_ int32, c []int32) int32 { return c[0] }, m.pathBuf[:0])
	m.pathBuf = links
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
	if tail, ok := m.run.Streams.Join(tr, i); ok && m.flows[tail].state < drained { // waiting or sending
		m.flows[tail].nextInLine = i // starts when tail has been sent
		return
	}
	m.startFlow(i)
}

// At runs fn at time t.
func (m *Model) At(t unit.Time, fn func()) { m.eng.At(t, event{kind: evCall, a: m.run.Calls.Add(fn)}) }

// SetEventBudget bounds the events the run may handle (network.MaxEvents unless set).
func (m *Model) SetEventBudget(n uint64) { m.run.SetEventBudget(n) }

// SetFlowBudget bounds the flows the run may make (network.MaxRunFlows unless set).
func (m *Model) SetFlowBudget(n int) { m.run.SetFlowBudget(n) }

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
	more, _ := m.AdvanceEvents(t, 0)
	return more
}

// AdvanceEvents is Advance handling at most n engine events (0: no bound),
// and says whether it reached t; a call cut short leaves the rest of the
// step to the next (network.Model).
func (m *Model) AdvanceEvents(t unit.Time, n uint64) (more, reached bool) {
	t, ok := m.run.Begin(t, m.idle())
	if !ok {
		return false, true
	}
	m.run.Cap(n)
	for !m.run.Stopped { // the loop of network.Run.Advance, calling handle directly
		ev := m.eng.NextRef(t) // in its slot (events hold no pointers)
		if ev == nil {
			break
		}
		m.handle(ev)
	}
	if m.run.Cut() {
		return true, false
	}
	return m.run.End(t, func() { m.series.final(m) }), true
}

// Events is how many engine events the model has handled (Result's
// Totals.Events counts fewer: see network.Model's SetEventBudget).
func (m *Model) Events() uint64 { return m.eng.Events() }

func (m *Model) handle(ev *event) {
	switch ev.kind {
	case evStart:
		m.startFlow(ev.a)
	case evDrain:
		m.drainDue()
	case evShare:
		m.shareArmed = false
		m.share()
	case evDeliver:
		m.deliver(ev.a)
	case evCall:
		m.stats.events++
		m.run.Calls.Run(ev.a)
		m.run.StopIf(m.idle())
	case evSample:
		m.series.sample(m)
	case evFault:
		m.fault(int(ev.a/4), int(ev.a%4))
	default:
		panic(fmt.Sprintf("fluid: unknown event kind %d", ev.kind))
	}
}

// touch marks link l for the next rate recomputation, which runs at the
// current time after every event already due now.
func (m *Model) touch(l int32) {
	m.dirty = append(m.dirty, l)
	if !m.shareArmed {
		m.shareArmed = true
		m.eng.At(m.eng.Now(), event{kind: evShare})
	}
}

// startFlow puts flow i on its links; its rate is set by the next evShare.
func (m *Model) startFlow(i int32) {
	f := &m.flows[i]
	m.stats.events++
	f.state, f.remaining, f.lastT = active, float64(f.bytes), m.eng.Now()
	if m.faults != nil {
		m.starting(i)
	}
	m.activeFlows++
	m.rec.flow(i, 1)
	for k, l := range f.links {
		ls := &m.links[l]
		f.pos[k] = int32(len(ls.flows))
		ls.flows = append(ls.flows, entry{i, int32(k)})
		m.touch(l)
	}
}

// drainDue ends the flows whose last byte has left the sender by now.
func (m *Model) drainDue() {
	now := m.eng.Now()
	if now == m.armedAt {
		m.armedAt = unit.Never
	}
	for m.drains.len() > 0 {
		i := m.drains.top()
		f := &m.flows[i]
		if f.drainAt > now {
			break
		}
		m.drains.remove(m.flows, f.heapIdx)
		m.advanceSent(now)
		m.totalRate -= f.rate
		m.activeFlows--
		if m.activeFlows == 0 {
			m.totalRate = 0 // no rounding residue
		}
		f.state, f.remaining, f.rate, f.lastT = drained, 0, 0, now
		m.rec.flow(i, -1)
		m.leaveLinks(f, f.links)
		m.eng.At(now+f.delay, event{kind: evDeliver, a: i})
		if f.nextInLine >= 0 {
			m.flows[f.nextInLine].start = now
			m.eng.At(now, event{kind: evStart, a: f.nextInLine})
		}
	}
	m.armDrain()
}

// leaveLinks takes f off links, the path it was on (f.pos holds its place
// in each link's list).
func (m *Model) leaveLinks(f *flow, links []int32) {
	for k, l := range links {
		ls := &m.links[l]
		last := len(ls.flows) - 1
		p := f.pos[k]
		moved := ls.flows[last]
		ls.flows[p] = moved
		m.flows[moved.flow].pos[moved.k] = p
		ls.flows = ls.flows[:last]
		m.touch(l)
	}
}

// armDrain makes sure an evDrain is pending for the earliest projected drain.
// The engine cannot cancel events, so one drain event stands for the whole
// heap of flows instead of one stale event per rate change.
func (m *Model) armDrain() {
	if m.drains.len() == 0 {
		return
	}
	if at := m.flows[m.drains.top()].drainAt; at < m.armedAt {
		m.armedAt = at
		m.eng.At(at, event{kind: evDrain})
	}
}

func (m *Model) deliver(i int32) {
	f := &m.flows[i]
	now := m.eng.Now()
	f.state, f.finish = done, now
	m.finished++
	m.rec.flow(i, 0)
	m.stats.events++
	if cb := f.onDone; cb != nil {
		f.onDone = nil
		cb() // may add flows: f is not used after this
	}
	m.run.StopIf(m.idle())
}

// advanceSent brings the running total of bytes sent up to t.
func (m *Model) advanceSent(t unit.Time) {
	m.sentAcc += float64(m.totalRate*float64(t-m.sentT)) / 1e12 // float64(…) stops FMA fusion: amd64 and wasm agree
	m.sentT = t
}

// share recomputes the max-min fair rates of the flows that share links,
// directly or through other flows, with the links touched since the last
// time, and reschedules the drains of the flows whose rate changed.
func (m *Model) share() {
	now := m.eng.Now()
	m.markGen++
	if m.markGen == 0 { // wrapped: clear the marks
		m.markGen = 1
		for i := range m.links {
			m.links[i].mark = 0
		}
		for i := range m.flows {
			m.flows[i].mark, m.flows[i].frozen = 0, 0
		}
	}
	gen := m.markGen
	links, flows := m.compLinks[:0], m.compFlows[:0]
	for _, l := range m.dirty {
		if m.links[l].mark != gen {
			m.links[l].mark = gen
			links = append(links, l)
		}
	}
	m.dirty = m.dirty[:0]
	for i := 0; i < len(links); i++ {
		m.stats.searched += uint64(len(m.links[links[i]].flows))
		for _, e := range m.links[links[i]].flows {
			f := &m.flows[e.flow]
			if f.mark == gen {
				continue
			}
			f.mark = gen
			m.stats.searched += uint64(len(f.links))
			flows = append(flows, e.flow)
			for _, l := range f.links {
				if m.links[l].mark != gen {
					m.links[l].mark = gen
					links = append(links, l)
				}
			}
		}
	}
	m.compLinks, m.compFlows = links, flows
	m.stats.events++
	m.stats.recomputes++
	m.stats.refilled += uint64(len(flows))

	m.fill.run(m, links, gen)

	m.advanceSent(now)
	for _, l := range links {
		ls := &m.links[l]
		m.rec.link(l, ls.load > 0, false)
		ls.carried, ls.lastT, ls.load = ls.carriedAt(now), now, 0
	}
	for _, i := range flows {
		f := &m.flows[i]
		if f.fair != f.rate {
			m.settle(f, now)
			m.totalRate += f.fair - f.rate
			f.rate = f.fair
			f.drainAt = now + drainTime(f.remaining, f.rate)
			m.drains.set(m.flows, i)
		}
		for k, l := range f.links {
			m.links[l].load += float64(f.weight(k) * f.rate) // float64(…) stops FMA fusion: amd64 and wasm agree
		}
	}
	for _, l := range links {
		m.rec.link(l, false, m.links[l].load > 0)
	}
	m.armDrain()
}

// Work counts the model's steps so far: events, flows refilled, flow–link
// entries searched and filled, heap moves and links looked at while routing.
// It grows with the cost of a run but not with the machine's load, for
// scaling tests.
func (m *Model) Work() uint64 {
	return m.stats.events + m.stats.refilled + m.stats.searched + m.fill.work + m.drains.moves + m.route.work
}

// settle brings f's remaining bytes up to now at its current rate.
func (m *Model) settle(f *flow, now unit.Time) {
	if dt := now - f.lastT; dt > 0 && f.rate > 0 {
		f.remaining -= float64(f.rate*float64(dt)) / 1e12 // float64(…) stops FMA fusion: amd64 and wasm agree
	}
	f.lastT = now
}

// drainTime is how long bytes take at rate (bytes per second), rounded up to a picosecond.
func drainTime(bytes, rate float64) unit.Time {
	if bytes <= 0 {
		return 0
	}
	ps := math.Ceil(float64(bytes*1e12) / rate) // float64(…) stops FMA fusion: amd64 and wasm agree
	if ps > float64(2*plan.MaxUntil) {
		return 2 * plan.MaxUntil // later than any run lasts
	}
	return unit.Time(ps)
}
