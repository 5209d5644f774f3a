package topo

import (
	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// A dgx topology is HGX-style nodes: GPUs on an NVSwitch, each GPU with a NIC.
// Several nodes are joined rail-optimised: NIC i of every node on rail leaf i,
// the rails joined by spines.
var dgxKind = kind{
	name:      DGX,
	sizeField: "nodes",
	check:     checkDGX,
	endpoints: func(s *Shape) int { return s.Nodes * s.GPUsPerNode },
	describe:  describeDGX,
	build:     (*builder).dgx,
}

func checkDGX(s *Shape) []*Problem {
	ps := problems(checkOversub(s),
		between("nodes", s.Nodes, 1, MaxEndpoints, 4),
		between("gpus_per_node", s.GPUsPerNode, 1, MaxGPUsPerNode, 8))
	if len(ps) > 0 {
		return ps
	}
	switch n := s.Nodes * s.GPUsPerNode; {
	case n < 2:
		return []*Problem{{Field: "gpus_per_node", Msg: msg.F("1 node with 1 GPU has nobody to talk to: use at least 2 GPUs in all (e.g. gpus_per_node: 8)")}}
	case n > MaxEndpoints:
		return []*Problem{{Field: "nodes", Msg: msg.F("%s gives %d endpoints; at most %d are allowed", describeDGX(s), n, MaxEndpoints)}}
	}
	if s.Nodes > 1 {
		return problems(checkSpines(s, s.GPUsPerNode, s.Nodes, "nodes"))
	}
	return nil
}

func (b *builder) dgx(s *Shape) {
	g := s.GPUsPerNode
	nics := make([][]int, s.Nodes)
	for n := range s.Nodes {
		nics[n] = b.hgx(n, g, pcieLatency)
	}
	if s.Nodes == 1 {
		return
	}
	leaves := make([]int, g)
	b.t.LIDs = make([]int32, s.Nodes*g) // rail by rail: one rail's GPUs spread over the spines
	for e := range b.t.LIDs {
		b.t.LIDs[e] = int32(e%g*s.Nodes + e/g)
	}
	for i := range g {
		leaves[i] = b.node(Leaf, 2, -1, i, name("rail", i))
		for n := range s.Nodes {
			b.net(nics[n][i], leaves[i])
		}
	}
	b.spines(leaves, s.Nodes, s)
}

const pcieLatency = 100 * unit.Nanosecond

// hgx adds one HGX-style node: g GPUs on an NVSwitch over NVLink 4, each with a
// NIC over PCIe Gen5 x16 (at the Wiring's NIC rate). It returns the NIC IDs.
func (b *builder) hgx(n, g int, nicLatency unit.Time) []int {
	nvs := b.node(NVSwitch, 2, n, 0, name("n", n)+".nvswitch")
	nics := make([]int, g)
	for i := range g {
		gpu := b.node(GPU, 0, n, i, name("n", n)+name(".gpu", i))
		b.t.Endpoints = append(b.t.Endpoints, gpu)
		b.cable(gpu, nvs, link.NVLink4, b.nvlink, 0)
		nics[i] = b.node(NIC, 1, n, i, name("n", n)+name(".nic", i))
		b.cable(gpu, nics[i], link.PCIe5, b.nic, nicLatency)
	}
	return nics
}

func describeDGX(s *Shape) msg.Text { return msg.F("%d nodes × %d GPUs", s.Nodes, s.GPUsPerNode) }
