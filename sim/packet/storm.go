package packet

// Pause storms (network.pfc.storms): an endpoint's NIC keeps the link from its
// switch paused, as a stuck receiver does. The switch port stops, its queue
// fills, the switch pauses its own senders, and the storm spreads.

// addStorms schedules the scenario's storms on the switch ports that feed
// the storming endpoints.
func (m *Model) addStorms() {
	for _, st := range m.net.Storms {
		nd := &m.topo.Nodes[m.topo.Endpoints[st.Endpoint]]
		if len(nd.Out) == 0 {
			continue
		}
		down := int32(m.topo.Links[nd.Out[len(nd.Out)-1]].Reverse) // switch → endpoint
		m.at(st.Start, evStorm, 0, down, 1)
		m.at(st.End, evStorm, 0, down, 0)
	}
}

// storm starts or stops pausing port p in every lossless class: XOFF,
// refreshed before it runs out like a congested port's, then XON.
func (m *Model) storm(p *port, on bool) {
	if p.fc != fcPFC {
		return
	}
	for c := range m.classes {
		if !m.classes[c].lossless {
			continue
		}
		in := p.ingressOf(uint8(c))
		if in.xoffSent == on {
			continue
		}
		in.xoffSent = on
		if on {
			m.sendPause(p, uint8(c), 0xffff)
		} else {
			m.sendPause(p, uint8(c), 0)
		}
	}
}
