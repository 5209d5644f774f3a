package scenario

import (
	"math"

	"fabriclab/sim/unit"
)

// Congestion control.
const (
	CCNone  = "none"
	CCDCQCN = "dcqcn" // ECN marking at switches, CNPs, DCQCN rate control at senders (RoCE, packet level)
	CCIBCC  = "ibcc"  // FECN marking at switches, BECNs, CCT-indexed injection delay at senders (InfiniBand, packet level)
)

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

// DefaultCNPInterval is network.cnp_interval's default: a receiver sends at
// most one congestion notification per flow per 50 µs (as RoCE NICs do).
const DefaultCNPInterval = 50 * unit.Microsecond

// ECN marking defaults for DCQCN (REFERENCE.md, after the HPCC ns-3
// artifact): per 25 Gb/s of link rate, scaled linearly with the rate.
const (
	ecnKMinPer25G  = 100 * unit.KB
	ecnKMaxPer25G  = 400 * unit.KB
	DefaultECNPMax = 0.2
)

// ECNThresholds returns the RED marking thresholds of switch egress queues
// under cc: dcqcn: the explicit network.ecn values, or where kmin and kmax
// are 0 the derived ones — 100 KB and 400 KB per 25 Gb/s of link rate,
// except that kmax is at most 80 % of the buffer (rounded down to whole KiB;
// 400 KB per 25 Gb/s is 6.4 MB at 400G, more than a 2 MiB buffer holds) and
// kmin then a quarter of it. With an explicit kmax, kmin defaults to a
// quarter of that. It panics on a fabric Validate rejects.
func (s *Scenario) ECNThresholds() (kmin, kmax unit.Bytes, pmax float64) {
	_, rate := s.Wire()
	scale := float64(rate) / 25e9
	dmin := unit.Bytes(math.Round(float64(ecnKMinPer25G) * scale))
	dmax := unit.Bytes(math.Round(float64(ecnKMaxPer25G) * scale))
	if limit := roundDown(s.Network.Buffer * 4 / 5); dmax > limit {
		dmax, dmin = limit, roundDown(limit/4)
	}
	e := s.Network.ECN
	kmax, kmin = e.KMax, e.KMin
	if kmax == 0 {
		kmax = dmax
	} else {
		dmin = kmax / 4
	}
	if kmin == 0 {
		kmin = dmin
	}
	return kmin, kmax, e.PMax
}

// IBCCThreshold is the switch egress queue above which ports mark FECN under
// cc: ibcc: network.ibcc.threshold, or with 0 a quarter of the port buffer
// (rounded down to whole KiB; 512KiB for 2 MiB).
func (s *Scenario) IBCCThreshold() unit.Bytes {
	if t := s.Network.IBCC.Threshold; t != 0 {
		return t
	}
	return roundDown(s.Network.Buffer / 4)
}

// cc checks network.cc against the fabric, flow control and fidelity;
// fcOK says whether flow_control is known.
func (c *checker) cc(fcOK bool) bool {
	s := c.s
	n := &s.Network
	fabric := s.Topology.Fabric
	ok := true
	switch n.CC {
	case CCNone:
	case CCDCQCN:
		switch {
		case fabric == IB:
			c.fail("network.cc", "dcqcn is RoCE's congestion control (ECN marks and CNPs over Ethernet); on fabric ib use cc: ibcc")
			ok = false
		case s.Sim.Fidelity == FlowLevel:
			c.fail("network.cc", "dcqcn runs only at packet level: the flow-level model has no queues to mark; use sim.fidelity: packet, or cc: none")
			ok = false
		}
	case CCIBCC:
		switch {
		case fabric != IB:
			c.fail("network.cc", "ibcc is InfiniBand's congestion control (FECN and BECN bits); on fabric %s use cc: dcqcn, or fabric: ib", fabric)
			ok = false
		case fcOK && n.FlowControl != FCCredit:
			c.fail("network.cc", "ibcc works with InfiniBand's credit flow control; use flow_control: credit, or cc: none")
			ok = false
		case s.Sim.Fidelity == FlowLevel:
			c.fail("network.cc", "ibcc runs only at packet level: the flow-level model has no queues to mark; use sim.fidelity: packet, or cc: none")
			ok = false
		}
	default:
		c.fail("network.cc", "%q is not a congestion control; use none, dcqcn (RoCE) or ibcc (InfiniBand)", n.CC)
		ok = false
	}
	return ok
}

