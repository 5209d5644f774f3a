package packet

import (
	"sort"

	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/unit"
)

// maxQueueSeries is how many of the busiest switch ports get a queue series.
const maxQueueSeries = 16

// sampler records time series on the models' common cadence.
type sampler struct {
	network.Cadence
	rxTotal  []int64         // cumulative payload delivered, all flows
	counters []counterSample // the run's counts at each sample
	rxFlow   [][]int64       // [flow][sample] cumulative payload
	rcFlow   [][]unit.Rate   // [flow][sample] congestion-controlled sending rate (paced runs only)
	queues   [][]int64       // [switch port][sample], nil while the port's queue has been empty at every sample
	ports    []int32         // switch egress ports sampled
	flowRx   []int64         // running per-flow totals
	total    int64
	room     int // the samples a run should take, for the series' capacity
}

func (s *sampler) init(m *Model, interval, until unit.Time) {
	s.Cadence = network.NewCadence(interval)
	// The series are made as large as the run needs at the start (a run
	// with no time limit starts with 64 samples' room): appends that grow
	// them leave garbage, and fresh pages are page faults.
	s.room = 64
	if until > 0 {
		s.room = int(min(until/s.Interval+2, network.MaxSamples+1))
	}
	s.Times = make([]unit.Time, 0, s.room)
	s.rxTotal = make([]int64, 0, s.room)
	s.counters = make([]counterSample, 0, s.room)
	s.flowRx = make([]int64, len(m.flows))
	if len(m.flows) <= network.MaxFlowSeries {
		s.rxFlow = series[int64](len(m.flows), s.room)
		if m.paced {
			s.rcFlow = series[unit.Rate](len(m.flows), s.room)
		}
	}
	for i := range m.ports {
		if m.isSwitch[m.topo.Links[i].From] {
			s.ports = append(s.ports, int32(i))
		}
	}
	s.queues = make([][]int64, len(s.ports))
	m.at(0, evSample, 0, 0, 0)
}

func (s *sampler) rx(flow int, bytes int64) {
	for flow >= len(s.flowRx) {
		s.flowRx = append(s.flowRx, 0) // a flow a workload added
	}
	s.flowRx[flow] += bytes
	s.total += bytes
}

func (s *sampler) sample(m *Model) {
	s.record(m)
	if s.Full() {
		s.halve()
	}
	m.at(m.eng.Now()+s.Interval, evSample, 0, 0, 0)
}

func (s *sampler) record(m *Model) {
	s.Take(m.eng.Now())
	s.rxTotal = append(s.rxTotal, s.total)
	s.counters = append(s.counters, counterSample{m.stats.drops, m.stats.pauseFrames, m.ctl.counts()})
	for i := range s.rxFlow {
		s.rxFlow[i] = append(s.rxFlow[i], s.flowRx[i])
	}
	for i := range s.rcFlow {
		s.rcFlow[i] = append(s.rcFlow[i], m.sendingRate(int32(i)))
	}
	for i, p := range s.ports {
		q := m.ports[p].qBytes
		if s.queues[i] == nil {
			if q == 0 {
				continue // most ports never queue: their series are made at the end
			}
			s.queues[i] = make([]int64, len(s.Times)-1, max(s.room, len(s.Times)))
		}
		s.queues[i] = append(s.queues[i], q)
	}
}

// counterSample is the run's counts at one sample.
type counterSample struct {
	drops, pauseFrames int64
	cc                 ccCounts
}

// series is n empty series with room samples each, cut from one block.
func series[T any](n, room int) [][]T {
	block := make([]T, n*room)
	out := make([][]T, n)
	for i := range out {
		out[i] = block[i*room : i*room : (i+1)*room]
	}
	return out
}

// sendingRate is flow i's congestion-controlled rate while it is under way, else 0.
func (m *Model) sendingRate(i int32) unit.Rate {
	f := &m.flows[i]
	if f.done || !f.onPort && f.nextSeq == 0 {
		return 0
	}
	return m.ctl.rate(i, f)
}

func (s *sampler) halve() {
	s.Halve()
	s.rxTotal = metrics.KeepEven(s.rxTotal)
	s.counters = metrics.KeepEven(s.counters)
	for i := range s.rxFlow {
		s.rxFlow[i] = metrics.KeepEven(s.rxFlow[i])
	}
	for i := range s.rcFlow {
		s.rcFlow[i] = metrics.KeepEven(s.rcFlow[i])
	}
	for i := range s.queues {
		s.queues[i] = metrics.KeepEven(s.queues[i])
	}
}

// final takes a last sample at the end of the run.
func (s *sampler) final(m *Model) {
	if s.FinalDue(m.eng.Now()) {
		s.record(m)
	}
}

