package coll

import (
	"math"
	"math/bits"
)

// nvlsTree fills s with NCCL's NVLSTree all-reduce (all_reduce.h,
// RunWorkColl<ncclFuncAllReduce, …, NCCL_ALGO_NVLS_TREE>: scatter warps push
// the send buffer into NVLS, each of the node's g heads reduces its 1/g from
// NVLS and its tree children and sends it up the tree, gather warps
// multicast the result back) over whole nodes of g GPUs on NVSwitch, as the
// link loads it puts on the wire:
//
//  1. reduce in node (NVLS): every GPU sends its buffer into the NVSwitch,
//     which leaves each GPU the node's sum of its 1/g of the buffer;
//  2. across nodes, on each rail, the GPUs of local index k all-reduce their
//     1/g between the nodes' NICs (NCCL runs a tree; a ring on the rail puts
//     2(nodes−1)/nodes of that share through each NIC, the all-reduce's
//     lower bound, and on 2 nodes exactly the tree's load);
//  3. broadcast in node (NVLS): each GPU sends its reduced 1/g up and the
//     NVSwitch multicasts the whole buffer down.
//
// The phases are pipelined, as in NCCL. Each GPU link thus carries
// (1 + 1/g) of the buffer in each direction over phases 1 and 3 against the
// one-node NVLS's 1, at the same NVLS efficiency (NVLSBusBwRatio, see onWire):
// phases 1 and 3 are each written as a step in which each GPU sends half of
// that to the next GPU of its node, which loads every link as the NVSwitch
// does. The phases across nodes count log2(nodes) network steps each, as
// tuning.cc's NVLSTree latency does.
func nvlsTree(s *Schedule, n, g int, summaryOnly bool) {
	nodes := n / g
	const unitParts = 1000 // parts of a rail chunk (1/(g·nodes) of the buffer)
	s.Chunks, s.Pipelined, s.gpn = unitParts*g*nodes, true, g
	nvls := int(math.Round(float64(s.Chunks) * BusFactor(AllReduce, g) / NVLSBusBwRatio * float64(g+1) / float64(2*g)))
	inNode := func(r int) int { return r/g*g + (r%g+1)%g }
	rail := func(r int) int { return (r/g+1)%nodes*g + r%g }
	depth := bits.Len(uint(nodes)) - 1 // log2i(nNodes), as tuning.cc counts
	phases := []struct {
		name   string
		reduce bool
		rail   bool
	}{
		{"reduce in node (NVLS)", true, false},
		{"reduce across nodes (rail)", true, true},
		{"broadcast across nodes (rail)", false, true},
		{"broadcast in node (NVLS)", false, false},
	}
	steps := 2*n+2*(nodes-1)*n <= MaxStepTransfers
	if steps && summaryOnly {
		steps, s.omitted = false, 2+2*(nodes-1)
	}
	for _, ph := range phases {
		sum := Phase{Name: ph.name, Steps: 1}
		if ph.rail {
			sum.Steps, sum.NetSteps = depth, depth
		}
		for r := range n {
			if ph.rail {
				sum.Pairs = append(sum.Pairs, Pair{r, rail(r), unitParts * (nodes - 1)})
			} else {
				sum.Pairs = append(sum.Pairs, Pair{r, inNode(r), nvls})
			}
		}
		s.Phases, s.Summary = append(s.Phases, ph.name), append(s.Summary, sum)
		if !steps {
			continue
		}
		if !ph.rail {
			step := Step{Phase: ph.name}
			for r := range n {
				step.Transfers = append(step.Transfers, Transfer{Src: r, Dst: inNode(r), Parts: nvls, Reduce: ph.reduce})
			}
			s.Steps = append(s.Steps, step)
			continue
		}
		for st := range nodes - 1 {
			step := Step{Phase: ph.name}
			for r := range n {
				node, k := r/g, r%g
				c := mod(node-st-1, nodes)
				if !ph.reduce {
					c = mod(node-st, nodes)
				}
				step.Transfers = append(step.Transfers, Transfer{Src: r, Dst: rail(r),
					Chunk: (k*nodes + c) * unitParts, Parts: unitParts, Reduce: ph.reduce})
			}
			s.Steps = append(s.Steps, step)
		}
	}
}
