package infer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// REFERENCE.md, "Inference": vLLM's paper gives OPT-13B's KV cache as
// 2 × 5120 × 40 × 2 bytes = 800 KB a token; the presets' follow the same
// formula from their shapes (Llama 3 8B: 8 KV heads of 128, GQA).
func TestKVBytesPerToken(t *testing.T) {
	assert.Equal(t, int64(800*1024), KVBytesPerToken(40, 40, 128), "OPT-13B: 40 layers, 40 heads of 128")
	for _, c := range []struct {
		model                    string
		layers, kvHeads, headDim int
	}{{"llama3-8b", 32, 8, 128}, {"gpt2-1.5b", 48, 25, 64}} {
		m, err := train.Preset(c.model)
		require.NoError(t, err)
		assert.Equal(t, KVBytesPerToken(c.layers, c.kvHeads, c.headDim), m.KVBytesPerToken, c.model)
	}
}

func h100Llama(t *testing.T) *Config {
	m, err := train.Preset("llama3-8b")
	require.NoError(t, err)
	g, err := train.GPUPreset("h100")
	require.NoError(t, err)
	return &Config{Model: m, GPU: g, MFU: 0.4, MBU: 0.7, Prompt: 2048, Output: 128, Requests: 1, Interval: unit.Millisecond, Prefill: 1, Batch: 64}
}

// A decode step is the roofline's memory side: the weights (bf16) and the
// batch's KV cache read once from HBM at the peak × MBU, until the batch's
// matmuls take longer (H100's ridge is 989e12 / 3.35e12 ≈ 295 FLOP/byte, a
// batch of about 295 × MBU/MFU sequences).
func TestDecodeStepIsMemoryBound(t *testing.T) {
	c := h100Llama(t)
	weights := float64(c.Model.Params()) * 2
	kv := float64(c.Model.KVBytesPerToken)
	for _, ctx := range []int64{1, 2048, 64 * 2048} {
		want := (weights + float64(ctx)*kv) / (3.35e12 * 0.7)
		assert.InEpsilon(t, want, c.StepTime(1, ctx).Seconds(), 1e-9, "ctx %d", ctx)
	}
	// Batching: 64 sequences of 2,048 tokens read 17 GB of KV cache beside
	// 16 GB of weights, so a step takes about twice one sequence's and makes
	// 64 tokens, not one.
	one, many := c.StepTime(1, 2048), c.StepTime(64, 64*2048)
	assert.InDelta(t, 2.04, float64(many)/float64(one), 0.01)
	// Past the ridge the matmuls decide: 1,024 sequences of 1 token.
	big := c.StepTime(1024, 1024)
	assert.InEpsilon(t, 1024*c.Model.MatmulFLOPs()/(989e12*0.4), big.Seconds(), 1e-9)
}

// Prefill is compute: 2 FLOPs per matrix weight per prompt token (the head
// once), causal attention 2 × prompt × d per layer per token.
func TestPrefillTime(t *testing.T) {
	c := h100Llama(t)
	m := c.Model
	p := 2048.0
	flops := p*(m.MatmulFLOPs()-m.HeadFLOPs) + m.HeadFLOPs + p*p*2*4096*32
	assert.InEpsilon(t, flops/(989e12*0.4), c.PrefillTime().Seconds(), 1e-9)
	assert.InEpsilon(t, 2*float64(m.Params()-128256*4096), m.MatmulFLOPs(), 1e-4, "2 FLOPs per parameter but the embedding's (and the norms')")
}
