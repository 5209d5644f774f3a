package fluid

import (
	"fabriclab/sim/link"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Link faults (faults: link_down, link_degraded) at flow level: a down
// link's capacity is 0, so the flows over it get no rate and wait; a
// degraded one runs at its fault's rate. Routing moves off a down link at
// once under adaptive routing and spraying, after the plan's reroute delay
// under static and ECMP routing: then the flows on it take paths that
// avoid it (the fewest hops without it) and new flows route around it too.
// A flow with no path left waits where it is. When the link returns, the
// flows moved off it move back to the paths routing gives them with it (as
// after the subnet manager's sweep or BGP's re-convergence: see initFaults). A model without link faults
// has no faults state and pays for none of this.

// Fault phases (evFault's a is fault index × 4 + phase).
const (
	phaseStart = iota
	phaseReroute
	phaseEnd
)

// faults is the model's link-fault state.
type faults struct {
	plan     []plan.LinkFault
	avoid    []bool          // per link: routing goes around it
	avoiding int             // links avoid holds
	hops     map[int][]uint8 // per destination node, around avoid
	report   []metrics.Fault
	// per fault, the flows waiting on its down link: how many now, and
	// Σ (leave − join) so far, in picoseconds (joins subtract their time)
	onLink   []int
	waitedPs []float64
	moved    [][]int32 // per fault: the flows rerouted off its link
}

// initFaults schedules the plan's link faults.
func (m *Model) initFaults(p *plan.Plan) {
	if p.Faults == nil || len(p.Faults.Links) == 0 {
		return
	}
	fs := &faults{plan: p.Faults.Links, avoid: make([]bool, len(m.links)), hops: map[int][]uint8{},
		onLink: make([]int, len(p.Faults.Links)), waitedPs: make([]float64, len(p.Faults.Links)), moved: make([][]int32, len(p.Faults.Links))}
	m.faults = fs
	for i, lf := range fs.plan {
		fs.report = append(fs.report, lf.Report())
		m.eng.At(lf.At, event{kind: evFault, a: int32(4*i + phaseStart)})
		if lf.Until != unit.Never {
			m.eng.At(lf.Until, event{kind: evFault, a: int32(4*i + phaseEnd)})
		}
		if lf.Down && !m.routing.PerPacket() { // static and ECMP: the subnet manager's or BGP's delay
			if at := lf.At + p.Faults.RerouteDelay; at < lf.Until {
				m.eng.At(at, event{kind: evFault, a: int32(4*i + phaseReroute)})
			}
		}
	}
}

// fault handles phase of link fault i.
func (m *Model) fault(i int, phase int) {
	fs := m.faults
	lf := &fs.plan[i]
	now := m.eng.Now()
	both := [2]int{lf.Link, m.topo.Links[lf.Link].Reverse}
	switch phase {
	case phaseStart, phaseEnd:
		for _, l := range both {
			rate := m.topo.Links[l].Rate
			if phase == phaseStart {
				rate = lf.Rate // 0 when down
			}
			m.links[l].capacity = float64(rate) / 8 * link.Efficiency(m.topo.Links[l].Kind, m.mtu)
			m.touch(int32(l))
		}
		if !lf.Down {
			return
		}
		if phase == phaseStart {
			if m.routing.PerPacket() { // adaptive routing avoids it at once
				m.rerouteOff(i, false)
			}
			for _, l := range both {
				for _, e := range m.links[l].flows {
					m.stall(i, &m.flows[e.flow], now)
				}
			}
			return
		}
		fs.waitedPs[i] += float64(fs.onLink[i]) * float64(now)
		fs.onLink[i] = 0
		m.setAvoid(both, false)
		for _, f := range fs.moved[i] { // back, as routing now routes them
			m.rerouteFlow(f)
		}
		fs.moved[i] = nil
	case phaseReroute:
		m.rerouteOff(i, true)
	}
}

// rerouteOff moves the flows on link fault i's cable to paths around it;
// stalled says they were counted waiting there.
func (m *Model) rerouteOff(i int, stalled bool) {
	fs := m.faults
	lf := &fs.plan[i]
	now := m.eng.Now()
	both := [2]int{lf.Link, m.topo.Links[lf.Link].Reverse}
	t := metrics.Micros(now)
	fs.report[i].ReroutedUs = &t
	m.setAvoid(both, true)
	var moved []int32
	for _, l := range both {
		for _, e := range m.links[l].flows {
			moved = append(moved, e.flow)
		}
	}
	for _, f := range moved {
		if !m.rerouteFlow(f) {
			continue
		}
		fs.moved[i] = append(fs.moved[i], f)
		if stalled {
			fs.waitedPs[i] += float64(now)
			fs.onLink[i]--
		}
	}
}

// stall counts flow f as waiting on down link fault i from now.
func (m *Model) stall(i int, f *flow, now unit.Time) {
	fs := m.faults
	m.settle(f, now)
	fs.report[i].FlowsStalled++
	fs.report[i].StalledBytes += int64(f.remaining)
	fs.onLink[i]++
	fs.waitedPs[i] -= float64(now)
}

// setAvoid adds or removes a cable's links from those routing avoids.
func (m *Model) setAvoid(both [2]int, on bool) {
	fs := m.faults
	for _, l := range both {
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

// starting checks a flow as it starts: a path over an avoided link is
// routed again, and one over a down link waits there.
func (m *Model) starting(i int32) {
	fs := m.faults
	f := &m.flows[i]
	if fs.avoiding > 0 && m.crossesAvoided(f) && m.routeAround(f) {
		f.pos = m.take(len(f.links))
	}
	for k, lf := range fs.plan {
		if lf.Down && m.links[lf.Link].capacity == 0 && (m.crosses(f, lf.Link) || m.crosses(f, m.topo.Links[lf.Link].Reverse)) {
			m.stall(k, f, m.eng.Now())
		}
	}
}

func (m *Model) crosses(f *flow, l int) bool {
	for _, x := range f.links {
		if int(x) == l {
			return true
		}
	}
	return false
}

func (m *Model) crossesAvoided(f *flow) bool {
	for _, l := range f.links {
		if m.faults.avoid[l] {
			return true
		}
	}
	return false
}

// rerouteFlow moves active flow i to a path around the avoided links, and
// reports whether it found one. The viewer's routes record the move.
func (m *Model) rerouteFlow(i int32) bool {
	f := &m.flows[i]
	if f.state != active {
		return false
	}
	old := f.links
	m.routes.Path(int(i)) // the path it had, kept before it changes
	if !m.routeAround(f) {
		return false
	}
	m.routes.Reroute(i, f.links, m.eng.Now())
	m.leaveLinks(f, old)
	n := len(f.links)
	f.pos = m.take(n)
	for k, l := range f.links {
		ls := &m.links[l]
		f.pos[k] = int32(len(ls.flows))
		ls.flows = append(ls.flows, entry{i, int32(k)})
		m.touch(l)
	}
	return true
}

// routeAround gives f a path (or a split) over the fewest hops that avoid
// the avoided links, chosen as its routing chooses; false, and f as it
// was, when there is none.
func (m *Model) routeAround(f *flow) bool {
	src, dst := m.topo.Endpoints[f.src], m.topo.Endpoints[f.dst]
	hops := m.faults.hops[dst]
	if hops == nil {
		hops = m.topo.HopsAvoiding(dst, m.faults.avoid)
		m.faults.hops[dst] = hops
	}
	if hops[src] == topo.Unreached {
		return false
	}
	payload := min(unit.Bytes(f.bytes), m.mtu)
	var links []int32
	var weights []float64
	frac := map[int32]float64{int32(src): 1}
	arrive := map[int32]unit.Time{int32(src): 0}
	level := []int32{int32(src)}
	for d := hops[src]; d > 0; d-- {
		var next []int32
		for _, n := range level {
			var c []int32
			for _, l := range m.topo.Nodes[n].Out {
				to := m.topo.Links[l].To
				if hops[to] == d-1 && !m.faults.avoid[l] && (m.route.forwards[to] || to == dst) {
					c = append(c, int32(l))
				}
			}
			if !m.routing.PerPacket() {
				c = []int32{m.pick(n, c, f)}
			}
			for _, l := range c {
				to := m.route.to[l]
				at := arrive[n] + m.route.linkDelay[l]
				if n != int32(src) {
					at += m.route.storeForward(l, payload)
				}
				if _, seen := frac[to]; !seen {
					next = append(next, to)
				}
				frac[to] += frac[n] / float64(len(c))
				arrive[to] = max(arrive[to], at)
				links = append(links, l)
				weights = append(weights, frac[n]/float64(len(c)))
			}
		}
		level = next
	}
	delay := arrive[int32(dst)]
	f.links, f.delay = links, delay
	f.weights = weights
	if allOne(weights) {
		f.weights = nil
	}
	return true
}

// faultReport is the faults' part of the result; nil without link faults.
func (m *Model) faultReport() []metrics.Fault {
	fs := m.faults
	if fs == nil {
		return nil
	}
	now := float64(m.eng.Now())
	out := append([]metrics.Fault(nil), fs.report...)
	for i := range out {
		out[i].StalledFlowUs = metrics.Round((fs.waitedPs[i]+float64(fs.onLink[i])*now)/1e6, 3)
	}
	return out
}
