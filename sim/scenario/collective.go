package scenario

import (
	"slices"
	"strconv"

	"fabriclab/sim/coll"
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
	// Simple-protocol latency model, tuning.cc; the default on multi-GPU
	// topologies) or alpha (Alpha per step plus the fabric's own latency;
	// the default elsewhere).
	Latency string `yaml:"latency"`
}

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

// CollParams describes ranks of this scenario's topology to coll.Build.
func (s *Scenario) CollParams(ranks, root int) coll.Params {
	return coll.Params{Ranks: ranks, GPUsPerNode: s.NodeGPUs(), Root: root, OneSwitch: s.OneSwitch(),
		NVSwitch: s.NVSwitch(), Bytes: int64(s.Collective.Bytes)}
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
func (c *checker) collective(endpoints int, topoOK, countPackets bool) {
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
	optionsOK := c.flowBytes("collective.bytes", co.Bytes)
	optionsOK = c.between("collective.channels", co.Channels, 1, 64, 8, "channels") && optionsOK
	if co.Chunk < 0 || co.Chunk > 0 && co.Chunk < 4*unit.KiB || co.Chunk > MaxFlowBytes {
		optionsOK = false
		c.fail("collective.chunk", "%s is not allowed: a pipeline piece is from 4KiB to %s (default 4MiB; 0 sends each channel's share in one piece)", c.text("collective.chunk", co.Chunk), sizeText(MaxFlowBytes))
	}
	c.duration("collective.alpha", co.Alpha, 0, MaxLatency, "1us")
	if co.Execution != "" {
		c.oneOf("collective.execution", co.Execution, "an execution", "steps", "streamed")
	}
	if co.Latency != "" {
		c.oneOf("collective.latency", co.Latency, "a latency model", LatencyNCCL, LatencyAlpha)
	}
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("collective.ranks", co.Ranks, endpoints)
	if !ok {
		return
	}
	if co.Op == coll.Broadcast && (co.Root < 0 || co.Root >= ranks) {
		c.fail("collective.root", "%s is not a rank: use 0 to %d", c.text("collective.root", co.Root), ranks-1)
	}
	if co.Op == coll.AllToAll && !c.allToAllFits(ranks) {
		return
	}
	streamed := s.Sim.Fidelity == FlowLevel
	if co.Execution != "" {
		streamed = co.Execution == "streamed"
	}
	p := s.CollParams(ranks, 0)
	p.SummaryOnly = streamed // the check needs no steps then
	sched, err := coll.Build(co.Op, co.Algo, p)
	if err != nil {
		key := "collective.algo"
		if !slices.Contains(coll.Ops, co.Op) {
			key = "collective.op"
		}
		c.fail(key, "%v", err)
		return
	}
	if sched.Steps == nil && !streamed {
		c.fail(c.blame("collective.execution", "collective.ranks", s.Topology.sizeKey(), "collective.algo", "sim.fidelity"), "%s/%s on %d ranks has too many transfers to run step by step (at most %d); use sim: {fidelity: flow} or collective.execution: streamed",
			co.Op, co.Algo, ranks, coll.MaxStepTransfers)
		return
	}
	if countPackets && co.Bytes > 0 {
		// Every rank sends at most about twice the message.
		packets := int64(ranks) * 2 * int64((co.Bytes+s.Network.MTU-1)/s.Network.MTU)
		if key := c.blame("collective.bytes", "collective.ranks", s.Topology.sizeKey(), "network.mtu", "collective.op"); packets > MaxTotalPackets && key != "collective.bytes" {
			c.fail(key, "%s makes %d ranks exchange the %s collective.bytes, about %d packets; packet-level runs allow at most %d (send less, or use sim: {fidelity: flow})",
				c.text(key, nil), ranks, sizeText(co.Bytes), packets, MaxTotalPackets)
		} else if packets > MaxTotalPackets {
			c.fail("collective.bytes", "%s on %d ranks comes to about %d packets; packet-level runs allow at most %d (send less, or use sim: {fidelity: flow})",
				c.text("collective.bytes", co.Bytes), ranks, packets, MaxTotalPackets)
		}
		if packets > MaxTotalPackets {
			return
		}
	}
	if optionsOK {
		c.transfersFit(sched, ranks, streamed)
	}
}

// ranks checks a rank count, where 0 means every endpoint, and returns it.
func (c *checker) ranks(key string, ranks, endpoints int) (int, bool) {
	if ranks == 0 {
		ranks = endpoints
	}
	return ranks, c.between(key, ranks, 2, endpoints, endpoints, "with "+strconv.Itoa(endpoints)+" endpoints, ranks")
}
