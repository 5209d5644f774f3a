package scenario

import (
	"fmt"

	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/nodefile"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Topology kinds: sim/topo checks and builds each.
const (
	Star      = topo.Star
	DGX       = topo.DGX
	LeafSpine = topo.LeafSpine
	FatTree   = topo.FatTree
	Torus     = topo.TorusKind
)

// Fabrics.
const (
	IB       = "ib"
	RoCE     = "roce"
	Ethernet = "ethernet"
)

// Topology describes the machines and how they are wired.
type Topology struct {
	Kind string `yaml:"kind"` // star | dgx | leafspine | fattree | torus

	Hosts         int     `yaml:"hosts"`            // star
	Nodes         int     `yaml:"nodes"`            // dgx: HGX-style nodes
	GPUsPerNode   int     `yaml:"gpus_per_node"`    // dgx (8), leafspine (1: plain hosts)
	NICsPerNode   int     `yaml:"nics_per_node"`    // dgx: NICs per node, each shared by gpus_per_node/nics_per_node GPUs (default: one per GPU)
	Leaves        int     `yaml:"leaves"`           // leafspine
	Spines        int     `yaml:"spines"`           // leafspine; dgx with several nodes
	HostsPerLeaf  int     `yaml:"hosts_per_leaf"`   // leafspine: endpoints per leaf (hosts_per_leaf/gpus_per_node whole nodes; rail_optimized: one NIC of each of hosts_per_leaf nodes)
	K             int     `yaml:"k"`                // fattree: switch radix, k³/4 hosts
	Oversub       float64 `yaml:"oversubscription"` // leaf downlinks per uplink (1: none); dgx and leafspine
	RailOptimized bool    `yaml:"rail_optimized"`   // leafspine with gpus_per_node > 1: NIC i of every node on leaf i
	Dims          []int   `yaml:"dims"`             // torus: chips per dimension, 1 to 3 dimensions (link_gbps: each ICI link's rate per direction)

	Fabric        string    `yaml:"fabric"`    // ib | roce | ethernet
	LinkGbps      float64   `yaml:"link_gbps"` // host and fabric link rate
	LinkLatency   unit.Time `yaml:"link_latency"`
	SwitchLatency unit.Time `yaml:"switch_latency"`
	// NVLinkEfficiency scales the NVLink 4 data rate (450 GB/s per direction):
	// the default reproduces the ~370 GB/s bus bandwidth nccl-tests measure on
	// 8 H100s; 1 gives the ideal link.
	NVLinkEfficiency float64 `yaml:"nvlink_efficiency"`
	// NVLink is the NVLink generation of the GPUs: 4 (H100, H200: 450 GB/s
	// per direction), 3 (A100, 300 GB/s) or 5 (B200, 900 GB/s); GPU sets it.
	NVLink int `yaml:"nvlink"`
	// GPU is the GPUs' generation: a100, h100, h200 or b200. It sets the
	// NVLink generation and its efficiency's default, and NCCL's tuning
	// tables; by default it follows nvlink (3: a100, 5: b200, else h100).
	GPU string `yaml:"gpu"`
	// NICEfficiency is the share of a NIC's payload rate that NCCL moves
	// through it: each GPU's PCIe link to its NIC carries that much.
	NICEfficiency float64 `yaml:"nic_efficiency"`
	// StorageNodes are NVMe-oF storage nodes on a storage leaf of their own,
	// joined to the spines (dgx with several nodes, leafspine with spines);
	// StorageGbps is each one's read and write rate, in Gb/s like link_gbps.
	StorageNodes int     `yaml:"storage_nodes"`
	StorageGbps  float64 `yaml:"storage_gbps"`
	// From is a file describing the user's node (NCCL's topology dump or
	// nvidia-smi topo -m), relative to the scenario's file; see from.go.
	From string `yaml:"from"`
	// Node is what From's file says, nil without one.
	Node *nodefile.Node `yaml:"-"`
}

// DefaultStorageGbps is 50 GB/s, the sequential read the source text asks of
// a training cluster's storage ("顺序读取速度至少达到50GB/s"; REFERENCE.md,
// "Storage nodes on the fabric").
const DefaultStorageGbps = 400

// DefaultNICEfficiency is what NCCL carries through a NIC: 48 GB/s of the
// 49.7 GB/s payload ceiling of a 400G NDR port (REFERENCE.md, "NCCL goodput
// per 400G NIC": 46–48 GB/s measured; search.cc sm90SpeedArrayInter plans
// 48 GB/s per channel). At 200G HDR it gives 24 GB/s, and a DGX A100's ring
// its ~192 GB/s.
const DefaultNICEfficiency = 0.966

// DefaultNVLinkEfficiency calibrates NVLink so that the default ring
// all-reduce of 1 GiB on 8 GPUs reaches the ~370 GB/s busbw measured on H100.
const DefaultNVLinkEfficiency = 0.825

// TopologyGPUs are topology.gpu's GPUs: each one's NVLink generation and
// the NVLink efficiency that reproduces the 8-GPU ring all-reduce busbw
// published for it (REFERENCE.md, "NVLink efficiency per GPU generation"):
// A100 0.77 (231.6 of 300 GB/s), H100 and H200 0.825 (≈ 370 of 450), B200
// 0.80 (NCCL's own 721.8 of 900 GB/s; no published 8-GPU figure).
var TopologyGPUs = map[string]struct {
	NVLink     int
	Efficiency float64
}{"a100": {3, 0.77}, "h100": {4, DefaultNVLinkEfficiency}, "h200": {4, DefaultNVLinkEfficiency}, "b200": {5, 0.80}}

// MinNVLinkEfficiency keeps NVLink at 4.5 GB/s or more, so that its
// serialisation times stay far inside the engine's integer picoseconds.
const MinNVLinkEfficiency = 0.01

// Shape is the topology's kind and dimensions, which sim/topo checks and builds.
func (t *Topology) Shape() topo.Shape {
	return topo.Shape{Kind: t.Kind, Hosts: t.Hosts, Nodes: t.Nodes, GPUsPerNode: t.GPUsPerNode, NICsPerNode: t.NICsPerNode, Leaves: t.Leaves,
		Spines: t.Spines, HostsPerLeaf: t.HostsPerLeaf, K: t.K, Oversub: t.Oversub, RailOptimized: t.RailOptimized, Dims: t.Dims,
		StorageNodes: t.StorageNodes}
}

// sizeKey is the key that sets the endpoint count.
func (t *Topology) sizeKey() string { return "topology." + t.Shape().SizeField() }

// Endpoints is the number of traffic endpoints: hosts, or GPUs in dgx and
// multi-GPU leafspine topologies. It is meaningful after Validate.
func (s *Scenario) Endpoints() int { return s.Topology.Shape().Endpoints() }

// wire is the link kind and rate of the fabric (host and switch links), for
// the checks of sizes derived from them. It panics on a fabric Validate
// rejects.
func (s *Scenario) wire() (link.Kind, unit.Rate) {
	k, ok := topo.FabricKind(s.Topology.Fabric)
	if !ok {
		panic(fmt.Sprintf("scenario: unknown fabric %q", s.Topology.Fabric))
	}
	return k, topo.LinkRate(s.Topology.LinkGbps)
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
		if !present("topology.nics_per_node") {
			t.NICsPerNode = t.GPUsPerNode
		}
		if !present("topology.spines") && t.Nodes > 1 {
			if u, ok := topo.Uplinks(t.Nodes, t.Oversub); ok {
				t.Spines = u
			}
		}
	case LeafSpine:
		if !present("topology.gpus_per_node") {
			t.GPUsPerNode = 1
		}
	}
	if !present("topology.gpu") {
		t.GPU = map[int]string{3: "a100", 5: "b200"}[t.NVLink]
		if t.GPU == "" {
			t.GPU = "h100"
		}
	} else if g, ok := TopologyGPUs[t.GPU]; ok && !present("topology.nvlink") {
		t.NVLink = g.NVLink
	}
	if g, ok := TopologyGPUs[t.GPU]; ok && !present("topology.nvlink_efficiency") {
		t.NVLinkEfficiency = g.Efficiency
	}
}

