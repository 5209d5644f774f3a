package plan

import (
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Network is the switches' and NICs' behaviour, resolved: derived values
// computed, and settings the run does not read (the other algorithms',
// thresholds of a flow control not in use) left zero.
type Network struct {
	MTU           unit.Bytes // payload bytes per packet
	Buffer        unit.Bytes // per switch port (and class)
	FlowControl   FlowControl
	Routing       Routing
	SwitchLatency unit.Time
	RTO           unit.Time // retransmission timeout
	SR            bool      // selective repeat, else go-back-N
	AckEvery      int       // packets per ACK
	// XOff, XOn and Headroom are the per-ingress-port pause thresholds
	// (network.pfc, or derived); set under PFC only.
	XOff, XOn, Headroom unit.Bytes
	Storms              []scenario.Storm // network.pfc.storms
	// Classes are the traffic classes, at least one; WorkloadClass is the
	// index of the class a collective's or training's transfers take.
	Classes       []Class
	WorkloadClass int
	StorageClass  int // the class of a workload's storage transfers (training.storage_class)
	// Shared is the shared buffer (buffer_model: shared), nil for a buffer per port.
	Shared *SharedBuffer
	// The congestion control: at most one of DCQCN and IBCC is set.
	DCQCN *DCQCN
	IBCC  *IBCC
}

// FlowControl is what keeps a fabric lossless.
type FlowControl uint8

// Flow controls.
const (
	Lossy  FlowControl = iota // none: queues drop
	Credit                    // InfiniBand's credits
	PFC                       // priority flow control (pause frames)
)

// Routing is how switches pick among minimal paths.
type Routing uint8

// Routings.
const (
	Static   Routing = iota // d-mod-k by destination
	ECMP                    // by the flow's hash, per switch
	Adaptive                // per packet, the least loaded port
	Spray                   // per packet, at random
)

// PerPacket reports whether packets of one flow take different paths.
func (r Routing) PerPacket() bool { return r == Adaptive || r == Spray }

// Class is one traffic class.
type Class struct {
	Name     string  // "default" for the one class of a scenario without classes
	Weight   float64 // share of a congested port, relative (1 without classes)
	Lossless bool
}

// ClassIndex is the index of the class named name; "" is the first. It is
// -1 for a name that is not there.
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

// SharedBuffer is each switch's buffer pool: a queue may hold at most Alpha
// × the free pool (Choudhury–Hahne dynamic thresholds).
type SharedBuffer struct {
	Size  unit.Bytes // per switch; 0 is its ports × buffer
	Alpha float64
}

// DCQCN is DCQCN's marking and reaction point, resolved for the line rate.
type DCQCN struct {
	KMin, KMax  unit.Bytes // RED marking thresholds of egress queues
	PMax        float64
	CNPInterval unit.Time
	LineRate    unit.Rate
	NIC         bool // the nic profile's rules, else the paper's
	AtDequeue   bool // switches mark as packets leave, else as they join
	scenario.DCQCN
}

// IBCC is InfiniBand congestion control with its marking threshold resolved.
type IBCC struct {
	Threshold unit.Bytes
	scenario.IBCC
}

// network resolves sc's network keys; rate is the fabric's link rate.
func network(sc *scenario.Scenario, rate unit.Rate) Network {
	sn := &sc.Network
	n := Network{
		MTU: sn.MTU, Buffer: sn.Buffer, SwitchLatency: sc.Topology.SwitchLatency, RTO: sn.RTO, SR: sn.Recovery == scenario.RecoverySR, AckEvery: sn.AckEvery,
		WorkloadClass: max(sn.ClassIndex(sc.Collective.Class), 0),
	}
	n.StorageClass = n.WorkloadClass
	if sc.Training.StorageClass != "" {
		n.StorageClass = max(sn.ClassIndex(sc.Training.StorageClass), 0)
	}
	switch sn.FlowControl {
	case scenario.FCCredit:
		n.FlowControl = Credit
	case scenario.FCPFC:
		n.FlowControl = PFC
		n.XOff, n.XOn, n.Headroom = sc.PFCThresholds()
		n.Storms = sn.PFC.Storms
	}
	switch sn.Routing {
	case scenario.RouteECMP:
		n.Routing = ECMP
	case scenario.RouteAdaptive:
		n.Routing = Adaptive
	case scenario.RouteSpray:
		n.Routing = Spray
	}
	if len(sn.Classes) == 0 {
		n.Classes = []Class{{Name: "default", Weight: 1, Lossless: n.FlowControl != Lossy}}
	}
	for _, c := range sn.Classes {
		n.Classes = append(n.Classes, Class{Name: c.Name, Weight: c.Weight, Lossless: c.Lossless})
	}
	if sn.BufferModel == scenario.BufferShared {
		n.Shared = &SharedBuffer{Size: sn.SwitchBuffer, Alpha: sn.DTAlpha}
	}
	switch sn.CC {
	case scenario.CCDCQCN:
		n.DCQCN = dcqcn(sc, rate)
	case scenario.CCIBCC:
		n.IBCC = &IBCC{Threshold: sc.IBCCThreshold(), IBCC: sn.IBCC}
	}
	return n
}

// dcqcn resolves network.dcqcn, network.ecn and network.cnp_interval for a
// line rate: R_AI and R_HAI default to 5 and 50 Mb/s per 25 Gb/s (NVIDIA's
// rpg_ai_rate and rpg_hai_rate defaults at 25G; the artifact's run.py scales
// them with the link: ai = 5·bw/25, hai = 50·bw/25), and the minimum rate is
// at most the line rate.
func dcqcn(sc *scenario.Scenario, rate unit.Rate) *DCQCN {
	d := &DCQCN{CNPInterval: sc.Network.CNPInterval, LineRate: rate, DCQCN: sc.Network.DCQCN}
	d.KMin, d.KMax, d.PMax = sc.ECNThresholds()
	d.NIC = d.Profile != scenario.DCQCNPaper
	d.AtDequeue = d.MarkAt == scenario.MarkDequeue
	per25G := float64(rate) / 25e9
	if d.AIRate == 0 {
		d.AIRate = unit.Rate(5e6 * per25G)
	}
	if d.HAIRate == 0 {
		d.HAIRate = unit.Rate(50e6 * per25G)
	}
	d.MinRate = min(d.MinRate, rate)
	return d
}

// PauseQuantumBytes is one PFC pause quantum: 512 bit times (IEEE 802.1Qbb).
const PauseQuantumBytes = scenario.PauseQuantumBytes