// Result reports the run.
func (m *Model) Result() *metrics.Result {
	now := m.eng.Now()
	r := m.run.Result("packet")
	t := &r.Totals
	t.Events = m.eng.Events()
	t.Drops, t.Retransmits, t.Timeouts = m.stats.drops, m.stats.retrans, m.stats.timeouts
	t.PauseFrames, t.OutOfOrder = m.stats.pauseFrames, m.stats.ooo
	cc := m.ctl.counts()
	t.ECNMarks, t.CNPs, t.FECNMarks, t.BECNs = cc.ecnMarks, cc.cnps, cc.fecnMarks, cc.becns
	t.Flows, t.FlowsFinished = len(m.flows), m.finished
	if fs := m.faultReport(); fs != nil {
		r.Faults = &metrics.Faults{Faults: fs}
	}

	first := unit.Never
	var delivered int64
	var fct network.FlowTimes
	if r.Flows == nil && len(m.flows) > 0 {
		r.Flows = make([]metrics.Flow, 0, len(m.flows))
	}
	for i := range m.flows {
		f := &m.flows[i]
		first = min(first, f.start)
		delivered += f.received
		fr := metrics.Flow{
			Src: int(f.src), Dst: int(f.dst), Bytes: f.bytes, StartUs: metrics.Micros(f.start),
			Delivered: f.received, Retransmits: f.retrans, OutOfOrder: f.outOfOrder,
		}
		m.ctl.reportFlow(int32(i), f, &fr)
		if f.done {
			fct.Finish(&fr, f.bytes, f.start, f.finish)
		}
		r.Flows = append(r.Flows, fr)
	}
	fct.Totals(t)
	if len(m.flows) > 0 {
		// Over the run's length from the first start: a run that stalls or is
		// cut short by until counts the time it delivered nothing.
		t.GoodputGbps = metrics.Gbps(delivered, now-first)
	}

	for i := range m.ports {
		p := &m.ports[i]
		if p.txWire == 0 && p.drops == 0 && p.pauseFrames == 0 && p.ecnMarks == 0 {
			continue
		}
		l := &m.topo.Links[i]
		paused := p.pauseTime
		if p.paused || p.nPaused > 0 {
			paused += now - p.pausedSince
		}
		util := 0.0
		if now > 0 {
			// The time the wire was busy up to now: a packet still being
			// serialised counts only the part already sent.
			busy := float64(p.txWire)*8/float64(l.Rate) - max(p.busyUntil-now, 0).Seconds()
			util = metrics.Round(max(busy, 0)/now.Seconds(), 4)
		}
		ecn, fecn := m.ctl.linkMarks(i)
		r.Links = append(r.Links, metrics.Link{
			ID: i, Kind: string(l.Kind), Gbps: metrics.Round(l.Rate.Gbps(), 3),
			Util: util, MaxQueueBytes: p.maxQ, Drops: p.drops, PauseUs: metrics.Micros(paused), PauseFrames: p.pauseFrames,
			ECNMarks: ecn, FECNMarks: fecn, Classes: m.linkClasses(p),
		})
	}
	network.NameLinks(m.topo, r.Links)
	r.Series = m.series.result(m)
	return r
}

func (s *sampler) result(m *Model) *metrics.Series {
	out := s.Series(func(i int) float64 { return deltaGbps(s.rxTotal, s.Times, i) })
	if n := len(s.counters); n > 0 && s.counters[n-1] != (counterSample{}) {
		c := &metrics.CounterSeries{}
		for _, v := range s.counters {
			c.Drops = append(c.Drops, v.drops)
			c.PauseFrames = append(c.PauseFrames, v.pauseFrames)
			c.ECNMarks = append(c.ECNMarks, v.cc.ecnMarks)
		}
		m.ctl.counterSeries(c, s.counters)
		out.Counters = c
	}
	for f := range s.rxFlow {
		g := make([]float64, len(s.Times))
		for i := range s.Times {
			g[i] = deltaGbps(s.rxFlow[f], s.Times, i)
		}
		out.FlowGbps = append(out.FlowGbps, g)
	}
	for f := range s.rcFlow {
		g := make([]float64, len(s.Times))
		for i, rc := range s.rcFlow[f] {
			g[i] = metrics.Round(rc.Gbps(), 3)
		}
		out.FlowRateGbps = append(out.FlowRateGbps, g)
	}
	// The busiest switch ports by peak queue.
	idx := make([]int, 0, len(s.ports))
	for i, p := range s.ports {
		if m.ports[p].maxQ > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return m.ports[s.ports[idx[a]]].maxQ > m.ports[s.ports[idx[b]]].maxQ })
	if len(idx) > maxQueueSeries {
		idx = idx[:maxQueueSeries]
	}
	sort.Ints(idx)
	for _, i := range idx {
		p := int(s.ports[i])
		q := s.queues[i]
		if q == nil && len(s.Times) > 0 {
			q = make([]int64, len(s.Times)) // empty at every sample
		}
		out.Queues = append(out.Queues, metrics.QueueSeries{Link: p, Name: m.topo.LinkName(p), Bytes: q})
	}
	return out
}

// deltaGbps is the rate over the interval ending at sample i of a cumulative byte count.
func deltaGbps(cum []int64, times []unit.Time, i int) float64 {
	if i == 0 {
		return 0
	}
	return metrics.Gbps(cum[i]-cum[i-1], times[i]-times[i-1])
}

// linkClasses reports p's figures per traffic class, or nil with one class.
func (m *Model) linkClasses(p *port) []metrics.LinkClass {
	if p.cls == nil {
		return nil
	}
	now := m.eng.Now()
	out := make([]metrics.LinkClass, len(p.cls))
	for c := range p.cls {
		q := &p.cls[c]
		paused := q.pauseTime
		if q.paused {
			paused += now - q.pausedSince
		}
		out[c] = metrics.LinkClass{Name: m.classes[c].name, TxBytes: q.txWire, MaxQueueBytes: q.maxQ, Drops: q.drops,
			PauseUs: metrics.Micros(paused), PauseFrames: q.pauseFrames}
	}
	return out
}
