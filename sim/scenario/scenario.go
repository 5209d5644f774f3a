// Package scenario defines what a simulation run is asked to do — topology,
// network, traffic — and reads it from YAML with errors that name the key, the
// line and what is allowed.
//
// Parse, ParseWith and Load return only scenarios that passed Validate; the
// simulator relies on that and panics on shapes Validate rejects.
package scenario

import "fabriclab/sim/unit"

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
}

// Training is a data-parallel training job over the first Ranks endpoints.
type Training struct {
	Model       string     `yaml:"model"`        // resnet50 | gpt2-1.5b | llama3-8b | custom
	Layers      []Layer    `yaml:"layers"`       // model custom
	GPU         string     `yaml:"gpu"`          // a100 | h100 | h200 | b200
	MFU         float64    `yaml:"mfu"`          // share of peak FLOPs reached
	Batch       int        `yaml:"batch"`        // samples (images, tokens) per GPU; 0: the model's default
	BucketCap   unit.Bytes `yaml:"bucket_cap"`   // DDP bucket_cap_mb
	FirstBucket unit.Bytes `yaml:"first_bucket"` // DDP's first, small bucket
	Overlap     bool       `yaml:"overlap"`      // all-reduce buckets during the backward pass
	Compression string     `yaml:"compression"`  // gradients on the wire: fp32 | bf16 | fp16 | fp8 | int8
	Iterations  int        `yaml:"iterations"`
	Ranks       int        `yaml:"ranks"` // 0: every endpoint
	Algo        string     `yaml:"algo"`  // all-reduce algorithm; default ring, hierarchical on multi-node GPU topologies
}

// Layer is one layer of a custom model.
type Layer struct {
	Name   string  `yaml:"name"`
	Params int64   `yaml:"params"`
	FLOPs  float64 `yaml:"flops"` // forward FLOPs per sample
}

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
}

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

// Flow-control modes.
const (
	FCNone   = "none"
	FCCredit = "credit"
	FCPFC    = "pfc"
)

// Congestion control.
const (
	CCNone  = "none"
	CCDCQCN = "dcqcn" // ECN marking at switches, CNPs, DCQCN rate control at senders (RoCE, packet level)
	CCIBCC  = "ibcc"  // FECN marking at switches, BECNs, CCT-indexed injection delay at senders (InfiniBand, packet level)
)

// Routing modes.
const (
	RouteStatic   = "static"
	RouteECMP     = "ecmp"
	RouteAdaptive = "adaptive"
	RouteSpray    = "spray"
)

// Network holds the switches' and NICs' behaviour.
type Network struct {
	MTU         unit.Bytes `yaml:"mtu"`          // payload bytes per packet
	Buffer      unit.Bytes `yaml:"buffer"`       // per switch port
	FlowControl string     `yaml:"flow_control"` // none | credit | pfc
	Routing     string     `yaml:"routing"`      // static | ecmp | adaptive | spray
	CC          string     `yaml:"cc"`           // none | dcqcn | ibcc
	ECN         ECN        `yaml:"ecn"`          // dcqcn: switch marking thresholds
	CNPInterval unit.Time  `yaml:"cnp_interval"` // dcqcn: at most one CNP per flow per interval
	// ClampTargetRate (dcqcn): on every CNP the target rate takes the current
	// rate, as the DCQCN paper and REFERENCE.md give it (true, the default); false
	// clamps only when the rate has risen since the last cut, the HPCC ns-3
	// artifact's default.
	ClampTargetRate bool      `yaml:"clamp_target_rate"`
	IBCC            IBCC      `yaml:"ibcc"` // ibcc: FECN marking, BECNs and the congestion control table
	PFC             PFC       `yaml:"pfc"`
	RTO             unit.Time `yaml:"rto"`       // go-back-N retransmission timeout
	AckEvery        int       `yaml:"ack_every"` // receiver coalesces this many packets per ACK
	// BufferModel is static (each port owns buffer bytes) or shared (each
	// switch has a pool of SwitchBuffer bytes; a queue may hold at most
	// DTAlpha × the free pool, Choudhury–Hahne dynamic thresholds).
	BufferModel  string     `yaml:"buffer_model"`
	SwitchBuffer unit.Bytes `yaml:"switch_buffer"` // shared: the pool per switch; 0 is ports × buffer
	DTAlpha      float64    `yaml:"dt_alpha"`      // shared: the dynamic threshold's α
	// Classes are the traffic classes (Ethernet priorities, InfiniBand
	// virtual lanes): every egress port keeps a queue per class, served by
	// deficit round robin in proportion to the weights. Empty is one class.
	Classes []Class `yaml:"classes"`
}

