package framewire

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// putRouting writes s's routing picture and what its routes learned since
// the frame before; their names and kind with the first.
func (e *Encoder) putRouting(w *writer, s *snap.Snapshot) {
	g := s.Routing
	w.int32s(g.LinkFlows)
	w.list(len(g.Reordered), g.Reordered == nil)
	for _, c := range g.Reordered {
		w.int(int64(c.Flow))
		w.int(c.N)
	}
	w.int(g.ReorderedTotal)
	w.bool(g.Routes != nil)
	if g.Routes == nil {
		return
	}
	w.bool(!e.routed)
	if !e.routed {
		w.bool(g.Routes.PerPacket)
		w.int(g.Routes.MTU)
		w.list(len(g.Routes.Names), g.Routes.Names == nil)
		for _, n := range g.Routes.Names {
			w.str(n)
		}
		e.routed = true
	}
	n := e.routes.Read(g.Routes, s.NumFlows())
	w.bool(n.Tracked)
	w.bool(n.Truncated)
	w.uint(uint64(len(n.Paths)))
	for _, p := range n.Paths {
		w.int(int64(p.Flow))
		w.int32s(p.Links)
	}
	w.uint(uint64(len(n.Uses)))
	for _, u := range n.Uses {
		w.int(int64(u.Flow))
		w.int(int64(u.Link))
		w.int(int64(u.At))
	}
	w.uint(uint64(len(n.Final)))
	for _, c := range n.Final {
		w.int(int64(c.Flow))
		w.int(c.N)
	}
	w.uint(uint64(len(n.Moves)))
	for _, m := range n.Moves {
		w.int(int64(m.Flow))
		w.int(int64(m.At))
		w.int32s(m.Links)
	}
}

// getRouting reads what putRouting wrote into s, with d's routes (made by
// the first frame that has them) updated by the news.
func (d *Decoder) getRouting(r *reader, s *snap.Snapshot) {
	r.section = "routing"
	g := &snap.Routing{LinkFlows: r.int32s()}
	if len(g.LinkFlows) != s.NumLinks() && r.err == nil {
		r.fail("flows counted for a different number of links")
	}
	if n, null := r.list(2); !null && r.err == nil {
		g.Reordered = make([]snap.FlowCount, n)
		for i := range g.Reordered {
			g.Reordered[i].Flow = int32(r.index(0, s.NumFlows()-1, "flow"))
			g.Reordered[i].N = r.int()
		}
	}
	g.ReorderedTotal = r.int()
	s.Routing = g
	if !r.bool() {
		return
	}
	if r.bool() { // the routes' static part
		perPacket, mtu := r.bool(), r.int()
		var names []string
		if n, null := r.list(1); !null && r.err == nil {
			names = make([]string, n)
			for i := range names {
				names[i] = r.str()
			}
		}
		if d.routes == nil {
			d.routes = snap.RoutesFromData(perPacket, mtu, names)
		}
	}
	if d.routes == nil {
		r.fail("routes before their names and kind: the run's first frame is missing")
		return
	}
	n := readNews(r, s.NumFlows(), s.NumLinks())
	d.news = &n
	g.Routes = d.routes
}

// readNews reads the routes' news of a frame of flows flows and links links.
func readNews(r *reader, flows, links int) snap.RouteNews {
	n := snap.RouteNews{Tracked: r.bool(), Truncated: r.bool()}
	flow := func() int32 { return int32(r.index(0, flows-1, "flow")) }
	link := func() int32 { return int32(r.index(0, links-1, "link")) }
	for range r.count(2) {
		p := snap.FlowPath{Flow: flow()}
		p.Links = r.int32s()
		n.Paths = append(n.Paths, p)
	}
	for range r.count(3) {
		u := snap.FlowUse{Flow: flow()}
		u.Link = link()
		u.At = unit.Time(r.int())
		n.Uses = append(n.Uses, u)
	}
	for range r.count(2) {
		c := snap.FlowCount{Flow: flow()}
		c.N = r.int()
		n.Final = append(n.Final, c)
	}
	for range r.count(3) { // since version 3: reroutes
		m := snap.FlowMove{Flow: flow()}
		m.At = unit.Time(r.int())
		m.Links = r.int32s()
		for _, l := range m.Links {
			if l < 0 || int(l) >= links {
				r.fail("a rerouted path over a link that is not there")
			}
		}
		n.Moves = append(n.Moves, m)
	}
	return n
}
