package train

import "fabriclab/sim/unit"

// Bucket is a group of gradient tensors all-reduced together.
type Bucket struct {
	Tensors []int // indices into Model.Tensors, in gradient-ready order
	Params  int64
}

// Buckets groups gradients as PyTorch DDP does in steady state (after its
// first iteration rebuilds buckets in gradient-ready order): tensors in the
// reverse of definition order; the first bucket closes once it holds at least
// first bytes, every later one at least cap bytes (a bucket may overshoot by
// its last tensor); bytesPerParam is the gradient element size.
func Buckets(m *Model, first, cap unit.Bytes, bytesPerParam int64) []Bucket {
	return bucketsOf(m, 0, len(m.Tensors), first, cap, bytesPerParam)
}

// bucketsOf is Buckets over tensors [from, to): a pipeline stage's.
func bucketsOf(m *Model, from, to int, first, cap unit.Bytes, bytesPerParam int64) []Bucket {
	var out []Bucket
	var cur Bucket
	limit := int64(first)
	for i := to - 1; i >= from; i-- {
		cur.Tensors = append(cur.Tensors, i)
		cur.Params += m.Tensors[i].Params
		if cur.Params*bytesPerParam >= limit {
			out = append(out, cur)
			cur = Bucket{}
			limit = int64(cap)
		}
	}
	if len(cur.Tensors) > 0 {
		out = append(out, cur)
	}
	return out
}
