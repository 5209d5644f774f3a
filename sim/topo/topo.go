// Package topo builds a topology as plain data — nodes, directed links, and the
// endpoints in their numbering order — from a scenario's topology keys. The
// simulation routes over it and the renderer draws it.
package topo

import (
	"fmt"

	"fabriclab/sim/link"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Role is what a node is.
type Role uint8

// Node roles. Hosts and GPUs are endpoints; the rest forward packets.
const (
	Host Role = iota
	GPU
	NIC
	NVSwitch
	Leaf  // also the single switch of a star, a rail switch, a fat tree's edge switch
	Spine // also a fat tree's aggregation switch
	Core
)

var roleNames = [...]string{"host", "gpu", "nic", "nvswitch", "leaf", "spine", "core"}

func (r Role) String() string { return roleNames[r] }

// Forwards reports whether packets may pass through a node of this role.
func (r Role) Forwards() bool { return r != Host && r != GPU }

// IsSwitch reports whether the role is a network switch with buffers and switch latency.
func (r Role) IsSwitch() bool { return r == NVSwitch || r == Leaf || r == Spine || r == Core }

// Node is a host, GPU, NIC or switch.
type Node struct {
	ID    int
	Role  Role
	Name  string
	Tier  int   // 0 endpoints, 1 NICs, 2 leaf/edge and NVSwitch, 3 spine/aggregation, 4 core
	Group int   // the DGX node, fat-tree pod or leaf it belongs to (-1 if none)
	Index int   // position within its role and group
	Out   []int // outgoing link IDs (this node's egress ports)
}

// Link is one direction of a cable: an egress port at From feeding To.
type Link struct {
	ID      int
	From    int
	To      int
	Kind    link.Kind
	Rate    unit.Rate
	Latency unit.Time // propagation
	Reverse int       // the link going the other way
}

// Topology is the whole fabric.
type Topology struct {
	Kind      string
	Nodes     []Node
	Links     []Link
	Endpoints []int // node IDs, in endpoint order
}

// Name is a link's readable name, e.g. "leaf0→spine3".
func (t *Topology) LinkName(id int) string {
	l := &t.Links[id]
	return t.Nodes[l.From].Name + "→" + t.Nodes[l.To].Name
}

type builder struct {
	t       *Topology
	fabric  link.Kind
	rate    unit.Rate
	latency unit.Time
	nvlink  unit.Rate
}

func (b *builder) node(r Role, tier, group, index int, name string) int {
	id := len(b.t.Nodes)
	b.t.Nodes = append(b.t.Nodes, Node{ID: id, Role: r, Name: name, Tier: tier, Group: group, Index: index})
	return id
}

// cable adds both directions between a and c.
func (b *builder) cable(a, c int, k link.Kind, rate unit.Rate, lat unit.Time) {
	id := len(b.t.Links)
	b.t.Links = append(b.t.Links,
		Link{ID: id, From: a, To: c, Kind: k, Rate: rate, Latency: lat, Reverse: id + 1},
		Link{ID: id + 1, From: c, To: a, Kind: k, Rate: rate, Latency: lat, Reverse: id})
	b.t.Nodes[a].Out = append(b.t.Nodes[a].Out, id)
	b.t.Nodes[c].Out = append(b.t.Nodes[c].Out, id+1)
}

func (b *builder) net(a, c int) { b.cable(a, c, b.fabric, b.rate, b.latency) }

// Build lays out the topology. The scenario must have passed validation; an
// impossible shape panics.
func Build(s *scenario.Scenario) *Topology {
	tp := &s.Topology
	kind, rate := s.Wire()
	b := &builder{t: &Topology{Kind: tp.Kind}, fabric: kind, rate: rate, latency: tp.LinkLatency,
		nvlink: link.NVLink4Rate * unit.Rate(tp.NVLinkEfficiency)}
	switch tp.Kind {
	case scenario.Star:
		sw := b.node(Leaf, 2, -1, 0, "switch")
		for h := range tp.Hosts {
			id := b.node(Host, 0, 0, h, fmt.Sprintf("host%d", h))
			b.t.Endpoints = append(b.t.Endpoints, id)
			b.net(id, sw)
		}
	case scenario.DGX:
		b.dgx(tp)
	case scenario.LeafSpine:
		b.leafSpine(tp)
	case scenario.FatTree:
		b.fatTree(tp.K)
	default:
		panic(fmt.Sprintf("topo: unknown kind %q", tp.Kind))
	}
	return b.t
}

// hgx adds one HGX-style node: g GPUs on an NVSwitch over NVLink 4, each with a
// NIC over PCIe Gen5 x16. It returns the NIC IDs.
func (b *builder) hgx(n, g int, nicLatency unit.Time) []int {
	nvs := b.node(NVSwitch, 2, n, 0, fmt.Sprintf("n%d.nvswitch", n))
	nics := make([]int, g)
	for i := range g {
		gpu := b.node(GPU, 0, n, i, fmt.Sprintf("n%d.gpu%d", n, i))
		b.t.Endpoints = append(b.t.Endpoints, gpu)
		b.cable(gpu, nvs, link.NVLink4, b.nvlink, 0)
		nics[i] = b.node(NIC, 1, n, i, fmt.Sprintf("n%d.nic%d", n, i))
		b.cable(gpu, nics[i], link.PCIe5, link.PCIe5Rate, nicLatency)
	}
	return nics
}

const pcieLatency = 100 * unit.Nanosecond

func (b *builder) dgx(tp *scenario.Topology) {
	g := tp.GPUsPerNode
	nics := make([][]int, tp.Nodes)
	for n := range tp.Nodes {
		nics[n] = b.hgx(n, g, pcieLatency)
	}
	if tp.Nodes == 1 {
		return
	}
	// Rail-optimised: NIC i of every node on rail leaf i, leaves joined by spines.
	leaves := make([]int, g)
	for i := range g {
		leaves[i] = b.node(Leaf, 2, -1, i, fmt.Sprintf("rail%d", i))
		for n := range tp.Nodes {
			b.net(nics[n][i], leaves[i])
		}
	}
	b.spines(leaves, uplinks(tp.Nodes, tp.Oversub), tp.Spines)
}

func uplinks(down int, oversub float64) int {
	if oversub <= 0 {
		oversub = 1
	}
	return int(float64(down)/oversub + 0.5)
}

// spines adds the spine layer above leaves: u uplinks per leaf spread over
// count spines (count 0: one spine per uplink).
func (b *builder) spines(leaves []int, u, count int) {
	if count <= 0 {
		count = u
	}
	if u < 1 || u%count != 0 {
		panic(fmt.Sprintf("topo: %d uplinks per leaf do not divide over %d spines", u, count))
	}
	for s := range count {
		sp := b.node(Spine, 3, -1, s, fmt.Sprintf("spine%d", s))
		for _, lf := range leaves {
			for range u / count {
				b.net(lf, sp)
			}
		}
	}
}

func (b *builder) leafSpine(tp *scenario.Topology) {
	g := max(tp.GPUsPerNode, 1)
	leaves := make([]int, tp.Leaves)
	for i := range leaves {
		leaves[i] = b.node(Leaf, 2, i, i, fmt.Sprintf("leaf%d", i))
	}
	switch {
	case g == 1:
		for l, lf := range leaves {
			for h := range tp.HostsPerLeaf {
				id := b.node(Host, 0, l, h, fmt.Sprintf("leaf%d.host%d", l, h))
				b.t.Endpoints = append(b.t.Endpoints, id)
				b.net(id, lf)
			}
		}
	case tp.RailOptimized:
		for n := range tp.HostsPerLeaf {
			for i, nic := range b.hgx(n, g, pcieLatency) {
				b.net(nic, leaves[i])
			}
		}
	default:
		n := 0
		for _, lf := range leaves {
			for range tp.HostsPerLeaf / g {
				for _, nic := range b.hgx(n, g, pcieLatency) {
					b.net(nic, lf)
				}
				n++
			}
		}
	}
	if tp.Leaves > 1 || tp.Spines > 0 {
		b.spines(leaves, uplinks(tp.HostsPerLeaf, tp.Oversub), tp.Spines)
	}
}

// fatTree builds the 3-tier k-ary fat tree of Al-Fares et al.: k pods of k/2
// edge and k/2 aggregation switches, (k/2)² cores, k³/4 hosts.
func (b *builder) fatTree(k int) {
	h := k / 2
	aggs := make([][]int, k)
	for p := range k {
		aggs[p] = make([]int, h)
		for a := range h {
			aggs[p][a] = b.node(Spine, 3, p, a, fmt.Sprintf("pod%d.agg%d", p, a))
		}
		for e := range h {
			edge := b.node(Leaf, 2, p, e, fmt.Sprintf("pod%d.edge%d", p, e))
			for i := range h {
				id := b.node(Host, 0, p, e*h+i, fmt.Sprintf("pod%d.host%d", p, e*h+i))
				b.t.Endpoints = append(b.t.Endpoints, id)
				b.net(id, edge)
			}
			for a := range h {
				b.net(edge, aggs[p][a])
			}
		}
	}
	for c := range h * h {
		core := b.node(Core, 4, -1, c, fmt.Sprintf("core%d", c))
		for p := range k {
			b.net(aggs[p][c/h], core)
		}
	}
}

// HopsTo returns every node's hop count to dst over forwarding nodes (255 where
// unreachable). A minimal next hop from u is a neighbour one hop closer that is
// dst itself or forwards.
func (t *Topology) HopsTo(dst int) []uint8 {
	const unreached = 255
	dist := make([]uint8, len(t.Nodes))
	for i := range dist {
		dist[i] = unreached
	}
	dist[dst] = 0
	queue := []int{dst}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, l := range t.Nodes[u].Out {
			v := t.Links[l].To
			if dist[v] != unreached {
				continue
			}
			dist[v] = dist[u] + 1
			if t.Nodes[v].Role.Forwards() {
				queue = append(queue, v)
			}
		}
	}
	return dist
}
