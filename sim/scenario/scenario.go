// Package scenario defines what a simulation run is asked to do — topology,
// network, traffic — and reads it from YAML with errors that name the key, the
// line and what is allowed.
//
// Parse, ParseWith and Load return only scenarios that passed Validate; the
// simulator relies on that and panics on shapes Validate rejects. The checks
// that need an algorithm (a collective's schedule, a training job's memory
// and compute) are sim/plan's: plan.ParseWith and plan.Load run them as
// more checks of ParseChecked, located as Parse locates its own, and
// plan.Resolve again.
//
// Every file the user names, anywhere in the module, is read with
// ReadUserFile (file.go), which bounds its size and refuses devices, FIFOs
// and sockets; TestEveryUserFileIsReadByReadUserFile fails on any other
// read of a file by name, unless readsAllowed says why it is not the user's.
package scenario

import (
	"strings"

	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Scenario is one run's description. The YAML keys are a contract documented in README.md.
type Scenario struct {
	Name     string    `yaml:"name"`
	Seed     uint64    `yaml:"seed"`
	Topology Topology  `yaml:"topology"`
	Network  Network   `yaml:"network"`
	Traffic  Traffic   `yaml:"traffic"`
	Until    unit.Time `yaml:"until"` // 0: until every flow finishes (at most MaxUntil)
	Sim      Sim       `yaml:"sim"`
	// Collective runs one collective operation instead of traffic (when op is set).
	Collective Collective `yaml:"collective"`
	// Training runs data-parallel training iterations instead of traffic (when model is set).
	Training Training `yaml:"training"`
	// Inference serves LLM requests instead of traffic (when model is set).
	Inference Inference `yaml:"inference"`
	// Faults are stragglers and failures: slow GPUs, links down or degraded.
	Faults []Fault `yaml:"faults"`
}

// Limits on sizes, so that no input can make a run hang or exhaust memory.
const (
	MaxEndpoints       = topo.MaxEndpoints // any topology
	MaxPacketEndpoints = 8192              // packet-level runs
	MaxFlows           = 1 << 20           // flows in a scenario's traffic
	MaxRunFlows        = 1 << 21           // flows in a run, a workload's transfers included
	MaxFlowBytes       = unit.TiB          // one flow
	MaxTotalPackets    = 200_000_000       // sum of bytes / mtu over all flows, packet level
	MaxUntil           = 100 * unit.Second // simulated time
	MinMTU             = 256
	MaxMTU             = 9216
	MinLinkGbps        = 1                   // a 9 KiB packet takes 74 µs; a 1 TiB flow 2.4 hours, inside int64 picoseconds
	MaxLinkGbps        = 100_000             // a 64-byte ACK still takes 6 ps
	MaxLatency         = unit.Second         // link and switch latency, and rto
	MaxBuffer          = unit.GiB            // per switch port
	MaxAckEvery        = 1024                // packets per ACK
	MaxGPUsPerNode     = topo.MaxGPUsPerNode // dgx and leafspine nodes
	MaxSourceBytes     = 8 << 20             // one scenario file
	MinRTO             = unit.Microsecond
	MinSampleInterval  = unit.Microsecond
)

// Default returns the scenario every YAML document is laid over: a 9-host
// 400G RoCE star with PFC and ECMP, 4096-byte MTU and 2 MiB port buffers.
func Default() Scenario {
	return Scenario{
		Name: "unnamed",
		Seed: 1,
		Topology: Topology{
			Kind: Star, Hosts: 9, GPUsPerNode: 0, Oversub: 1,
			Fabric: RoCE, LinkGbps: 400, LinkLatency: unit.Microsecond, SwitchLatency: 300 * unit.Nanosecond,
			NVLinkEfficiency: DefaultNVLinkEfficiency, NICEfficiency: DefaultNICEfficiency, NVLink: 4, GPU: "h100", StorageGbps: DefaultStorageGbps,
		},
		Network: Network{
			MTU: 4096, Buffer: 2 * unit.MiB, FlowControl: FCPFC, Routing: RouteECMP, CC: CCNone,
			ECN: ECN{PMax: DefaultECNPMax}, CNPInterval: DefaultCNPInterval, DCQCN: DCQCNDefaults(DCQCNNIC), RTO: 100 * unit.Microsecond, Recovery: RecoveryGBN, AckEvery: 16, RerouteDelay: DefaultRerouteEthernet,
			BufferModel: BufferStatic, DTAlpha: 1,
			IBCC: IBCC{MarkingRate: 1, Timer: DefaultIBCCTimer, CCTIIncrease: 1, CCTILimit: DefaultCCTILimit, CCTStep: DefaultCCTStep},
		},
		Traffic:    Traffic{Pattern: PatternIncast, Senders: 8, Receiver: -1, Bytes: 64 * unit.MiB},
		Sim:        Sim{Fidelity: Packet},
		Collective: Collective{Bytes: unit.GiB, Channels: 8, Chunk: 4 * unit.MiB, Alpha: unit.Microsecond, PXN: true, Floor: 35 * unit.Microsecond},
		Training: Training{GPU: "h100", TP: 1, TPLayout: "node", PP: 1, PPSchedule: "1f1b", PPVirtual: 1, Placement: "tp-pp-dp", Checkpointing: "none", BucketCap: 25 * unit.MiB, FirstBucket: unit.MiB, Overlap: true,
			Compression: "fp32", Iterations: 1},
		Inference: Inference{PromptTokens: 1024, OutputTokens: 256, RequestsPerS: 20, Requests: 64, MBU: DefaultMBU},
	}
}

// Validate reports every problem with s, or nil. Parse validates already;
// call Validate on a scenario built or changed in Go.
func (s *Scenario) Validate() error {
	c := checker{s: s}
	c.run()
	return c.errs.err()
}

// fillDefaults sets the defaults that depend on other keys, for keys the
// document does not have. Later sections depend on earlier ones: incast
// senders on the endpoint count, class losslessness on the flow control.
func (s *Scenario) fillDefaults(present func(key string) bool) {
	// One GPU generation: topology.gpu and training.gpu follow each other.
	topoPresent := present
	if _, ok := TopologyGPUs[s.Training.GPU]; ok && present("training.gpu") && !present("topology.gpu") && !present("topology.nvlink") {
		s.Topology.GPU = s.Training.GPU
		topoPresent = func(key string) bool { return key == "topology.gpu" || present(key) }
	}
	s.Topology.fillDefaults(topoPresent)
	if !present("training.gpu") && (present("topology.gpu") || present("topology.nvlink")) {
		s.Training.GPU = s.Topology.GPU
	}
	s.Network.fillDefaults(present, s.Topology.Fabric)
	s.Traffic.fillDefaults(present, s)
	s.Training.fillDefaults(present, &s.Topology)
}

// run checks every section in a fixed order, so that messages come in the
// same order each time; later sections use what earlier ones found.
func (c *checker) run() {
	s := c.s
	if strings.TrimSpace(s.Name) == "" {
		c.fail("name", "must not be empty (e.g. name: my-incast)")
	} else {
		c.printable("name", s.Name, "my-incast")
	}
	endpoints, topoOK := c.topology()
	linkOK := c.link()
	netOK := c.network(linkOK)
	packet := s.Sim.Fidelity == Packet
	if topoOK && packet && endpoints > MaxPacketEndpoints {
		c.fail(s.Topology.sizeKey(), "%s gives %d endpoints; packet-level runs (sim.fidelity: packet) allow at most %d", s.Topology.Shape().Describe(), endpoints, MaxPacketEndpoints)
		topoOK = false
	}
	c.traffic(endpoints, topoOK, netOK && packet)
	c.collective(endpoints, topoOK)
	c.storms(endpoints, topoOK)
	c.training(endpoints, topoOK)
	c.inference(endpoints, topoOK)
	c.faults(endpoints, topoOK)
	c.nvlinkEfficiency()
	c.nicEfficiency()
	c.sim(endpoints, topoOK)
	c.valid = len(c.errs) == 0
	c.ignored()
}