// ecn checks the marking thresholds against each other and the buffer.
func (c *checker) ecn() bool {
	s := c.s
	e := s.Network.ECN
	ok := true
	for _, v := range []struct {
		key string
		b   unit.Bytes
	}{{"network.ecn.kmin", e.KMin}, {"network.ecn.kmax", e.KMax}} {
		if v.b < 0 {
			c.fail(v.key, "%s is negative: it must be > 0, or 0 to derive it", c.text(v.key, v.b))
			ok = false
		}
	}
	pmaxOK := e.PMax > 0 && e.PMax <= 1
	if !pmaxOK {
		c.fail("network.ecn.pmax", "%s is not allowed: pmax is the marking probability at kmax, above 0 and at most 1 (e.g. pmax: %g)",
			c.text("network.ecn.pmax", e.PMax), DefaultECNPMax)
	}
	if !ok {
		return false
	}
	kmin, kmax, _ := s.ECNThresholds()
	buffer := s.Network.Buffer
	switch {
	case kmax > buffer:
		c.fail("network.ecn.kmax", "%s is more than the %s port buffer; use kmax: %s or less",
			c.text("network.ecn.kmax", kmax), sizeText(buffer), sizeText(roundDown(buffer*4/5)))
		return false
	case kmin >= kmax && e.KMin != 0:
		c.fail("network.ecn.kmin", "%s must be below kmax (%s) (e.g. kmin: %s)", c.text("network.ecn.kmin", kmin), sizeText(kmax), sizeText(max(1, roundDown(kmax/4))))
		return false
	case kmin >= kmax:
		c.fail("network.ecn.kmax", "%s leaves no room for kmin below it; use kmax: %s or more", c.text("network.ecn.kmax", kmax), sizeText(roundUp(4*kmin)))
		return false
	}
	return pmaxOK
}

// ibcc checks InfiniBand congestion control's keys; bufferOK says whether
// the buffer is usable to check the threshold against.
func (c *checker) ibcc(bufferOK bool) bool {
	s := c.s
	b := s.Network.IBCC
	ok := true
	switch t := b.Threshold; {
	case t < 0:
		c.fail("network.ibcc.threshold", "%s is negative: it must be > 0, or 0 for a quarter of the buffer", c.text("network.ibcc.threshold", t))
		ok = false
	case bufferOK && t > s.Network.Buffer:
		c.fail("network.ibcc.threshold", "%s is more than the %s port buffer; use threshold: %s or less (0: a quarter of the buffer)",
			c.text("network.ibcc.threshold", t), sizeText(s.Network.Buffer), sizeText(roundDown(s.Network.Buffer/4)))
		ok = false
	}
	ok = c.between("network.ibcc.marking_rate", b.MarkingRate, 1, MaxMarkingRate, 1, "marking_rate (mark 1 in this many packets)") && ok
	ok = c.duration("network.ibcc.becn_interval", b.BECNInterval, 0, MaxLatency, "0us") && ok
	ok = c.duration("network.ibcc.timer", b.Timer, MinIBCCTimer, MaxLatency, "10us") && ok
	limitOK := c.between("network.ibcc.ccti_limit", b.CCTILimit, 1, MaxCCTILimit, DefaultCCTILimit, "ccti_limit")
	ok = limitOK && ok
	ok = c.between("network.ibcc.ccti_increase", b.CCTIIncrease, 1, MaxCCTILimit, 1, "ccti_increase") && ok
	switch {
	case b.CCTIMin < 0:
		c.fail("network.ibcc.ccti_min", "%s is negative: it must be ≥ 0 (e.g. ccti_min: 0)", c.text("network.ibcc.ccti_min", b.CCTIMin))
		ok = false
	case limitOK && b.CCTIMin >= b.CCTILimit:
		c.fail("network.ibcc.ccti_min", "%s must be below ccti_limit (%d) (e.g. ccti_min: 0)", c.text("network.ibcc.ccti_min", b.CCTIMin), b.CCTILimit)
		ok = false
	}
	if st := b.CCTStep; !(st > 0 && st <= MaxCCTStep) {
		c.fail("network.ibcc.cct_step", "%s is not allowed: the delay per CCTI step is in packet times, above 0 and at most %d (e.g. cct_step: %g)",
			c.text("network.ibcc.cct_step", st), MaxCCTStep, DefaultCCTStep)
		ok = false
	}
	return ok
}
