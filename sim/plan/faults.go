package plan

import (
	"fmt"
	"strings"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Faults is a run's stragglers and failures, resolved: nil when it has none,
// so that a fault-free run pays for nothing.
type Faults struct {
	Slow  []SlowGPU   // slow_gpu, in the order written
	Links []LinkFault // link_down and link_degraded, in the order written
	// RerouteDelay is how long static and ECMP routing keep a down link in
	// their paths (network.reroute_delay); adaptive routing drops it at once.
	RerouteDelay unit.Time
}

// SlowGPU is a rank whose compute takes Factor times as long.
type SlowGPU struct {
	Rank   int
	Factor float64
}

// LinkFault is a cable (both its directions) down or slowed from At to Until.
type LinkFault struct {
	Index int    // the fault's place in faults[], for the report
	Name  string // as written, "→" for "->"
	Link  int    // one direction; Reverse is the other
	Down  bool   // else degraded to Rate
	Rate  unit.Rate
	At    unit.Time
	Until unit.Time // unit.Never: for good
}

// Report is the fault as the run's report starts it (both models fill in
// what happened).
func (lf *LinkFault) Report() metrics.Fault {
	r := metrics.Fault{Index: lf.Index, Kind: "link_down", Target: lf.Name, AtUs: metrics.Micros(lf.At)}
	if !lf.Down {
		r.Kind, r.Gbps = "link_degraded", metrics.Round(lf.Rate.Gbps(), 3)
	}
	if lf.Until != unit.Never {
		r.UntilUs = metrics.Micros(lf.Until)
	}
	return r
}

// SlowFactor is how many times as long rank's compute takes (1 if not slow).
func (f *Faults) SlowFactor(rank int) float64 {
	if f == nil {
		return 1
	}
	x := 1.0
	for _, s := range f.Slow {
		if s.Rank == rank {
			x = max(x, s.Factor)
		}
	}
	return x
}

// faults resolves sc's faults on t (nil when none takes a link), reporting
// link names t does not have.
func faults(sc *scenario.Scenario, t *topo.Topology, k *scenario.Check) *Faults {
	if len(sc.Faults) == 0 {
		return nil
	}
	fs := &Faults{RerouteDelay: sc.Network.RerouteDelay}
	var byName map[string]int
	for i, f := range sc.Faults {
		if f.Kind == scenario.FaultSlowGPU {
			if ranks := workloadRanks(sc); f.GPU >= ranks {
				key := fmt.Sprintf("faults[%d].gpu", i)
				k.Fail(key, "%s is not one of the workload's %d ranks: use a rank from 0 to %d", k.Text(key, f.GPU), ranks, ranks-1)
				continue
			}
			fs.Slow = append(fs.Slow, SlowGPU{Rank: f.GPU, Factor: f.Factor})
			continue
		}
		if byName == nil {
			byName = make(map[string]int, len(t.Links))
			for l := range t.Links {
				byName[t.LinkName(l)] = l
			}
		}
		key := fmt.Sprintf("faults[%d].link", i)
		name := strings.ReplaceAll(strings.TrimSpace(f.Link), "->", "→")
		l, ok := byName[name]
		if !ok {
			k.Fail(key, "%q is not a link of this topology: a link is named from→to (or from->to) as fabriclab run prints it, e.g. %s; `fabriclab run NAME --json` lists every link the run uses under links[].name",
				f.Link, strings.Join(likeLinks(t, name), ", "))
			continue
		}
		lf := LinkFault{Index: i, Name: name, Link: l, Down: f.Kind == scenario.FaultLinkDown, At: f.At, Until: f.Until}
		if lf.Until == 0 {
			lf.Until = unit.Never
		}
		if !lf.Down {
			lf.Rate = topo.LinkRate(f.Gbps)
		}
		fs.Links = append(fs.Links, lf)
	}
	return fs
}

// likeLinks names a few links of t to suggest instead of name: those
// leaving the node name starts from, else the first between two switches.
func likeLinks(t *topo.Topology, name string) []string {
	from, _, _ := strings.Cut(name, "→")
	var out []string
	for l := range t.Links {
		if t.Nodes[t.Links[l].From].Name == from {
			out = append(out, t.LinkName(l))
		}
	}
	if len(out) == 0 {
		for l := range t.Links {
			if t.Nodes[t.Links[l].From].Role.IsSwitch() && t.Nodes[t.Links[l].To].Role.IsSwitch() {
				out = append(out, t.LinkName(l))
			}
		}
	}
	if len(out) == 0 {
		for l := range t.Links {
			out = append(out, t.LinkName(l))
		}
	}
	return out[:min(len(out), 4)]
}

// workloadRanks is how many ranks the training or inference runs on.
func workloadRanks(sc *scenario.Scenario) int {
	r := sc.Training.Ranks
	if sc.Inference.Model != "" {
		r = sc.Inference.Ranks
	}
	if r == 0 {
		r = sc.Endpoints()
	}
	return r
}

// slowRanks maps each slow_gpu rank below ranks to its factor (the
// largest, if two name one rank); nil when none is slow.
func slowRanks(sc *scenario.Scenario, ranks int) map[int]float64 {
	var m map[int]float64
	for _, f := range sc.Faults {
		if f.Kind == scenario.FaultSlowGPU && f.GPU >= 0 && f.GPU < ranks {
			if m == nil {
				m = map[int]float64{}
			}
			m[f.GPU] = max(m[f.GPU], f.Factor)
		}
	}
	return m
}
