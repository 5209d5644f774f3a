package topo

import (
	"fabriclab/sim/msg"
)

// A leafspine topology is leaves of hosts_per_leaf endpoints joined by
// spines. With gpus_per_node > 1 the endpoints are GPUs of HGX-style nodes:
// whole nodes per leaf, or rail-optimised, NIC i of every node on leaf i.
var leafSpineKind = kind{
	name:      LeafSpine,
	sizeField: "hosts_per_leaf",
	check:     checkLeafSpine,
	endpoints: func(s *Shape) int { return s.Leaves * s.HostsPerLeaf },
	describe:  describeLeafSpine,
	build:     (*builder).leafSpine,
}

func checkLeafSpine(s *Shape) []*Problem {
	ps := problems(checkOversub(s),
		between("leaves", s.Leaves, 1, MaxEndpoints, 8),
		between("hosts_per_leaf", s.HostsPerLeaf, 1, MaxEndpoints, 16),
		between("gpus_per_node", s.GPUsPerNode, 1, MaxGPUsPerNode, 8))
	if s.Spines < 0 {
		ps = append(ps, &Problem{Field: "spines", Value: s.Spines, Msg: msg.F("is negative: it must be ≥ 0")})
	}
	if len(ps) > 0 {
		return ps
	}
	g := s.GPUsPerNode
	switch {
	case s.RailOptimized && g == 1:
		return []*Problem{{Field: "rail_optimized", Msg: msg.F("true needs nodes with several GPUs (e.g. gpus_per_node: 8)")}}
	case s.RailOptimized && s.Leaves != g:
		return []*Problem{{Field: "leaves", Value: s.Leaves, Msg: msg.F("is not allowed with rail_optimized: there is one leaf per GPU of a node (leaves: %d)", g)}}
	case !s.RailOptimized && s.HostsPerLeaf%g != 0:
		return []*Problem{{Field: "hosts_per_leaf", Value: s.HostsPerLeaf,
			Msg: msg.F("does not hold whole nodes of %d GPUs: use a multiple of %d (e.g. hosts_per_leaf: %d), or rail_optimized: true", g, g, max(g, s.HostsPerLeaf/g*g))}}
	}
	switch n := s.Leaves * s.HostsPerLeaf; {
	case n < 2:
		return []*Problem{{Field: "hosts_per_leaf", Msg: msg.F("1 leaf with 1 host has nobody to talk to: use at least 2 hosts in all (e.g. hosts_per_leaf: 16)")}}
	case n > MaxEndpoints:
		return []*Problem{{Field: "hosts_per_leaf", Msg: msg.F("%s gives %d endpoints; at most %d are allowed", describeLeafSpine(s), n, MaxEndpoints)}}
	}
	if s.Leaves > 1 || s.Spines > 0 {
		return problems(checkSpines(s, s.Leaves, s.HostsPerLeaf, "hosts_per_leaf"))
	}
	return nil
}

func (b *builder) leafSpine(s *Shape) {
	g := max(s.GPUsPerNode, 1)
	leaves := make([]int, s.Leaves)
	for i := range leaves {
		leaves[i] = b.node(Leaf, 2, i, i, name("leaf", i))
	}
	switch {
	case g == 1:
		for l, lf := range leaves {
			for h := range s.HostsPerLeaf {
				id := b.node(Host, 0, l, h, name("leaf", l)+name(".host", h))
				b.t.Endpoints = append(b.t.Endpoints, id)
				b.net(id, lf)
			}
		}
	case s.RailOptimized:
		for n := range s.HostsPerLeaf {
			for i, nic := range b.hgx(n, g, pcieLatency) {
				b.net(nic, leaves[i])
			}
		}
	default:
		n := 0
		for _, lf := range leaves {
			for range s.HostsPerLeaf / g {
				for _, nic := range b.hgx(n, g, pcieLatency) {
					b.net(nic, lf)
				}
				n++
			}
		}
	}
	if s.Leaves > 1 || s.Spines > 0 {
		b.spines(leaves, s.HostsPerLeaf, s)
	}
}

func describeLeafSpine(s *Shape) msg.Text {
	return msg.F("%d leaves × %d hosts_per_leaf", s.Leaves, s.HostsPerLeaf)
}
