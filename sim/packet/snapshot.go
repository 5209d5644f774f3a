package packet

import (
	"slices"

	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Topology is the fabric the model runs on.
func (m *Model) Topology() *topo.Topology { return m.topo }

// Snapshot pictures the model now. It copies what it reports; the model goes on unchanged.
func (m *Model) Snapshot() *snap.Snapshot {
	s := m.run.Snapshot(len(m.ports), len(m.flows))
	m.picture(s)
	return s
}

// Record is Snapshot in compact form against prev (network.Model). Nearly
// every port changes between two frames of a packet-level run, so every
// chunk is read; the links and flows are written into buffers the model
// keeps, and Compact copies the chunks that changed.
func (m *Model) Record(prev *snap.Snapshot) *snap.Snapshot {
	s := m.run.Compact(0, 0)
	s.Links, s.Flows = zeroed(m.recLinks, len(m.ports)), zeroed(m.recFlows, len(m.flows))
	m.picture(s)
	m.recLinks, m.recFlows = s.Links, s.Flows
	return s.Compact(prev)
}

// zeroed is buf with n zero elements, grown if it must be.
func zeroed[T any](buf []T, n int) []T {
	buf = slices.Grow(buf[:0], n)[:n]
	clear(buf)
	return buf
}

// picture fills in s, whose links and flows are in place and zero.
func (m *Model) picture(s *snap.Snapshot) {
	now := m.eng.Now()
	m.ctl.marking(&s.Marking)
	if n := m.onTheWire(now); n > 0 {
		s.Packets = make([]snap.Packet, 0, n) // sized once: growing it was most of perm-1024's snapshot
	}
	for i := range m.ports {
		p := &m.ports[i]
		l := &s.Links[i]
		l.TxBytes, l.QueueBytes, l.Drops, l.PauseFrames, l.Paused = p.txWire, p.qBytes, p.drops, p.pauseFrames, p.paused || p.nPaused > 0
		ecn, fecn := m.ctl.linkMarks(i)
		l.ECNMarks = ecn + fecn // the viewer shows FECN as ECN
		if p.fc == fcNone {
			l.BufferBytes = m.buffer
		}
		for k := range p.onTheWire(now) {
			r := p.recent[(p.nTx-1-k)%recentTx]
			s.Packets = append(s.Packets, snap.Packet{Link: i, Flow: int(r.flow), Count: 1, Marked: r.marked,
				Progress: float64(now-r.start) / float64(r.arrive-r.start)})
		}
	}
	for i := range m.flows {
		f := &m.flows[i]
		s.Flows[i] = f.label.Flow(f.src, f.dst, f.bytes, f.start)
		s.Flows[i].Delivered, s.Flows[i].Started, s.Flows[i].Done = f.received, f.onPort || f.nextSeq > 0 || f.done, f.done
		s.Flows[i].Class = f.class
		if f.done {
			s.Flows[i].Finish = f.finish
		}
		if kind, at, ok := m.ctl.notice(int32(i)); ok && now < at+f.ctrlDelay && f.ctrlDelay > 0 {
			s.Controls = append(s.Controls, snap.Control{Flow: i, Kind: kind, Progress: float64(now-at) / float64(f.ctrlDelay)})
		}
		if !f.done {
			s.Flows[i].RateGbps = m.ctl.rate(int32(i), f).Gbps()
		}
	}
	s.Routing = m.routingNow()
	s.Classes = m.classNames
}

// onTheWire counts the packets Snapshot shows: those sent and not yet arrived.
func (m *Model) onTheWire(now unit.Time) int {
	n := 0
	for i := range m.ports {
		n += int(m.ports[i].onTheWire(now))
	}
	return n
}

// onTheWire is how many of p's last transmissions are still on the wire:
// recent's latest k, newest first.
func (p *port) onTheWire(now unit.Time) int64 {
	k := int64(0)
	for k < min(p.nTx, recentTx) && p.recent[(p.nTx-1-k)%recentTx].arrive > now {
		k++
	}
	return k
}
