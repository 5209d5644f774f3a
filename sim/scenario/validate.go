package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabriclab/sim/coll"
	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

// Validate reports every problem with s, or nil. Parse validates already;
// call Validate on a scenario built or changed in Go.
func (s *Scenario) Validate() error {
	c := checker{s: s}
	c.run()
	return c.errs.err()
}

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

// packet is the wire size of a full packet: mtu plus the fabric's headers.
func (s *Scenario) packet() unit.Bytes {
	k, _ := s.Wire()
	return s.Network.MTU + link.Header(k)
}

// minHeadroom is the buffer that must stay free above xoff: what the link
// still delivers while a pause frame travels and takes effect — two link
// latencies and one switch latency at line rate — plus two packets already
// on the wire.
func (s *Scenario) minHeadroom() unit.Bytes {
	_, rate := s.Wire()
	bytesIn := func(t unit.Time) unit.Bytes { return unit.Bytes(math.Ceil(t.Seconds() * float64(rate) / 8)) }
	return bytesIn(2*s.Topology.LinkLatency) + 2*s.packet() + bytesIn(s.Topology.SwitchLatency)
}

// PFCThresholds returns the per-ingress-port pause thresholds: the explicit
// network.pfc values, or where those are 0 the derived ones — headroom for
// two link latencies and a switch latency at line rate plus two packets,
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

// IncastReceiver is the endpoint that receives an incast: traffic.receiver,
// or with -1 the endpoint after the senders.
func (s *Scenario) IncastReceiver() int {
	if s.Traffic.Receiver < 0 {
		return s.Traffic.Senders
	}
	return s.Traffic.Receiver
}

