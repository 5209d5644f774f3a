package packet

import (
	"fmt"

	"fabriclab/sim/plan"
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
	hubHops    [][]uint8 // per node, for the endpoints under it: hop counts to it (hopsTo)
	routing    plan.Routing
	perPacket  bool // adaptive or spray: each packet picks its path
	routeCache
	paths []int32 // static and ECMP routing: each flow's links, from its first hop (flow.path)
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

// hopsTo returns (computing once) the hop counts to endpoint e. An endpoint
// whose links all lead to one forwarding node (a host under its leaf) is one
// hop past it: every other node's count is that node's plus one, searched
// once for all the endpoints under it (a k=16 fat tree: 128 searches, not
// 1,024; they were half of building perm-1024).
func (m *Model) hopsTo(e int32) []uint8 {
	h := m.hops[e]
	if h != nil {
		return h
	}
	node := m.topo.Endpoints[e]
	hub, ok := m.topo.Uplink(node)
	if !ok {
		h = m.topo.HopsTo(node)
		m.hops[e] = h
		return h
	}
	if m.hubHops == nil {
		m.hubHops = make([][]uint8, len(m.topo.Nodes))
	}
	base := m.hubHops[hub]
	if base == nil {
		base = m.topo.HopsTo(hub)
		m.hubHops[hub] = base
	}
	h = make([]uint8, len(base))
	for i, d := range base {
		if d != topo.Unreached {
			d++
		}
		h[i] = d
	}
	h[node] = 0
	m.hops[e] = h
	return h
}

// The minimal next hops from each node towards each endpoint are found once,
// when first needed, and kept: next[dst][n] packs the offset of the list in
// nextLinks (lists are shared: every destination outside a switch's subtree
// has the same up-links) and its length, 0 until computed. A fabric too
// large for the table (over maxRouteEntries nodes × endpoints) scans each time.
const maxRouteEntries = 1 << 24

type routeCache struct {
	next      [][]uint32
	nextLinks []int32
	lists     map[string]uint32 // a list's links (as bytes) → its packed offset and length
	scratch   []int32
}

// cachedNext is next[dst], or nil.
func (m *Model) cachedNext(dst int32) []uint32 {
	if m.next == nil {
		return nil
	}
	return m.next[dst]
}

// candidates is the minimal next hops from node n towards endpoint dst, in
// the order of n's links.
func (m *Model) candidates(n int32, dst int32) []int32 {
	if m.next == nil {
		if len(m.topo.Nodes)*len(m.topo.Endpoints) > maxRouteEntries {
			m.scratch = m.minimalNext(m.scratch[:0], n, dst)
			return m.scratch
		}
		m.next = make([][]uint32, len(m.topo.Endpoints))
		m.lists = map[string]uint32{}
	}
	c := m.next[dst]
	if c == nil {
		c = make([]uint32, len(m.topo.Nodes))
		m.next[dst] = c
	}
	v := c[n]
	if v == 0 {
		m.scratch = m.minimalNext(m.scratch[:0], n, dst)
		if len(m.scratch) == 0 || len(m.scratch) > 0xff {
			return m.scratch
		}
		b := make([]byte, 0, 4*len(m.scratch))
		for _, l := range m.scratch {
			b = append(b, byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
		}
		var ok bool
		if v, ok = m.lists[string(b)]; !ok {
			v = uint32(len(m.nextLinks))<<8 | uint32(len(m.scratch))
			m.nextLinks = append(m.nextLinks, m.scratch...)
			m.lists[string(b)] = v
		}
		c[n] = v
	}
	return m.nextLinks[v>>8 : v>>8+v&0xff]
}

// minimalNext appends to buf the links out of n one hop nearer endpoint dst.
// On a torus it is the one link of dimension-order routing.
func (m *Model) minimalNext(buf []int32, n int32, dst int32) []int32 {
	if tr := m.topo.Torus; tr != nil {
		return append(buf, int32(tr.Next(m.topo, int(n), int(dst))))
	}
	hops := m.hopsTo(dst)
	want := hops[n] - 1
	dstNode := m.topo.Endpoints[dst]
	for _, l := range m.topo.Nodes[n].Out {
		to := m.topo.Links[l].To
		if hops[to] == want && (m.forwards[to] || to == dstNode) {
			buf = append(buf, int32(l))
		}
	}
	return buf
}

// choose picks the egress port at node n towards endpoint dst among the minimal next hops.
func (m *Model) choose(n int32, dst int32, f *flow, x *pkt) int32 {
	var out []int32
	if c := m.cachedNext(dst); c != nil && c[n] != 0 { // candidates' cached case, inlined by hand
		v := c[n]
		out = m.nextLinks[v>>8 : v>>8+v&0xff]
	} else {
		out = m.candidates(n, dst)
	}
	if m.faults != nil && m.faults.avoiding > 0 {
		if c := m.around(n, dst); c != nil {
			out = c
		}
	}
	count := len(out)
	if count == 0 {
		panic(fmt.Sprintf("packet: no route from %s to endpoint %d", m.topo.Nodes[n].Name, dst))
	}
	if count == 1 {
		return out[0]
	}
	var k int
	switch m.routing {
	case plan.Static:
		k = m.topo.DModK(int(n), dst, count)
	case plan.ECMP:
		k = topo.ECMPPick(f.hash, m.nodeSalt[n], count)
	case plan.Spray:
		k = m.eng.IntN(count)
	case plan.Adaptive:
		best, ties := int64(-1), 0
		for _, l := range out {
			p := &m.ports[l]
			load := p.qBytes
			if p.busyUntil > m.eng.Now() {
				load += int64(m.mtu)
			}
			switch {
			case best < 0 || load < best:
				best, ties, k = load, 1, int(l)
			case load == best:
				ties++
				if m.eng.IntN(ties) == 0 {
					k = int(l)
				}
			}
		}
		return int32(k)
	}
	return out[k]
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