// Class is one traffic class. Weights are relative: two classes of weights
// 3 and 1 share a congested port 75/25.
type Class struct {
	Name     string  `yaml:"name"`
	Weight   float64 `yaml:"weight"`   // share of a congested port, relative to the others (default 1)
	Lossless bool    `yaml:"lossless"` // paused per class by PFC (per-priority pause) or credit-based; default: the fabric's flow control is lossless
}

// Buffer models.
const (
	BufferStatic = "static"
	BufferShared = "shared"
)

// Limits on traffic classes.
const (
	MaxClasses     = 8 // Ethernet has 8 priorities; InfiniBand up to 15 data VLs, 8 here
	MaxClassWeight = 1000
	MaxDTAlpha     = 64
)

// ClassIndex is the index of the class named name in network.classes; "" is
// the first class. It is -1 for a name that is not there.
func (n *Network) ClassIndex(name string) int {
	if name == "" {
		return 0
	}
	for i, c := range n.Classes {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// PFC holds the per-ingress-port pause thresholds. Zero values are derived from the buffer and the link.
type PFC struct {
	XOff     unit.Bytes `yaml:"xoff"`
	XOn      unit.Bytes `yaml:"xon"`
	Headroom unit.Bytes `yaml:"headroom"`
	// Storms are endpoints whose NIC keeps its switch port paused for a while,
	// as a stuck or slow receiver does: the pauses spread from there.
	Storms []Storm `yaml:"storms"`
}

// Storm is one endpoint pausing its link in every lossless class from Start to End.
type Storm struct {
	Endpoint int       `yaml:"endpoint"`
	Start    unit.Time `yaml:"start"`
	End      unit.Time `yaml:"end"`
}

// ECN holds the RED marking of switch egress queues that DCQCN reacts to: no
// marks below KMin, probability rising linearly to PMax at KMax, every packet
// above KMax. Zero thresholds are derived from the link rate and the buffer
// (see Scenario.ECNThresholds).
type ECN struct {
	KMin unit.Bytes `yaml:"kmin"`
	KMax unit.Bytes `yaml:"kmax"`
	PMax float64    `yaml:"pmax"` // default 0.2
}

// IBCC is InfiniBand congestion control (the IBA congestion control annex,
// simplified): a switch egress port whose queue is above Threshold marks FECN
// on one in MarkingRate of the packets it forwards; the destination returns a
// BECN per marked packet (at most one per flow per BECNInterval); the source
// raises the flow's CCTI by CCTIIncrease on each BECN, up to CCTILimit, and
// lowers it by 1 every Timer down to CCTIMin; the flow waits CCT[CCTI] =
// CCTI · CCTStep packet times after each packet.
type IBCC struct {
	Threshold    unit.Bytes `yaml:"threshold"`     // 0: a quarter of the buffer (see Scenario.IBCCThreshold)
	MarkingRate  int        `yaml:"marking_rate"`  // mark 1 in this many packets forwarded above the threshold
	BECNInterval unit.Time  `yaml:"becn_interval"` // 0: a BECN for every marked packet
	Timer        unit.Time  `yaml:"timer"`         // CCTI decreases by 1 per period
	CCTIIncrease int        `yaml:"ccti_increase"`
	CCTILimit    int        `yaml:"ccti_limit"`
	CCTIMin      int        `yaml:"ccti_min"`
	CCTStep      float64    `yaml:"cct_step"` // inter-packet delay per CCTI step, in packet times
}

// IBCC defaults: every packet above a quarter of the buffer is marked, a
// BECN answers each, CCTI moves by 1 up to 127 and decays every 10 µs, and
// each step adds an eighth of a packet time (CCTI 8 halves the rate).
const (
	DefaultIBCCTimer = 10 * unit.Microsecond
	DefaultCCTILimit = 127
	DefaultCCTStep   = 0.125
	MaxCCTILimit     = 16383 // IBA's 14-bit CCT index
	MaxMarkingRate   = 65535 // IBA's 16-bit Marking_Rate
	MaxCCTStep       = 64
	MinIBCCTimer     = unit.Microsecond
)

// Traffic patterns.
const (
	PatternFlows       = "flows"
	PatternIncast      = "incast"
	PatternPermutation = "permutation"
	PatternAllToAll    = "alltoall"
	PatternNone        = "none" // the default when a collective runs
)

// Traffic says who sends what to whom.
type Traffic struct {
	Pattern  string     `yaml:"pattern"`  // flows | incast | permutation | alltoall
	Senders  int        `yaml:"senders"`  // incast: endpoints 0..senders-1
	Receiver int        `yaml:"receiver"` // incast: -1 (default) is the endpoint after the senders
	Bytes    unit.Bytes `yaml:"bytes"`    // per flow; the default for a flow that omits bytes
	Start    unit.Time  `yaml:"start"`
	Flows    []Flow     `yaml:"flows"` // pattern flows
	Class    string     `yaml:"class"` // traffic class of generated flows and of flows without one; "" is the first
}

// Flow is one explicit transfer.
type Flow struct {
	Src   int        `yaml:"src"`
	Dst   int        `yaml:"dst"`
	Bytes unit.Bytes `yaml:"bytes"` // Parse fills in traffic.bytes when omitted
	Start unit.Time  `yaml:"start"`
	Class string     `yaml:"class"` // traffic class; "" takes traffic.class
}

// Fidelities.
const (
	Packet    = "packet" // every packet is simulated
	FlowLevel = "flow"   // flows share links by max-min fairness
)

// Sim picks the model and what it records.
type Sim struct {
	Fidelity       string    `yaml:"fidelity"`        // packet | flow
	SampleInterval unit.Time `yaml:"sample_interval"` // time-series period; 0 picks about 200 samples
}

// DefaultCNPInterval is network.cnp_interval's default: a receiver sends at
// most one congestion notification per flow per 50 µs (as RoCE NICs do).
const DefaultCNPInterval = 50 * unit.Microsecond

// DefaultNVLinkEfficiency calibrates NVLink so that the default ring
// all-reduce of 1 GiB on 8 GPUs reaches the ~370 GB/s busbw measured on H100.
const DefaultNVLinkEfficiency = 0.825

// Limits on sizes, so that no input can make a run hang or exhaust memory.
const (
	MaxEndpoints       = 65536             // any topology
	MaxPacketEndpoints = 8192              // packet-level runs
	MaxFlows           = 1 << 20           // flows in one run
	MaxFlowBytes       = unit.TiB          // one flow
	MaxTotalPackets    = 200_000_000       // sum of bytes / mtu over all flows, packet level
	MaxUntil           = 100 * unit.Second // simulated time
	MinMTU             = 256
	MaxMTU             = 9216
	MaxLinkGbps        = 100_000
	MaxLatency         = unit.Second // link and switch latency, and rto
	MaxBuffer          = unit.GiB    // per switch port
	MaxAckEvery        = 1024        // packets per ACK
	MaxGPUsPerNode     = 16          // dgx and leafspine nodes
	MaxSourceBytes     = 8 << 20     // one scenario file
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
			NVLinkEfficiency: DefaultNVLinkEfficiency,
		},
		Network: Network{
			MTU: 4096, Buffer: 2 * unit.MiB, FlowControl: FCPFC, Routing: RouteECMP, CC: CCNone,
			ECN: ECN{PMax: DefaultECNPMax}, CNPInterval: DefaultCNPInterval, ClampTargetRate: true, RTO: 100 * unit.Microsecond, AckEvery: 16,
			BufferModel: BufferStatic, DTAlpha: 1,
			IBCC: IBCC{MarkingRate: 1, Timer: DefaultIBCCTimer, CCTIIncrease: 1, CCTILimit: DefaultCCTILimit, CCTStep: DefaultCCTStep},
		},
		Traffic:    Traffic{Pattern: PatternIncast, Senders: 8, Receiver: -1, Bytes: 64 * unit.MiB},
		Sim:        Sim{Fidelity: Packet},
		Collective: Collective{Bytes: unit.GiB, Channels: 8, Chunk: 4 * unit.MiB, Alpha: unit.Microsecond},
		Training: Training{GPU: "h100", MFU: 0.4, BucketCap: 25 * unit.MiB, FirstBucket: unit.MiB, Overlap: true,
			Compression: "fp32", Iterations: 1},
	}
}