// fillDefaults sets the defaults that depend on other keys, for keys the
// document does not have.
func (s *Scenario) fillDefaults(present func(key string) bool) {
	t := &s.Topology
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
	if n := s.Endpoints(); !present("traffic.senders") && n >= 2 && s.Traffic.Senders > n-1 {
		s.Traffic.Senders = n - 1 // the default incast on a small topology
	}
	if !present("network.flow_control") {
		switch t.Fabric {
		case IB:
			s.Network.FlowControl = FCCredit
		case RoCE:
			s.Network.FlowControl = FCPFC
		case Ethernet:
			s.Network.FlowControl = FCNone
		}
	}
	if !present("network.routing") {
		s.Network.Routing = RouteECMP
		if t.Fabric == IB {
			s.Network.Routing = RouteStatic
		}
	}
	if !present("training.algo") && s.Training.Model != "" {
		s.Training.Algo = coll.Ring
		if (t.Kind == DGX && t.Nodes > 1 || t.Kind == LeafSpine && t.GPUsPerNode > 1) && s.Training.Ranks == 0 {
			s.Training.Algo = coll.Hierarchical
		}
	}
	if !present("traffic.pattern") && (s.Collective.Op != "" || s.Training.Model != "") {
		s.Traffic.Pattern = PatternNone
	}
	if !present("traffic.pattern") && present("traffic.flows") {
		s.Traffic.Pattern = PatternFlows
	}
	for i := range s.Network.Classes {
		c := &s.Network.Classes[i]
		if !present(fmt.Sprintf("network.classes[%d].weight", i)) {
			c.Weight = 1
		}
		if !present(fmt.Sprintf("network.classes[%d].lossless", i)) {
			c.Lossless = s.Network.FlowControl != FCNone
		}
	}
	for i := range s.Traffic.Flows {
		if !present(fmt.Sprintf("traffic.flows[%d].bytes", i)) {
			s.Traffic.Flows[i].Bytes = s.Traffic.Bytes
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

// checker runs the validation rules, locating each problem by key path.
type checker struct {
	s      *Scenario
	source string           // file name for keys the document does not have
	at     map[string]place // where each key was written; nil for a scenario built in Go
	errs   errorList
}

func (c *checker) fail(key, format string, args ...any) {
	e := &Error{Source: c.source, Key: key, Msg: fmt.Sprintf(format, args...)}
	if p, ok := c.at[key]; ok {
		e.Source, e.Line = p.source, p.line
	}
	c.errs.add(e)
}

// text is the value of key as written in the document, or v printed.
func (c *checker) text(key string, v any) string {
	if p, ok := c.at[key]; ok && p.text != "" {
		return p.text
	}
	if b, ok := v.(unit.Bytes); ok {
		return sizeText(b)
	}
	return fmt.Sprint(v)
}

func (c *checker) present(key string) bool {
	_, ok := c.at[key]
	return ok
}

// oneOf checks that v is one of allowed.
func (c *checker) oneOf(key, v, what string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	c.fail(key, "%q is not %s; use %s", v, what, list(allowed, "or"))
	return false
}

// between checks lo ≤ v ≤ hi for a whole-number key; example is a value that works.
func (c *checker) between(key string, v, lo, hi, example int, what string) bool {
	switch {
	case v < lo:
		c.fail(key, "%s is not allowed: %s must be at least %d (e.g. %s: %d)", c.text(key, v), what, lo, leaf(key), example)
	case v > hi:
		c.fail(key, "%s is too many: %s must be at most %d (e.g. %s: %d)", c.text(key, v), what, hi, leaf(key), example)
	default:
		return true
	}
	return false
}

// duration checks lo ≤ v ≤ hi for a time key.
func (c *checker) duration(key string, v, lo, hi unit.Time, example string) bool {
	switch {
	case v < 0:
		c.fail(key, "%s is negative: it must be ≥ 0", c.text(key, v))
	case v < lo:
		c.fail(key, "%s is too short: it must be from %s to %s (e.g. %s: %s)", c.text(key, v), lo, hi, leaf(key), example)
	case v > hi:
		c.fail(key, "%s is too long: it must be at most %s (e.g. %s: %s)", c.text(key, v), hi, leaf(key), example)
	default:
		return true
	}
	return false
}

// leaf is the last key of a path: "hosts" for "topology.hosts".
func leaf(key string) string { return key[strings.LastIndex(key, ".")+1:] }

func sizeText(b unit.Bytes) string {
	text, _ := b.MarshalText()
	return string(text)
}

// roundUp rounds b up to whole KiB, for suggestions.
func roundUp(b unit.Bytes) unit.Bytes { return (b + unit.KiB - 1) / unit.KiB * unit.KiB }

// roundDown rounds b down to whole KiB when that stays above 0, for suggestions.
func roundDown(b unit.Bytes) unit.Bytes {
	if b < unit.KiB {
		return b
	}
	return b / unit.KiB * unit.KiB
}

// divisors lists the divisors of n ("1, 2, 4 or 8"), at most a dozen of them.
func divisors(n int) string {
	var ds []string
	for d := 1; d <= n && len(ds) < 12; d++ {
		if n%d == 0 {
			ds = append(ds, strconv.Itoa(d))
		}
	}
	return list(ds, "or")
}

func (c *checker) run() {
	s := c.s
	if strings.TrimSpace(s.Name) == "" {
		c.fail("name", "must not be empty (e.g. name: my-incast)")
	}
	endpoints, topoOK := c.topology()
	linkOK := c.link()
	netOK := c.network(linkOK)
	packet := s.Sim.Fidelity == Packet
	if topoOK && packet && endpoints > MaxPacketEndpoints {
		c.fail(sizeKey(s), "%s gives %d endpoints; packet-level runs (sim.fidelity: packet) allow at most %d", shape(s), endpoints, MaxPacketEndpoints)
		topoOK = false
	}
	c.traffic(endpoints, topoOK, netOK && packet)
	c.collective(endpoints, topoOK, netOK && packet)
	c.storms(endpoints, topoOK)
	c.training(endpoints, topoOK)
	if e := s.Topology.NVLinkEfficiency; !(e > 0 && e <= 1) {
		c.fail("topology.nvlink_efficiency", "%s is not allowed: it is a share of the NVLink rate, above 0 and at most 1 (default %g; 1 is ideal)",
			c.text("topology.nvlink_efficiency", e), DefaultNVLinkEfficiency)
	}
	if s.Until < 0 {
		c.fail("until", "%s is negative: it must be ≥ 0 (0 runs until every flow finishes)", c.text("until", s.Until))
	} else if s.Until > MaxUntil {
		c.fail("until", "%s is too long: at most %s (0 runs until every flow finishes)", c.text("until", s.Until), MaxUntil)
	}
	switch s.Sim.Fidelity {
	case Packet:
	case FlowLevel:
		if r := s.Network.Routing; (r == RouteSpray || r == RouteAdaptive) && topoOK && endpoints > MaxPacketEndpoints {
			c.fail("network.routing", "%s at flow level splits every flow over all shortest paths, which takes too much memory past %d endpoints (%s has %d); use routing: ecmp or static",
				r, MaxPacketEndpoints, shape(s), endpoints)
		}
	default:
		c.oneOf("sim.fidelity", s.Sim.Fidelity, "a fidelity", Packet, FlowLevel)
	}
	if si := s.Sim.SampleInterval; si != 0 {
		c.duration("sim.sample_interval", si, MinSampleInterval, MaxUntil, "10us")
	}
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
	fcOK := c.oneOf("network.flow_control", n.FlowControl, "a flow control", FCNone, FCCredit, FCPFC)
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
	ok = c.oneOf("network.routing", n.Routing, "a routing mode", RouteStatic, RouteECMP, RouteAdaptive, RouteSpray) && ok
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
	if bufferOK {
		ok = c.ecn() && ok
	}
	ok = c.duration("network.cnp_interval", n.CNPInterval, 0, MaxLatency, "50us") && ok
	ok = c.ibcc(bufferOK) && ok
	ok = c.duration("network.rto", n.RTO, MinRTO, MaxLatency, "100us") && ok
	ok = c.between("network.ack_every", n.AckEvery, 1, MaxAckEvery, 16, "ack_every") && ok
	ok = c.bufferModel(bufferOK) && ok
	ok = c.classes(fcOK) && ok
	return ok
}

// bufferModel checks network.buffer_model and the shared pool's keys.
func (c *checker) bufferModel(bufferOK bool) bool {
	n := &c.s.Network
	if !c.oneOf("network.buffer_model", n.BufferModel, "a buffer model", BufferStatic, BufferShared) {
		return false
	}
	ok := true
	if !(n.DTAlpha > 0 && n.DTAlpha <= MaxDTAlpha) {
		c.fail("network.dt_alpha", "%s is not allowed: α is above 0 and at most %d (e.g. dt_alpha: 1; 1/8 to 8 is usual)", c.text("network.dt_alpha", n.DTAlpha), MaxDTAlpha)
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
		default:
			seen[cl.Name] = i
		}
		if !(cl.Weight > 0 && cl.Weight <= MaxClassWeight) {
			c.fail(key+".weight", "%s is not allowed: a weight is above 0 and at most %d; weights are relative (3 and 1 share a port 75/25), e.g. weight: 1",
				c.text(key+".weight", cl.Weight), MaxClassWeight)
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
	c.fail(key, "%q is not a class; use %s (from network.classes)", name, list(names, "or"))
	return false
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

// IBCCThreshold is the switch egress queue above which ports mark FECN under
// cc: ibcc: network.ibcc.threshold, or with 0 a quarter of the port buffer
// (rounded down to whole KiB; 512KiB for 2 MiB).
func (s *Scenario) IBCCThreshold() unit.Bytes {
	if t := s.Network.IBCC.Threshold; t != 0 {
		return t
	}
	return roundDown(s.Network.Buffer / 4)
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
	_, rate := s.Wire()
	why := fmt.Sprintf("2 × %s link latency and %s switch latency at %s, plus 2 packets", s.Topology.LinkLatency, s.Topology.SwitchLatency, rate)
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
		} else {
			c.fail("network.buffer", "%s is too small for PFC: the headroom alone is %d bytes (%s); use buffer: %s or more, or flow_control: none",
				c.text("network.buffer", buffer), minHead, why, sizeText(roundUp(minHead+2*pkt+1)))
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

// traffic checks the pattern against the endpoint count. topoOK says
// whether endpoints is known; countPackets whether the packet limit applies.
func (c *checker) traffic(endpoints int, topoOK, countPackets bool) {
	s := c.s
	tr := &s.Traffic
	patternOK := c.oneOf("traffic.pattern", tr.Pattern, "a traffic pattern", PatternFlows, PatternIncast, PatternPermutation, PatternAllToAll, PatternNone)
	if tr.Pattern == PatternNone {
		return
	}
	bytesOK := c.flowBytes("traffic.bytes", tr.Bytes)
	c.start("traffic.start", tr.Start)
	c.classRef("traffic.class", tr.Class)
	if !patternOK || !topoOK {
		return
	}
	flows, perFlow := 0, tr.Bytes
	switch tr.Pattern {
	case PatternIncast:
		if !c.incast(endpoints) {
			return
		}
		flows = tr.Senders
	case PatternPermutation:
		flows = endpoints
	case PatternAllToAll:
		flows = endpoints * (endpoints - 1)
		if flows > MaxFlows {
			most := int((1 + math.Sqrt(1+4*MaxFlows)) / 2) // most × (most − 1) ≤ MaxFlows
			c.fail(sizeKey(s), "%s gives %d endpoints; pattern alltoall is then %d flows, more than the %d allowed (alltoall takes at most %d endpoints)",
				shape(s), endpoints, flows, MaxFlows, most)
			return
		}
	case PatternFlows:
		if !c.flows(endpoints) || !countPackets {
			return
		}
		var packets int64
		for _, f := range tr.Flows {
			packets += int64((f.Bytes + s.Network.MTU - 1) / s.Network.MTU)
		}
		if packets > MaxTotalPackets {
			c.fail("traffic.flows", "%d flows come to %d packets of %s; packet-level runs allow at most %d (send fewer bytes, or raise mtu)",
				len(tr.Flows), packets, sizeText(s.Network.MTU), MaxTotalPackets)
		}
		return
	}
	if !bytesOK || !countPackets {
		return
	}
	perFlowPackets := int64((perFlow + s.Network.MTU - 1) / s.Network.MTU)
	if packets := int64(flows) * perFlowPackets; packets > MaxTotalPackets {
		fits := unit.Bytes(MaxTotalPackets/int64(flows)) * s.Network.MTU // per flow
		if fits >= unit.MiB {
			fits = fits / unit.MiB * unit.MiB
		}
		c.fail("traffic.bytes", "%s for each of %d flows comes to %d packets of %s; packet-level runs allow at most %d (e.g. bytes: %s)",
			c.text("traffic.bytes", perFlow), flows, packets, sizeText(s.Network.MTU), MaxTotalPackets, sizeText(fits))
	}
}

func (c *checker) flowBytes(key string, b unit.Bytes) bool {
	switch {
	case b <= 0:
		c.fail(key, "%s is not allowed: a flow needs at least 1 byte (e.g. bytes: 64MiB)", c.text(key, b))
	case b > MaxFlowBytes:
		c.fail(key, "%s is too large: a flow has at most %s (e.g. bytes: 64MiB)", c.text(key, b), MaxFlowBytes)
	default:
		return true
	}
	return false
}

func (c *checker) start(key string, t unit.Time) bool {
	return c.duration(key, t, 0, MaxUntil, "0")
}

func (c *checker) incast(endpoints int) bool {
	tr := &c.s.Traffic
	if !c.between("traffic.senders", tr.Senders, 1, endpoints-1, endpoints-1, "with "+strconv.Itoa(endpoints)+" endpoints, senders") {
		return false
	}
	r, last := tr.Receiver, endpoints-1
	switch {
	case r < -1 || r > last:
		c.fail("traffic.receiver", "%s is not an endpoint: use -1 (the endpoint after the senders) or 0 to %d", c.text("traffic.receiver", r), last)
		return false
	case r >= 0 && r < tr.Senders:
		free := strconv.Itoa(tr.Senders)
		if tr.Senders < last {
			free = fmt.Sprintf("one of %d to %d", tr.Senders, last)
		}
		c.fail("traffic.receiver", "%s is one of the senders (endpoints 0 to %d); use receiver: -1 (endpoint %d) or %s",
			c.text("traffic.receiver", r), tr.Senders-1, tr.Senders, free)
		return false
	}
	return true
}

func (c *checker) flows(endpoints int) bool {
	tr := &c.s.Traffic
	if len(tr.Flows) == 0 {
		c.fail("traffic.flows", "pattern flows needs a list of flows, e.g. flows: [{src: 0, dst: 1, bytes: 1MiB}]")
		return false
	}
	if len(tr.Flows) > MaxFlows {
		c.fail("traffic.flows", "%d flows are too many: at most %d", len(tr.Flows), MaxFlows)
		return false
	}
	ok := true
	for i, f := range tr.Flows {
		key := fmt.Sprintf("traffic.flows[%d]", i)
		for _, e := range []struct {
			name string
			v    int
		}{{"src", f.Src}, {"dst", f.Dst}} {
			if e.v < 0 || e.v >= endpoints {
				c.fail(key+"."+e.name, "%s is not an endpoint: there are %d, numbered 0 to %d", c.text(key+"."+e.name, e.v), endpoints, endpoints-1)
				ok = false
			}
		}
		if f.Src == f.Dst {
			c.fail(key, "src and dst are both %d; a flow needs two different endpoints", f.Src)
			ok = false
		}
		switch {
		case f.Bytes <= 0:
			c.fail(key+".bytes", "%s is not allowed: a flow needs at least 1 byte (omit bytes to use traffic.bytes, %s)", c.text(key+".bytes", f.Bytes), sizeText(tr.Bytes))
			ok = false
		case f.Bytes > MaxFlowBytes:
			c.fail(key+".bytes", "%s is too large: a flow has at most %s", c.text(key+".bytes", f.Bytes), MaxFlowBytes)
			ok = false
		}
		ok = c.start(key+".start", f.Start) && ok
		if f.Class != "" {
			ok = c.classRef(key+".class", f.Class) && ok
		}
		if len(c.errs) > maxErrors {
			return false
		}
	}
	return ok
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
	c.flowBytes("collective.bytes", co.Bytes)
	c.between("collective.channels", co.Channels, 1, 64, 8, "channels")
	if co.Chunk < 0 || co.Chunk > 0 && co.Chunk < 4*unit.KiB {
		c.fail("collective.chunk", "%s is not allowed: a pipeline piece is at least 4KiB (default 4MiB; 0 sends each channel's share in one piece)", c.text("collective.chunk", co.Chunk))
	}
	c.duration("collective.alpha", co.Alpha, 0, MaxLatency, "1us")
	if co.Execution != "" {
		c.oneOf("collective.execution", co.Execution, "an execution", "steps", "streamed")
	}
	if !topoOK {
		return
	}
	ranks := co.Ranks
	if ranks == 0 {
		ranks = endpoints
	}
	if !c.between("collective.ranks", ranks, 2, endpoints, endpoints, "with "+strconv.Itoa(endpoints)+" endpoints, ranks") {
		return
	}
	if co.Op == coll.Broadcast && (co.Root < 0 || co.Root >= ranks) {
		c.fail("collective.root", "%s is not a rank: use 0 to %d", c.text("collective.root", co.Root), ranks-1)
	}
	sched, err := coll.Build(co.Op, co.Algo, s.CollParams(ranks, 0))
	if err != nil {
		key := "collective.algo"
		if !slices.Contains(coll.Ops, co.Op) {
			key = "collective.op"
		}
		c.fail(key, "%v", err)
		return
	}
	streamed := s.Sim.Fidelity == FlowLevel
	if co.Execution != "" {
		streamed = co.Execution == "streamed"
	}
	if sched.Steps == nil && !streamed {
		c.fail("collective.execution", "%s/%s on %d ranks has too many transfers to run step by step (at most %d); use sim: {fidelity: flow} or collective.execution: streamed",
			co.Op, co.Algo, ranks, coll.MaxStepTransfers)
		return
	}
	if countPackets && co.Bytes > 0 {
		// Every rank sends at most about twice the message.
		packets := int64(ranks) * 2 * int64((co.Bytes+s.Network.MTU-1)/s.Network.MTU)
		if packets > MaxTotalPackets {
			c.fail("collective.bytes", "%s on %d ranks comes to about %d packets; packet-level runs allow at most %d (send less, or use sim: {fidelity: flow})",
				c.text("collective.bytes", co.Bytes), ranks, packets, MaxTotalPackets)
		}
	}
}

// GradientBytes is the gradient element size on the wire for a training.compression.
func GradientBytes(compression string) (int64, bool) {
	switch compression {
	case "fp32":
		return 4, true
	case "bf16", "fp16":
		return 2, true
	case "fp8", "int8":
		return 1, true
	}
	return 0, false
}

// training checks the training keys when a model is set.
func (c *checker) training(endpoints int, topoOK bool) {
	s := c.s
	tr := &s.Training
	if tr.Model == "" {
		return
	}
	if s.Collective.Op != "" {
		c.fail("training.model", "a scenario runs a collective or training, not both: remove one of collective and training")
	}
	if s.Traffic.Pattern != PatternNone {
		c.fail("traffic.pattern", "%s cannot run beside training: remove the traffic keys or set pattern: none", c.text("traffic.pattern", s.Traffic.Pattern))
	}
	if tr.Model == "custom" {
		if len(tr.Layers) == 0 {
			c.fail("training.layers", "model custom needs layers, e.g. layers: [{name: fc, params: 1000000, flops: 2000000}]")
		}
		for i, l := range tr.Layers {
			key := fmt.Sprintf("training.layers[%d]", i)
			if l.Params <= 0 || l.Params > 1e13 {
				c.fail(key+".params", "%s is not allowed: a layer has 1 to 10^13 parameters", c.text(key+".params", l.Params))
			}
			if !(l.FLOPs >= 0 && l.FLOPs <= 1e18) {
				c.fail(key+".flops", "%s is not allowed: forward FLOPs per sample, 0 to 10^18", c.text(key+".flops", l.FLOPs))
			}
		}
	} else if !slices.Contains(trainPresets, tr.Model) {
		c.oneOf("training.model", tr.Model, "a model", append(slices.Clone(trainPresets), "custom")...)
	}
	c.oneOf("training.gpu", tr.GPU, "a GPU", "a100", "h100", "h200", "b200")
	if !(tr.MFU > 0 && tr.MFU <= 1) {
		c.fail("training.mfu", "%s is not allowed: a share of peak FLOPs above 0 and at most 1 (e.g. mfu: 0.4)", c.text("training.mfu", tr.MFU))
	}
	c.between("training.batch", tr.Batch, 0, 1<<24, 256, "batch (0 picks the model's default)")
	c.between("training.iterations", tr.Iterations, 1, 100, 1, "iterations")
	if tr.BucketCap < unit.KiB || tr.BucketCap > unit.GiB {
		c.fail("training.bucket_cap", "%s is not allowed: 1KiB to 1GiB (PyTorch's default is 25MiB)", c.text("training.bucket_cap", tr.BucketCap))
	}
	if tr.FirstBucket < 1 || tr.FirstBucket > unit.GiB {
		c.fail("training.first_bucket", "%s is not allowed: 1 byte to 1GiB (PyTorch's default is 1MiB)", c.text("training.first_bucket", tr.FirstBucket))
	}
	if _, ok := GradientBytes(tr.Compression); !ok {
		c.oneOf("training.compression", tr.Compression, "a gradient format", "fp32", "bf16", "fp16", "fp8", "int8")
	}
	if !topoOK {
		return
	}
	ranks := tr.Ranks
	if ranks == 0 {
		ranks = endpoints
	}
	if !c.between("training.ranks", ranks, 2, endpoints, endpoints, "with "+strconv.Itoa(endpoints)+" endpoints, ranks") {
		return
	}
	sched, err := coll.Build(coll.AllReduce, tr.Algo, s.CollParams(ranks, 0))
	if err != nil {
		c.fail("training.algo", "%v", err)
	} else if sched.Steps == nil && s.Sim.Fidelity != FlowLevel && s.Collective.Execution != "streamed" {
		c.fail("training.ranks", "an all-reduce over %d ranks has too many transfers to run step by step; use sim: {fidelity: flow}", ranks)
	}
}

var trainPresets = []string{"gpt2-1.5b", "llama3-8b", "resnet50"}

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
	return coll.Params{Ranks: ranks, GPUsPerNode: s.NodeGPUs(), Root: root, OneSwitch: s.OneSwitch()}
}

// OneSwitch reports whether every endpoint hangs off one switch: a star, or
// the NVSwitch of a single dgx node.
func (s *Scenario) OneSwitch() bool {
	t := &s.Topology
	return t.Kind == Star || t.Kind == DGX && t.Nodes == 1
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
