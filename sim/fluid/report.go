package fluid

import (
	"fabriclab/sim/link"
	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/unit"
)

// sampler records the bytes sent so far on the models' common cadence.
type sampler struct {
	network.Cadence
	total   []float64   // cumulative payload sent, all flows
	perFlow [][]float64 // [flow][sample] cumulative payload, for the scenario's own flows
}

func (s *sampler) init(m *Model, interval unit.Time) {
	s.Cadence = network.NewCadence(interval)
	if len(m.flows) <= network.MaxFlowSeries {
		s.perFlow = make([][]float64, len(m.flows))
	}
	m.eng.At(0, event{kind: evSample})
}

func (s *sampler) sample(m *Model) {
	s.record(m)
	if s.Full() {
		s.halve()
	}
	m.eng.At(m.eng.Now()+s.Interval, event{kind: evSample})
}

func (s *sampler) record(m *Model) {
	now := m.eng.Now()
	m.advanceSent(now)
	s.Take(now)
	s.total = append(s.total, m.sentAcc)
	for i := range s.perFlow {
		s.perFlow[i] = append(s.perFlow[i], m.flows[i].sent(now))
	}
}

func (s *sampler) halve() {
	s.Halve()
	s.total = metrics.KeepEven(s.total)
	for i := range s.perFlow {
		s.perFlow[i] = metrics.KeepEven(s.perFlow[i])
	}
}

// final takes a last sample at the end of the run.
func (s *sampler) final(m *Model) {
	if s.FinalDue(m.eng.Now()) {
		s.record(m)
	}
}

func (s *sampler) result() *metrics.Series {
	out := s.Series(func(i int) float64 { return deltaGbps(s.total, s.Times, i) })
	for f := range s.perFlow {
		g := make([]float64, len(s.Times))
		for i := range s.Times {
			g[i] = deltaGbps(s.perFlow[f], s.Times, i)
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
	r := m.run.Result("flow")
	t := &r.Totals
	t.Events = m.stats.events
	t.Flows, t.FlowsFinished = len(m.flows), m.finished
	if fs := m.faultReport(); fs != nil {
		r.Faults = &metrics.Faults{Faults: fs}
	}

	first := unit.Never
	var delivered int64
	var fct network.FlowTimes
	r.Flows = make([]metrics.Flow, 0, len(m.flows))
	for i := range m.flows {
		f := &m.flows[i]
		fr := metrics.Flow{Src: int(f.src), Dst: int(f.dst), Bytes: f.bytes, StartUs: metrics.Micros(f.start)}
		if f.state != waiting {
			first = min(first, f.start)
		}
		switch f.state {
		case done:
			fr.Delivered = f.bytes
			fct.Finish(&fr, f.bytes, f.start, f.finish)
		case active, drained:
			// Bytes count as delivered once sent: the last path latency is not tracked.
			fr.Delivered = int64(f.sent(now))
		}
		delivered += fr.Delivered
		r.Flows = append(r.Flows, fr)
	}
	fct.Totals(t)
	if first != unit.Never {
		t.GoodputGbps = metrics.Gbps(delivered, now-first) // over the run's length, as the packet model
	}

	used := 0
	for i := range m.links {
		if m.links[i].carriedAt(now) > 0 {
			used++
		}
	}
	if used > 0 { // none stays nil
		r.Links = make([]metrics.Link, 0, used)
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
			util = metrics.Round(carried/(float64(l.Rate)/8*link.Efficiency(l.Kind, m.mtu)*now.Seconds()), 4) // the link's own rate, not a fault's
		}
		r.Links = append(r.Links, metrics.Link{
			ID: i, Kind: string(l.Kind), Gbps: metrics.Round(l.Rate.Gbps(), 3), Util: util,
		})
	}
	network.NameLinks(m.topo, r.Links)
	r.Series = m.series.result()
	return r
}
