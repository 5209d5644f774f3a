package topo

import (
	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// A dgx topology is HGX-style nodes: GPUs on an NVSwitch, each GPU with a NIC
// (or, with NICsPerNode below GPUsPerNode, each NIC shared by a run of
// GPUsPerNode/NICsPerNode GPUs). Several nodes are joined rail-optimised: NIC
// i of every node on rail leaf i, the rails joined by spines.
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
	if p := checkNICs(s); p != nil {
		return []*Problem{p}
	}
	switch n := s.Nodes * s.GPUsPerNode; {
	case n < 2:
		return []*Problem{{Field: "gpus_per_node", Msg: msg.F("1 node with 1 GPU has nobody to talk to: use at least 2 GPUs in all (e.g. gpus_per_node: 8)")}}
	case n > MaxEndpoints:
		return []*Problem{{Field: "nodes", Msg: msg.F("%s gives %d endpoints; at most %d are allowed", describeDGX(s), n, MaxEndpoints)}}
	}
	if s.Nodes > 1 {
		return problems(checkSpines(s, s.NICs(), s.Nodes, "nodes"))
	}
	return nil
}

// checkNICs checks nics_per_node: a divisor of gpus_per_node (0 in a Shape
// built in Go: a NIC per GPU).
func checkNICs(s *Shape) *Problem {
	k, g := s.NICsPerNode, s.GPUsPerNode
	switch {
	case k == 0:
		return nil
	case k < 1 || k > g:
		return &Problem{Field: "nics_per_node", Value: k, Msg: msg.F("is not allowed: a node of %d GPUs has from 1 to %d NICs (e.g. nics_per_node: %d)", g, g, g)}
	case g%k != 0:
		return &Problem{Field: "nics_per_node", Value: k, Msg: msg.F("does not divide the %d GPUs of a node: each NIC serves the same number of GPUs; use %s", g, divisors(g))}
	}
	return nil
}

// NICs is the number of NICs per node of a dgx shape: NICsPerNode, or one
// per GPU when it is 0.
func (s Shape) NICs() int {
	if s.NICsPerNode > 0 {
		return s.NICsPerNode
	}
	return s.GPUsPerNode
}

func (b *builder) dgx(s *Shape) {
	g, k := s.GPUsPerNode, s.NICs()
	share := g / k
	nics := make([][]int, s.Nodes)
	for n := range s.Nodes {
		if share == 1 {
			nics[n] = b.hgx(n, g, pcieLatency)
		} else {
			nics[n] = b.hgxShared(n, g, share)
		}
	}
	if s.Nodes == 1 {
		return
	}
	leaves := make([]int, k)
	// Rail by rail, as a subnet manager numbers a leaf's ports: one rail's
	// GPUs spread over the spines.
	b.t.LIDs = make([]int32, s.Nodes*g)
	for e := range b.t.LIDs {
		n, i := e/g, e%g
		b.t.LIDs[e] = int32(i/share*s.Nodes*share + n*share + i%share)
	}
	for r := range k {
		leaves[r] = b.node(Leaf, 2, -1, r, name("rail", r))
	}
	rate := b.rate / unit.Rate(share)
	for i := range g {
		for n := range s.Nodes {
			b.cable(nics[n][i], leaves[i/share], b.fabric, rate, b.latency)
		}
	}
	b.spines(leaves, s.Nodes, s)
}

// hgxShared is hgx with each NIC shared by share GPUs in a row (GPUs 0 and 1
// on NIC 0 when share is 2), as on a PCIe switch that holds two GPUs and one
// NIC. The share is modelled as an even split: each GPU has a slice of the
// NIC (a node named "n0.nic0.1" for GPU 1's), its PCIe link and its port to
// the rail carrying 1/share of the NIC's rates. That is what each GPU gets
// when all of them send at once, as in NCCL's collectives; a GPU alone gets
// only its slice, where a real NIC would give it all. (One NIC node joined
// to several GPUs would give them a two-hop path through the NIC as short
// as NVLink's through the NVSwitch, and routing would take it.) It returns
// the slices' IDs, one per GPU.
func (b *builder) hgxShared(n, g, share int) []int {
	nvs := b.node(NVSwitch, 2, n, 0, name("n", n)+".nvswitch")
	nics := make([]int, g)
	pcie := b.nic / unit.Rate(share)
	for i := range g {
		gpu := b.node(GPU, 0, n, i, name("n", n)+name(".gpu", i))
		b.t.Endpoints = append(b.t.Endpoints, gpu)
		b.cable(gpu, nvs, link.NVLink4, b.nvlink, 0)
		nics[i] = b.node(NIC, 1, n, i, name("n", n)+name(".nic", i/share)+name(".", i%share))
		b.cable(gpu, nics[i], link.PCIe5, pcie, pcieLatency)
	}
	return nics
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
