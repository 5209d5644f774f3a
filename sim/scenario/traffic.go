package scenario

import (
	"fmt"
	"math"
	"unicode"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
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
	Name  string     `yaml:"name"`  // what the viewer calls it, e.g. victim; "" for none
}

// IncastReceiver is the endpoint that receives an incast: traffic.receiver,
// or with -1 the endpoint after the senders.
func (s *Scenario) IncastReceiver() int {
	if s.Traffic.Receiver < 0 {
		return s.Traffic.Senders
	}
	return s.Traffic.Receiver
}

// fillDefaults shrinks the default incast to fit a small topology, picks the
// pattern a collective, training or a flows list implies, and gives flows
// without bytes traffic.bytes.
func (tr *Traffic) fillDefaults(present func(key string) bool, s *Scenario) {
	if n := s.Endpoints(); !present("traffic.senders") && n >= 2 && tr.Senders > n-1 {
		tr.Senders = n - 1 // the default incast on a small topology
	}
	if !present("traffic.pattern") && (s.Collective.Op != "" || s.Training.Model != "" || s.Inference.Model != "") {
		tr.Pattern = PatternNone
	}
	if !present("traffic.pattern") && present("traffic.flows") {
		tr.Pattern = PatternFlows
	}
	for i := range tr.Flows {
		if !present(fmt.Sprintf("traffic.flows[%d].bytes", i)) {
			tr.Flows[i].Bytes = tr.Bytes
		}
	}
}

// traffic checks the pattern against the endpoint count. topoOK says
// whether endpoints is known; countPackets whether the packet limit applies.
func (c *checker) traffic(endpoints int, topoOK, countPackets bool) {
	s := c.s
	tr := &s.Traffic
	patternOK := c.oneOf("traffic.pattern", tr.Pattern, msg.F("a traffic pattern"), PatternFlows, PatternIncast, PatternPermutation, PatternAllToAll, PatternNone)
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
			c.fail(s.Topology.sizeKey(), "%s gives %d endpoints; pattern alltoall is then %d flows, more than the %d allowed (alltoall takes at most %d endpoints)",
				s.Topology.Shape().Describe(), endpoints, flows, MaxFlows, most)
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
		if key := c.blame("traffic.bytes", s.Topology.sizeKey(), "traffic.pattern", "traffic.senders", "network.mtu"); key != "traffic.bytes" {
			c.fail(key, "%s makes %d flows of %s, %d packets of %s in all; packet-level runs allow at most %d (e.g. traffic.bytes: %s, or sim.fidelity: flow)",
				c.text(key, nil), flows, sizeText(perFlow), packets, sizeText(s.Network.MTU), MaxTotalPackets, sizeText(fits))
			return
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
	if !c.between("traffic.senders", tr.Senders, 1, endpoints-1, endpoints-1, msg.F("with %d endpoints, senders", endpoints)) {
		return false
	}
	r, last := tr.Receiver, endpoints-1
	switch {
	case r < -1 || r > last:
		c.fail("traffic.receiver", "%s is not an endpoint: use -1 (the endpoint after the senders) or 0 to %d", c.text("traffic.receiver", r), last)
		return false
	case r >= 0 && r < tr.Senders:
		free := msg.F("%d", tr.Senders)
		if tr.Senders < last {
			free = msg.F("one of %d to %d", tr.Senders, last)
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
	named := map[string]int{} // flow names → the first flow with it
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
		if f.Name != "" {
			ok = c.flowName(key+".name", f.Name, i, named) && ok
		}
		if len(c.errs) > maxErrors {
			return false
		}
	}
	return ok
}

// MaxFlowName is the longest flow name, in bytes: it labels the canvas.
const MaxFlowName = 24

// flowName checks flow i's name: short, printable, and not another flow's.
func (c *checker) flowName(key, name string, i int, named map[string]int) bool {
	for _, r := range name {
		if !unicode.IsPrint(r) {
			c.fail(key, "%q has a character that does not print; a flow name is a short label, e.g. name: victim", name)
			return false
		}
	}
	if len(name) > MaxFlowName {
		c.fail(key, "%q is too long: a flow name has at most %d bytes (e.g. name: victim)", name, MaxFlowName)
		return false
	}
	if j, dup := named[name]; dup {
		c.fail(key, "%q is already the name of traffic.flows[%d]; give each flow its own name", name, j)
		return false
	}
	named[name] = i
	return true
}
