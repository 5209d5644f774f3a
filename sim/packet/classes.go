package packet

// Traffic classes and shared buffers.
//
// With several network.classes every egress port keeps one queue (and, at an
// endpoint's NIC, one round robin of flows) per class and serves the classes
// by deficit round robin over bytes: a class that has something to send and
// is neither paused nor out of credit adds its quantum (weight / smallest
// weight × one full packet) on each visit and sends while its deficit covers
// the next packet. PFC accounts and pauses per class (per-priority pause);
// credits are per class (virtual lanes), each class with the full buffer.
//
// With buffer_model: shared each switch has a pool; a queue (lossy) or an
// ingress counter (PFC) may hold at most α × the free pool (Choudhury–Hahne
// dynamic thresholds). Under PFC each ingress port keeps its headroom
// reserved out of the pool. Simplification: one pool per switch for all
// classes, with no per-port or per-class minimum guarantees.

import (
	"math"
)

// classSet is the run's traffic classes.
type classSet struct {
	classes    []classInfo // network.classes; one entry when there is a single class
	collClass  uint8       // class of transfers a workload sends (collective.class)
	lossless   uint64      // bit c: class c is lossless (classes[c].lossless, one load for the packet path)
	classNames []string    // the classes' names for snapshots; nil with one class
}

// isLossless reports whether class c is lossless.
func (s *classSet) isLossless(c uint8) bool { return s.lossless>>(c&63)&1 != 0 }

// classInfo is one traffic class as the model uses it.
type classInfo struct {
	name     string
	quantum  int64 // DRR bytes per visit
	lossless bool
}

// classQueue is one class's share of a port.
type classQueue struct {
	q       fifo
	qBytes  int64
	flows   []int32 // endpoint ports: this class's flows, served round robin
	rr      int
	credit  int64
	deficit int64

	pauseState
	pfcIngress

	txWire int64
	maxQ   int64
	drops  int64
}

// pool is one switch's shared buffer.
type pool struct {
	size     int64 // network.switch_buffer, or ports × buffer
	reserved int64 // PFC headroom held back for each ingress port
	used     int64 // bytes of packets in the switch
}

func (m *Model) initClasses() {
	n := &m.net
	m.collClass = uint8(n.WorkloadClass)
	if len(n.Classes) == 1 {
		m.classes = []classInfo{{name: n.Classes[0].Name, lossless: n.Classes[0].Lossless}}
	} else {
		least := math.Inf(1)
		for _, c := range n.Classes {
			least = min(least, c.Weight)
		}
		full := float64(m.mtu + m.fabricHdr)
		for _, c := range n.Classes {
			m.classes = append(m.classes, classInfo{name: c.Name, quantum: int64(math.Ceil(c.Weight / least * full)), lossless: c.Lossless})
		}
	}
	for c, ci := range m.classes {
		if ci.lossless {
			m.lossless |= 1 << c
		}
	}
	if len(m.classes) == 1 {
		return
	}
	for _, c := range m.classes {
		m.classNames = append(m.classNames, c.name)
	}
	for i := range m.ports {
		p := &m.ports[i]
		p.cls = make([]classQueue, len(m.classes))
		for c := range p.cls {
			p.cls[c].credit = m.buffer
		}
		p.fresh = true
	}
}

// setClass puts f in the class named name.
func (m *Model) setClass(f *flow, name string) {
	c := m.net.ClassIndex(name)
	if c < 0 {
		panic("packet: unknown traffic class " + name)
	}
	f.class = uint8(c)
	f.lossless = m.classes[c].lossless
}

func (m *Model) initPools() {
	sh := m.net.Shared
	if sh == nil {
		return
	}
	m.alpha = sh.Alpha
	m.pools = make([]pool, len(m.topo.Nodes))
	for i, nd := range m.topo.Nodes {
		size := int64(sh.Size)
		if size == 0 {
			size = int64(len(nd.Out)) * m.buffer
		}
		m.pools[i].size = size
	}
	head := m.net.Headroom
	for i := range m.ports {
		if p := &m.ports[i]; p.fc == fcPFC {
			m.pools[p.to].reserved += int64(head)
		}
	}
}

// deepestLossyQueue is the most a lossy queue can hold: the buffer, or with
// a shared pool α/(1+α) of the largest pool (a queue q may hold α × (size − q)).
func (m *Model) deepestLossyQueue() int64 {
	if m.pools == nil {
		return m.buffer
	}
	var most int64
	for i := range m.pools {
		most = max(most, int64(float64(m.alpha/(1+m.alpha))*float64(m.pools[i].size)))
	}
	return most
}

