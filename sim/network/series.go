package network

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/unit"
)

// The sampling rules every model follows, so that their series line up.
const (
	MaxSamples      = 400 // past this a cadence halves its resolution
	MaxFlowSeries   = 256 // per-flow series only for runs with at most this many flows
	DefaultInterval = plan.DefaultSampleInterval
)

// Cadence is when a model samples its time series: from time 0 every
// Interval — sim.sample_interval, or about 200 samples of until, or without
// either DefaultInterval (plan.Resolve picks it). Whenever MaxSamples are kept the interval doubles
// (keeping every other sample taken), explicit or not, so that memory stays
// bounded however long the run: a series never holds more than MaxSamples.
type Cadence struct {
	Interval unit.Time
	Times    []unit.Time // when each sample was taken
}

// NewCadence is a cadence starting at interval (plan.Plan.SampleInterval).
func NewCadence(interval unit.Time) Cadence { return Cadence{Interval: interval} }

// Take notes a sample at now.
func (c *Cadence) Take(now unit.Time) { c.Times = append(c.Times, now) }

// Full reports whether the series must halve their resolution (call Halve,
// and metrics.KeepEven on every series).
func (c *Cadence) Full() bool { return len(c.Times) >= MaxSamples }

// Halve doubles the interval and keeps every other sample time.
func (c *Cadence) Halve() {
	c.Interval *= 2
	c.Times = metrics.KeepEven(c.Times)
}

// FinalDue reports whether the run's end at now still wants a last sample.
func (c *Cadence) FinalDue(now unit.Time) bool {
	n := len(c.Times)
	return n == 0 || c.Times[n-1] < now
}

// Series starts a run's series with its interval and sample times; goodput
// gives the rate over the interval ending at sample i.
func (c *Cadence) Series(goodput func(i int) float64) *metrics.Series {
	out := &metrics.Series{IntervalUs: metrics.Micros(c.Interval)}
	for i, t := range c.Times {
		out.TimeUs = append(out.TimeUs, metrics.Micros(t))
		out.Goodput = append(out.Goodput, goodput(i))
	}
	return out
}
