package scenario

import (
	"fmt"
	"math"
	"strings"

	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Flow-control modes.
const (
	FCNone   = "none"
	FCCredit = "credit"
	FCPFC    = "pfc"
)

// Routing modes.
const (
	RouteStatic   = "static"
	RouteECMP     = "ecmp"
	RouteAdaptive = "adaptive"
	RouteSpray    = "spray"
)

// Loss recovery (network.recovery).
const (
	RecoveryGBN = "gbn"
	RecoverySR  = "sr"
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
	// ClampTargetRate (dcqcn) is deprecated: network.dcqcn.clamp_target_rate,
	// which it stands in for when only it is set (fillDefaults keeps the two
	// equal).
	ClampTargetRate bool      `yaml:"clamp_target_rate"`
	DCQCN           DCQCN     `yaml:"dcqcn"` // dcqcn: the profile and the reaction point's rules
	IBCC            IBCC      `yaml:"ibcc"`  // ibcc: FECN marking, BECNs and the congestion control table
	PFC             PFC       `yaml:"pfc"`
	RTO             unit.Time `yaml:"rto"` // retransmission timeout
	// Recovery is how a sender recovers lost packets: gbn (go-back-N, as
	// RoCE NICs have run it) or sr (selective repeat, as IRN and newer RDMA
	// NICs and the Ultra Ethernet transport do).
	Recovery string `yaml:"recovery"`
	AckEvery int    `yaml:"ack_every"` // receiver coalesces this many packets per ACK
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
	// RerouteDelay is how long static and ECMP routing keep sending into a
	// down link before the subnet manager or the routing protocol routes
	// around it (faults); adaptive routing avoids it at once.
	RerouteDelay unit.Time `yaml:"reroute_delay"`
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
	MinClassWeight = 0.001
	MaxClassWeight = 1000 // with MinClassWeight, a DRR quantum is at most 10^6 packets
	MinDTAlpha     = 0.01 // a queue may still hold 1 % of the free pool
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

// packet is the wire size of a full packet: mtu plus the fabric's headers.
func (s *Scenario) packet() unit.Bytes {
	k, _ := s.wire()
	return s.Network.MTU + link.Header(k)
}

// minHeadroom is the buffer that must stay free above xoff: everything that
// can still arrive after the packet that crossed xoff, by the packet model's
// own delays. The XOFF frame takes a link latency and one pause quantum to
// stop the sender; the packet it is serialising then still goes out, and the
// last byte lands a link latency, a switch latency and up to a quarter packet
// of NIC jitter later. So: line rate × (2 link latencies + switch latency +
// a quantum + the jitter), plus the packet in serialisation and the one that
// crossed xoff (MTU + header each).
func (s *Scenario) minHeadroom() unit.Bytes {
	_, rate := s.wire()
	pkt := s.packet()
	t := 2*s.Topology.LinkLatency + s.Topology.SwitchLatency + rate.TxTime(PauseQuantumBytes) + rate.TxTime(pkt)/4
	return unit.Bytes(math.Ceil(float64(t.Seconds())*float64(rate)/8)) + 2*pkt
}

// PauseQuantumBytes is one PFC pause quantum: 512 bit times (IEEE 802.1Qbb).
const PauseQuantumBytes unit.Bytes = 64

// PFCThresholds returns the per-ingress-port pause thresholds: the explicit
// network.pfc values, or where those are 0 the derived ones — headroom as
// minHeadroom derives it,
// xoff = buffer − headroom, xon = xoff − 2 packets. It panics on a fabric
// Validate rejects.
func (s *Scenario) PFCThresholds() (xoff, xon, headroom unit.Bytes) {
	p := s.Network.PFC
	headroom = p.Headroom
	if headroom == 0 {
		headroom = s.minHeadroom()
	}
	xoff = p.XOff
	if xoff == 0 {
		xoff = s.Network.Buffer - headroom
	}
	xon = p.XOn
	if xon == 0 {
		xon = xoff - 2*s.packet()
	}
	return xoff, xon, headroom
}

// fillDefaults sets the fabric's flow control and routing, and each class's
// weight and losslessness.
func (n *Network) fillDefaults(present func(key string) bool, fabric string) {
	if !present("network.flow_control") {
		switch fabric {
		case IB:
			n.FlowControl = FCCredit
		case RoCE:
			n.FlowControl = FCPFC
		case Ethernet:
			n.FlowControl = FCNone
		}
	}
	if !present("network.routing") {
		n.Routing = RouteECMP
		if fabric == IB {
			n.Routing = RouteStatic
		}
	}
	if !present("network.reroute_delay") {
		n.RerouteDelay = DefaultRerouteEthernet
		if fabric == IB {
			n.RerouteDelay = DefaultRerouteIB
		}
	}
	n.DCQCN.fillDefaults(present, n)
	for i := range n.Classes {
		c := &n.Classes[i]
		if !present(fmt.Sprintf("network.classes[%d].weight", i)) {
			c.Weight = 1
		}
		if !present(fmt.Sprintf("network.classes[%d].lossless", i)) {
			c.Lossless = n.FlowControl != FCNone
		}
	}
}

// network checks the switch and NIC settings; linkOK says whether fabric,
// rate and latencies are usable for derived sizes.
func (c *checker) network(linkOK bool) bool {
	s := c.s
	n := &s.Network
	ok := true
	if n.MTU < MinMTU || n.MTU > MaxMTU {
		c.fail("network.mtu", "%s is not allowed: mtu must be from %d to %d bytes (e.g. mtu: 4096)", c.text("network.mtu", n.MTU), MinMTU, MaxMTU)
		ok = false
	}
	bufferOK := ok && linkOK
	switch {
	case n.Buffer < 0:
		c.fail("network.buffer", "%s is negative: it must be ≥ 0", c.text("network.buffer", n.Buffer))
		ok, bufferOK = false, false
	case n.Buffer > MaxBuffer:
		c.fail("network.buffer", "%s is too large: at most %s per port", c.text("network.buffer", n.Buffer), MaxBuffer)
		ok, bufferOK = false, false
	case bufferOK && n.Buffer < 2*s.packet():
		c.fail("network.buffer", "%s is too small: a port must hold 2 packets of %d bytes (e.g. buffer: %s)", c.text("network.buffer", n.Buffer), s.packet(), sizeText(roundUp(2*s.packet())))
		ok, bufferOK = false, false
	}
	fcOK := c.oneOf("network.flow_control", n.FlowControl, msg.F("a flow control"), FCNone, FCCredit, FCPFC)
	fabric := s.Topology.Fabric
	switch {
	case !fcOK:
		ok = false
	case n.FlowControl == FCCredit && (fabric == RoCE || fabric == Ethernet):
		c.fail("network.flow_control", "credit is InfiniBand's flow control; on fabric %s use pfc (lossless) or none (lossy)", fabric)
		ok = false
	case n.FlowControl == FCPFC && fabric == IB:
		c.fail("network.flow_control", "pfc is for Ethernet fabrics (roce, ethernet); on fabric ib use credit")
		ok = false
	case n.FlowControl == FCPFC && bufferOK:
		ok = c.pfc() && ok
	}
	ok = c.oneOf("network.routing", n.Routing, msg.F("a routing mode"), RouteStatic, RouteECMP, RouteAdaptive, RouteSpray) && ok
	ok = c.cc(fcOK) && ok
	if bufferOK {
		ok = c.ecn() && ok
	}
	ok = c.duration("network.cnp_interval", n.CNPInterval, 0, MaxLatency, "50us") && ok
	var rate unit.Rate
	if linkOK {
		_, rate = s.wire()
	}
	ok = c.dcqcn(rate) && ok
	ok = c.ibcc(bufferOK) && ok
	ok = c.duration("network.rto", n.RTO, MinRTO, MaxLatency, "100us") && ok
	if n.Recovery != "" {
		ok = c.oneOf("network.recovery", n.Recovery, msg.F("a loss recovery"), RecoveryGBN, RecoverySR) && ok
	}
	ok = c.between("network.ack_every", n.AckEvery, 1, MaxAckEvery, 16, msg.F("ack_every")) && ok
	ok = c.duration("network.reroute_delay", n.RerouteDelay, 0, MaxRerouteTime, "1s") && ok
	ok = c.bufferModel(bufferOK) && ok
	ok = c.classes(fcOK) && ok
	return ok
}

// bufferModel checks network.buffer_model and the shared pool's keys.
func (c *checker) bufferModel(bufferOK bool) bool {
	n := &c.s.Network
	if !c.oneOf("network.buffer_model", n.BufferModel, msg.F("a buffer model"), BufferStatic, BufferShared) {
		return false
	}
	ok := true
	if !(n.DTAlpha >= MinDTAlpha && n.DTAlpha <= MaxDTAlpha) {
		c.fail("network.dt_alpha", "%s is not allowed: α is from %g to %d (e.g. dt_alpha: 1; 1/8 to 8 is usual)", c.text("network.dt_alpha", n.DTAlpha), MinDTAlpha, MaxDTAlpha)
		ok = false
	}
	switch b := n.SwitchBuffer; {
	case b < 0:
		c.fail("network.switch_buffer", "%s is negative: it must be > 0, or 0 for ports × buffer", c.text("network.switch_buffer", b))
		ok = false
	case b > 64*MaxBuffer:
		c.fail("network.switch_buffer", "%s is too large: at most %s per switch", c.text("network.switch_buffer", b), 64*MaxBuffer)
		ok = false
	case bufferOK && b > 0 && b < 2*c.s.packet():
		c.fail("network.switch_buffer", "%s is too small: a switch must hold 2 packets of %d bytes (e.g. switch_buffer: 32MiB, or 0 for ports × buffer)", c.text("network.switch_buffer", b), c.s.packet())
		ok = false
	}
	if n.BufferModel == BufferShared {
		switch {
		case n.FlowControl == FCCredit:
			c.fail("network.buffer_model", "shared works with flow_control none or pfc: InfiniBand credits advertise a fixed buffer per port; use buffer_model: static")
			ok = false
		case c.s.Sim.Fidelity == FlowLevel:
			c.fail("network.buffer_model", "shared runs only at packet level: the flow-level model has no queues; use sim.fidelity: packet, or buffer_model: static")
			ok = false
		}
	}
	return ok
}

// classes checks network.classes: 1 to 8 classes with unique names and
// weights above 0 and at most 1000, lossless only under pfc or credit.
func (c *checker) classes(fcOK bool) bool {
	n := &c.s.Network
	if len(n.Classes) == 0 {
		return true
	}
	ok := true
	if len(n.Classes) > MaxClasses {
		c.fail("network.classes", "%d classes are too many: at most %d (Ethernet's priorities; remove %d)", len(n.Classes), MaxClasses, len(n.Classes)-MaxClasses)
		return false
	}
	seen := map[string]int{}
	for i, cl := range n.Classes {
		key := fmt.Sprintf("network.classes[%d]", i)
		switch j, dup := seen[cl.Name]; {
		case strings.TrimSpace(cl.Name) == "":
			c.fail(key+".name", "a class needs a name (e.g. name: storage)")
			ok = false
		case dup:
			c.fail(key+".name", "%q is already the name of class %d; class names must be unique (e.g. name: %s-%d)", cl.Name, j, cl.Name, i)
			ok = false
		case !c.printable(key+".name", cl.Name, "storage"):
			ok = false
		default:
			seen[cl.Name] = i
		}
		if !(cl.Weight >= MinClassWeight && cl.Weight <= MaxClassWeight) {
			c.fail(key+".weight", "%s is not allowed: a weight is from %g to %d; weights are relative (3 and 1 share a port 75/25), e.g. weight: 1",
				c.text(key+".weight", cl.Weight), MinClassWeight, MaxClassWeight)
			ok = false
		}
		if !fcOK {
			continue
		}
		switch {
		case cl.Lossless && n.FlowControl == FCNone:
			c.fail(key+".lossless", "true needs a lossless fabric: with flow_control none every class drops; set flow_control: pfc, or lossless: false")
			ok = false
		case !cl.Lossless && n.FlowControl == FCCredit:
			c.fail(key+".lossless", "false is not possible on InfiniBand: every virtual lane is credit-based; remove lossless or set it to true")
			ok = false
		}
	}
	if len(n.Classes) > 1 && n.CC == CCIBCC {
		c.fail("network.classes", "%d classes do not run with cc: ibcc yet (its marking is per port, not per virtual lane); use one class, or cc: none", len(n.Classes))
		ok = false
	}
	if len(n.Classes) > 1 && c.s.Sim.Fidelity == FlowLevel {
		c.fail("network.classes", "%d classes run only at packet level: the flow-level model has no queues to schedule; use sim.fidelity: packet, or one class", len(n.Classes))
		ok = false
	}
	return ok
}

// classRef checks that key names one of network.classes ("" is the first).
func (c *checker) classRef(key, name string) bool {
	n := &c.s.Network
	if n.ClassIndex(name) >= 0 {
		return true
	}
	if len(n.Classes) == 0 {
		c.fail(key, "%q is not a class: network.classes is empty (one class for everything); add network.classes: [{name: %s}] or remove %s", name, name, leaf(key))
		return false
	}
	names := make([]string, len(n.Classes))
	for i, cl := range n.Classes {
		names[i] = cl.Name
	}
	c.fail(key, "%q is not a class; use %s (from network.classes)", name, orList(names))
	return false
}

// pfc checks the pause thresholds against the buffer, mtu and link.
func (c *checker) pfc() bool {
	s := c.s
	p := s.Network.PFC
	for _, v := range []struct {
		key string
		b   unit.Bytes
	}{{"network.pfc.xoff", p.XOff}, {"network.pfc.xon", p.XOn}, {"network.pfc.headroom", p.Headroom}} {
		if v.b < 0 {
			c.fail(v.key, "%s is negative: it must be > 0, or 0 to derive it", c.text(v.key, v.b))
			return false
		}
	}
	pkt, buffer, minHead := s.packet(), s.Network.Buffer, s.minHeadroom()
	_, rate := s.wire()
	why := msg.F("2 × %s link latency, %s switch latency, a pause quantum and a quarter packet of NIC jitter at %s, plus 2 packets", s.Topology.LinkLatency, s.Topology.SwitchLatency, rate)
	if p.Headroom != 0 && p.Headroom < minHead {
		c.fail("network.pfc.headroom", "%s is too small: after xoff the link still delivers %d bytes (%s); use headroom: %s or more",
			c.text("network.pfc.headroom", p.Headroom), minHead, why, sizeText(roundUp(minHead)))
		return false
	}
	xoff, xon, head := s.PFCThresholds()
	switch {
	case p.XOff == 0 && xon <= 0:
		if most := buffer - 2*pkt - 1; p.Headroom != 0 && most >= minHead {
			c.fail("network.pfc.headroom", "%s leaves no room for xoff and xon in the %s buffer; use headroom: %s or less",
				c.text("network.pfc.headroom", p.Headroom), sizeText(buffer), sizeText(max(minHead, roundDown(most))))
		} else if key := c.blame("network.buffer", "topology.link_latency", "topology.switch_latency", "topology.link_gbps", "network.mtu", "network.flow_control"); key == "network.buffer" {
			c.fail(key, "%s is too small for PFC: the headroom alone is %d bytes (%s); use buffer: %s or more, or flow_control: none",
				c.text(key, buffer), minHead, why, sizeText(roundUp(minHead+2*pkt+1)))
		} else {
			c.fail(key, "%s needs %d bytes of PFC headroom per port (%s), more than the %s network.buffer holds; use buffer: %s or more, or flow_control: none",
				c.text(key, nil), minHead, why, sizeText(buffer), sizeText(roundUp(minHead+2*pkt+1)))
		}
		return false
	case xoff+head > buffer:
		c.fail("network.pfc.xoff", "%s plus %d bytes of headroom is more than the %s buffer; use xoff: %s or less",
			c.text("network.pfc.xoff", p.XOff), head, sizeText(buffer), sizeText(roundDown(buffer-head)))
		return false
	case xon <= 0:
		c.fail("network.pfc.xoff", "%s leaves no room for xon 2 packets below it; use xoff: %s or more", c.text("network.pfc.xoff", p.XOff), sizeText(2*pkt+1))
		return false
	case xon >= xoff:
		c.fail("network.pfc.xon", "%s must be below xoff (%s) (e.g. xon: %s)", c.text("network.pfc.xon", p.XOn), sizeText(xoff), sizeText(max(1, xoff-2*pkt)))
		return false
	}
	return true
}

// storms checks network.pfc.storms.
func (c *checker) storms(endpoints int, topoOK bool) {
	s := c.s
	if len(s.Network.PFC.Storms) == 0 {
		return
	}
	if s.Network.FlowControl != FCPFC {
		c.fail("network.pfc.storms", "pause storms need flow_control: pfc (it is %s)", s.Network.FlowControl)
		return
	}
	if s.Sim.Fidelity == FlowLevel {
		c.fail("network.pfc.storms", "pause storms need sim.fidelity: packet: the flow-level model has no pauses")
		return
	}
	if len(s.Network.PFC.Storms) > 64 {
		c.fail("network.pfc.storms", "%d storms are too many: at most 64", len(s.Network.PFC.Storms))
		return
	}
	for i, st := range s.Network.PFC.Storms {
		key := fmt.Sprintf("network.pfc.storms[%d]", i)
		if topoOK && (st.Endpoint < 0 || st.Endpoint >= endpoints) {
			c.fail(key+".endpoint", "%s is not an endpoint: use 0 to %d", c.text(key+".endpoint", st.Endpoint), endpoints-1)
		}
		if st.Start < 0 || st.Start > MaxUntil {
			c.fail(key+".start", "%s is not allowed: from 0 to %v", c.text(key+".start", st.Start), MaxUntil)
		}
		if st.End <= st.Start || st.End > MaxUntil {
			c.fail(key+".end", "%s must come after start (%v) and be at most %v, e.g. end: %v", c.text(key+".end", st.End), st.Start, MaxUntil, st.Start+unit.Millisecond)
		}
	}
}
