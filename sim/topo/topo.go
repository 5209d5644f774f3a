// Package topo builds a topology as plain data — nodes, directed links, and the
// endpoints in their numbering order — from a Shape: the kind and its
// dimensions. Each kind has one file that checks its shapes, counts their
// endpoints and builds them. The simulation routes over a Topology and the
// renderer draws it.
package topo

import (
	"strconv"

	"fabriclab/sim/link"
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
	ICI     // a torus chip's router: it forwards between the chip and its ICI links
	Storage // a storage node (NVMe-oF target): an endpoint after the hosts and GPUs
)

var roleNames = [...]string{"host", "gpu", "nic", "nvswitch", "leaf", "spine", "core", "ici", "storage"}

func (r Role) String() string { return roleNames[r] }

// Forwards reports whether packets may pass through a node of this role.
func (r Role) Forwards() bool { return r != Host && r != GPU && r != Storage }

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
	Endpoints []int // node IDs, in endpoint order: hosts or GPUs, then storage nodes
	// Storage is the number of storage nodes: the last Storage endpoints.
	Storage int
	// LIDs numbers the endpoints leaf by leaf, as a subnet manager hands out
	// addresses, for static (d-mod-k) routing; nil: in endpoint order.
	LIDs []int32
	// Torus is the shape and ports of a torus (topology.kind: torus), nil
	// for the tiered kinds; both models route on it by dimension order.
	Torus *Torus
}

// DModK is static routing's choice among count equal next hops at node n
// towards endpoint dst: each tier above the leaves divides the destination's
// address by the fan-out below it (d-mod-k).
func (t *Topology) DModK(n int, dst int32, count int) int {
	d := int(dst)
	if t.LIDs != nil {
		d = int(t.LIDs[dst])
	}
	for range max(t.Nodes[n].Tier-2, 0) {
		d /= count
	}
	return d % count
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
	nic     unit.Rate // GPU–NIC (PCIe)
	storage unit.Rate // a storage node's link
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
}

// name is prefix and i, e.g. "spine3" (strconv: Sprintf cost a third of
// building the 16k-GPU fabric).
func name(prefix string, i int) string { return prefix + strconv.Itoa(i) }

// wireOut fills every node's Out, in link order, from one array: 131 k links
// no longer make 37 k small slices grow one by one.
func (t *Topology) wireOut() {
	n := make([]int, len(t.Nodes))
	for i := range t.Links {
		n[t.Links[i].From]++
	}
	all := make([]int, len(t.Links))
	start := 0
	for i := range t.Nodes {
		end := start + n[i]
		// Full slice expressions: an append to one node's Out copies, never
		// overwrites the next node's.
		t.Nodes[i].Out = all[start:start:end]
		start = end
	}
	for i := range t.Links {
		nd := &t.Nodes[t.Links[i].From]
		nd.Out = append(nd.Out, i)
	}
	for i := range t.Nodes {
		if len(t.Nodes[i].Out) == 0 {
			t.Nodes[i].Out = nil // as before: a node without links has none
		}
	}
}

func (b *builder) net(a, c int) { b.cable(a, c, b.fabric, b.rate, b.latency) }

// Unreached is HopsTo's count for a node that cannot reach dst.
const Unreached = 255

// HopsTo returns every node's hop count to dst over forwarding nodes
// (Unreached where unreachable). A minimal next hop from u is a neighbour one
// hop closer that is dst itself or forwards.
func (t *Topology) HopsTo(dst int) []uint8 { return t.HopsAvoiding(dst, nil) }

// Uplink is the node every link out of endpoint-like node n leads to, when n
// does not forward, has links, and they all lead to one forwarding node (a
// host under its leaf). Then HopsTo(n) is HopsTo of that node plus one, but
// for n itself.
func (t *Topology) Uplink(n int) (int, bool) {
	nd := &t.Nodes[n]
	if nd.Role.Forwards() || len(nd.Out) == 0 {
		return 0, false
	}
	to := t.Links[nd.Out[0]].To
	for _, l := range nd.Out[1:] {
		if t.Links[l].To != to {
			return 0, false
		}
	}
	return to, t.Nodes[to].Role.Forwards()
}

// HopsAvoiding is HopsTo over the links avoid does not hold (both
// directions of a cable count as one; nil avoids none): routing around
// failed links.
func (t *Topology) HopsAvoiding(dst int, avoid []bool) []uint8 {
	dist := make([]uint8, len(t.Nodes))
	for i := range dist {
		dist[i] = Unreached
	}
	dist[dst] = 0
	queue := make([]int, 1, len(t.Nodes))
	queue[0] = dst
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, l := range t.Nodes[u].Out {
			v := t.Links[l].To
			if dist[v] != Unreached || avoid != nil && (avoid[l] || avoid[t.Links[l].Reverse]) {
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