// threshold is the dynamic threshold at node n: α × the free shared pool,
// not counting extra bytes already added to it.
func (m *Model) threshold(n int32, extra int64) int64 {
	pl := &m.pools[n]
	free := pl.size - pl.reserved - (pl.used - extra)
	return int64(m.alpha * float64(max(free, 0)))
}

// xoffAt is the ingress level above which node n pauses a link (or class).
func (m *Model) xoffAt(n int32) int64 {
	if m.pools == nil {
		return m.xoff
	}
	return m.threshold(n, 0)
}

// xonAt is the ingress level at or below which the far end of in resumes it.
func (m *Model) xonAt(in *port) int64 {
	if m.pools == nil {
		return m.xon
	}
	return max(m.threshold(in.to, 0)-2*int64(m.mtu+m.fabricHdr), 0)
}

// overflows reports whether an ingress counter has run past its headroom.
func (m *Model) overflows(n int32, ig *pfcIngress) bool {
	if m.pools == nil {
		return ig.inBytes > m.buffer
	}
	return m.pools[n].used > m.pools[n].size
}

// tailDrop reports whether lossy x, just arrived at node n, finds no room in out's queue.
func (m *Model) tailDrop(n int32, out *port, x *pkt) bool {
	q := out.qBytes
	if out.cls != nil {
		q = out.cls[x.class].qBytes
	}
	size := int64(x.size)
	if m.pools == nil {
		return q+size > m.buffer
	}
	return q+size > m.threshold(n, size) || m.pools[n].used > m.pools[n].size
}

// pauseOf is the pause state of class c of p (the port's own with one class).
func (p *port) pauseOf(c uint8) *pauseState {
	if p.cls == nil {
		return &p.pauseState
	}
	return &p.cls[c].pauseState
}

// ingressOf is the far end's accounting of class c arriving over p.
func (p *port) ingressOf(c uint8) *pfcIngress {
	if p.cls == nil {
		return &p.pfcIngress
	}
	return &p.cls[c].pfcIngress
}

// pending reports whether p has anything waiting to be sent.
func (p *port) pending() bool {
	if p.cls == nil {
		return p.queued() > 0 || len(p.flows) > 0
	}
	for c := range p.cls {
		if q := &p.cls[c]; q.q.len() > 0 || len(q.flows) > 0 {
			return true
		}
	}
	return false
}

func (p *port) pushClass(c *chunks, x *pkt) {
	q := &p.cls[x.class]
	q.q.add(c, x)
	q.qBytes += int64(x.size)
	q.maxQ = max(q.maxQ, q.qBytes)
	p.qBytes += int64(x.size)
	p.maxQ = max(p.maxQ, p.qBytes)
}

// popClass takes q's front packet into x.
func (p *port) popClass(c *chunks, q *classQueue, x *pkt) {
	x.set(q.q.front())
	q.q.drop(c)
	q.qBytes -= int64(x.size)
	p.qBytes -= int64(x.size)
}

// nextByClass takes the next packet in deficit round robin order, or nil.
func (m *Model) nextByClass(p *port) *pkt {
	full := int64(m.mtu + m.fabricHdr)
	n := len(p.cls)
	for range 2*n + 1 {
		c := uint8(p.drr)
		q := &p.cls[c]
		queued := q.q.len() > 0
		if !queued && len(q.flows) == 0 {
			q.deficit = 0
		} else if !q.paused {
			size := full
			if queued {
				size = int64(q.q.front().size)
			}
			credit := p.fc != fcCredit || p.toEnd || q.credit >= size
			if credit {
				if p.fresh {
					q.deficit += m.classes[c].quantum
					p.fresh = false
				}
				if q.deficit >= size {
					var x *pkt
					if queued {
						if p.watched {
							m.ctl.forward(p, q.q.front())
						}
						p.popClass(&m.chunks, q, &m.sending)
						x = &m.sending
						m.release(x)
					} else {
						// The flows' round robin works on the port's own list.
						p.flows, p.rr = q.flows, q.rr
						x = m.nextFromFlows(p)
						q.flows, q.rr = p.flows, p.rr
						p.flows, p.rr = nil, 0
					}
					if x != nil {
						q.deficit -= int64(x.size)
						if p.fc == fcCredit && !p.toEnd {
							q.credit -= int64(x.size)
						}
						q.txWire += int64(x.payload + p.hdr)
						if q.q.len() == 0 && len(q.flows) == 0 {
							q.deficit = 0
						}
						return x
					}
				}
			}
		}
		p.drr = (p.drr + 1) % n
		p.fresh = true
	}
	return nil
}
