package scenario

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Collective is one collective operation over the first Ranks endpoints.
type Collective struct {
	Op       string     `yaml:"op"`       // allreduce | reducescatter | allgather | broadcast | alltoall
	Algo     string     `yaml:"algo"`     // ring | tree | rabenseifner | hierarchical | direct | pairwise
	Bytes    unit.Bytes `yaml:"bytes"`    // nccl-tests' S: the whole array (all-to-all: count · ranks · size)
	Ranks    int        `yaml:"ranks"`    // 0: every endpoint
	Channels int        `yaml:"channels"` // parallel rings/trees, each with bytes/channels
	Chunk    unit.Bytes `yaml:"chunk"`    // pipeline piece per channel
	Alpha    unit.Time  `yaml:"alpha"`    // software latency per step
	Root     int        `yaml:"root"`     // broadcast
	Class    string     `yaml:"class"`    // traffic class of its transfers (network.classes); "" is the first
	// Execution is steps (every chunk transfer of every step; the default at
	// packet level) or streamed (each phase as one long transfer per pair, with
	// the steps' latency added; the default at flow level, where it keeps
	// 16,384-GPU runs cheap).
	Execution string `yaml:"execution"`
	// Latency is what each step costs beyond moving bytes: nccl (NCCL's
	// latency model for the protocol, tuning.cc; the default on multi-GPU
	// topologies) or alpha (Alpha per step plus the fabric's own latency;
	// the default elsewhere).
	Latency string `yaml:"latency"`
	// Protocol is NCCL's protocol: auto (the one NCCL's tuning model picks
	// for the size; Simple under latency: alpha), ll, ll128 or simple.
	Protocol string `yaml:"protocol"`
	// PXN relays an all-to-all's data for another node over NVLink to the
	// GPU on the destination's rail, as NCCL does unless NCCL_PXN_DISABLE=1
	// (default true); false sends it straight from GPU to GPU across rails.
	PXN bool `yaml:"pxn"`
	// Floor is the least time one collective takes under latency: nccl, as
	// nccl-tests time back-to-back calls: the host's work per call (NCCL's
	// enqueue and the kernel launch) overlaps the previous call's transfers,
	// so a call takes the longer of the two (default 35us; 0: none).
	Floor unit.Time `yaml:"floor"`
}

// Protocols (collective.protocol).
const (
	ProtocolAuto   = "auto"
	ProtocolLL     = "ll"
	ProtocolLL128  = "ll128"
	ProtocolSimple = "simple"
)

// Step latency models (collective.latency).
const (
	LatencyNCCL  = "nccl"
	LatencyAlpha = "alpha"
)

// StepLatency is the latency model the collective runs with: collective.latency,
// or its default for the topology.
func (s *Scenario) StepLatency() string {
	if l := s.Collective.Latency; l != "" {
		return l
	}
	if s.NodeGPUs() > 0 {
		return LatencyNCCL
	}
	return LatencyAlpha
}

// NodeGPUs is the node size hierarchical collectives see: GPUs per node on a
// dgx or multi-GPU leafspine topology, 0 for plain hosts.
func (s *Scenario) NodeGPUs() int {
	if g := s.Topology.GPUsPerNode; g > 1 && (s.Topology.Kind == DGX || s.Topology.Kind == LeafSpine) {
		return g
	}
	return 0
}

// NVSwitch reports whether each node's GPUs share an NVSwitch that reduces
// (NVLS): a dgx topology. nvlstree needs it.
func (s *Scenario) NVSwitch() bool {
	return s.Topology.Kind == DGX && s.NodeGPUs() > 1
}

// OneSwitch reports whether every endpoint hangs off one switch: a star, or
// the NVSwitch of a single dgx node.
func (s *Scenario) OneSwitch() bool {
	t := &s.Topology
	return t.Kind == Star || t.Kind == DGX && t.Nodes == 1
}

// collective checks the collective keys when an operation is set.
func (c *checker) collective(endpoints int, topoOK bool) {
	s := c.s
	co := &s.Collective
	if co.Op == "" {
		return // no collective
	}
	// Traffic runs beside a collective only when the document asks for both
	// (a scenario built in Go asks for what it sets).
	if s.Traffic.Pattern != PatternNone && c.at != nil && !c.present("traffic.pattern") {
		c.fail("traffic.pattern", "%s cannot run beside a collective unless traffic.pattern is set: set pattern: none, or write the pattern to run both (e.g. a noisy neighbour)", c.text("traffic.pattern", s.Traffic.Pattern))
	}
	c.classRef("collective.class", co.Class)
	c.flowBytes("collective.bytes", co.Bytes)
	c.between("collective.channels", co.Channels, 1, 64, 8, msg.F("channels"))
	if co.Chunk < 0 || co.Chunk > 0 && co.Chunk < 4*unit.KiB || co.Chunk > MaxFlowBytes {
		c.fail("collective.chunk", "%s is not allowed: a pipeline piece is from 4KiB to %s (default 4MiB; 0 sends each channel's share in one piece)", c.text("collective.chunk", co.Chunk), sizeText(MaxFlowBytes))
	}
	c.duration("collective.alpha", co.Alpha, 0, MaxLatency, "1us")
	c.duration("collective.floor", co.Floor, 0, MaxLatency, "35us")
	if co.Execution != "" {
		c.oneOf("collective.execution", co.Execution, msg.F("an execution"), "steps", "streamed")
	}
	if co.Latency != "" {
		c.oneOf("collective.latency", co.Latency, msg.F("a latency model"), LatencyNCCL, LatencyAlpha)
	}
	if co.Protocol != "" {
		c.oneOf("collective.protocol", co.Protocol, msg.F("an NCCL protocol"), ProtocolAuto, ProtocolLL, ProtocolLL128, ProtocolSimple)
	}
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("collective.ranks", co.Ranks, endpoints)
	if !ok {
		return
	}
	if co.Op == "broadcast" && (co.Root < 0 || co.Root >= ranks) {
		c.fail("collective.root", "%s is not a rank: use 0 to %d", c.text("collective.root", co.Root), ranks-1)
	}
	if co.Op == "alltoall" {
		c.allToAllFits(ranks)
	}
	// sim/plan builds the schedule and checks what it makes (plan.Resolve).
}

// ranks checks a rank count, where 0 means every endpoint, and returns it.
func (c *checker) ranks(key string, ranks, endpoints int) (int, bool) {
	if ranks == 0 {
		ranks = endpoints
	}
	return ranks, c.between(key, ranks, 2, endpoints, endpoints, msg.F("with %d endpoints, ranks", endpoints))
}
