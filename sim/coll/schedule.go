// Package coll builds collective operations as schedules — plain data: phases,
// steps, and in each step the chunk transfers between ranks — and runs them on
// a network model, where contention, flow control and routing apply.
//
// A schedule describes one pipeline slot: every rank's data is cut into Chunks
// equal chunks (the ring's "chunk (i−s) mod n"), and a transfer moves Parts
// of them. The runner replays the schedule for each channel and each pipeline
// piece of the message.
//
// NCCL's protocols are not schedules: a run with LL or LL128 moves the same
// transfers with more bytes on the wire (WireFactor: flags, and NCCL's
// bandwidth caps as a larger factor) and pays the protocol's latencies
// (NCCLLatency). tuning.go holds NCCL's tuning tables and picks the
// (algorithm, protocol) pair for algo and protocol auto (Tune).
package coll

import (
	"math"
	"math/bits"
	"slices"
	"strings"

	"fabriclab/sim/msg"
)

// Operations.
const (
	AllReduce     = "allreduce"
	ReduceScatter = "reducescatter"
	AllGather     = "allgather"
	Broadcast     = "broadcast"
	AllToAll      = "alltoall"
)

// Algorithms.
const (
	Ring         = "ring"
	Tree         = "tree" // double binary tree
	Rabenseifner = "rabenseifner"
	Hierarchical = "hierarchical"
	InNetwork    = "innetwork" // SHARP-style at the switch, NVLS-style on NVSwitch
	NVLSTree     = "nvlstree"  // NVLS inside each node, rails across nodes (NCCL's NVLS_TREE)
	Direct       = "direct"
	Pairwise     = "pairwise"
)

// Ops and Algos list what exists, for error messages and docs.
var (
	Ops   = []string{AllReduce, ReduceScatter, AllGather, Broadcast, AllToAll}
	Algos = []string{Ring, Tree, Rabenseifner, Hierarchical, InNetwork, NVLSTree, Direct, Pairwise, TorusAlgo, Auto}
)

// Transfer moves chunks from rank Src to rank Dst. Chunk is the first chunk id
// and Parts how many consecutive chunks (of Schedule.Chunks per rank buffer)
// it carries. Reduce means the receiver adds them into its own copy.
// Dst == Switch sends to the in-network reduction point; Src == Switch sends
// from it.
type Transfer struct {
	Src, Dst int
	Chunk    int
	Parts    int
	Reduce   bool
	// Lane is the channel the transfer belongs to in a schedule that builds
	// its own channels (Schedule.Lanes > 0, NCCL's rings); the runner keeps
	// one ordered stream per lane and pair.
	Lane int
}

// Hop is one link of a channel NCCL builds: From sends to To, the next
// rank of a ring or a tree rank's parent (the reduce's direction), on
// channel Lane.
type Hop struct{ From, To, Lane int }

// MaxRouteHops bounds Schedule.Routes: a canvas shows a channel's route on
// a few nodes, and a schedule of thousands of ranks keeps none.
const MaxRouteHops = 4096

// Switch stands for the reduction engine in the switch (SHARP) or NVSwitch (NVLS).
const Switch = -1

// Step is a set of transfers that may run at the same time.
type Step struct {
	Phase     string
	Transfers []Transfer
}

// Schedule is a collective as data.
type Schedule struct {
	Op, Algo string
	Ranks    int
	Chunks   int // chunks per rank buffer; a transfer's size is Parts/Chunks of the buffer
	// Lanes is the number of channels the schedule builds itself (NCCL's
	// rings and trees on multi-node GPU topologies: each lane its own ring or
	// tree over its own Chunks/Lanes chunks). The runner runs such a schedule once and ignores
	// Options.Channels; 0 means the runner copies the schedule per channel.
	Lanes int
	// Pipelined phases overlap: each works on its own piece of the message
	// while the next piece enters the phase before (hierarchical). A streamed
	// run runs them all at once.
	Pipelined bool
	Steps     []Step
	Phases    []string // phase names in order
	// Routes are the channels the schedule builds itself (Lanes > 0: NCCL's
	// rings and trees on whole multi-GPU nodes), every lane's hops in lane
	// order: a ring's in its order from its first rank (the last hop back to
	// it), a tree's from each rank but the root to its parent, in rank
	// order. A ring over one multi-GPU node, which the runner copies per
	// channel (Lanes 0), has its one ring here on lane 0: every channel
	// runs it. Nil for other schedules, and beyond MaxRouteHops.
	Routes []Hop
	// Summary is each phase's transfers added up per (src, dst) pair: what a
	// streamed run sends. It exists even when Steps is too large to build.
	Summary []Phase

	gpn     int  // GPUs per node (Params.GPUsPerNode): which ranks share NVLink; 0: none do
	omitted int  // steps left out of Steps under Params.SummaryOnly
	pxn     bool // an all-to-all relayed by PXN (pxnAllToAll): phase 0 NVLink, phase 1 rails
}

// StepCount is the number of steps the schedule has: those in Steps and any
// that Params.SummaryOnly left out (a schedule too large to list counts none).
func (s *Schedule) StepCount() int { return len(s.Steps) + s.omitted }

