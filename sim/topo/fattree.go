package topo

import (
	"fabriclab/sim/msg"
)

// A fattree is the 3-tier k-ary fat tree of Al-Fares et al.: k pods of k/2
// edge and k/2 aggregation switches, (k/2)² cores, k³/4 hosts.
var fatTreeKind = kind{
	name:      FatTree,
	sizeField: "k",
	check:     checkFatTree,
	endpoints: func(s *Shape) int { return s.K * s.K * s.K / 4 },
	describe:  func(s *Shape) msg.Text { return msg.F("a k=%d fat tree", s.K) },
	build:     (*builder).fatTree,
}

func checkFatTree(s *Shape) []*Problem {
	var ps []*Problem
	if s.K < 4 || s.K > 64 || s.K%2 != 0 {
		ps = append(ps, &Problem{Field: "k", Value: s.K, Msg: msg.F("is not allowed: k must be even, from 4 to 64 (k³/4 hosts; e.g. k: 8 for 128 hosts)")})
	}
	if s.Oversub != 1 {
		ps = append(ps, &Problem{Field: "oversubscription", Value: s.Oversub, Msg: msg.F("is not allowed: a fat tree has full bisection bandwidth; use oversubscription: 1, or a leafspine")})
	}
	return ps
}

func (b *builder) fatTree(s *Shape) {
	k := s.K
	h := k / 2
	aggs := make([][]int, k)
	for p := range k {
		aggs[p] = make([]int, h)
		for a := range h {
			aggs[p][a] = b.node(Spine, 3, p, a, name("pod", p)+name(".agg", a))
		}
		for e := range h {
			edge := b.node(Leaf, 2, p, e, name("pod", p)+name(".edge", e))
			for i := range h {
				id := b.node(Host, 0, p, e*h+i, name("pod", p)+name(".host", e*h+i))
				b.t.Endpoints = append(b.t.Endpoints, id)
				b.net(id, edge)
			}
			for a := range h {
				b.net(edge, aggs[p][a])
			}
		}
	}
	for c := range h * h {
		core := b.node(Core, 4, -1, c, name("core", c))
		for p := range k {
			b.net(aggs[p][c/h], core)
		}
	}
}
