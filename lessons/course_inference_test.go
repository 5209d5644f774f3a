package lessons

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// inferenceStep runs step id of the inference-storage lesson with sets.
func inferenceStep(t *testing.T, id string, sets ...string) *metrics.Inference {
	t.Helper()
	r := stepRun(t, "inference-storage", id, sets...).Inference
	require.NotNil(t, r)
	return r
}

// TestCourseInference checks what the inference-storage lesson says about
// serving at every knob position (REFERENCE.md, "Inference").
func TestCourseInference(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	// kv-cache: 32 layers × 8 KV heads × 128 × 2 × 2 bytes = 128 KiB a
	// token, 256 MiB for 2,048 tokens; decode steps of about 7 ms (the
	// network step's quiz), about a second to decode a request.
	base := inferenceStep(t, "kv-cache")
	assert.Equal(t, int64(32*8*128*2*2), base.KVBytesPerToken)
	assert.Equal(t, int64(128<<10), base.KVBytesPerToken)
	assert.Equal(t, int64(256<<20), base.KVBytesPerRequest)
	assert.Equal(t, 2048, base.PromptTokens)
	assert.Equal(t, 127, base.OutputTokens-1, "127 decode steps")
	assert.InDelta(t, 7, base.DecodeStepUs/1000, 0.5, "about 7 ms a step")
	// the quiz: prefill takes longest, tens of milliseconds; the transfer
	// and a decode step a few each
	assert.Greater(t, base.PrefillUs, 10000.0)
	assert.Less(t, base.PrefillUs, 100000.0)
	assert.Less(t, base.KVTransferUs, 10000.0)
	assert.Less(t, base.DecodeStepUs, 10000.0)
	assert.InDelta(t, base.PrefillUs, base.TTFTP50Us, 1, "the first token: its prefill")
	assert.InDelta(t, 1, base.LatencyP50Us/1e6, 0.15, "about a second")

	// network: the tokens per second barely move; the sentence per outcome.
	for _, g := range []string{"100", "200", "400", "800"} {
		res := stepRun(t, "inference-storage", "network", "topology.link_gbps="+g)
		r := res.Inference
		assert.InEpsilon(t, base.TokensPerSecond, r.TokensPerSecond, 0.02, "%s Gb/s: almost nothing changes", g)
		want := 2 // less than a decode step
		switch g {
		case "100", "200":
			want = 0
			assert.Greater(t, r.KVTransferUs, r.DecodeStepUs, "%s Gb/s", g)
		case "800":
			want = 1
			gbps := float64(r.KVBytesPerRequest) * 8 / r.KVTransferUs / 1e3
			assert.InDelta(t, 500, gbps, 20, "PCIe Gen5 carries about 500 Gb/s")
			assert.Greater(t, r.KVTransferUs, base.KVTransferUs/2, "not half the 400 Gb/s time")
		}
		assert.Equal(t, []int{want}, whenShown(t, "inference-storage", "network", res), "%s Gb/s", g)
	}
	slow := inferenceStep(t, "network", "topology.link_gbps=100")
	assert.Greater(t, slow.KVTransferUs, 3.5*base.KVTransferUs, "a quarter of the rate")

	// load: at 320 a second only a little more than at 80, the first token
	// much later, not a quarter of the cost; prefill is 75 ms (≈107 prompts
	// a second on 8 GPUs); the sentence per outcome; cost falls with load.
	at80 := inferenceStep(t, "load", "inference.requests_per_s=80")
	at320 := inferenceStep(t, "load")
	assert.InDelta(t, 75, at320.PrefillUs/1000, 0.5)
	assert.InDelta(t, 107, 8/(at320.PrefillUs/1e6), 1)
	assert.Greater(t, at320.TokensPerSecond, 1.05*at80.TokensPerSecond)
	assert.Less(t, at320.TokensPerSecond, 1.3*at80.TokensPerSecond, "only a little more")
	assert.Greater(t, at320.TTFTP99Us, 4*at80.TTFTP99Us, "much later")
	require.NotNil(t, at320.Cost.CostPerMillion)
	assert.Greater(t, *at320.Cost.CostPerMillion, 0.8**at80.Cost.CostPerMillion, "not a quarter of the cost")
	prevCost := 1e9
	for _, rate := range []string{"10", "20", "40", "80", "160", "320"} {
		res := stepRun(t, "inference-storage", "load", "inference.requests_per_s="+rate)
		r := res.Inference
		require.NotNil(t, r.Cost.CostPerMillion)
		assert.Less(t, *r.Cost.CostPerMillion, prevCost, "%s: busier, cheaper", rate)
		prevCost = *r.Cost.CostPerMillion
		want := 1
		if r.TTFTP99Us > 100000 {
			want = 0
			assert.Greater(t, r.TokensPerSecond, 0.95*at320.TokensPerSecond, "%s: near the most tokens a second", rate)
			assert.Greater(t, r.TTFTP99Us, 1.5*r.PrefillUs, "%s: prompts queue", rate)
		} else {
			assert.InDelta(t, r.PrefillUs, r.TTFTP99Us, 1, "%s: every prompt finds a free prefill GPU", rate)
		}
		assert.Equal(t, []int{want}, whenShown(t, "inference-storage", "load", res), "%s", rate)
	}
}

