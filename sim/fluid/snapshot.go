package fluid

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Topology is the fabric the model runs on.
func (m *Model) Topology() *topo.Topology { return m.topo }

// Snapshot pictures the model now: links carry payload bytes (there are no
// queues, drops or pauses at flow level, and no packets to draw).
func (m *Model) Snapshot() *snap.Snapshot {
	now := m.eng.Now()
	s := m.run.Snapshot(len(m.links), len(m.flows))
	m.fillLinks(s.Links, 0, now)
	m.fillFlows(s.Flows, 0, now)
	s.Routing = m.routingNow()
	return s
}

// Record is Snapshot in compact form against prev (network.Model): a chunk
// of links none of which carried anything since the last Record, or of
// flows none of which sent or changed state, is prev's without being read.
func (m *Model) Record(prev *snap.Snapshot) *snap.Snapshot {
	now := m.eng.Now()
	r := &m.rec
	trust := prev != nil && prev == r.last
	var pl [][]snap.Link
	var pf [][]snap.Flow
	if prev != nil {
		pl, pf = prev.LinkChunks, prev.FlowChunks
	}
	s := m.run.Compact(len(m.links), len(m.flows))
	s.LinkChunks = snap.RecordChunks(len(m.links), pl, func(k int) bool {
		return trust && !r.touchedLinks[k] && r.hotLinks[k] == 0
	}, func(part []snap.Link, first int) { m.fillLinks(part, first, now) })
	s.FlowChunks = snap.RecordChunks(len(m.flows), pf, func(k int) bool {
		return trust && (k >= len(r.touchedFlows) || !r.touchedFlows[k] && r.liveFlows[k] == 0)
	}, func(part []snap.Flow, first int) { m.fillFlows(part, first, now) })
	s.Routing = m.routingNow()
	clear(r.touchedLinks)
	clear(r.touchedFlows)
	r.last = s
	return s
}

// fillLinks writes links first… of the picture at now into part. Links
// report wire bytes, as the packet model does: payload over the header
// efficiency.
func (m *Model) fillLinks(part []snap.Link, first int, now unit.Time) {
	for j := range part {
		i := first + j
		l := &m.links[i]
		part[j] = snap.Link{}
		if eff := l.capacity / (float64(m.topo.Links[i].Rate) / 8); eff > 0 {
			part[j].TxBytes = int64(l.carriedAt(now) / eff)
		}
	}
}

// fillFlows writes flows first… of the picture at now into part.
func (m *Model) fillFlows(part []snap.Flow, first int, now unit.Time) {
	for j := range part {
		f := &m.flows[first+j]
		part[j] = f.label.Flow(f.src, f.dst, f.bytes, f.start)
		part[j].Delivered, part[j].Started, part[j].Done = int64(f.sent(now)), f.state != waiting, f.state == done
		if f.state == done {
			part[j].Finish = f.finish
		}
	}
}

// recording is what Record knows of the model's chunks of links and flows
// (snap.ChunkLen each) since it last ran: which the model touched, and how
// many of each change at every instant (a link with a load, an active
// flow).
type recording struct {
	last                       *snap.Snapshot // what Record returned last
	hotLinks, liveFlows        []int32        // by chunk
	touchedLinks, touchedFlows []bool         // by chunk
}

func (r *recording) init(links int) {
	n := (links + snap.ChunkLen - 1) / snap.ChunkLen
	r.hotLinks, r.touchedLinks = make([]int32, n), make([]bool, n)
}

// link notes that link l's load was rewritten, and whether it was and is
// above zero.
func (r *recording) link(l int32, was, is bool) {
	k := int(l) / snap.ChunkLen
	switch {
	case was && !is:
		r.hotLinks[k]--
		r.touchedLinks[k] = true // it carried bytes since the last Record
	case is && !was:
		r.hotLinks[k]++
	}
}

// flow notes that flow i changed state, and became active (+1), stopped
// being active (-1) or neither (0).
func (r *recording) flow(i int32, active int32) {
	k := int(i) / snap.ChunkLen
	for k >= len(r.touchedFlows) {
		r.touchedFlows, r.liveFlows = append(r.touchedFlows, false), append(r.liveFlows, 0)
	}
	r.touchedFlows[k] = true
	r.liveFlows[k] += active
}
