package coll

import (
	"math"
	"math/bits"

	"fabriclab/sim/unit"
)

// NCCL's protocols (collective.protocol): LL sends 8 bytes of data with an
// 8-byte flag in each 16-byte line, LL128 120 bytes of data with an 8-byte
// flag in each 128-byte line, Simple raw data and a fence and flag per step.
const (
	LL     = "ll"
	LL128  = "ll128"
	Simple = "simple"
)

// Protocols lists NCCL's protocols, in tuning.cc's order.
var Protocols = []string{LL, LL128, Simple}

// NCCL 2.30.7 src/graph/tuning.cc (NVIDIA/nccl 5067397c): baseLat and hwLat
// are ncclTunerConstantsDefaults' baseLatencies and hwLatencies (lines
// 148–212), in µs; the rest are the per-architecture caps of the same
// struct and treeCorrectionFactor (623–627). Index tAlgo is tuning.cc's
// algorithm (0 Tree, 1 Ring, 4 NVLS, 5 NVLSTree), the protocol 0 LL, 1
// LL128, 2 Simple; arch 0 Volta, 1 Ampere, 2 Hopper, 3 Blackwell; scale 0
// one node, 1 two nodes, 2 more.
const (
	tTree, tRing, tNVLS, tNVLSTree = 0, 1, 4, 5
	pLL, pLL128, pSimple           = 0, 1, 2
	hwNVLink, hwNet                = 0, 2
)

var baseLat = [6][3]float64{{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}}

var hwLat = [3][6][3]float64{
	{{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}}, // NVLink
	{{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}},    // PCI
	{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 20.9}},  // Net
}

// llMaxBws rows: one node by arch; several nodes row 0 (an Intel CPU, as
// DGX H100's Xeons).
var llMaxBws = [4][3]float64{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}}
var perChMaxRingLL128Bws = [4][3]float64{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}}
var perChMaxTreeLL128Bws = [4][3]float64{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}}
var perChMaxTreeBws = [4][3]float64{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}}

