package coll

import (
	"fabriclab/sim/msg"
)

// TorusAlgo is the all-reduce, reduce-scatter and all-gather of a torus (TPU
// ICI): a bidirectional ring in each dimension, one dimension after another.
// Each rank's data is cut in two halves, one going round each ring one way
// and the other the other way, so that both directions of every link carry
// data. A reduce-scatter goes from the last dimension to the first, an
// all-gather from the first to the last; an all-reduce is the two.
const TorusAlgo = "torus"

// dimNames name a torus's dimensions in phase names.
var dimNames = [...]string{"x", "y", "z"}

// torusShape says why algo torus cannot run on n ranks of p, or nil.
func torusShape(n int, p Params) error {
	if len(p.Torus) == 0 {
		return msg.Errorf("torus runs on a torus (topology.kind: torus); use ring")
	}
	if all := product(p.Torus); n != all {
		return msg.Errorf("torus needs every chip of the torus: %d ranks, not %d; leave collective.ranks out, or use ring", all, n)
	}
	if t := torusTransfers(p.Torus); t > MaxStepTransfers {
		return msg.Errorf("torus lists every step: this torus needs %d transfers, at most %d; use a smaller torus or ring", t, MaxStepTransfers)
	}
	return nil
}

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// torusTransfers is the number of transfers of a torus all-reduce.
func torusTransfers(dims []int) int {
	n, t := product(dims), 0
	for _, d := range dims {
		t += 2 * 2 * (d - 1) * n // two halves, reduce-scatter and all-gather
	}
	return t
}

// torusSchedule lists op's steps on a torus of dims. Chunk h·n + r is half h
// of rank r's share: half 0 goes round each ring towards +1, half 1
// towards −1. Before the ring of dimension i, a rank works on the shares of
// the ranks that differ from it only in dimensions ≤ i (consecutive ids,
// dimension 0 varying fastest); the ring moves them in d_i blocks of
// stride_i ranks, block k being the shares of the ranks at coordinate k.
func torusSchedule(s *Schedule, op string, dims []int) {
	n := s.Ranks
	s.Chunks = 2 * n
	if op != AllGather {
		for i := len(dims) - 1; i >= 0; i-- {
			torusRing(s, dims, i, true)
		}
	}
	if op != ReduceScatter {
		for i := range dims {
			torusRing(s, dims, i, false)
		}
	}
}

// torusRing appends the d−1 steps of the rings of dimension i: at step st,
// ring member k sends block (k−st−1) mod d (reduce-scatter, adding) or
// (k−st) mod d (all-gather) of its half 0 to member k+1, and the mirror
// block of its half 1 to member k−1.
func torusRing(s *Schedule, dims []int, i int, reduce bool) {
	n, d := s.Ranks, dims[i]
	stride := product(dims[:i])
	phase := "all-gather along " + dimNames[i]
	lag := 0
	if reduce {
		phase, lag = "reduce-scatter along "+dimNames[i], 1
	}
	for st := range d - 1 {
		step := Step{Phase: phase, Transfers: make([]Transfer, 0, 2*n)}
		for r := range n {
			k := r / stride % d
			lo := r - r%(stride*d) // the first rank of r's range
			for h, dir := range [2]int{1, -1} {
				block := mod(k-dir*(st+lag), d)
				step.Transfers = append(step.Transfers, Transfer{
					Src: r, Dst: r + (mod(k+dir, d)-k)*stride, Chunk: h*n + lo + block*stride, Parts: stride, Reduce: reduce})
			}
		}
		s.Steps = append(s.Steps, step)
	}
}
