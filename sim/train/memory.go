package train

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Memory is what one GPU holds for training, in bytes: mixed-precision Adam
// keeps 16 bytes per parameter (fp32 weights, fp32 gradients, two fp32
// moments; ZeRO, Rajbhandari et al. 2020), sharded as the mode says, plus
// the activations one micro-batch keeps for its backward pass.
type Memory struct {
	Weights, Gradients, Optimizer, Activations float64
}

// Total is the sum.
func (m Memory) Total() float64 { return m.Weights + m.Gradients + m.Optimizer + m.Activations }

func (m Memory) String() string { return m.Text().String() }

// Text is String as a msg.Text, for messages.
func (m Memory) Text() msg.Text {
	return msg.F("weights %.1f, gradients %.1f, Adam state %.1f, activations %.1f GB",
		m.Weights/1e9, m.Gradients/1e9, m.Optimizer/1e9, m.Activations/1e9)
}

// MemoryPerGPU is what a rank of dp data-parallel ranks holds. FSDP adds the
// bf16 parameters of the two largest units gathered at once (the one
// computing and the one prefetched) and one unit's unsharded gradients.
// Under accumulation ZeRO-2 and FSDP keep whole gradients until the last
// micro-batch (no_sync). Tensor parallelism over tp ranks keeps 1/tp of the
// parameters, and of a block's activations all but the 10·d bytes per token
// every rank holds (Korthikanti et al.: 34·d becomes 10·d + 24·d/tp; the
// same share of what activation checkpointing keeps, approximately).
func MemoryPerGPU(m *Model, sharding, checkpointing string, dp, tp, batch, accumulation int) Memory {
	return memoryOf(m, float64(m.Params()), m.ActivationBytesWith(checkpointing), sharding, dp, tp, batch, accumulation)
}

// memoryOf is MemoryPerGPU for a rank that holds params of m's parameters
// (before tensor parallelism) and act activation bytes per sample.
func memoryOf(m *Model, params, act float64, sharding string, dp, tp, batch, accumulation int) Memory {
	t := float64(max(tp, 1))
	p := params / t
	d := float64(max(dp, 1))
	mem := Memory{Weights: 4 * p, Gradients: 4 * p, Optimizer: 8 * p,
		Activations: act * float64(batch) * (10 + 24/t) / 34}
	if sharding == NoSharding || sharding == "" {
		return mem
	}
	mem.Optimizer /= d
	if sharding == ZeRO1 {
		return mem
	}
	unit := float64(largestUnit(m))
	if accumulation <= 1 {
		mem.Gradients /= d
		if sharding == FSDP {
			mem.Gradients += 4 * unit
		}
	}
	if sharding == FSDP {
		mem.Weights = mem.Weights/d + 2*ParamWireBytes*unit
	}
	return mem
}

func largestUnit(m *Model) int64 {
	units := append(append([]int(nil), m.Units...), len(m.Tensors))
	var most int64
	for u := range len(units) - 1 {
		most = max(most, paramsOf(m, units[u], units[u+1]))
	}
	return most
}

// StageMemory is what a rank of pipeline stage s holds, with dp replicas:
// the parameters of its layers (every chunk's), and the activations of the
// micro-batches its schedule has begun and not yet finished backward — all m
// under GPipe, at most p−s under 1F1B, more under interleaving (Narayanan et
// al., SC'21, §2.2) — counted by walking the stage's own order.
func StageMemory(cfg *Config, s, dp int) Memory {
	m, pp, v := cfg.Model, max(cfg.PP, 1), max(cfg.PPVirtual, 1)
	bounds := m.StageBounds(pp * v)
	var params float64
	kept := make([]float64, v) // per sample, what one micro-batch leaves in each chunk
	for c := range v {
		lo, hi := bounds[c*pp+s], bounds[c*pp+s+1]
		params += float64(paramsOf(m, lo, hi))
		kept[c] = m.keptIn(lo, hi, cfg.Checkpointing)
	}
	var held, most float64
	for _, sl := range PipelineOrder(cfg.PPSchedule, pp, max(cfg.Accumulation, 1), v, s) {
		if sl.Backward {
			held -= kept[sl.Chunk]
			continue
		}
		held += kept[sl.Chunk]
		most = max(most, held)
	}
	if m.Blocks > 0 { // the block whose backward runs holds its whole activations again
		most += m.BlockBytes - m.blockKeeps(cfg.Checkpointing)
	}
	return memoryOf(m, params, most, cfg.Sharding, dp, cfg.TP, cfg.Batch, cfg.Accumulation)
}

// PipelineMemory is the most any pipeline stage's rank holds.
func PipelineMemory(cfg *Config, dp int) Memory {
	var most Memory
	for s := range max(cfg.PP, 1) {
		if mem := StageMemory(cfg, s, dp); mem.Total() > most.Total() {
			most = mem
		}
	}
	return most
}

// keptIn is what one sample leaves for the backward pass in tensors
// [lo, hi): a transformer's blocks there keep what the mode keeps, and the
// last stage the head's logits; other models a share by tensors.
func (m *Model) keptIn(lo, hi int, mode string) float64 {
	if m.Blocks == 0 {
		return m.ActivationBytes * float64(hi-lo) / float64(len(m.Tensors))
	}
	blocks := 0
	for j := range m.Blocks {
		if u := m.Units[1+j]; u >= lo && u < hi {
			blocks++
		}
	}
	kept := float64(blocks) * m.blockKeeps(mode)
	if hi == len(m.Tensors) {
		kept += m.ActivationBytes - float64(m.Blocks)*m.BlockBytes
	}
	return kept
}

// CheckpointBytes is a checkpoint of m's training state: what MemoryPerGPU
// gives one unsharded replica for its fp32 weights and Adam's two moments
// (12 bytes per parameter); gradients and activations are not saved.
func CheckpointBytes(m *Model) unit.Bytes {
	mem := MemoryPerGPU(m, NoSharding, NoCheckpointing, 1, 1, 0, 1)
	return unit.Bytes(mem.Weights + mem.Optimizer)
}
