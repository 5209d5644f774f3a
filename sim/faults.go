package sim

import (
	"fmt"
	"slices"

	"fabriclab/sim/metrics"
	"fabriclab/sim/msg"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// What faults cost. The models report what each link fault did (its stall,
// when routing moved off it); this adds the slow GPUs and the run's measure
// (the iteration, the collective, the inference makespan or the run), and
// Run runs the same scenario without its faults for the baseline: a fault's
// cost through a synchronous job and a shared fabric is not one any
// attribution gets exactly, the difference of the two runs is.

// faultReport completes res.Faults for a run of a scenario with faults f.
func faultReport(res *metrics.Result, f *plan.Faults, sc []scenario.Fault) {
	if f == nil {
		return
	}
	if res.Faults == nil {
		res.Faults = &metrics.Faults{}
	}
	r := res.Faults
	r.Measure, r.MeasureUs = measure(res)
	for i, x := range sc {
		if x.Kind == scenario.FaultSlowGPU {
			r.Faults = append(r.Faults, metrics.Fault{Index: i, Kind: x.Kind, Target: fmt.Sprintf("GPU %d", x.GPU), Factor: x.Factor})
		}
	}
	slices.SortStableFunc(r.Faults, func(a, b metrics.Fault) int { return a.Index - b.Index })
}

// measure is what a run is judged by, and its value.
func measure(res *metrics.Result) (string, float64) {
	switch {
	case res.Training != nil:
		return "iteration", res.Training.IterationUs
	case res.Collective != nil:
		return "collective", res.Collective.TimeUs
	case res.Inference != nil:
		return "inference makespan", res.Inference.MakespanUs
	}
	return "run", res.Totals.SimTimeUs
}

// withBaseline runs sc without its faults and puts the difference in res.
func withBaseline(res *metrics.Result, sc scenario.Scenario) error {
	if res.Faults == nil {
		return nil
	}
	sc.Faults = nil
	base, err := Run(sc)
	if err != nil {
		return msg.Errorf("the run without faults: %w", err)
	}
	_, b := measure(base)
	d := metrics.Round(res.Faults.MeasureUs-b, 3)
	res.Faults.BaselineUs, res.Faults.DelayUs = &b, &d
	return nil
}

// faultsAt is the faults in effect at t, for the viewer; nil without any.
func (st *Started) faultsAt(t unit.Time) *snap.Faults {
	f := st.faults
	if f == nil {
		return nil
	}
	out := &snap.Faults{}
	for _, s := range f.Slow {
		out.Slow = append(out.Slow, snap.SlowGPU{Endpoint: s.Rank, Factor: s.Factor})
	}
	links := st.Model.Topology().Links
	for _, lf := range f.Links {
		if t < lf.At || t >= lf.Until {
			continue
		}
		for _, l := range [2]int{lf.Link, links[lf.Link].Reverse} {
			if lf.Down {
				out.Down = append(out.Down, l)
			} else {
				out.Degraded = append(out.Degraded, snap.DegradedLink{Link: l, Gbps: lf.Rate.Gbps()})
			}
		}
	}
	return out
}
