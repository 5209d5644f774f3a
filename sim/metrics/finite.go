package metrics

import "math"

// finite reports whether every float in r is neither NaN nor infinite, as
// encoding/json requires (TestFinite finds a float field left out here).
func (r *Result) finite() bool {
	t := &r.Totals
	if !all(t.SimTimeUs, t.GoodputGbps, t.MaxFctUs, t.MeanFctUs) {
		return false
	}
	for i := range r.Flows {
		f := &r.Flows[i]
		if !all(f.StartUs, f.FinishUs, f.FctUs, f.Gbps, f.MinRateGbps) {
			return false
		}
	}
	for i := range r.Links {
		l := &r.Links[i]
		if !all(l.Gbps, l.Util, l.PauseUs) {
			return false
		}
		for j := range l.Classes {
			if !all(l.Classes[j].PauseUs) {
				return false
			}
		}
	}
	if s := r.Series; s != nil {
		if !all(s.IntervalUs) || !all(s.TimeUs...) || !all(s.Goodput...) {
			return false
		}
		for _, rows := range [][][]float64{s.FlowGbps, s.FlowRateGbps} {
			for _, row := range rows {
				if !all(row...) {
					return false
				}
			}
		}
	}
	if c := r.Collective; c != nil && !all(c.TimeUs, c.AlgBwGBps, c.BusBwGBps) {
		return false
	}
	if t := r.Training; t != nil {
		if !all(t.MFU, t.IterationUs, t.ComputeUs, t.ExposedCommUs, t.GPUUtil, t.ScalingEfficiency, t.SamplesPerSecond) {
			return false
		}
		if c := t.Cost; c != nil {
			if !all(c.GPUHourPrice) {
				return false
			}
			for _, s := range []*CostShare{&c.PerHour, &c.Per1kIters, &c.Per1BSamples} {
				if !all(s.GPUHours, s.WaitingGPUHours) || s.Cost != nil && !all(*s.Cost) || s.WaitingCost != nil && !all(*s.WaitingCost) {
					return false
				}
			}
		}
		for i := range t.Buckets {
			b := &t.Buckets[i]
			if !all(b.ReadyUs, b.StartUs, b.FinishUs) {
				return false
			}
		}
		for i := range t.Timeline {
			for j := range t.Timeline[i].Intervals {
				v := &t.Timeline[i].Intervals[j]
				if !all(v.StartUs, v.EndUs) {
					return false
				}
			}
		}
	}
	return true
}

func all(v ...float64) bool {
	for _, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