// SameNode reports whether ranks a and b are GPUs of one node (Switch, the
// in-network reduction point, is on every rank's node).
func (s *Schedule) SameNode(a, b int) bool {
	if a == Switch || b == Switch {
		return true
	}
	return s.gpn > 1 && a/s.gpn == b/s.gpn
}

// Phase is one phase of a schedule, summed over its steps.
type Phase struct {
	Name  string
	Steps int
	// NetSteps is how many of the Steps cross the network, as NCCL's latency
	// model counts them (tuning.cc: a ring's 2(nodes−1) of its 2(n−1) steps;
	// other schedules: each step with a transfer between nodes).
	NetSteps int
	Pairs    []Pair
}

// Pair is what one rank sends another over a phase, in chunk parts.
type Pair struct{ Src, Dst, Parts int }

// MaxStepTransfers bounds the transfers Build lists step by step; larger
// schedules (a ring over thousands of ranks) get only their Summary.
const MaxStepTransfers = 4_000_000

// PartsSent is the number of chunk parts each rank sends in total (one entry
// per rank); the cost models are checked against it.
func (s *Schedule) PartsSent() []int {
	out := make([]int, s.Ranks)
	for _, ph := range s.Summary {
		for _, p := range ph.Pairs {
			if p.Src >= 0 {
				out[p.Src] += p.Parts
			}
		}
	}
	return out
}

// Params describe the ranks beyond their count.
type Params struct {
	Ranks       int
	GPUsPerNode int   // ranks per node (hierarchical, NVLS); 0 if not a multi-GPU topology
	Root        int   // broadcast
	OneSwitch   bool  // all ranks hang off one switch: a star, or one node's NVSwitch (innetwork)
	NVSwitch    bool  // each node's GPUs share an NVSwitch that reduces (NVLS: dgx nodes; nvlstree)
	Bytes       int64 // the message, for algo auto (Choose)
	Arch        Arch  // the GPUs' architecture, for NCCL's tuning tables
	// PXN sends an all-to-all's data for another node over NVLink to the GPU
	// on the destination's rail first (NCCL's PXN, on unless
	// NCCL_PXN_DISABLE=1), so it crosses the network on its own rail.
	PXN bool
	// SummaryOnly says the caller needs only the Summary (a streamed run
	// without a chunk view): rings, hierarchical and NVLS trees then write it
	// directly, the same as from their steps, in O(pairs) instead of listing
	// O(steps · ranks) transfers, and leave Steps nil.
	SummaryOnly bool
	// Torus is the torus's chips per dimension (topology.kind: torus), nil
	// elsewhere: algo torus needs it and auto picks torus on it.
	Torus []int
}

// Build returns the schedule of op with algo over p.Ranks ranks, or an error
// that says why not and which algorithm would work.
func Build(op, algo string, p Params) (*Schedule, error) {
	n := p.Ranks
	if n < 2 {
		return nil, msg.Errorf("a collective needs at least 2 ranks, got %d", n)
	}
	if algo == Auto && len(p.Torus) > 0 && (op == AllReduce || op == ReduceScatter || op == AllGather) {
		algo = TorusAlgo
	}
	if algo == Auto && slices.Contains(Ops, op) {
		algo = Choose(op, p, p.Bytes)
	}
	if err := checkAlgo(op, algo, n, p); err != nil {
		return nil, err
	}
	s := &Schedule{Op: op, Algo: algo, Ranks: n, gpn: p.GPUsPerNode}
	if algo == NVLSTree {
		nvlsTree(s, n, p.GPUsPerNode, p.SummaryOnly)
		return s, nil
	}
	if algo == TorusAlgo {
		torusSchedule(s, op, p.Torus)
		summarizeSteps(s)
		return s, nil
	}
	if algo == Ring && op != Broadcast && spansNodes(p) {
		ncclRings(s, op, railRings(n, p.GPUsPerNode), p.SummaryOnly)
		return s, nil
	}
	if algo == Tree && spansNodes(p) {
		ncclTrees(s, n, p.GPUsPerNode)
		return s, nil
	}
	if algo == Tree && p.GPUsPerNode >= 2 && n <= p.GPUsPerNode {
		// One node: NCCL's tree is a chain through its GPUs. Its phases do
		// not overlap in a streamed run, which then costs what tuning.cc
		// charges: 2·(g−1) NVLink steps, then the bytes (overlapped, the
		// down phase's latency would hide under the up phase's bytes and
		// the chain would beat the ring at medium sizes).
		ncclTrees(s, n, n)
		s.Pipelined = false
		return s, nil
	}
	if op == AllToAll && algo == Direct && p.PXN && spansNodes(p) {
		pxnAllToAll(s, n, p.GPUsPerNode)
		summarizeSteps(s)
		s.Pipelined = true
		return s, nil
	}
	if algo == Ring && op != Broadcast && p.GPUsPerNode >= 2 && n <= p.GPUsPerNode {
		// One node: NCCL's ring goes through its GPUs in order (on
		// NVSwitch every channel the same: NCCL_DEBUG=INFO prints
		// "Channel 00/16 : 0 1 2 3 4 5 6 7" for each), the ring the steps
		// below run; the runner copies it per channel.
		s.Routes = ringHops(identity(n), 0)
	}
	if big(op, algo, n, p.GPUsPerNode) {
		summarize(s, op, algo, n, p.GPUsPerNode)
		s.Pipelined = algo == Hierarchical
		return s, nil
	}
	if p.SummaryOnly && summaryOnly(s, op, algo, n, p.GPUsPerNode) {
		return s, nil
	}
	buildSteps(s, op, algo, n, p)
	summarizeSteps(s)
	return s, nil
}

