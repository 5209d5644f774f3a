package packet

import (
	"slices"

	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Link faults (faults: link_down, link_degraded) at packet level: a down
// link's ports send nothing, so packets wait in their queues and flow
// control holds the senders back (PFC pauses, credits run out: a lossless
// fabric drops nothing; a lossy one drops what its queues cannot hold); a
// degraded link's ports serialise at the fault's rate. Adaptive routing and
// spraying route around a down link at once; static and ECMP flows keep
// their paths into it until the plan's reroute delay has passed, then every
// flow crossing it is routed hop by hop over the fewest hops that avoid it
// (choose, with around's candidates), and the packets a switch held for the
// down link move to the ports of their new routes. When the link returns,
// those flows take it again (routing hop by hop without it to avoid, as the
// subnet manager's recomputed tables or BGP's restored ECMP group route
// them). The viewer's routes record each move. A model without link faults
// has no faults state.

// Fault phases (evFault's a is fault index × 4 + phase).
const (
	phaseStart = iota
	phaseReroute
	phaseEnd
)

type faults struct {
	plan     []plan.LinkFault
	avoid    []bool // per link: routing goes around it
	avoiding int
	hops     map[int32][]uint8 // per destination endpoint, around avoid
	report   []metrics.Fault
	drops    []int64 // per fault: the ports' drops when it started
	buf      []int32
	// per fault: the flows waiting on its down link now, and since when
	waiting [][]int32
	since   []unit.Time
}

// initFaults schedules the plan's link faults.
func (m *Model) initFaults(p *plan.Plan) {
	if p.Faults == nil || len(p.Faults.Links) == 0 {
		return
	}
	fs := &faults{plan: p.Faults.Links, avoid: make([]bool, len(m.ports)), hops: map[int32][]uint8{}, drops: make([]int64, len(p.Faults.Links)),
		waiting: make([][]int32, len(p.Faults.Links)), since: make([]unit.Time, len(p.Faults.Links))}
	m.faults = fs
	for i, lf := range fs.plan {
		if lf.Until != unit.Never {
			m.at(lf.Until, evFault, 0, int32(4*i+phaseEnd), 0)
		}
		fs.report = append(fs.report, lf.Report())
		m.at(lf.At, evFault, 0, int32(4*i+phaseStart), 0)
		if at := lf.At + p.Faults.RerouteDelay; lf.Down && !m.perPacket && at < lf.Until {
			m.at(at, evFault, 0, int32(4*i+phaseReroute), 0)
		}
	}
}

// fault handles phase of link fault i.
func (m *Model) fault(i, phase int) {
	fs := m.faults
	lf := &fs.plan[i]
	both := [2]*port{&m.ports[lf.Link], &m.ports[m.topo.Links[lf.Link].Reverse]}
	switch phase {
	case phaseStart:
		fs.drops[i] = both[0].drops + both[1].drops
		for _, p := range both {
			if lf.Down {
				p.down = true
			} else {
				m.setRate(p, lf.Rate)
			}
		}
		if lf.Down && m.perPacket { // adaptive routing avoids it at once
			m.avoidLink(i, true)
			for _, p := range both {
				m.rehome(p)
			}
		} else if lf.Down {
			m.stallOn(i)
		}
	case phaseReroute:
		m.endFault(i) // what it held until now
		m.unstall(i)
		var moved []int32
		for k := range m.flows { // the flows into it: hop by hop from now
			f := &m.flows[k]
			if f.path >= 0 && !f.done && m.pathCrosses(f, lf.Link) {
				m.routes.Path(k) // the path it had, kept before it changes
				f.path = -1
				moved = append(moved, int32(k))
			}
		}
		m.avoidLink(i, true)
		m.recordMoves(moved)
		for _, p := range both {
			m.rehome(p)
		}
	case phaseEnd:
		m.endFault(i)
		m.unstall(i)
		for _, p := range both {
			p.down = false
			m.setRate(p, m.topo.Links[p.id].Rate)
			m.try(p)
		}
		m.avoidLink(i, false)
		var back []int32 // rerouted flows: hop by hop, they take it again
		for k := range m.flows {
			if f := &m.flows[k]; f.path < 0 && !f.done && !m.perPacket {
				back = append(back, int32(k))
			}
		}
		m.recordMoves(back)
	}
}

// recordMoves records, for the viewer, the paths flows take from now on
// where they differ from the paths they had.
func (m *Model) recordMoves(flows []int32) {
	now := m.eng.Now()
	for _, k := range flows {
		p := m.flowPath(int(k))
		if !slices.Equal(p, m.routes.AppendPath(nil, int(k), now)) {
			m.routes.Reroute(k, p, now)
		}
	}
}

// stallOn counts the started flows whose static paths cross down link
// fault i as waiting there from now (flows_stalled, as the flow model
// counts them); starting counts those that start while it is down.
func (m *Model) stallOn(i int) {
	fs := m.faults
	fs.since[i] = m.eng.Now()
	for k := range m.flows {
		if f := &m.flows[k]; !f.done && f.path >= 0 && (f.onPort || f.nextSeq > 0) && m.pathCrosses(f, fs.plan[i].Link) {
			m.stall(i, int32(k))
		}
	}
}

// stall counts flow k as waiting on down link fault i.
func (m *Model) stall(i int, k int32) {
	fs := m.faults
	f := &m.flows[k]
	fs.waiting[i] = append(fs.waiting[i], k)
	fs.report[i].FlowsStalled++
	fs.report[i].StalledBytes += f.bytes - f.received
	fs.report[i].StalledFlowUs -= metrics.Micros(m.eng.Now())
}

// starting counts flow k, starting now, as stalled on each down link its
// static path crosses before routing has moved off it.
func (m *Model) starting(k int32) {
	fs := m.faults
	f := &m.flows[k]
	for i, lf := range fs.plan {
		if lf.Down && !m.perPacket && m.ports[lf.Link].down && !fs.avoid[lf.Link] && f.path >= 0 && m.pathCrosses(f, lf.Link) {
			m.stall(i, k)
		}
	}
}

// unstall ends the wait of the flows stalled on fault i: the reroute or
// the link's return (or the run's end: faultReport).
func (m *Model) unstall(i int) {
	fs := m.faults
	now := metrics.Micros(m.eng.Now())
	for _, k := range fs.waiting[i] {
		if f := &m.flows[k]; f.done {
			now := metrics.Micros(f.finish)
			fs.report[i].StalledFlowUs += now
			continue
		}
		fs.report[i].StalledFlowUs += now
	}
	fs.waiting[i] = nil
}

// endFault notes what link fault i held and dropped, as it ends (or the run does).
func (m *Model) endFault(i int) {
	fs := m.faults
	lf := &fs.plan[i]
	a, b := &m.ports[lf.Link], &m.ports[m.topo.Links[lf.Link].Reverse]
	if lf.Down && (a.down || b.down) {
		fs.report[i].HeldBytes = max(fs.report[i].HeldBytes, a.qBytes+b.qBytes) // a down port's queue only grows
	}
	fs.report[i].Drops = a.drops + b.drops - fs.drops[i]
}

// rehome moves the packets a switch holds for down port p to the ports its
// new routes give them (nothing is lost); an endpoint's packets wait.
func (m *Model) rehome(p *port) {
	if !m.forwards[m.topo.Links[p.id].From] {
		return
	}
	n := int32(m.topo.Links[p.id].From)
	var held []pkt
	var x pkt
	if p.cls == nil {
		for p.q.len() > 0 {
			x.set(p.q.front())
			p.q.drop(&m.chunks)
			p.qBytes -= int64(x.size)
			held = append(held, x)
		}
	}
	for c := range p.cls {
		for q := &p.cls[c]; q.q.len() > 0; {
			p.popClass(&m.chunks, q, &x)
			held = append(held, x)
		}
	}
	for k := range held {
		x := &held[k]
		out := &m.ports[m.choose(n, m.flows[x.flow].dst, &m.flows[x.flow], x)]
		if out.cls != nil {
			out.pushClass(&m.chunks, x)
		} else {
			out.push(&m.chunks, x)
		}
		m.try(out)
	}
}

// setRate makes port p serialise at rate.
func (m *Model) setRate(p *port, rate unit.Rate) {
	p.rate = rate
	p.fullTx = rate.TxTime(unit.Bytes(p.fullWire))
}

// avoidLink adds (or takes) fault i's cable to the links routing avoids.
func (m *Model) avoidLink(i int, on bool) {
	fs := m.faults
	lf := &fs.plan[i]
	if on && fs.report[i].ReroutedUs == nil {
		t := metrics.Micros(m.eng.Now())
		fs.report[i].ReroutedUs = &t
	}
	for _, l := range [2]int{lf.Link, m.topo.Links[lf.Link].Reverse} {
		if fs.avoid[l] != on {
			fs.avoid[l] = on
			if on {
				fs.avoiding++
			} else {
				fs.avoiding--
			}
		}
	}
	clear(fs.hops)
}

// pathCrosses reports whether flow f's static path takes link l or its reverse.
func (m *Model) pathCrosses(f *flow, l int) bool {
	r := m.topo.Links[l].Reverse
	for k := f.path; ; k++ {
		x := int(m.paths[k])
		if x == l || x == r {
			return true
		}
		if int32(m.topo.Links[x].To) == f.dstNode {
			return false
		}
	}
}

// around is the next hops from node n to endpoint dst over the fewest hops
// that avoid the avoided links; nil when there are none (the packet then
// takes its minimal next hop and waits at the down link).
func (m *Model) around(n, dst int32) []int32 {
	fs := m.faults
	hops := fs.hops[dst]
	if hops == nil {
		hops = m.topo.HopsAvoiding(m.topo.Endpoints[dst], fs.avoid)
		fs.hops[dst] = hops
	}
	if hops[n] == topo.Unreached || hops[n] == 0 {
		return nil
	}
	dstNode := int32(m.topo.Endpoints[dst])
	c := fs.buf[:0]
	for _, l := range m.topo.Nodes[n].Out {
		to := int32(m.topo.Links[l].To)
		if hops[to] == hops[n]-1 && !fs.avoid[l] && (m.forwards[to] || to == dstNode) {
			c = append(c, int32(l))
		}
	}
	fs.buf = c
	return c
}

// faultReport is the link faults' part of the result; nil without them.
func (m *Model) faultReport() []metrics.Fault {
	fs := m.faults
	if fs == nil {
		return nil
	}
	out := append([]metrics.Fault(nil), fs.report...)
	now := metrics.Micros(m.eng.Now())
	for i, lf := range fs.plan {
		if lf.At <= m.eng.Now() && (lf.Until == unit.Never || lf.Until > m.eng.Now()) {
			m.endFault(i)
			out[i].HeldBytes, out[i].Drops = fs.report[i].HeldBytes, fs.report[i].Drops
		}
		for _, k := range fs.waiting[i] { // still waiting: until now
			if f := &m.flows[k]; f.done {
				out[i].StalledFlowUs += metrics.Micros(f.finish)
			} else {
				out[i].StalledFlowUs += now
			}
		}
		out[i].StalledFlowUs = metrics.Round(out[i].StalledFlowUs, 3)
	}
	return out
}
