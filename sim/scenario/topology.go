package scenario

import (
	"fmt"
	"math"

	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

// Topology kinds.
const (
	Star      = "star"
	DGX       = "dgx"
	LeafSpine = "leafspine"
	FatTree   = "fattree"
)

// Fabrics.
const (
	IB       = "ib"
	RoCE     = "roce"
	Ethernet = "ethernet"
)

// Topology describes the machines and how they are wired.
type Topology struct {
	Kind string `yaml:"kind"` // star | dgx | leafspine | fattree

	Hosts         int     `yaml:"hosts"`            // star
	Nodes         int     `yaml:"nodes"`            // dgx: HGX-style nodes
	GPUsPerNode   int     `yaml:"gpus_per_node"`    // dgx (8), leafspine (1: plain hosts)
	Leaves        int     `yaml:"leaves"`           // leafspine
	Spines        int     `yaml:"spines"`           // leafspine; dgx with several nodes
	HostsPerLeaf  int     `yaml:"hosts_per_leaf"`   // leafspine: endpoints per leaf (hosts_per_leaf/gpus_per_node whole nodes; rail_optimized: one NIC of each of hosts_per_leaf nodes)
	K             int     `yaml:"k"`                // fattree: switch radix, k³/4 hosts
	Oversub       float64 `yaml:"oversubscription"` // leaf downlinks per uplink (1: none); dgx and leafspine
	RailOptimized bool    `yaml:"rail_optimized"`   // leafspine with gpus_per_node > 1: NIC i of every node on leaf i

	Fabric        string    `yaml:"fabric"`    // ib | roce | ethernet
	LinkGbps      float64   `yaml:"link_gbps"` // host and fabric link rate
	LinkLatency   unit.Time `yaml:"link_latency"`
	SwitchLatency unit.Time `yaml:"switch_latency"`
	// NVLinkEfficiency scales the NVLink 4 data rate (450 GB/s per direction):
	// the default reproduces the ~370 GB/s bus bandwidth nccl-tests measure on
	// 8 H100s; 1 gives the ideal link.
	NVLinkEfficiency float64 `yaml:"nvlink_efficiency"`
}

// DefaultNVLinkEfficiency calibrates NVLink so that the default ring
// all-reduce of 1 GiB on 8 GPUs reaches the ~370 GB/s busbw measured on H100.
const DefaultNVLinkEfficiency = 0.825

// Endpoints is the number of traffic endpoints: hosts, or GPUs in dgx and
// multi-GPU leafspine topologies. It is meaningful after Validate.
func (s *Scenario) Endpoints() int {
	t := &s.Topology
	switch t.Kind {
	case Star:
		return t.Hosts
	case DGX:
		return t.Nodes * t.GPUsPerNode
	case LeafSpine:
		return t.Leaves * t.HostsPerLeaf
	case FatTree:
		return t.K * t.K * t.K / 4
	}
	return 0
}

// Wire is the link kind and rate of the fabric (host and switch links). It
// panics on a fabric Validate rejects.
func (s *Scenario) Wire() (link.Kind, unit.Rate) {
	var k link.Kind
	switch s.Topology.Fabric {
	case IB:
		k = link.IB
	case RoCE:
		k = link.RoCE
	case Ethernet:
		k = link.Ethernet
	default:
		panic(fmt.Sprintf("scenario: unknown fabric %q", s.Topology.Fabric))
	}
	return k, unit.Rate(s.Topology.LinkGbps) * unit.Gbps
}

// fillDefaults sets the shape defaults of each kind.
func (t *Topology) fillDefaults(present func(key string) bool) {
	switch t.Kind {
	case DGX:
		if !present("topology.gpus_per_node") {
			t.GPUsPerNode = 8
		}
		if !present("topology.nodes") {
			t.Nodes = 1
		}
		if !present("topology.spines") && t.Nodes > 1 {
			if u, ok := uplinks(t.Nodes, t.Oversub); ok {
				t.Spines = u
			}
		}
	case LeafSpine:
		if !present("topology.gpus_per_node") {
			t.GPUsPerNode = 1
		}
	}
}

// uplinks is down/oversub when that is a whole number ≥ 1.
func uplinks(down int, oversub float64) (int, bool) {
	if !(oversub >= 1) || math.IsInf(oversub, 0) {
		return 0, false
	}
	u := float64(down) / oversub
	r := math.Round(u)
	if r < 1 || math.Abs(u-r) > 1e-9*r {
		return 0, false
	}
	return int(r), true
}

// sizeKey is the key that sets the endpoint count of s's topology.
func sizeKey(s *Scenario) string {
	switch s.Topology.Kind {
	case DGX:
		return "topology.nodes"
	case LeafSpine:
		return "topology.hosts_per_leaf"
	case FatTree:
		return "topology.k"
	}
	return "topology.hosts"
}

// shape says how the endpoint count comes about.
func shape(s *Scenario) string {
	t := &s.Topology
	switch t.Kind {
	case DGX:
		return fmt.Sprintf("%d nodes × %d GPUs", t.Nodes, t.GPUsPerNode)
	case LeafSpine:
		return fmt.Sprintf("%d leaves × %d hosts_per_leaf", t.Leaves, t.HostsPerLeaf)
	case FatTree:
		return fmt.Sprintf("a k=%d fat tree", t.K)
	}
	return fmt.Sprintf("a star of %d hosts", t.Hosts)
}

// topology checks the shape and returns the endpoint count.
func (c *checker) topology() (int, bool) {
	t := &c.s.Topology
	if !c.oneOf("topology.kind", t.Kind, "a topology kind", Star, DGX, LeafSpine, FatTree) {
		return 0, false
	}
	ok := true
	if (t.Kind == DGX || t.Kind == LeafSpine) && (!(t.Oversub >= 1) || math.IsInf(t.Oversub, 0)) {
		c.fail("topology.oversubscription", "%s is not allowed: it must be ≥ 1 (1: no oversubscription)", c.text("topology.oversubscription", t.Oversub))
		ok = false
	}
	switch t.Kind {
	case Star:
		switch {
		case t.Hosts < 2:
			c.fail("topology.hosts", "%s is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)", c.text("topology.hosts", t.Hosts))
			return 0, false
		case t.Hosts > MaxEndpoints:
			c.fail("topology.hosts", "%s is too many: at most %d endpoints (e.g. hosts: 1024)", c.text("topology.hosts", t.Hosts), MaxEndpoints)
			return 0, false
		}
		return t.Hosts, ok
	case DGX:
		return c.dgx(ok)
	case LeafSpine:
		return c.leafSpine(ok)
	}
	return c.fatTree()
}

func (c *checker) dgx(ok bool) (int, bool) {
	t := &c.s.Topology
	ok = c.between("topology.nodes", t.Nodes, 1, MaxEndpoints, 4, "nodes") && ok
	ok = c.between("topology.gpus_per_node", t.GPUsPerNode, 1, MaxGPUsPerNode, 8, "gpus_per_node") && ok
	if !ok {
		return 0, false
	}
	n := t.Nodes * t.GPUsPerNode
	switch {
	case n < 2:
		c.fail("topology.gpus_per_node", "1 node with 1 GPU has nobody to talk to: use at least 2 GPUs in all (e.g. gpus_per_node: 8)")
		return 0, false
	case n > MaxEndpoints:
		c.fail("topology.nodes", "%s gives %d endpoints; at most %d are allowed", shape(c.s), n, MaxEndpoints)
		return 0, false
	}
	if t.Nodes > 1 && !c.spines(t.GPUsPerNode, t.Nodes, "nodes") {
		return 0, false
	}
	return n, true
}

// spines checks the spine layer above leaves with down downlinks each.
func (c *checker) spines(leaves, down int, downName string) bool {
	t := &c.s.Topology
	u, ok := uplinks(down, t.Oversub)
	if !ok {
		c.fail("topology.oversubscription", "%s does not give a whole number of uplinks per leaf for %d %s: use %s",
			c.text("topology.oversubscription", t.Oversub), down, downName, divisors(down))
		return false
	}
	if t.Spines < 1 {
		if c.present("topology.spines") {
			c.fail("topology.spines", "%s is not allowed: leaves need spines to join them (e.g. spines: %d)", c.text("topology.spines", t.Spines), u)
		} else {
			c.fail("topology.spines", "not set: %d leaves need spines to join them (e.g. spines: %d)", leaves, u)
		}
		return false
	}
	if u%t.Spines != 0 {
		c.fail("topology.spines", "%s does not divide the %d uplinks of each leaf evenly: use %s", c.text("topology.spines", t.Spines), u, divisors(u))
		return false
	}
	return true
}

func (c *checker) leafSpine(ok bool) (int, bool) {
	t := &c.s.Topology
	ok = c.between("topology.leaves", t.Leaves, 1, MaxEndpoints, 8, "leaves") && ok
	ok = c.between("topology.hosts_per_leaf", t.HostsPerLeaf, 1, MaxEndpoints, 16, "hosts_per_leaf") && ok
	ok = c.between("topology.gpus_per_node", t.GPUsPerNode, 1, MaxGPUsPerNode, 8, "gpus_per_node") && ok
	if t.Spines < 0 {
		c.fail("topology.spines", "%s is negative: it must be ≥ 0", c.text("topology.spines", t.Spines))
		ok = false
	}
	if !ok {
		return 0, false
	}
	g := t.GPUsPerNode
	switch {
	case t.RailOptimized && g == 1:
		c.fail("topology.rail_optimized", "true needs nodes with several GPUs (e.g. gpus_per_node: 8)")
		return 0, false
	case t.RailOptimized && t.Leaves != g:
		c.fail("topology.leaves", "%s is not allowed with rail_optimized: there is one leaf per GPU of a node (leaves: %d)", c.text("topology.leaves", t.Leaves), g)
		return 0, false
	case !t.RailOptimized && t.HostsPerLeaf%g != 0:
		c.fail("topology.hosts_per_leaf", "%s does not hold whole nodes of %d GPUs: use a multiple of %d (e.g. hosts_per_leaf: %d), or rail_optimized: true",
			c.text("topology.hosts_per_leaf", t.HostsPerLeaf), g, g, max(g, t.HostsPerLeaf/g*g))
		return 0, false
	}
	n := t.Leaves * t.HostsPerLeaf
	switch {
	case n < 2:
		c.fail("topology.hosts_per_leaf", "1 leaf with 1 host has nobody to talk to: use at least 2 hosts in all (e.g. hosts_per_leaf: 16)")
		return 0, false
	case n > MaxEndpoints:
		c.fail("topology.hosts_per_leaf", "%s gives %d endpoints; at most %d are allowed", shape(c.s), n, MaxEndpoints)
		return 0, false
	}
	if (t.Leaves > 1 || t.Spines > 0) && !c.spines(t.Leaves, t.HostsPerLeaf, "hosts_per_leaf") {
		return 0, false
	}
	return n, true
}

func (c *checker) fatTree() (int, bool) {
	t := &c.s.Topology
	ok := true
	if t.K < 4 || t.K > 64 || t.K%2 != 0 {
		c.fail("topology.k", "%s is not allowed: k must be even, from 4 to 64 (k³/4 hosts; e.g. k: 8 for 128 hosts)", c.text("topology.k", t.K))
		ok = false
	}
	if t.Oversub != 1 {
		c.fail("topology.oversubscription", "%s is not allowed: a fat tree has full bisection bandwidth; use oversubscription: 1, or a leafspine", c.text("topology.oversubscription", t.Oversub))
		ok = false
	}
	if !ok {
		return 0, false
	}
	return c.s.Endpoints(), true
}

// link checks the fabric, link rate and latencies.
func (c *checker) link() bool {
	t := &c.s.Topology
	ok := c.oneOf("topology.fabric", t.Fabric, "a fabric", IB, RoCE, Ethernet)
	if !(t.LinkGbps > 0) || t.LinkGbps > MaxLinkGbps || math.IsInf(t.LinkGbps, 0) {
		c.fail("topology.link_gbps", "%s is not allowed: the link rate must be above 0 and at most %d Gb/s (e.g. link_gbps: 400)", c.text("topology.link_gbps", t.LinkGbps), MaxLinkGbps)
		ok = false
	}
	ok = c.duration("topology.link_latency", t.LinkLatency, 0, MaxLatency, "1us") && ok
	ok = c.duration("topology.switch_latency", t.SwitchLatency, 0, MaxLatency, "300ns") && ok
	return ok
}

// nvlinkEfficiency checks topology.nvlink_efficiency.
func (c *checker) nvlinkEfficiency() {
	if e := c.s.Topology.NVLinkEfficiency; !(e > 0 && e <= 1) {
		c.fail("topology.nvlink_efficiency", "%s is not allowed: it is a share of the NVLink rate, above 0 and at most 1 (default %g; 1 is ideal)",
			c.text("topology.nvlink_efficiency", e), DefaultNVLinkEfficiency)
	}
}