// checkAlgo says why algo cannot do op over n ranks, or nil.
func checkAlgo(op, algo string, n int, p Params) error {
	if err := checkSupported(op, algo); err != nil {
		return err
	}
	return checkShape(algo, n, p)
}

// checkSupported says why op or algo is unknown, or why algo does not do op.
func checkSupported(op, algo string) error {
	supported := map[string][]string{
		AllReduce:     {Ring, Tree, Rabenseifner, Hierarchical, InNetwork, NVLSTree, TorusAlgo},
		ReduceScatter: {Ring, Rabenseifner, TorusAlgo},
		AllGather:     {Ring, Rabenseifner, TorusAlgo},
		Broadcast:     {Ring},
		AllToAll:      {Direct, Pairwise},
	}
	algos, ok := supported[op]
	if !ok {
		return msg.Errorf("unknown operation %q; use one of %s", op, strings.Join(Ops, ", "))
	}
	if !slices.Contains(algos, algo) {
		if !slices.Contains(Algos, algo) {
			return msg.Errorf("unknown algorithm %q; use one of %s", algo, strings.Join(Algos, ", "))
		}
		return msg.Errorf("%s does not do %s; for %s use %s", algo, op, op, strings.Join(append(algos, Auto), ", "))
	}
	return nil
}

// checkShape says why algo cannot run on the ranks p describes, or nil.
func checkShape(algo string, n int, p Params) error {
	if len(p.Torus) > 0 && (algo == Hierarchical || algo == InNetwork || algo == NVLSTree) {
		return msg.Errorf("%s needs GPU nodes and switches, which a torus has none of; on a torus use torus or ring", algo)
	}
	switch algo {
	case TorusAlgo:
		return torusShape(n, p)
	case Rabenseifner:
		if n&(n-1) != 0 {
			return msg.Errorf("rabenseifner needs a power-of-two rank count, got %d; use ring, or %d or %d ranks",
				n, 1<<(bits.Len(uint(n))-1), 1<<bits.Len(uint(n)))
		}
	case Hierarchical:
		g := p.GPUsPerNode
		if g < 2 || n%g != 0 || n/g < 2 {
			return msg.Errorf("hierarchical needs ranks spanning at least 2 whole multi-GPU nodes (a dgx topology with nodes ≥ 2, or leafspine with gpus_per_node); got %d ranks with %d per node; use ring", n, g)
		}
	case InNetwork:
		if !p.OneSwitch {
			return msg.Errorf("innetwork is modelled on one switch (a star, or the NVSwitch of one dgx node: NVLS); across several dgx nodes use nvlstree, else hierarchical or ring")
		}
		if p.NVSwitch && p.Arch == Ampere {
			return msg.Errorf("innetwork on an NVSwitch is NVLS, which A100's NVSwitch does not have (NCCL runs it from Hopper on); use ring, or topology.gpu: h100")
		}
	case NVLSTree:
		if p.Arch == Ampere {
			return msg.Errorf("nvlstree needs NVLS, which A100's NVSwitch does not have (NCCL runs it from Hopper on); use hierarchical or ring, or topology.gpu: h100")
		}
		if !p.NVSwitch || !spansNodes(p) {
			return msg.Errorf("nvlstree needs ranks spanning at least 2 whole dgx nodes (NVSwitch in each node; a dgx topology with nodes ≥ 2); got %d ranks with %d per node; on one node use innetwork, else hierarchical or ring", n, p.GPUsPerNode)
		}
	}
	return nil
}