// TestCourseCheckpoint checks what the inference-storage lesson says about
// checkpoints (REFERENCE.md, "Storage on the fabric").
func TestCourseCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	// checkpoint: an iteration every 316 ms, 96 GB in about 485 ms, longer
	// than an iteration; it costs a few milliseconds.
	r := stepRun(t, "inference-storage", "checkpoint").Training
	require.NotNil(t, r)
	require.NotNil(t, r.Storage)
	s := r.Storage
	assert.InDelta(t, 316, s.IterationUs/1000, 0.5)
	assert.InDelta(t, 96, float64(s.CheckpointBytes)/1e9, 0.5)
	assert.InDelta(t, 485, s.CheckpointUs/1000, 1)
	assert.Greater(t, s.CheckpointUs, s.IterationUs)
	assert.Greater(t, s.CheckpointExposedUs, 1000.0, "not nothing")
	assert.Less(t, s.CheckpointExposedUs, 10000.0, "a few milliseconds")
	// 4 nodes of 400 Gb/s: 200 GB/s in all, storage the bound
	assert.InEpsilon(t, float64(s.CheckpointBytes)*8/(4*400e3), s.CheckpointUs, 0.05)

	// storage-speed: at 1,600 Gb/s written sooner but about ten times the
	// cost; which bound, per position.
	for _, g := range []float64{200, 400, 800, 1600} {
		res := stepRun(t, "inference-storage", "storage-speed", "topology.storage_gbps="+strconv.FormatFloat(g, 'f', -1, 64))
		st := res.Training.Storage
		require.NotNil(t, st)
		storageBound := float64(st.CheckpointBytes) * 8 / (4 * g * 1e3)
		want := 1
		if st.CheckpointExposedUs > 10000 {
			want = 0
			assert.Greater(t, st.CheckpointUs, 1.1*storageBound, "%g: the NICs, not the storage, bound the write", g)
			assert.InDelta(t, 10, st.CheckpointExposedUs/s.CheckpointExposedUs, 2, "%g: about ten times as much", g)
			assert.Less(t, st.CheckpointUs, s.CheckpointUs, "%g: written sooner", g)
		} else {
			assert.InEpsilon(t, storageBound, st.CheckpointUs, 0.05, "%g: the storage bounds the write", g)
		}
		assert.Equal(t, g == 1600, want == 0, "%g", g)
		assert.Equal(t, []int{want}, whenShown(t, "inference-storage", "storage-speed", res), "%g", g)
	}
}
