package fluid

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// Topology is the fabric the model runs on.
func (m *Model) Topology() *topo.Topology { return m.topo }

// Snapshot pictures the model now: links carry payload bytes (there are no
// queues, drops or pauses at flow level, and no packets to draw).
func (m *Model) Snapshot() *snap.Snapshot {
	now := m.eng.Now()
	s := m.run.Snapshot(len(m.links), len(m.flows))
	for i := range m.links {
		l := &m.links[i]
		// Report wire bytes, as the packet model does: payload over the header efficiency.
		eff := l.capacity / (float64(m.topo.Links[i].Rate) / 8)
		if eff > 0 {
			s.Links[i].TxBytes = int64(l.carriedAt(now) / eff)
		}
	}
	for i := range m.flows {
		f := &m.flows[i]
		s.Flows[i] = f.label.Flow(f.src, f.dst, f.bytes, f.start)
		s.Flows[i].Delivered, s.Flows[i].Started, s.Flows[i].Done = int64(f.sent(now)), f.state != waiting, f.state == done
		if f.state == done {
			s.Flows[i].Finish = f.finish
		}
	}
	s.Routing = m.routingNow()
	return s
}
