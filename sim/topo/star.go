package topo

import (
	"fabriclab/sim/msg"
)

// A star is hosts on one switch.
var starKind = kind{
	name:      Star,
	sizeField: "hosts",
	check:     checkStar,
	endpoints: func(s *Shape) int { return s.Hosts },
	describe:  func(s *Shape) msg.Text { return msg.F("a star of %d hosts", s.Hosts) },
	build:     (*builder).star,
}

func checkStar(s *Shape) []*Problem {
	switch {
	case s.Hosts < 2:
		return []*Problem{{Field: "hosts", Value: s.Hosts, Msg: msg.F("is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)")}}
	case s.Hosts > MaxEndpoints:
		return []*Problem{{Field: "hosts", Value: s.Hosts, Msg: msg.F("is too many: at most %d endpoints (e.g. hosts: 1024)", MaxEndpoints)}}
	}
	return nil
}

func (b *builder) star(s *Shape) {
	sw := b.node(Leaf, 2, -1, 0, "switch")
	for h := range s.Hosts {
		id := b.node(Host, 0, 0, h, name("host", h))
		b.t.Endpoints = append(b.t.Endpoints, id)
		b.net(id, sw)
	}
}
