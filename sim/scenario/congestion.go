package scenario

import (
	"math"

	"fabriclab/sim/msg"
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

// DCQCN profiles: the rules and defaults network.dcqcn starts from.
const (
	// DCQCNNIC is DCQCN as ConnectX NICs run it, as the HPCC ns-3 artifact
	// (alibaba-edu/High-Precision-Congestion-Control) models it in
	// rdma-hw.cc's "Mellanox version" (CcMode 1) with its run.py settings,
	// and as NVIDIA documents the firmware's parameters (DOCA "DCQCN CC
	// Parameters"; MLNX_OFED names in parentheses below).
	DCQCNNIC = "nic"
	// DCQCNPaper is the rules of Zhu et al., SIGCOMM 2015 (REFERENCE.md):
	// a cut on every CNP, α restarted by every CNP, F = 5 and a 10 MB byte
	// counter beside the 55 µs timer, the target clamped on every cut.
	DCQCNPaper = "paper"
)

// Where DCQCN's switches mark ECN.
const (
	MarkEnqueue = "enqueue" // as a packet joins the egress queue (the paper)
	MarkDequeue = "dequeue" // as it leaves, by the queue it leaves behind (the artifact)
)

// DCQCN holds the reaction point's rules and the marking point
// (network.dcqcn). Keys a document does not set take the profile's default
// (DCQCNDefaults); the README lists each with its range and source.
type DCQCN struct {
	Profile string `yaml:"profile"` // nic | paper
	// TimeReset is the rate-increase timer (rpg_time_reset).
	TimeReset unit.Time `yaml:"time_reset"`
	// ByteReset is the byte counter: every ByteReset bytes sent is a
	// rate-increase event (rpg_byte_reset); 0 turns it off.
	ByteReset unit.Bytes `yaml:"byte_reset"`
	// Threshold is F, the fast-recovery stages (rpg_threshold).
	Threshold int `yaml:"threshold"`
	// AIRate and HAIRate are the additive and hyper increase steps
	// (rpg_ai_rate, rpg_hai_rate); 0 is 5 and 50 Mb/s per 25 Gb/s of line rate.
	AIRate  unit.Rate `yaml:"ai_rate"`
	HAIRate unit.Rate `yaml:"hai_rate"`
	// MinDecFac bounds one cut: the rate keeps at least this percentage
	// (rpg_min_dec_fac).
	MinDecFac int `yaml:"min_dec_fac"`
	// MinRate is the floor of a flow's rate (rpg_min_rate).
	MinRate unit.Rate `yaml:"min_rate"`
	// RateReducePeriod is how often the sender checks for CNPs and cuts
	// (rate_reduce_monitor_period); 0 cuts on every CNP.
	RateReducePeriod unit.Time `yaml:"rate_reduce_period"`
	// G is α's gain (dce_tcp_g), InitialAlpha α at the first CNP
	// (initial_alpha_value), AlphaUpdatePeriod α's timer (dce_tcp_rtt).
	G                 float64   `yaml:"g"`
	InitialAlpha      float64   `yaml:"initial_alpha"`
	AlphaUpdatePeriod unit.Time `yaml:"alpha_update_period"`
	// ClampTargetRate: every cut sets the target to the current rate
	// (clamp_tgt_rate); false only when the timer has raised the rate since
	// the last cut.
	ClampTargetRate bool `yaml:"clamp_target_rate"`
	// MarkAt is where switches mark: enqueue or dequeue.
	MarkAt string `yaml:"mark_at"`
}

// DCQCNDefaults returns profile's defaults (the nic profile's for an
// unknown name). nic, rule by rule:
//   - time_reset 300 µs, rate_reduce_period 4 µs, alpha_update_period 1 µs,
//     g 1/256: the artifact's run.py "dcqcn" settings (t_inc 300, t_dec 4,
//     t_alpha 1, g 0.00390625; run.py:103–104, mix/config.txt:20);
//     NVIDIA documents rate_reduce_monitor_period 4 µs and dce_tcp_rtt 1 µs
//     (DOCA "DCQCN CC Parameters"), and dce_tcp_g 1019, which is g = 5/1024;
//   - threshold 1 and clamp_target_rate false: FAST_RECOVERY_TIMES 1 and
//     CLAMP_TARGET_RATE 0 (run.py:22, :25), as NVIDIA's rpg_threshold and
//     clamp_tgt_rate defaults;
//   - ai_rate and hai_rate 5 and 50 Mb/s per 25 Gb/s (run.py:100–101; NVIDIA's
//     rpg_ai_rate 5, rpg_hai_rate 50 Mb/s) — 0 here, derived in the model;
//   - min_dec_fac 50 %, min_rate 1 Mb/s, initial_alpha 1: NVIDIA's
//     rpg_min_dec_fac, rpg_min_rate and initial_alpha_value 1023/1024 (the
//     artifact sets α = 1 at the first CNP, rdma-hw.cc:643);
//   - byte_reset 0: the artifact's NIC model has no byte counter (its only
//     increase event is RateIncEventTimerMlx, rdma-hw.cc:683);
//   - mark_at dequeue: switch-node.cc:201–213.
//
// paper: REFERENCE.md (Zhu et al. 2015), the rules fabriclab ran before.
func DCQCNDefaults(profile string) DCQCN {
	if profile == DCQCNPaper {
		return DCQCN{
			Profile: DCQCNPaper, TimeReset: 55 * unit.Microsecond, ByteReset: 10 * unit.MB, Threshold: 5,
			MinDecFac: 0, MinRate: 100e6, RateReducePeriod: 0,
			G: 1.0 / 256, InitialAlpha: 1, AlphaUpdatePeriod: 55 * unit.Microsecond,
			ClampTargetRate: true, MarkAt: MarkEnqueue,
		}
	}
	return DCQCN{
		Profile: DCQCNNIC, TimeReset: 300 * unit.Microsecond, ByteReset: 0, Threshold: 1,
		MinDecFac: 50, MinRate: 1e6, RateReducePeriod: 4 * unit.Microsecond,
		G: 1.0 / 256, InitialAlpha: 1, AlphaUpdatePeriod: unit.Microsecond,
		ClampTargetRate: false, MarkAt: MarkDequeue,
	}
}

// Limits of network.dcqcn (NVIDIA's ranges where it documents one).
const (
	MaxDCQCNTimer     = 131071 * unit.Microsecond // rpg_time_reset, dce_tcp_rtt: 1…131071 µs
	MaxDCQCNThreshold = 31                        // rpg_threshold: 1…31
	MaxByteReset      = unit.GiB
)

// fillDefaults gives every network.dcqcn key the document does not set the
// profile's default; the deprecated network.clamp_target_rate stands in for
// network.dcqcn.clamp_target_rate when only it is set.
func (d *DCQCN) fillDefaults(present func(key string) bool, n *Network) {
	def := DCQCNDefaults(d.Profile)
	keep := func(key string) bool { return present("network.dcqcn." + key) }
	for _, k := range []struct {
		key string
		set func()
	}{
		{"time_reset", func() { d.TimeReset = def.TimeReset }},
		{"byte_reset", func() { d.ByteReset = def.ByteReset }},
		{"threshold", func() { d.Threshold = def.Threshold }},
		{"min_dec_fac", func() { d.MinDecFac = def.MinDecFac }},
		{"min_rate", func() { d.MinRate = def.MinRate }},
		{"rate_reduce_period", func() { d.RateReducePeriod = def.RateReducePeriod }},
		{"g", func() { d.G = def.G }},
		{"initial_alpha", func() { d.InitialAlpha = def.InitialAlpha }},
		{"alpha_update_period", func() { d.AlphaUpdatePeriod = def.AlphaUpdatePeriod }},
		{"mark_at", func() { d.MarkAt = def.MarkAt }},
	} {
		if !keep(k.key) {
			k.set()
		}
	}
	if !present("network.cnp_interval") {
		n.CNPInterval = DCQCNCNPInterval(d.Profile)
	}
	switch {
	case keep("clamp_target_rate"):
	case present("network.clamp_target_rate"):
		d.ClampTargetRate = n.ClampTargetRate
	default:
		d.ClampTargetRate = def.ClampTargetRate
	}
	if !present("network.clamp_target_rate") {
		n.ClampTargetRate = d.ClampTargetRate
	}
}

// dcqcn checks network.dcqcn; rate is the line rate, 0 if unknown.
func (c *checker) dcqcn(rate unit.Rate) bool {
	d := c.s.Network.DCQCN
	ok := c.oneOf("network.dcqcn.profile", d.Profile, msg.F("a DCQCN profile"), DCQCNNIC, DCQCNPaper)
	ok = c.duration("network.dcqcn.time_reset", d.TimeReset, unit.Microsecond, MaxDCQCNTimer, "300us") && ok
	ok = c.duration("network.dcqcn.alpha_update_period", d.AlphaUpdatePeriod, unit.Microsecond, MaxDCQCNTimer, "1us") && ok
	ok = c.duration("network.dcqcn.rate_reduce_period", d.RateReducePeriod, 0, MaxDCQCNTimer, "4us") && ok
	if d.ByteReset < 0 || d.ByteReset > MaxByteReset {
		c.fail("network.dcqcn.byte_reset", "%s is not allowed: the byte counter is from 0 (off) to %s (e.g. byte_reset: 10MB)", c.text("network.dcqcn.byte_reset", d.ByteReset), MaxByteReset)
		ok = false
	}
	ok = c.between("network.dcqcn.threshold", d.Threshold, 1, MaxDCQCNThreshold, 1, msg.F("threshold (F, the fast-recovery stages)")) && ok
	ok = c.between("network.dcqcn.min_dec_fac", d.MinDecFac, 0, 100, 50, msg.F("min_dec_fac (the percentage of the rate a cut keeps)")) && ok
	for _, f := range []struct {
		key  string
		v    float64
		what msg.Text
		eg   string
	}{{"network.dcqcn.g", d.G, msg.F("α's gain"), "0.00390625 (1/256)"}, {"network.dcqcn.initial_alpha", d.InitialAlpha, msg.F("α at the first CNP"), "1"}} {
		if !(f.v > 0 && f.v <= 1) {
			c.fail(f.key, "%s is not allowed: %s is above 0 and at most 1 (e.g. %s: %s)", c.text(f.key, f.v), f.what, leaf(f.key), f.eg)
			ok = false
		}
	}
	rates := []struct {
		key  string
		v    unit.Rate
		zero bool
		eg   string
	}{{"network.dcqcn.ai_rate", d.AIRate, true, "5Mbps"}, {"network.dcqcn.hai_rate", d.HAIRate, true, "50Mbps"}, {"network.dcqcn.min_rate", d.MinRate, false, "1Mbps"}}
	for _, r := range rates {
		switch {
		case r.v < 0 || r.v == 0 && !r.zero:
			c.fail(r.key, "%s is not allowed: it must be above 0 (e.g. %s: %s)", c.text(r.key, r.v), leaf(r.key), r.eg)
			ok = false
		case rate > 0 && r.v > rate:
			c.fail(r.key, "%s is more than the %s line rate (e.g. %s: %s)", c.text(r.key, r.v), rate, leaf(r.key), r.eg)
			ok = false
		}
	}
	ok = c.oneOf("network.dcqcn.mark_at", d.MarkAt, msg.F("a marking point"), MarkEnqueue, MarkDequeue) && ok
	if c.present("network.dcqcn.clamp_target_rate") && c.present("network.clamp_target_rate") && c.s.Network.ClampTargetRate != d.ClampTargetRate {
		c.fail("network.clamp_target_rate", "%s contradicts network.dcqcn.clamp_target_rate; network.clamp_target_rate is deprecated: set only network.dcqcn.clamp_target_rate",
			c.text("network.clamp_target_rate", c.s.Network.ClampTargetRate))
		ok = false
	}
	return ok
}

// DefaultCNPInterval is network.cnp_interval's default under the nic
// profile: a receiver sends at most one CNP per flow per 4 µs (NVIDIA's
// min_time_between_cnps, as mlx5's np_min_time_between_cnps is set on
// deployed ConnectX NICs; the artifact answers every marked packet, and its
// senders act on CNPs at most every 4 µs anyway). PaperCNPInterval is the
// paper's 50 µs.
const (
	DefaultCNPInterval = 4 * unit.Microsecond
	PaperCNPInterval   = 50 * unit.Microsecond
)

// DCQCNCNPInterval is network.cnp_interval's default under profile.
func DCQCNCNPInterval(profile string) unit.Time {
	if profile == DCQCNPaper {
		return PaperCNPInterval
	}
	return DefaultCNPInterval
}

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
	_, rate := s.wire()
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
	ok = c.between("network.ibcc.marking_rate", b.MarkingRate, 1, MaxMarkingRate, 1, msg.F("marking_rate (mark 1 in this many packets)")) && ok
	ok = c.duration("network.ibcc.becn_interval", b.BECNInterval, 0, MaxLatency, "0us") && ok
	ok = c.duration("network.ibcc.timer", b.Timer, MinIBCCTimer, MaxLatency, "10us") && ok
	limitOK := c.between("network.ibcc.ccti_limit", b.CCTILimit, 1, MaxCCTILimit, DefaultCCTILimit, msg.F("ccti_limit"))
	ok = limitOK && ok
	ok = c.between("network.ibcc.ccti_increase", b.CCTIIncrease, 1, MaxCCTILimit, 1, msg.F("ccti_increase")) && ok
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
