package packet

import (
	"fmt"

	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Routing: the egress port a packet (or, for static and ECMP routing, a
// whole flow) takes at each node among the minimal next hops.

// nodes is what forwarding and routing know of each node.
type nodes struct {
	forwards   []bool
	isSwitch   []bool
	endpointOf []int32   // node → endpoint index, -1 for others
	nodeSalt   []uint64  // per node: the ECMP hash's salt
	hops       [][]uint8 // per endpoint: hop counts to it, computed once
	routing    string
	perPacket  bool // adaptive or spray: each packet picks its path
}

// initNodes learns each node's role and draws its ECMP salt.
func (m *Model) initNodes() {
	n := len(m.topo.Nodes)
	m.forwards = make([]bool, n)
	m.isSwitch = make([]bool, n)
	m.endpointOf = make([]int32, n)
	m.nodeSalt = make([]uint64, n)
	for i, nd := range m.topo.Nodes {
		m.forwards[i] = nd.Role.Forwards()
		m.isSwitch[i] = nd.Role.IsSwitch()
		m.endpointOf[i] = -1
		m.nodeSalt[i] = m.eng.Rand().Uint64()
	}
	for e, id := range m.topo.Endpoints {
		m.endpointOf[id] = int32(e)
	}
	m.hops = make([][]uint8, len(m.topo.Endpoints))
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
