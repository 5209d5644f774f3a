package fluid

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// The sampling rules are the packet model's, so that the two series line up.
const (
	maxSamples      = 400 // past this the sampler halves its resolution
	maxFlowSeries   = 256 // per-flow series only for runs with at most this many flows
	defaultInterval = 10 * unit.Microsecond
)

// sampler records the bytes sent so far at a fixed interval, halving its
// resolution when a run outgrows maxSamples.
type sampler struct {
	interval unit.Time
	adaptive bool
	times    []unit.Time
	total    []float64   // cumulative payload sent, all flows
	perFlow  [][]float64 // [flow][sample] cumulative payload, for the scenario's own flows
}

func (s *sampler) init(m *Model) {
	s.interval = m.sc.Sim.SampleInterval
	if s.interval == 0 {
		s.adaptive = true
		s.interval = defaultInterval
		if m.sc.Until > 0 {
			s.interval = max(m.sc.Until/200, unit.Microsecond)
		}
	}
	if len(m.flows) <= maxFlowSeries {
		s.perFlow = make([][]float64, len(m.flows))
	}
	m.eng.At(0, event{kind: evSample})
}

func (s *sampler) sample(m *Model) {
	s.record(m)
	if len(s.times) >= maxSamples && s.adaptive {
		s.halve()
	}
	m.eng.At(m.eng.Now()+s.interval, event{kind: evSample})
}

func (s *sampler) record(m *Model) {
	now := m.eng.Now()
	m.advanceSent(now)
	s.times = append(s.times, now)
	s.total = append(s.total, m.sentAcc)
	for i := range s.perFlow {
		s.perFlow[i] = append(s.perFlow[i], m.flows[i].sent(now))
	}
}

func (s *sampler) halve() {
	s.interval *= 2
	s.times = metrics.KeepEven(s.times)
	s.total = metrics.KeepEven(s.total)
	for i := range s.perFlow {
		s.perFlow[i] = metrics.KeepEven(s.perFlow[i])
	}
}

// final takes a last sample at the end of the run.
func (s *sampler) final(m *Model) {
	if n := len(s.times); n == 0 || s.times[n-1] < m.eng.Now() {
		s.record(m)
	}
}

func (s *sampler) result() *metrics.Series {
	out := &metrics.Series{IntervalUs: metrics.Micros(s.interval)}
	for i, t := range s.times {
		out.TimeUs = append(out.TimeUs, metrics.Micros(t))
		out.Goodput = append(out.Goodput, deltaGbps(s.total, s.times, i))
	}
	for f := range s.perFlow {
		g := make([]float64, len(s.times))
		for i := range s.times {
			g[i] = deltaGbps(s.perFlow[f], s.times, i)
		}
		out.FlowGbps = append(out.FlowGbps, g)
	}
	return out
}

// deltaGbps is the rate over the interval ending at sample i of a cumulative byte count.
func deltaGbps(cum []float64, times []unit.Time, i int) float64 {
	if i == 0 || times[i] <= times[i-1] {
		return 0
	}
	return metrics.Round(float64(cum[i]-cum[i-1])*8/(times[i]-times[i-1]).Seconds()/1e9, 3)
}

// Result reports the run: the packet model's report, with no queues, drops or
// pauses, and with events counting flow starts and deliveries, callbacks and
// rate recomputations.
func (m *Model) Result() *metrics.Result {
	now := m.eng.Now()
	r := &metrics.Result{Scenario: m.sc.Name, Seed: m.sc.Seed, Fidelity: "flow"}
	t := &r.Totals
	t.SimTimeUs = metrics.Micros(now)
	t.Events = m.stats.events
	t.Flows, t.FlowsFinished = len(m.flows), m.finished

	first := unit.Never
	lastRx := m.lastRx
	var delivered int64
	var fctSum float64
	r.Flows = make([]metrics.Flow, 0, len(m.flows))
	for i := range m.flows {
		f := &m.flows[i]
		fr := metrics.Flow{Src: int(f.src), Dst: int(f.dst), Bytes: f.bytes, StartUs: metrics.Micros(f.start), Finished: f.state == done}
		if f.state != waiting {
			first = min(first, f.start)
		}
		switch f.state {
		case done:
			fr.Delivered = f.bytes
			fr.FinishUs, fr.FctUs = metrics.Micros(f.finish), metrics.Micros(f.finish-f.start)
			fr.Gbps = metrics.Gbps(f.bytes, f.finish-f.start)
			t.MaxFctUs = max(t.MaxFctUs, fr.FctUs)
			fctSum += fr.FctUs
		case active, drained:
			// Bytes count as delivered once sent: the last path latency is not tracked.
			fr.Delivered = int64(f.sent(now))
			if fr.Delivered > 0 {
				lastRx = now
			}
		}
		delivered += fr.Delivered
		r.Flows = append(r.Flows, fr)
	}
	if m.finished > 0 {
		t.MeanFctUs = metrics.Round(fctSum/float64(m.finished), 3)
	}
	if first != unit.Never {
		t.GoodputGbps = metrics.Gbps(delivered, lastRx-first)
	}

	for i := range m.links {
		ls := &m.links[i]
		carried := ls.carriedAt(now)
		if carried <= 0 {
			continue
		}
		l := &m.topo.Links[i]
		util := 0.0
		if now > 0 {
			// Wire bytes over wire capacity: the header overhead cancels out.
			util = metrics.Round(carried/(ls.capacity*now.Seconds()), 4)
		}
		r.Links = append(r.Links, metrics.Link{
			ID: i, Name: m.topo.LinkName(i), Kind: string(l.Kind), Gbps: metrics.Round(l.Rate.Gbps(), 3), Util: util,
		})
	}
	r.Series = m.series.result()
	return r
}
