package coll

import (
	"math"
	"math/bits"
)

// Auto is the algorithm NCCL's tuning model would pick (collective.algo: auto).
const Auto = "auto"

// treeCorrection is tuning.cc's treeCorrectionFactor for the Simple
// protocol, by log2(bytes/64).
var treeCorrection = [...]float64{.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}

// Choose returns the algorithm among those fabriclab models that NCCL's
// tuning model (tuning.cc, ncclTopoTuneModel and ncclTopoGetAlgoTime, Simple
// protocol, Hopper constants) expects to finish op on bytes soonest: time =
// latency + bytes / algbw, with
//
//   - ring: 8 channels of 48 GB/s across nodes (search.cc sm90SpeedArrayInter;
//     one node: NCCL's 370.8 GB/s of H100 NVLink, topo.h), algbw = busbw ·
//     n / 2(n−1); latency 8.4 µs + 3.4 µs per NVLink step + 14 µs per network
//     step, × 1.4 across nodes for all but the smallest messages;
//   - tree (all-reduce): busbw min(0.92 · ring, 8 · perChMaxTreeBw) (38.7,
//     41.4, 36.0 GB/s for 1, 2, more nodes), algbw half of it, times
//     treeCorrectionFactor; latency 8.4 + 2((ppn−1)·4.0 + log2(nodes)·14);
//   - innetwork on one node's NVSwitch (NVLS, all-reduce): busbw
//     NVLSBusBwRatio × the ring's, latency 25 µs;
//   - nvlstree on 2 or more whole dgx nodes (NVLS_TREE, all-reduce): busbw
//     the least of NVLS's in the node (NVLSBusBwRatio × 370.8) and the
//     NICs' 8 × 48 GB/s, doubled on 2 nodes ("Handle 2 node case of
//     NVLSTree"), algbw as the ring's; latency 25 + 2·log2(nodes)·20.9 µs.
//     NCCL runs NVLSTree with the Simple protocol only, and its LL and LL128
//     protocols (not modelled here) win small messages; so nvlstree is only
//     tried from NVLSTreeMinBytes up, a stand-in for that crossover.
//
// Other operations only have ring.
func Choose(op string, p Params, bytes int64) string {
	if op != AllReduce && op != ReduceScatter && op != AllGather {
		if op == AllToAll {
			return Pairwise
		}
		return Ring
	}
	n := p.Ranks
	g := p.GPUsPerNode
	nodes, ppn := n, 1
	if g > 1 && n%g == 0 {
		nodes, ppn = n/g, g
	} else if g > 1 && n < g {
		nodes, ppn = 1, n
	}
	steps := 2 * (n - 1)
	inter := 2 * (nodes - 1)
	if op != AllReduce {
		steps, inter = n-1, nodes-1
	}
	ringBus := 370.8
	if nodes > 1 {
		ringBus = 8 * 48
	}
	ringLat := 8.4 + float64(steps-inter)*3.4 + float64(inter)*14
	if nodes > 1 && op == AllReduce && bytes/int64(8*n) >= 64 {
		ringLat *= 1.4 // tuning.cc: the "plateau effect of ring"
	}
	best, bestTime := Ring, ringLat+float64(bytes)/1e3/(ringBus*float64(n)/float64(steps))
	if op != AllReduce {
		return best
	}
	try := func(algo string, lat, algbw float64) {
		if t := lat + float64(bytes)/1e3/algbw; t < bestTime {
			best, bestTime = algo, t
		}
	}
	perChTree := [...]float64{38.7, 41.4, 36.0}[min(nodes, 3)-1]
	treeBus := math.Min(0.92*ringBus, 8*perChTree)
	treeAlg := treeBus / 2
	if log := bits.Len64(uint64(bytes>>6)) - 1; log >= 0 && log < len(treeCorrection)-1 {
		treeAlg *= treeCorrection[log]
	}
	try(Tree, 8.4+2*(float64(ppn-1)*4.0+float64(bits.Len(uint(nodes))-1)*14), treeAlg)
	if p.OneSwitch && g > 1 {
		try(InNetwork, 25, NVLSBusBwRatio*ringBus*float64(n)/float64(steps))
	}
	if p.NVSwitch && spansNodes(p) && bytes >= NVLSTreeMinBytes {
		inter := 8 * 48.0
		if nodes <= 2 {
			inter *= 2
		}
		bus := math.Min(NVLSBusBwRatio*370.8, inter)
		try(NVLSTree, 25+2*float64(bits.Len(uint(nodes))-1)*20.9, bus*float64(n)/float64(steps))
	}
	return best
}

// NVLSTreeMinBytes is the smallest all-reduce algo auto runs as nvlstree: a
// stand-in for where NCCL's LL/LL128 trees and rings (not modelled) stop
// beating its Simple-only NVLSTree, not a figure from NCCL.
const NVLSTreeMinBytes = 16 << 20