var treeCorrectionFactor = [3][24]float64{
	{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
	{1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
	{.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
}

// netOverheadUs is getNetOverhead (tuning.cc:228–233) on Intel: the least
// an NVLink step of a ring across nodes costs, × 3 for Simple.
const netOverheadUs = 1.0

// Graph inputs, from NCCL's topology search on 8-GPU nodes (search.cc
// speed arrays, topo.h NVLink rates): a node's ring busbw (A100 12 × 20,
// H100 NCCL's 370.8 GB/s of NVLink 4, B200 16 × 45) and its channels; across
// nodes 8 channels of 24 GB/s (HDR) or 48 (NDR, sm90SpeedArrayInter).
var (
	nodeRingBus   = [4]float64{120, 240, 370.8, 720}
	nodeChannels  = [4]int{6, 12, 12, 16}
	interChannels = 8
	interPerCh    = [4]float64{12, 24, 48, 48}
)

// Arch is a GPU architecture as NCCL's tuning tables index it.
type Arch int

// Architectures. The zero Arch is Hopper, fabriclab's default GPU.
const (
	Hopper Arch = iota
	Ampere
	Blackwell
)

func (a Arch) index() int {
	switch a {
	case Ampere:
		return 1
	case Blackwell:
		return 3
	}
	return 2
}

// tuneShape is what NCCL's tuning model sees of the ranks.
type tuneShape struct{ n, nodes, ppn, arch, scale int }

func shapeOf(p Params) tuneShape {
	n, g := p.Ranks, p.GPUsPerNode
	nodes, ppn := n, 1
	if g > 1 && n%g == 0 {
		nodes, ppn = n/g, g
	} else if g > 1 && n < g {
		nodes, ppn = 1, n
	}
	return tuneShape{n: n, nodes: nodes, ppn: ppn, arch: p.Arch.index(), scale: max(min(nodes, 3)-1, 0)}
}

func (sh tuneShape) ringBus() (bus float64, channels int) {
	if sh.nodes == 1 {
		return nodeRingBus[sh.arch], nodeChannels[sh.arch]
	}
	return float64(interChannels) * interPerCh[sh.arch], interChannels
}

func protoIndex(proto string) int {
	switch proto {
	case LL:
		return pLL
	case LL128:
		return pLL128
	}
	return pSimple
}

// busBw is the busbw NCCL's model gives algo with protocol pr on sh
// (tuning.cc:306–337), before the tree's size correction; false if NCCL
// does not run the pair.
func busBw(op, algo string, pr int, sh tuneShape, p Params) (float64, bool) {
	ring, nCh := sh.ringBus()
	ch := float64(nCh)
	llMax := llMaxBws[0][sh.scale]
	if sh.nodes == 1 {
		llMax = llMaxBws[sh.arch][0]
	}
	switch algo {
	case Ring:
		switch pr {
		case pLL:
			return math.Min(llMax, ring*0.5), true
		case pLL128:
			return math.Min(ring*0.92, ch*perChMaxRingLL128Bws[sh.arch][sh.scale]), true
		}
		return ring, true
	case Tree:
		if op != AllReduce {
			return 0, false
		}
		bus := math.Min(ring*0.92, ch*perChMaxTreeBws[sh.arch][sh.scale])
		switch pr {
		case pLL:
			return math.Min(bus/3.8, llMax), true
		case pLL128:
			f := 120.0 / 128
			if sh.nodes == 1 {
				f = 7.0 / 9
			}
			return math.Min(bus*f, ch*perChMaxTreeLL128Bws[sh.arch][sh.scale]), true
		}
		return bus, true
	case InNetwork:
		ok := op == AllReduce && pr == pSimple && p.OneSwitch && p.GPUsPerNode > 1 && sh.arch >= 2
		return NVLSBusBwRatio * ring, ok
	case NVLSTree:
		ok := op == AllReduce && pr == pSimple && p.NVSwitch && spansNodes(p) && sh.arch >= 2
		inter := ring
		if sh.nodes <= 2 {
			inter *= 2 // tuning.cc: "Handle 2 node case of NVLSTree"
		}
		return math.Min(NVLSBusBwRatio*nodeRingBus[sh.arch], inter), ok
	}
	return 0, false
}

// latencyUs is NCCL's latency of algo with protocol pr on sh
// (tuning.cc:384–435), for one collective.
func latencyUs(op, algo string, pr int, sh tuneShape, bytes int64) float64 {
	log2Nodes := float64(bits.Len(uint(sh.nodes)) - 1)
	switch algo {
	case Tree:
		return baseLat[tTree][pr] + 2*(float64(sh.ppn-1)*hwLat[hwNVLink][tTree][pr]+log2Nodes*hwLat[hwNet][tTree][pr])
	case InNetwork:
		return hwLat[hwNVLink][tNVLS][pSimple]
	case NVLSTree:
		return hwLat[hwNVLink][tNVLSTree][pSimple] + 2*log2Nodes*hwLat[hwNet][tNVLSTree][pSimple]
	}
	steps, inter := 2*(sh.n-1), 2*(sh.nodes-1)
	if op != AllReduce {
		steps, inter = sh.n-1, sh.nodes-1
	}
	l := ringLatency(pr, sh)
	lat := l.Base.Micros() + float64(steps-inter)*l.NVLink.Micros() + float64(inter)*l.Net.Micros()
	_, nCh := sh.ringBus()
	if pr == pSimple && inter > 0 && op == AllReduce && bytes/int64(nCh*sh.n) >= 64 {
		lat *= 1.4 // tuning.cc: the "plateau effect of ring"
	}
	return lat
}

// ringLatency is a ring's base and per-step latencies with protocol pr:
// across nodes an NVLink step costs at least NCCL's network overhead, and
// with one GPU per node the network step is the tree's (tuning.cc:386–412).
func ringLatency(pr int, sh tuneShape) Latency {
	nvl := hwLat[hwNVLink][tRing][pr]
	if sh.nodes > 1 {
		ov := netOverheadUs
		if pr == pSimple {
			ov *= 3
		}
		nvl = math.Max(nvl, ov)
	}
	net := hwLat[hwNet][tRing][pr]
	if sh.ppn == 1 {
		net = hwLat[hwNet][tTree][pr]
	}
	return Latency{Base: micros(baseLat[tRing][pr]), NVLink: micros(nvl), Net: micros(net)}
}

func micros(us float64) unit.Time { return unit.Time(math.Round(us * float64(unit.Microsecond))) }

// algoTimeUs is ncclTopoGetAlgoTime (tuning.cc:630–655) for one call:
// latency + bytes / algbw, with the tree's size correction; false if NCCL
// does not run the pair.
func algoTimeUs(op, algo string, pr int, p Params, bytes int64) (float64, bool) {
	sh := shapeOf(p)
	bus, ok := busBw(op, algo, pr, sh, p)
	if !ok || bus <= 0 {
		return 0, false
	}
	var algbw float64
	if algo == Tree {
		algbw = bus / 2
		if log := bits.Len64(uint64(bytes>>6)) - 1; log >= 0 && log < len(treeCorrectionFactor[pr]) {
			algbw *= treeCorrectionFactor[pr][log]
		}
	} else {
		steps := 2 * (sh.n - 1)
		if op != AllReduce {
			steps = sh.n - 1
		}
		algbw = bus * float64(sh.n) / float64(steps)
	}
	return latencyUs(op, algo, pr, sh, bytes) + float64(bytes)/1e3/algbw, true
}

// Tune returns the (algorithm, protocol) pair among those fabriclab models
// that NCCL's tuning model (ncclTopoTuneModel, then the argmin of
// ncclTopoGetAlgoTime in enqueue.cc's topoGetAlgoInfo) expects to finish op
// on bytes soonest. All-reduce tries ring and tree with each protocol, and
// NVLS (innetwork on one node's NVSwitch) and NVLSTree (whole dgx nodes)
// with Simple, as NCCL runs them; reduce-scatter and all-gather try the ring
// with each protocol, broadcast the ring with each protocol; all-to-all
// (point-to-point in NCCL) runs direct with Simple: NCCL sizes its
// point-to-point channels across nodes so that every peer fits in one round
// (paths.cc, ncclTopoComputeP2pChannels: up to p2pnChannels × 8 peers at
// once, 256 with 32 channels), so every pair sends at once, through PXN
// across whole nodes.
func Tune(op string, p Params, bytes int64) (algo, proto string) {
	switch op {
	case AllReduce, ReduceScatter, AllGather:
	case AllToAll:
		return Direct, Simple
	default:
		return Ring, TuneProtocol(op, Ring, p, bytes)
	}
	best, bestTime := Ring, math.Inf(1)
	proto = Simple
	for _, a := range []string{Ring, Tree, InNetwork, NVLSTree} {
		for pr, name := range Protocols {
			if t, ok := algoTimeUs(op, a, pr, p, bytes); ok && t < bestTime {
				best, proto, bestTime = a, name, t
			}
		}
	}
	return best, proto
}

// TuneProtocol is the protocol NCCL's tuning model picks for op with algo
// on bytes: the fastest of LL, LL128 and Simple for rings and trees, Simple
// for every other algorithm.
func TuneProtocol(op, algo string, p Params, bytes int64) string {
	best, bestTime := Simple, math.Inf(1)
	for pr, name := range Protocols {
		if t, ok := algoTimeUs(op, algo, pr, p, bytes); ok && (algo == Ring || algo == Tree) && t < bestTime {
			best, bestTime = name, t
		}
	}
	return best
}

// ProtocolAlgos are the algorithms that run LL and LL128; the others run
// Simple only.
var ProtocolAlgos = []string{Ring, Tree}

// WireFactor is how many bytes algo moves on the wire per byte of payload
// with proto: the ratio of NCCL's Simple busbw to the protocol's
// (tuning.cc:327–335). LL is 2 (16-byte lines carrying 8 bytes) or more
// where NCCL caps it (llMaxBws: 141 GB/s on one H100 node gives 2.63),
// LL128 1/0.92 (NCCL's factor for 120 of 128 bytes) or more under its
// per-channel cap, Simple 1.
func WireFactor(op, algo, proto string, p Params) float64 {
	pr := protoIndex(proto)
	if pr == pSimple || (algo != Ring && algo != Tree) {
		return 1
	}
	sh := shapeOf(p)
	simple, ok1 := busBw(op, algo, pSimple, sh, p)
	bus, ok2 := busBw(op, algo, pr, sh, p)
	if !ok1 || !ok2 || bus <= 0 {
		return 1
	}
	return simple / bus
}
