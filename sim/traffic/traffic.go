// Package traffic expands a scenario's traffic pattern into explicit flows, the
// same way for every network model.
package traffic

import (
	"math/rand/v2"

	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Flow is one flow of the traffic, as the models start it.
type Flow struct {
	Src, Dst int
	Bytes    unit.Bytes
	Start    unit.Time
	Class    string // traffic class (network.classes); "" is the first
	Name     string // what the viewer calls it; "" for none
}

// Flows expands the scenario's traffic pattern into explicit flows. Random
// patterns draw from their own stream of the scenario's seed, so that every
// model sees the same flows.
func Flows(sc *scenario.Scenario) []Flow {
	rng := rand.New(rand.NewPCG(sc.Seed, 0x7472616666696300)) // "traffic"
	tr := &sc.Traffic
	n := sc.Endpoints()
	one := func(src, dst int) Flow {
		return Flow{Src: src, Dst: dst, Bytes: tr.Bytes, Start: tr.Start, Class: tr.Class}
	}
	var out []Flow
	switch tr.Pattern {
	case scenario.PatternFlows:
		for _, f := range tr.Flows {
			if f.Bytes == 0 {
				f.Bytes = tr.Bytes
			}
			if f.Class == "" {
				f.Class = tr.Class
			}
			out = append(out, Flow(f))
		}
	case scenario.PatternIncast:
		recv := tr.Receiver
		if recv < 0 {
			recv = tr.Senders
		}
		for s := range tr.Senders {
			out = append(out, one(s, recv))
		}
	case scenario.PatternPermutation:
		for s, d := range Derangement(n, rng) {
			out = append(out, one(s, d))
		}
	case scenario.PatternAllToAll:
		for s := range n {
			for k := 1; k < n; k++ {
				out = append(out, one(s, (s+k)%n))
			}
		}
	}
	return out
}

// Derangement returns a random permutation of 0..n-1 with no fixed point (n ≥ 2),
// by Sattolo's algorithm: a uniformly random single cycle.
func Derangement(n int, rng *rand.Rand) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// Names is the names flows give themselves, by flow ID, up to the last
// named one; nil when none is named (a pattern makes unnamed flows).
func Names(flows []Flow) []string {
	var names []string
	for i, f := range flows {
		if f.Name != "" {
			for len(names) <= i {
				names = append(names, "")
			}
			names[i] = f.Name
		}
	}
	return names
}