// buildSteps lists the steps of op with algo over n ranks on s.
func buildSteps(s *Schedule, op, algo string, n int, p Params) {
	switch op + "/" + algo {
	case AllReduce + "/" + Ring:
		s.Chunks = n
		ringReduceScatter(s, n, identity(n), 0)
		ringAllGather(s, n, identity(n), 1)
	case ReduceScatter + "/" + Ring:
		s.Chunks = n
		ringReduceScatter(s, n, identity(n), 0)
	case AllGather + "/" + Ring:
		s.Chunks = n
		ringAllGather(s, n, identity(n), 0)
	case Broadcast + "/" + Ring:
		s.Chunks = 1
		ringBroadcast(s, n, p.Root)
	case AllReduce + "/" + Tree:
		doubleBinaryTree(s, n)
	case AllReduce + "/" + Rabenseifner:
		s.Chunks = n
		halving(s, n)
		doubling(s, n)
	case ReduceScatter + "/" + Rabenseifner:
		s.Chunks = n
		halving(s, n)
	case AllGather + "/" + Rabenseifner:
		s.Chunks = n
		doubling(s, n)
	case AllReduce + "/" + Hierarchical:
		hierarchical(s, n, p.GPUsPerNode)
		s.Pipelined = true
	case AllReduce + "/" + InNetwork:
		s.Chunks = 1
		s.Steps = append(s.Steps, Step{Phase: "reduce at switch"}, Step{Phase: "multicast from switch"})
		for r := range n {
			s.Steps[0].Transfers = append(s.Steps[0].Transfers, Transfer{Src: r, Dst: Switch, Parts: 1, Reduce: true})
			s.Steps[1].Transfers = append(s.Steps[1].Transfers, Transfer{Src: Switch, Dst: r, Parts: 1})
		}
	case AllToAll + "/" + Direct:
		s.Chunks = n
		st := Step{Phase: "all-to-all"}
		for i := range n {
			for k := 1; k < n; k++ {
				d := (i + k) % n
				st.Transfers = append(st.Transfers, Transfer{Src: i, Dst: d, Chunk: d, Parts: 1})
			}
		}
		s.Steps = append(s.Steps, st)
	case AllToAll + "/" + Pairwise:
		s.Chunks = n
		for k := 1; k < n; k++ {
			st := Step{Phase: "all-to-all"}
			for i := range n {
				d := (i + k) % n
				st.Transfers = append(st.Transfers, Transfer{Src: i, Dst: d, Chunk: d, Parts: 1})
			}
			s.Steps = append(s.Steps, st)
		}
	}
}

// pxnAllToAll is NCCL's all-to-all with PXN over whole nodes of g GPUs
// (paths.cc, ncclTopoGetNetDev: a peer on another node is reached through
// the NIC of the local GPU with the peer's index, that GPU acting as proxy).
// Rank (a,i) sends its share for (b,j) over NVLink to (a,j), which sends it
// on rail j to (b,j); shares for its own node and its own rail go straight.
// Each GPU's NVLink step carries, for relay (a,j), its shares for every
// (b,j) at once; each relay then sends node a's g shares for (b,j) in one
// transfer. Each NIC so carries (nodes−1)/nodes of S, all on its rail.
// A transfer's Chunk names its destination's chunk only: the shares it
// carries are not consecutive chunks (the all-to-all view reads no ranges).
func pxnAllToAll(s *Schedule, n, g int) {
	nodes := n / g
	s.Chunks, s.pxn = n, true
	nvlink := Step{Phase: "to the destination's rail (NVLink)"}
	for r := range n {
		a, i := r/g, r%g
		for j := range g {
			if j != i {
				// the share for (a,j) itself and those for every (b,j), b ≠ a
				nvlink.Transfers = append(nvlink.Transfers, Transfer{Src: r, Dst: a*g + j, Chunk: a*g + j, Parts: nodes})
			}
		}
	}
	rail := Step{Phase: "across nodes on the rail (PXN)"}
	for r := range n {
		a, j := r/g, r%g
		for k := 1; k < nodes; k++ {
			b := (a + k) % nodes
			rail.Transfers = append(rail.Transfers, Transfer{Src: r, Dst: b*g + j, Chunk: b*g + j, Parts: g})
		}
	}
	s.Steps = append(s.Steps, nvlink, rail)
}

// summarizeSteps sums each phase's steps per pair, in first-seen order.
func summarizeSteps(s *Schedule) {
	var sum pairSum
	for _, st := range s.Steps {
		if len(s.Summary) == 0 || s.Summary[len(s.Summary)-1].Name != st.Phase {
			s.Phases = append(s.Phases, st.Phase)
			s.Summary = append(s.Summary, Phase{Name: st.Phase})
			sum = pairSum{ph: &s.Summary[len(s.Summary)-1], index: map[[2]int]int{}}
		}
		sum.ph.Steps++
		crosses := false
		for _, t := range st.Transfers {
			sum.add(t.Src, t.Dst, t.Parts)
			crosses = crosses || !s.SameNode(t.Src, t.Dst)
		}
		if crosses {
			sum.ph.NetSteps++
		}
	}
}

// pairSum adds transfers up per (src, dst) pair into a phase.
type pairSum struct {
	ph    *Phase
	index map[[2]int]int
}

func (p *pairSum) add(src, dst, parts int) {
	k := [2]int{src, dst}
	if i, ok := p.index[k]; ok {
		p.ph.Pairs[i].Parts += parts
		return
	}
	p.index[k] = len(p.ph.Pairs)
	p.ph.Pairs = append(p.ph.Pairs, Pair{src, dst, parts})
}

// spansNodes reports whether the ranks are two or more whole multi-GPU nodes.
func spansNodes(p Params) bool {
	g := p.GPUsPerNode
	return g >= 2 && p.Ranks%g == 0 && p.Ranks/g >= 2
}

