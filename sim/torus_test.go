package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// torusTime is REFERENCE.md's "Collectives on a torus (TPU ICI)": a
// bidirectional ring over dimension i moves (d_i − 1)/d_i of the bytes it
// gathers, V_i = V · d_0 ⋯ d_i / N, at the link's bidirectional bandwidth W
// (the scaling book's T = V/W_ICI for one axis); the dimensions go one after
// another, so their times add. A reduce-scatter is the mirror of an
// all-gather and an all-reduce is both.
func torusTime(op string, dims []int, bytes, w float64) float64 {
	n := 1
	for _, d := range dims {
		n *= d
	}
	gathered, t := bytes/float64(n), 0.0
	for _, d := range dims {
		gathered *= float64(d)
		t += float64(d-1) / float64(d) * gathered / w
	}
	if op == "allreduce" {
		t *= 2
	}
	return t * 1e6
}

// The torus collectives take the formula's time in both models, on 1-, 2-
// and 3-D tori (links without latency: the bandwidth term alone), each
// phase streamed: run step by step in pipeline pieces, a piece's next
// dimension overlaps the one before and the run is faster than the formula.
func TestTorusCollectivesMatchTheFormula(t *testing.T) {
	const bytes = 64 << 20
	w := 2 * 800e9 / 8 // 800 Gb/s each way: 200 GB/s bidirectional
	for _, dims := range [][]int{{8}, {5}, {4, 4}, {4, 4, 4}, {4, 3, 5}} {
		for _, op := range []string{"allreduce", "allgather", "reducescatter"} {
			for _, fid := range []string{"flow", "packet"} {
				if fid == "packet" && (len(dims) == 3 || op != "allreduce") {
					continue // the packet model's share: one op per shape below 3-D
				}
				ds := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(dims)), ", "), "[]")
				t.Run(fmt.Sprintf("%s/%s/%s", ds, op, fid), func(t *testing.T) {
					r := run(t, fmt.Sprintf(`
topology: {kind: torus, dims: [%s], link_gbps: 800, link_latency: 0, switch_latency: 0}
traffic: {pattern: none}
collective: {op: %s, algo: auto, bytes: %d, alpha: 0, execution: streamed}
sim: {fidelity: %s}
`, ds, op, bytes, fid))
					require.NotNil(t, r.Collective)
					assert.Equal(t, "torus", r.Collective.Algo, "auto picks torus on a torus")
					assert.InEpsilon(t, torusTime(op, dims, bytes, w), r.Collective.TimeUs, 0.01)
				})
			}
		}
	}
}

// REFERENCE.md, "Tori: TPU ICI (issue 30)", collectives on a torus:
// training.algo: torus all-reduces (or, with FSDP, reduce-scatters and
// all-gathers) the gradients with the torus's rings, one dimension after
// another, when the data-parallel group is the whole torus; it exposes less
// communication than a flat ring over the same chips, in both models.
func TestTrainingRunsTheTorusRings(t *testing.T) {
	base := []string{"topology.dims=[4,4]", "traffic.pattern=none",
		"collective=", "training.model=resnet50", "training.iterations=1"}
	for _, fid := range []string{"flow", "packet"} {
		for _, sharding := range []string{"none", "fsdp"} {
			ring := builtin(t, "tpu-torus-allreduce", append(base, "sim.fidelity="+fid, "training.sharding="+sharding, "training.algo=ring")...)
			torus := builtin(t, "tpu-torus-allreduce", append(base, "sim.fidelity="+fid, "training.sharding="+sharding, "training.algo=torus")...)
			require.NotNil(t, torus.Training)
			assert.Less(t, torus.Training.ExposedCommUs, ring.Training.ExposedCommUs, "%s, %s: the torus's rings beat one ring over its chips", fid, sharding)
		}
	}
}
