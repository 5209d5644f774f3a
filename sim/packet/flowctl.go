package packet

import (
	"fabriclab/sim/unit"
)

// Flow control: credits (InfiniBand, NVLink, PCIe) and PFC (pause frames
// with XOFF and XON thresholds and headroom), per port or per traffic class.
// Lossy ports tail-drop instead (classes.go: tailDrop).

type fcMode uint8

const (
	fcNone fcMode = iota
	fcCredit
	fcPFC
)

// buffers is how the model sizes and protects buffers.
type buffers struct {
	buffer    int64       // per port (and class)
	xoff, xon int64       // PFC thresholds on an ingress counter
	quantum   []unit.Time // per port: one pause quantum
	pools     []pool      // per node: the shared buffer (buffer_model: shared), else nil
	alpha     float64     // the dynamic threshold's α
}

// pauseState is what a PFC pause frame sets: on a port, or on one class of it.
type pauseState struct {
	paused      bool // first: try reads it for every packet
	pausedUntil unit.Time
	pauseGen    int64
	pausedSince unit.Time
	pauseTime   unit.Time
	pauseFrames int64
}

// pfcIngress is the far end's ingress accounting of a link (PFC), for the
// whole link or one class.
type pfcIngress struct {
	inBytes    int64
	xoffSent   bool
	refreshGen int64
}

// admit does the ingress accounting of x arriving at switch n: the shared
// pool, and under PFC the ingress counter, which pauses the link (or class)
// above XOFF. It reports false if x was dropped (PFC headroom exhausted).
func (m *Model) admit(n int32, x *pkt) bool {
	in := &m.ports[x.inLink]
	if m.pools != nil {
		m.pools[n].used += int64(x.size)
	}
	if in.fc == fcPFC && m.isLossless(x.class) {
		ig := in.ingressOf(x.class)
		ig.inBytes += int64(x.size)
		if m.overflows(n, ig) {
			// Headroom exhausted: the derived thresholds never get here, but
			// a forced setting can; drop gives x's place back (release).
			m.drop(in, x)
			return false
		}
		if !ig.xoffSent && ig.inBytes > m.xoffAt(n) {
			ig.xoffSent = true
			m.sendPause(in, x.class, 0xffff)
		}
	}
	return true
}

// release frees x's place in the buffer of the node it is leaving.
func (m *Model) release(x *pkt) {
	if x.inLink < 0 {
		return
	}
	in := &m.ports[x.inLink]
	if m.pools != nil {
		m.pools[in.to].used -= int64(x.size)
	}
	switch in.fc {
	case fcCredit:
		if !in.toEnd {
			e := m.eng.AtRef(m.eng.Now() + in.latency) // m.at, inlined by hand
			e.kind, e.c, e.a, e.gen = evCredit, x.class, in.id, int64(x.size)
		}
	case fcPFC:
		if !m.isLossless(x.class) {
			return
		}
		ig := in.ingressOf(x.class)
		ig.inBytes -= int64(x.size)
		if ig.xoffSent && ig.inBytes <= m.xonAt(in) {
			ig.xoffSent = false
			m.sendPause(in, x.class, 0)
		}
	}
}

// credited is port p getting n bytes of class c's credit back.
func (m *Model) credited(p *port, c uint8, n int64) {
	if p.cls != nil {
		p.cls[c].credit += n
	} else {
		p.credit += n
	}
	m.try(p)
}

// sendPause sends a PFC frame for class c from the far end of ingress link
// in back to its sender.
func (m *Model) sendPause(in *port, c uint8, quanta int64) {
	m.at(m.eng.Now()+in.latency+m.quantum[in.id], evPause, c, in.id, quanta)
	if quanta > 0 {
		ig := in.ingressOf(c)
		ig.refreshGen++
		// Refresh before the pause runs out, as switches do while congested.
		m.at(m.eng.Now()+unit.Time(quanta)*m.quantum[in.id]/2, evPFCRefresh, c, in.id, ig.refreshGen)
	}
}

// refreshPause re-sends XOFF for class c of ingress link p unless XON (or a
// newer refresh, generation gen) came since.
func (m *Model) refreshPause(p *port, c uint8, gen int64) {
	if in := p.ingressOf(c); in.xoffSent && gen == in.refreshGen {
		m.sendPause(p, c, 0xffff)
	}
}

// pause is a pause frame for class c reaching port p.
func (m *Model) pause(p *port, c uint8, quanta int64) {
	ps := p.pauseOf(c)
	ps.pauseFrames++
	m.stats.pauseFrames++ // counted where it arrives, as the link's figure is
	if p.cls != nil {
		p.pauseFrames++
	}
	now := m.eng.Now()
	if quanta == 0 {
		if ps.paused {
			m.unpause(p, c)
		}
		return
	}
	if !ps.paused {
		ps.paused, ps.pausedSince = true, now
		if p.cls != nil {
			if p.nPaused == 0 {
				p.pausedSince = now
			}
			p.nPaused++
		}
	}
	ps.pausedUntil = now + unit.Time(quanta)*m.quantum[p.id]
	ps.pauseGen++
	m.at(ps.pausedUntil, evPauseExpire, c, p.id, ps.pauseGen)
}

// pauseExpired ends class c's pause on p unless a newer frame (generation gen) renewed it.
func (m *Model) pauseExpired(p *port, c uint8, gen int64) {
	if ps := p.pauseOf(c); ps.paused && gen == ps.pauseGen {
		m.unpause(p, c)
	}
}

func (m *Model) unpause(p *port, c uint8) {
	ps := p.pauseOf(c)
	ps.paused = false
	ps.pauseGen++
	now := m.eng.Now()
	ps.pauseTime += now - ps.pausedSince
	if p.cls != nil {
		p.nPaused--
		if p.nPaused == 0 {
			p.pauseTime += now - p.pausedSince // time with any class paused
		}
	}
	m.try(p)
}