// railRings are NCCL's rings over whole nodes of g GPUs with one NIC each (an
// HGX/DGX H100 node), one ring per channel, each a list of ranks.
//
// The search (search.cc, ncclTopoCompute, pattern RING) wants 48 GB/s per
// channel on Hopper (sm90SpeedArrayInter) on one channel per NIC. Rings that
// enter and leave a node by the same NIC ("NET n → GPU a → … → GPU x → NET n")
// need PXN for GPU x, whose NVLink would then carry 8 × 48 GB/s, more than
// NCCL's 370.8 GB/s of H100 NVLink; so the crossNic = 2 search wins: channel
// 2p enters at NET 2p and its GPU (ncclTopoSearchRecNet tries channel c's
// NET c and its local GPU first), goes on to the next GPU each time
// (ncclTopoSearchNextGpuSort tries the next and previous GPU on NVSwitch
// systems) and leaves by GPU 2p−1's NET; channel 2p+1 must enter by that NET
// and leave by NET 2p (ncclTopoSearchCheckNet), so it is the same ring
// backwards. ncclTopoPostset (connect.cc) swaps each pair on odd nodes
// ("Alternate rings to avoid crossing rails"): node k leaves on the rail node
// k+1 enters by, and every hop between nodes stays on its rail leaf (with an
// odd node count the hop back to node 0 crosses rails, as in NCCL). Hopper's
// 48 GB/s keeps ncclTopoDupChannels from doubling the 8 channels, and
// ncclTopoPostset then duplicates them all: 2·g channels, two per NIC and
// direction. With an odd g the last channel has no partner and is not
// alternated.
func railRings(n, g int) [][]int {
	nodes := n / g
	// local[c] is search channel c's GPU order inside a node.
	local := make([][]int, g)
	for c := range g {
		e := c / 2 * 2 // the pair's entry GPU
		local[c] = make([]int, g)
		for i := range g {
			if c%2 == 0 {
				local[c][i] = (e + i) % g
			} else {
				local[c][i] = mod(e-1-i, g) // backwards: enter at e−1, leave at e
			}
		}
	}
	rings := make([][]int, 2*g)
	for l := range rings {
		c := l % g
		ring := make([]int, 0, n)
		for k := range nodes {
			lc := c
			if k%2 == 1 && (c^1) < g {
				lc = c ^ 1
			}
			for _, gpu := range local[lc] {
				ring = append(ring, k*g+gpu)
			}
		}
		rings[l] = ring
	}
	return rings
}

// ringHops are ring's hops on lane l in its order, the last back to the first.
func ringHops(ring []int, l int) []Hop {
	hops := make([]Hop, len(ring))
	for k := range ring {
		hops[k] = Hop{From: ring[k], To: ring[(k+1)%len(ring)], Lane: l}
	}
	return hops
}

// ncclRings fills s with op over rings, one lane each, all running at once:
// lane l's ring reduces chunks l·n … l·n+n−1, as ringReduceScatter and
// ringAllGather do over one ring. Steps are listed when they fit in
// MaxStepTransfers; the Summary is always written from the rings.
func ncclRings(s *Schedule, op string, rings [][]int, summaryOnly bool) {
	n := s.Ranks
	s.Lanes = len(rings)
	s.Chunks = len(rings) * n
	if n*len(rings) <= MaxRouteHops {
		for l, ring := range rings {
			s.Routes = append(s.Routes, ringHops(ring, l)...)
		}
	}
	var phases []string
	if op != AllGather {
		phases = append(phases, "reduce-scatter")
	}
	if op != ReduceScatter {
		phases = append(phases, "all-gather")
	}
	if fits := len(phases)*(n-1)*n*len(rings) <= MaxStepTransfers; fits && summaryOnly {
		s.omitted = len(phases) * (n - 1)
	} else if fits {
		for _, phase := range phases {
			reduce := phase == "reduce-scatter"
			for st := range n - 1 {
				step := Step{Phase: phase, Transfers: make([]Transfer, 0, n*len(rings))}
				for l, ring := range rings {
					for k := range n {
						c := mod(k-st, n)
						if reduce {
							c = mod(k-st-1, n)
						}
						step.Transfers = append(step.Transfers, Transfer{Src: ring[k], Dst: ring[(k+1)%n],
							Chunk: l*n + c, Parts: 1, Reduce: reduce, Lane: l})
					}
				}
				s.Steps = append(s.Steps, step)
			}
		}
	}
	for _, phase := range phases {
		s.Phases = append(s.Phases, phase)
		s.Summary = append(s.Summary, Phase{Name: phase, Steps: n - 1, NetSteps: n/s.gpn - 1})
		sum := pairSum{ph: &s.Summary[len(s.Summary)-1], index: map[[2]int]int{}}
		for _, ring := range rings {
			for k := range n {
				sum.add(ring[k], ring[(k+1)%n], n-1)
			}
		}
	}
}

// big reports whether listing every step would pass MaxStepTransfers.
func big(op, algo string, n, g int) bool {
	switch {
	case algo == Ring && op == AllReduce:
		return 2*(n-1)*n > MaxStepTransfers
	case algo == Ring && (op == ReduceScatter || op == AllGather):
		return (n-1)*n > MaxStepTransfers
	case algo == Hierarchical:
		return 2*(g-1)*n+2*(n/g-1)*n > MaxStepTransfers
	}
	return false
}

