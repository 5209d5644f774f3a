package scenario

import (
	"fmt"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Fault kinds (faults[].kind).
const (
	FaultSlowGPU      = "slow_gpu"      // a GPU's compute takes factor times as long
	FaultLinkDown     = "link_down"     // a cable carries nothing from at to until
	FaultLinkDegraded = "link_degraded" // a cable runs at gbps from at to until
)

// FaultKinds lists the fault kinds, for messages.
var FaultKinds = []string{FaultSlowGPU, FaultLinkDown, FaultLinkDegraded}

// Fault is one straggler or failure. A link is named as `fabriclab run`
// names links ("leaf0→spine1", or "leaf0->spine1"); the fault takes the
// whole cable, both directions. Until 0 is for good.
type Fault struct {
	Kind   string    `yaml:"kind"`
	GPU    int       `yaml:"gpu,omitempty"`    // slow_gpu: the rank (endpoint) whose compute is slow
	Factor float64   `yaml:"factor,omitempty"` // slow_gpu: how many times as long its compute takes
	Link   string    `yaml:"link,omitempty"`   // link_down, link_degraded
	Gbps   float64   `yaml:"gbps,omitempty"`   // link_degraded: the rate it runs at
	At     unit.Time `yaml:"at,omitempty"`
	Until  unit.Time `yaml:"until,omitempty"`
}

// Limits on faults.
const (
	MaxFaults      = 64
	MaxSlowFactor  = 100
	MaxRerouteTime = MaxUntil
)

// Default reroute delays (network.reroute_delay): how long static routing
// keeps sending into a down link. InfiniBand's subnet manager recomputes and
// reprograms every switch's forwarding table, "as long as 10-20 seconds" on
// large fabrics (Mellanox, on SHIELD, 2017); BGP in a data centre converges
// in under a second with fast fallover on link-down (RFC 7938 §7).
// REFERENCE.md, "Stragglers and failures".
const (
	DefaultRerouteIB       = 10 * unit.Second
	DefaultRerouteEthernet = unit.Second
)

// LinkFault reports whether f takes or slows a link.
func (f *Fault) LinkFault() bool { return f.Kind == FaultLinkDown || f.Kind == FaultLinkDegraded }

// faults checks the faults list; the link names need the built topology
// and are sim/plan's to check.
func (c *checker) faults(endpoints int, topoOK bool) {
	s := c.s
	if len(s.Faults) > MaxFaults {
		c.fail("faults", "%d faults are too many: at most %d", len(s.Faults), MaxFaults)
		return
	}
	for i := range s.Faults {
		c.fault(i, endpoints, topoOK)
	}
}

func (c *checker) fault(i, endpoints int, topoOK bool) {
	f := &c.s.Faults[i]
	key := fmt.Sprintf("faults[%d]", i)
	if !c.oneOf(key+".kind", f.Kind, msg.F("a fault kind"), FaultKinds...) {
		return
	}
	not := func(field string, set bool) {
		if set {
			c.fail(key+"."+field, "a %s fault has no %s; remove it", f.Kind, field)
		}
	}
	switch f.Kind {
	case FaultSlowGPU:
		not("link", f.Link != "")
		not("gbps", f.Gbps != 0)
		not("at", f.At != 0)
		not("until", f.Until != 0)
		if topoOK && (f.GPU < 0 || f.GPU >= endpoints) {
			c.fail(key+".gpu", "%s is not a GPU: use a rank from 0 to %d", c.text(key+".gpu", f.GPU), endpoints-1)
		}
		if !(f.Factor >= 1 && f.Factor <= MaxSlowFactor) {
			c.fail(key+".factor", "%s is not allowed: how many times as long the GPU's compute takes, from 1 to %d (e.g. factor: 1.5)", c.text(key+".factor", f.Factor), MaxSlowFactor)
		}
		if !training(c.s) && !inference(c.s) {
			c.fail(key+".kind", "a slow_gpu fault slows a GPU's compute, and only training and inference compute; set training.model or inference.model, or use a link fault")
		}
		return
	}
	not("gpu", f.GPU != 0)
	not("factor", f.Factor != 0)
	if f.Link == "" {
		c.fail(key+".link", "missing: the link, as fabriclab run names it (e.g. link: leaf0→spine0)")
	} else {
		c.printable(key+".link", f.Link, "leaf0→spine0")
	}
	if f.Kind == FaultLinkDown {
		not("gbps", f.Gbps != 0)
	} else if f.Gbps <= 0 || f.Gbps > MaxLinkGbps {
		c.fail(key+".gbps", "%s is not allowed: the rate the degraded link runs at, above 0 and at most %d (e.g. gbps: 100)", c.text(key+".gbps", f.Gbps), MaxLinkGbps)
	}
	if f.At < 0 || f.At > MaxUntil {
		c.fail(key+".at", "%s is not allowed: from 0 to %v (e.g. at: 100us)", c.text(key+".at", f.At), MaxUntil)
	} else if f.Until != 0 && (f.Until <= f.At || f.Until > MaxUntil) {
		c.fail(key+".until", "%s must come after at (%v) and be at most %v, or be left out for good (e.g. until: %v)", c.text(key+".until", f.Until), f.At, MaxUntil, f.At+unit.Millisecond)
	}
}
