package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// REFERENCE.md, training: "memory per parameter, mixed-precision Adam":
// 16 bytes per parameter, so Llama 3 8B needs ~128 GB before activations
// and fits an 80 GB GPU only sharded.
func TestMemoryPerGPU(t *testing.T) {
	m, err := Preset("llama3-8b")
	require.NoError(t, err)
	p := float64(m.Params())
	ddp := MemoryPerGPU(m, NoSharding, NoCheckpointing, 8, 1, 8192, 1)
	assert.InEpsilon(t, 128e9, ddp.Weights+ddp.Gradients+ddp.Optimizer, 0.01)
	assert.InDelta(t, 16*p, ddp.Weights+ddp.Gradients+ddp.Optimizer, 1)
	// Korthikanti et al.: 34·d bytes per token per block, plus fp32 logits.
	assert.InDelta(t, 8192*(34*4096*32+4*128256), ddp.Activations, 1)

	z1 := MemoryPerGPU(m, ZeRO1, NoCheckpointing, 8, 1, 8192, 1)
	assert.InDelta(t, 8*p/8, z1.Optimizer, 1)
	assert.InDelta(t, 8*p, z1.Weights+z1.Gradients, 1)
	z2 := MemoryPerGPU(m, ZeRO2, NoCheckpointing, 8, 1, 8192, 1)
	assert.InDelta(t, 4*p/8, z2.Gradients, 1)
	assert.InDelta(t, 4*p, z2.Weights, 1)
	fsdp := MemoryPerGPU(m, FSDP, NoCheckpointing, 8, 1, 8192, 1)
	head := float64(128256*4096 + 4096) // the largest unit: final norm and output head
	assert.InDelta(t, 4*p/8+2*2*head, fsdp.Weights, 1)
	assert.InDelta(t, 4*p/8+4*head, fsdp.Gradients, 1)
	assert.Less(t, fsdp.Total(), 80e9, "FSDP fits an H100")
	assert.Greater(t, z2.Total(), 80e9, "ZeRO-2 does not, at 8K tokens")
	assert.Greater(t, ddp.Total(), 80e9)

	// Tensor parallelism over 4 ranks: a quarter of the state, and of the
	// activations all but 10·d per token.
	tp := MemoryPerGPU(m, NoSharding, NoCheckpointing, 2, 4, 8192, 1)
	assert.InDelta(t, 4*p, tp.Weights+tp.Gradients+tp.Optimizer, 1)
	assert.InDelta(t, ddp.Activations*(10+24.0/4)/34, tp.Activations, 1)

	// Under accumulation the gradients stay whole until the last micro-batch.
	assert.InDelta(t, 4*p, MemoryPerGPU(m, ZeRO2, NoCheckpointing, 8, 1, 8192, 4).Gradients, 1)
}

// The calibrated efficiencies give the published per-GPU throughput
// (REFERENCE.md, training: "ResNet-50 training, per GPU", "MFU these imply").
func TestEfficiencyGivesPublishedThroughput(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	for _, tc := range []struct {
		gpu    string
		images float64
	}{{"a100", 3450}, {"h100", 7074}, {"h200", 7945}} {
		g, err := GPUPreset(tc.gpu)
		require.NoError(t, err)
		perImage := ComputeSeconds(m, g, Efficiency("resnet50", tc.gpu), NoCheckpointing, 256, 1) / 256
		assert.InEpsilon(t, tc.images, 1/perImage, 0.05, tc.gpu)
	}
	assert.Equal(t, DefaultMFU, Efficiency("custom", "h100"))
	assert.Equal(t, 0.45, Efficiency("gpt2-1.5b", "h100"))
	assert.Equal(t, 0.40, Efficiency("llama3-8b", "h100"))
}

func TestUnits(t *testing.T) {
	for name, want := range map[string]int{"resnet50": 4, "gpt2-1.5b": 50, "llama3-8b": 34} {
		m, err := Preset(name)
		require.NoError(t, err)
		assert.Len(t, m.Units, want, "%s: one unit per block, plus the embeddings and the head", name)
		assert.Equal(t, 0, m.Units[0])
	}
	m := &Model{Tensors: make([]Tensor, 130)}
	m.GroupUnits()
	assert.Len(t, m.Units, 44, "130 layers in units of 3: at most 64 units")
	m = &Model{Tensors: make([]Tensor, 5)}
	m.GroupUnits()
	assert.Equal(t, []int{0, 1, 2, 3, 4}, m.Units)
}

// REFERENCE.md, "Pipeline parallelism": GPipe keeps every micro-batch's
// activations until its backward, 1F1B at most p−s on stage s (PipeDream-
// Flush), and interleaving v chunks keeps 1 + (p−1)/(p·v) times 1F1B's on the
// first stage (Narayanan et al., SC'21, §2.2). Counted in micro-batches of a
// whole stage, on stages without the head.
func TestPipelineActivationsInFlight(t *testing.T) {
	m, err := Preset("llama3-8b")
	require.NoError(t, err)
	const p, batch = 4, 1024
	inFlight := func(schedule string, micro, v, s int) float64 {
		cfg := &Config{Model: m, Sharding: NoSharding, Checkpointing: NoCheckpointing, TP: 1, PP: p,
			PPSchedule: schedule, PPVirtual: v, Batch: batch, Accumulation: micro}
		perMicro := float64(m.Blocks/p) * m.BlockBytes * batch
		return StageMemory(cfg, s, 1).Activations / perMicro
	}
	for s := range p - 1 {
		assert.InDelta(t, 8, inFlight(GPipe, 8, 1, s), 1e-9, "GPipe, stage %d: all 8", s)
		assert.InDelta(t, p-s, inFlight(OneFOneB, 8, 1, s), 1e-9, "1F1B, stage %d: p−s", s)
		assert.InDelta(t, 2, inFlight(OneFOneB, 2, 1, s), 1e-9, "1F1B, stage %d: no more than m", s)
	}
	for _, v := range []int{2, 4} {
		want := p * (1 + float64(p-1)/float64(p*v))
		assert.InDelta(t, want, inFlight(Interleaved, 8, v, 0), 1e-9, "interleaved, v=%d", v)
	}
	// The parameters: a quarter of the blocks each, the head on the last.
	cfg := &Config{Model: m, Sharding: NoSharding, TP: 1, PP: p, PPSchedule: OneFOneB, Batch: batch, Accumulation: 8}
	var sum float64
	for s := range p {
		sum += StageMemory(cfg, s, 1).Weights
	}
	assert.InDelta(t, 4*float64(m.Params()), sum, 1, "every parameter on exactly one stage")
	assert.Greater(t, PipelineMemory(cfg, 1).Total(), StageMemory(cfg, 1, 1).Total())
}