// summarize writes the Summary of a ring or hierarchical schedule directly.
func summarize(s *Schedule, op, algo string, n, g int) {
	s.gpn = g
	ring := func(name string, steps, members int, rank func(k int) int, next func(k int) int, parts int) {
		ph := Phase{Name: name, Steps: steps}
		if !s.SameNode(rank(0), next(0)) || !s.SameNode(rank(members-1), next(members-1)) {
			ph.NetSteps = steps
		}
		for k := range members {
			ph.Pairs = append(ph.Pairs, Pair{rank(k), next(k), parts})
		}
		s.Summary = append(s.Summary, ph)
		s.Phases = append(s.Phases, name)
	}
	self := func(k int) int { return k }
	succ := func(k int) int { return (k + 1) % n }
	if algo == Ring {
		s.Chunks = n
		if op != AllGather {
			ring("reduce-scatter", n-1, n, self, succ, n-1)
		}
		if op != ReduceScatter {
			ring("all-gather", n-1, n, self, succ, n-1)
		}
		return
	}
	nodes := n / g
	s.Chunks = g * nodes
	inNode := func(k int) int { return k/g*g + (k%g+1)%g }
	rail := func(k int) int { return (k/g+1)%nodes*g + k%g }
	ring("reduce-scatter in node (NVLink)", g-1, n, self, inNode, (g-1)*nodes)
	ring("reduce-scatter across nodes (rail)", nodes-1, n, self, rail, nodes-1)
	ring("all-gather across nodes (rail)", nodes-1, n, self, rail, nodes-1)
	ring("all-gather in node (NVLink)", g-1, n, self, inNode, (g-1)*nodes)
}

