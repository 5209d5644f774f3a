package fluid

import (
	"fabriclab/sim/link"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// A torus is not tiered: its flows follow dimension-order routing
// (topo.Torus.Next), one path per pair, and the router needs none of the
// up-down search.

func newTorusRouter(t *topo.Topology, switchLatency unit.Time) *router {
	r := &router{t: t, to: make([]int32, len(t.Links)), linkDelay: make([]unit.Time, len(t.Links)), linkHdr: make([]unit.Bytes, len(t.Links))}
	for i, l := range t.Links {
		r.to[i] = int32(l.To)
		r.linkDelay[i] = l.Latency
		if t.Nodes[l.To].Role.Forwards() {
			r.linkDelay[i] += switchLatency
		}
		r.linkHdr[i] = link.Header(l.Kind)
	}
	return r
}

// torusPath is path on a torus: the links from node src to node dst (both
// chips) and the one-way latency, as path counts it.
func (r *router) torusPath(src, dst int32, payload unit.Bytes, links []int32) ([]int32, unit.Time) {
	tr := r.t.Torus
	e := tr.Index(int(dst))
	var delay unit.Time
	for n := src; n != dst; {
		l := int32(tr.Next(r.t, int(n), e))
		if n != src {
			delay += r.storeForward(l, payload)
		}
		delay += r.linkDelay[l]
		links = append(links, l)
		n = r.to[l]
	}
	return links, delay
}