// topology checks the shape (sim/topo holds the rules) and returns the
// endpoint count.
func (c *checker) topology() (int, bool) {
	sh := c.s.Topology.Shape()
	problems := sh.Check()
	if sh.Kind == DGX && sh.NICsPerNode == 0 && len(problems) == 0 {
		problems = []*topo.Problem{{Field: "nics_per_node", Value: 0, Msg: msg.F("is not allowed: a node needs a NIC (e.g. nics_per_node: %d, a NIC per GPU; leave it out for that)", sh.GPUsPerNode)}}
	}
	for _, p := range problems {
		key := "topology." + p.Field
		switch {
		case p.Unset.Format != "" && !c.present(key):
			c.fail(key, "%s", p.Unset)
		case p.Value != nil:
			c.fail(key, "%s %s", c.text(key, p.Value), p.Msg)
		default:
			c.fail(key, "%s", p.Msg)
		}
	}
	if len(problems) > 0 {
		return 0, false
	}
	return sh.Endpoints(), true
}

// link checks the fabric, link rate and latencies.
func (c *checker) link() bool {
	t := &c.s.Topology
	ok := c.oneOf("topology.fabric", t.Fabric, msg.F("a fabric"), IB, RoCE, Ethernet)
	if !(t.LinkGbps >= MinLinkGbps && t.LinkGbps <= MaxLinkGbps) {
		c.fail("topology.link_gbps", "%s is not allowed: the link rate must be from %d to %d Gb/s (e.g. link_gbps: 400)", c.text("topology.link_gbps", t.LinkGbps), MinLinkGbps, MaxLinkGbps)
		ok = false
	}
	if !(t.StorageGbps >= MinLinkGbps && t.StorageGbps <= MaxLinkGbps) {
		c.fail("topology.storage_gbps", "%s is not allowed: a storage node's read/write rate must be from %d to %d Gb/s (e.g. storage_gbps: 400, i.e. 50 GB/s)", c.text("topology.storage_gbps", t.StorageGbps), MinLinkGbps, MaxLinkGbps)
		ok = false
	}
	ok = c.duration("topology.link_latency", t.LinkLatency, 0, MaxLatency, "1us") && ok
	ok = c.duration("topology.switch_latency", t.SwitchLatency, 0, MaxLatency, "300ns") && ok
	return ok
}