func identity(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func mod(a, n int) int { return ((a % n) + n) % n }

// ringReduceScatter appends n−1 steps over the ranks in ring order: at step s
// the k-th rank of the ring sends chunk (k−s−1) mod n to the next, which adds
// it to its own; afterwards ring member k holds chunk k fully reduced.
// Chunk ids are offset by base·0 (chunks are the same buffer throughout).
func ringReduceScatter(s *Schedule, n int, ring []int, _ int) {
	for st := range n - 1 {
		step := Step{Phase: "reduce-scatter"}
		for k := range n {
			step.Transfers = append(step.Transfers, Transfer{
				Src: ring[k], Dst: ring[(k+1)%n], Chunk: mod(k-st-1, n), Parts: 1, Reduce: true})
		}
		s.Steps = append(s.Steps, step)
	}
}

// ringAllGather appends n−1 steps: at step s ring member k forwards chunk
// (k−s) mod n, starting with the chunk it owns.
func ringAllGather(s *Schedule, n int, ring []int, _ int) {
	for st := range n - 1 {
		step := Step{Phase: "all-gather"}
		for k := range n {
			step.Transfers = append(step.Transfers, Transfer{
				Src: ring[k], Dst: ring[(k+1)%n], Chunk: mod(k-st, n), Parts: 1})
		}
		s.Steps = append(s.Steps, step)
	}
}

// ringBroadcast passes the whole buffer along the ring from root, one hop per step
// (pipelining across pieces makes it a chain).
func ringBroadcast(s *Schedule, n, root int) {
	for st := range n - 1 {
		src := (root + st) % n
		s.Steps = append(s.Steps, Step{Phase: "broadcast", Transfers: []Transfer{{Src: src, Dst: (src + 1) % n, Parts: 1}}})
	}
}

// halving is recursive-halving reduce-scatter: at step k each rank swaps half of
// its current range with the rank 2^(log n − k − 1) away, keeping the half that
// contains its own chunk id.
func halving(s *Schedule, n int) {
	lo := make([]int, n)
	size := n
	for dist := n / 2; dist >= 1; dist /= 2 {
		step := Step{Phase: "reduce-scatter (halving)"}
		size /= 2
		for r := range n {
			peer := r ^ dist
			// r keeps the half holding its final chunk r; it sends the other half.
			keep := lo[r]
			send := lo[r] + size
			if r&dist != 0 {
				keep, send = lo[r]+size, lo[r]
			}
			step.Transfers = append(step.Transfers, Transfer{Src: r, Dst: peer, Chunk: send, Parts: size, Reduce: true})
			lo[r] = keep
		}
		s.Steps = append(s.Steps, step)
	}
}

// doubling is recursive-doubling all-gather: the reverse of halving.
func doubling(s *Schedule, n int) {
	size := 1
	for dist := 1; dist < n; dist *= 2 {
		step := Step{Phase: "all-gather (doubling)"}
		for r := range n {
			// r holds the aligned block of `size` chunks containing chunk r.
			start := r / size * size
			step.Transfers = append(step.Transfers, Transfer{Src: r, Dst: r ^ dist, Chunk: start, Parts: size})
		}
		size *= 2
		s.Steps = append(s.Steps, step)
	}
}

// hierarchical is NCCL's tree-free multi-node all-reduce as used on rail-optimised
// clusters: reduce-scatter over NVLink inside each node, a ring all-reduce across
// nodes among the GPUs of each rail, and an all-gather over NVLink.
func hierarchical(s *Schedule, n, g int) {
	nodes := n / g
	s.Chunks = g * nodes
	// Inside a node, chunk block c (nodes chunks wide) ends on local GPU c.
	for st := range g - 1 {
		step := Step{Phase: "reduce-scatter in node (NVLink)"}
		for node := range nodes {
			for k := range g {
				step.Transfers = append(step.Transfers, Transfer{Src: node*g + k, Dst: node*g + (k+1)%g,
					Chunk: mod(k-st-1, g) * nodes, Parts: nodes, Reduce: true})
			}
		}
		s.Steps = append(s.Steps, step)
	}
	// Across nodes on rail k, the block of local GPU k... is reduced by a ring over
	// the nodes: its `nodes` chunks are the ring's chunks.
	for phase, reduce := range []bool{true, false} {
		name := "reduce-scatter across nodes (rail)"
		if phase == 1 {
			name = "all-gather across nodes (rail)"
		}
		for st := range nodes - 1 {
			step := Step{Phase: name}
			for k := range g {
				block := k * nodes // the block local GPU k owns after the in-node phase
				for node := range nodes {
					c := mod(node-st-1, nodes)
					if !reduce {
						c = mod(node-st, nodes)
					}
					step.Transfers = append(step.Transfers, Transfer{Src: node*g + k, Dst: (node+1)%nodes*g + k,
						Chunk: block + c, Parts: 1, Reduce: reduce})
				}
			}
			s.Steps = append(s.Steps, step)
		}
	}
	for st := range g - 1 {
		step := Step{Phase: "all-gather in node (NVLink)"}
		for node := range nodes {
			for k := range g {
				step.Transfers = append(step.Transfers, Transfer{Src: node*g + k, Dst: node*g + (k+1)%g,
					Chunk: mod(k-st, g) * nodes, Parts: nodes})
			}
		}
		s.Steps = append(s.Steps, step)
	}
}

// btree is NCCL's binary tree over n ranks (trees.cc, ncclGetBtree): the
// parent of rank r, or −1 for the root (rank 0).
func btree(n, r int) int {
	if r == 0 {
		return -1
	}
	bit := 1
	for bit < n && bit&r == 0 {
		bit <<= 1
	}
	up := (r ^ bit) | bit<<1
	if up >= n {
		up = r ^ bit
	}
	return up
}

// dtree is NCCL's double binary tree (trees.cc, ncclGetDtree): the parent of
// rank r in tree t: tree 0 is btree, tree 1 mirrors it (even n) or shifts it
// by one (odd n), so that most leaves of one are inner nodes of the other.
func dtree(n, r, t int) int {
	switch {
	case t == 0:
		return btree(n, r)
	case n%2 == 1:
		u := btree(n, mod(r-1, n))
		if u < 0 {
			return -1
		}
		return (u + 1) % n
	}
	u := btree(n, n-1-r)
	if u < 0 {
		return -1
	}
	return n - 1 - u
}

// ncclTrees is NCCL's tree all-reduce over whole nodes of g GPUs: one tree
// channel per NIC, each a chain through the node's GPUs starting at the GPU
// of its NIC (search.cc, pattern TREE: "NET n → GPU a → GPU b → … → GPU x";
// connect.cc ncclTopoPreset: tree.up/down along the chain), whose heads join
// the other nodes' heads in a binary tree; ncclTopoPostset duplicates the
// channels, the copy on the double binary tree's second tree (connectTrees),
// so 2·g lanes, each reducing chunk l up its tree and broadcasting it down.
// The two phases run pipelined (NCCL's tree up/down kernel). NCCL's latency
// model counts the chain's g−1 NVLink steps and the node tree's depth of
// network steps (tuning.cc: 2·((ppn−1)·intra + log2(nodes)·inter)).
func ncclTrees(s *Schedule, n, g int) {
	nodes := n / g
	lanes := 2 * g
	s.Lanes, s.Chunks, s.Pipelined = lanes, lanes, true
	parent := make([][]int, lanes)
	depth := make([][]int, lanes)
	maxDepth, netDepth := 0, 0
	for l := range lanes {
		c, t := l%g, l/g
		head := func(k int) int { return k*g + c }
		hd := make([]int, nodes) // each node's head depth in the node tree
		for k := range nodes {
			for u := k; dtree(nodes, u, t) >= 0; u = dtree(nodes, u, t) {
				hd[k]++
			}
		}
		parent[l], depth[l] = make([]int, n), make([]int, n)
		for k := range nodes {
			for i := range g {
				r := k*g + (c+i)%g
				switch {
				case i > 0:
					parent[l][r] = k*g + (c+i-1)%g
				case dtree(nodes, k, t) >= 0:
					parent[l][r] = head(dtree(nodes, k, t))
				default:
					parent[l][r] = -1
				}
				depth[l][r] = hd[k] + i
				maxDepth = max(maxDepth, depth[l][r])
			}
			netDepth = max(netDepth, hd[k])
		}
	}
	if n*lanes <= MaxRouteHops {
		for l := range lanes {
			for r := range n {
				if parent[l][r] >= 0 {
					s.Routes = append(s.Routes, Hop{From: r, To: parent[l][r], Lane: l})
				}
			}
		}
	}
	level := func(d int, up bool) Step {
		st := Step{Phase: "broadcast down the trees"}
		if up {
			st.Phase = "reduce up the trees"
		}
		for l := range lanes {
			for r := range n {
				if depth[l][r] != d {
					continue
				}
				if up {
					st.Transfers = append(st.Transfers, Transfer{Src: r, Dst: parent[l][r], Chunk: l, Parts: 1, Reduce: true, Lane: l})
				} else {
					st.Transfers = append(st.Transfers, Transfer{Src: parent[l][r], Dst: r, Chunk: l, Parts: 1, Lane: l})
				}
			}
		}
		return st
	}
	for d := maxDepth; d >= 1; d-- {
		s.Steps = append(s.Steps, level(d, true))
	}
	for d := 1; d <= maxDepth; d++ {
		s.Steps = append(s.Steps, level(d, false))
	}
	summarizeSteps(s)
	for i := range s.Summary {
		s.Summary[i].NetSteps = netDepth
	}
}

// doubleBinaryTree builds NCCL's two complementary binary trees, each carrying
// half the data (Chunks = 2): tree 0 is an in-order balanced tree over the ranks,
// tree 1 the same over the ranks shifted by one, so that a leaf of one is an
// inner node of the other. Both reduce up, then broadcast down.
func doubleBinaryTree(s *Schedule, n int) {
	s.Chunks = 2
	type tree struct{ parent, depth []int }
	var trees [2]tree
	maxDepth := 0
	for t := range 2 {
		tr := tree{parent: make([]int, n), depth: make([]int, n)}
		var build func(lo, hi, parent, depth int)
		build = func(lo, hi, parent, depth int) {
			if lo >= hi {
				return
			}
			mid := (lo + hi) / 2
			r := (mid + t) % n
			tr.parent[r], tr.depth[r] = parent, depth
			maxDepth = max(maxDepth, depth)
			build(lo, mid, r, depth+1)
			build(mid+1, hi, r, depth+1)
		}
		build(0, n, -1, 0)
		trees[t] = tr
	}
	for d := maxDepth; d >= 1; d-- {
		step := Step{Phase: "reduce up the trees"}
		for t, tr := range trees {
			for r := range n {
				if tr.depth[r] == d {
					step.Transfers = append(step.Transfers, Transfer{Src: r, Dst: tr.parent[r], Chunk: t, Parts: 1, Reduce: true})
				}
			}
		}
		s.Steps = append(s.Steps, step)
	}
	for d := 1; d <= maxDepth; d++ {
		step := Step{Phase: "broadcast down the trees"}
		for t, tr := range trees {
			for r := range n {
				if tr.depth[r] == d {
					step.Transfers = append(step.Transfers, Transfer{Src: tr.parent[r], Dst: r, Chunk: t, Parts: 1})
				}
			}
		}
		s.Steps = append(s.Steps, step)
	}
}

// NVLSBusBwRatio is NVLS all-reduce busbw over ring busbw on the NVSwitch of
// one H100 node: ≈ 480 against ≈ 370 GB/s (REFERENCE.md, "NVLS efficiency
// (Hopper)": tuning.cc nvlsEfficiency 0.85; nccl-tests issues 212, 290).
const NVLSBusBwRatio = 1.30

// nvlsRunRatio is the ratio a run of NVLS on one node moves its bytes at:
// 304 GB/s algbw (532 busbw, 1.437 × the ring's 370), from which each round
// of concurrent NVLS chunks takes NVLSRoundLatency, so that 1 GiB and more
// come to ≈ 467–480 GB/s and 16–64 MiB to nccl-tests' knee (a fit to
// ../shared/nccl-outputs/10: /work/notes/issue26-memo.md §7.4; not NCCL's
// tuning model, which is 45 % optimistic at 16 MiB).
const nvlsRunRatio = 1.437

// onWire is the schedule the network runs. For in-network reduction every rank
// sends its whole buffer up while the switch multicasts the sum down: each GPU
// link carries the buffer once in each direction at the same time. The runner
// reproduces exactly those link loads with one step in which each rank sends
// its buffer to the next rank through the switch.
func (s *Schedule) onWire() *Schedule {
	if s.Algo != InNetwork {
		return s
	}
	w := &Schedule{Op: s.Op, Algo: s.Algo, Ranks: s.Ranks, Chunks: 1, gpn: s.gpn}
	parts := 1
	if s.gpn > 1 {
		// NVLS on an NVSwitch moves its bytes at nvlsRunRatio × the ring's
		// busbw on the same links, not the line-rate bound: each link carries
		// the buffer BusFactor/nvlsRunRatio times.
		w.Chunks = 1000
		parts = int(math.Round(1000 * BusFactor(s.Op, s.Ranks) / nvlsRunRatio))
	}
	st := Step{Phase: "reduce at switch and multicast"}
	ph := Phase{Name: st.Phase, Steps: 1}
	for r := range s.Ranks {
		st.Transfers = append(st.Transfers, Transfer{Src: r, Dst: (r + 1) % s.Ranks, Parts: parts, Reduce: true})
		ph.Pairs = append(ph.Pairs, Pair{r, (r + 1) % s.Ranks, parts})
	}
	w.Steps, w.Phases, w.Summary = []Step{st}, []string{st.Phase}, []Phase{ph}
	return w
}
