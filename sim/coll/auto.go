package coll

// Auto is the algorithm (collective.algo) or protocol (collective.protocol)
// NCCL's tuning model would pick.
const Auto = "auto"

// Choose returns the algorithm NCCL's tuning model picks for op on bytes:
// Tune's. With LL and LL128 modelled, NVLSTree (Simple only) loses small
// all-reduces to the trees and rings by itself, as in NCCL.
func Choose(op string, p Params, bytes int64) string {
	algo, _ := Tune(op, p, bytes)
	return algo
}