// nicEfficiency checks topology.nic_efficiency.
func (c *checker) nicEfficiency() {
	if e := c.s.Topology.NICEfficiency; !(e >= MinNVLinkEfficiency && e <= 1) {
		c.fail("topology.nic_efficiency", "%s is not allowed: it is a share of the NIC's payload rate, from %g to 1 (default %g; 1 is the wire's ceiling)",
			c.text("topology.nic_efficiency", e), MinNVLinkEfficiency, DefaultNICEfficiency)
	}
}

// nvlinkEfficiency checks topology.nvlink_efficiency and topology.nvlink.
func (c *checker) nvlinkEfficiency() {
	t := &c.s.Topology
	if g := t.NVLink; g < 3 || g > 5 {
		c.fail("topology.nvlink", "%s is not an NVLink generation: use 4 (H100, 450 GB/s per direction), 3 (A100, 300 GB/s) or 5 (B200, 900 GB/s)", c.text("topology.nvlink", g))
	}
	if g, ok := TopologyGPUs[t.GPU]; !ok {
		c.fail("topology.gpu", "%s is not a GPU; use a100, h100, h200 or b200", c.text("topology.gpu", t.GPU))
	} else if g.NVLink != t.NVLink && t.NVLink >= 3 && t.NVLink <= 5 {
		c.fail(c.blame("topology.nvlink", "topology.gpu"), "%s with topology.gpu %s: %s has NVLink %d; leave nvlink out (gpu sets it) or set the GPU that has it",
			c.text("topology.nvlink", t.NVLink), t.GPU, t.GPU, g.NVLink)
	}
	if e := c.s.Topology.NVLinkEfficiency; !(e >= MinNVLinkEfficiency && e <= 1) {
		c.fail("topology.nvlink_efficiency", "%s is not allowed: it is a share of the NVLink rate, from %g to 1 (default %g; 1 is ideal)",
			c.text("topology.nvlink_efficiency", e), MinNVLinkEfficiency, DefaultNVLinkEfficiency)
	}
}

// TorusDims is topology.dims on a torus, nil on other kinds.
func (s *Scenario) TorusDims() []int {
	if s.Topology.Kind == Torus {
		return s.Topology.Dims
	}
	return nil
}
