package train

// Activation checkpointing modes, as torchtitan names them
// (activation_checkpoint.mode): each transformer block is wrapped in a
// checkpoint, so its backward first recomputes what its forward did not keep.
// The recomputation adds FLOPs to the block's backward tasks but no
// communication: selective saves collectives' outputs, and a full recompute's
// repeated tensor-parallel all-reduces are left out.
const (
	NoCheckpointing = "none"      // every block keeps all its activations
	Selective       = "selective" // torchtitan's op policy: keep matmul and attention outputs, except every second matmul
	Full            = "full"      // keep each block's input only; recompute its whole forward
)

// Checkpointings lists the modes.
var Checkpointings = []string{NoCheckpointing, Selective, Full}

// blockMatmul is one matrix multiply of a transformer block, in forward
// order: its tensor, its output width per sample and its forward FLOPs.
type blockMatmul struct {
	tensor      int
	width, flop float64
}

// selectiveBlock applies torchtitan's selective op policy to one block's
// matmuls (torchtitan 9dec370, parallelize_llama.py _apply_ac_to_transformer_block,
// selective_ac_option "op"): the outputs of matmuls and of flash attention
// are saved, except every second matmul, which the backward recomputes. It
// marks the recomputed matmuls' FLOPs on their tensors and returns the bf16
// bytes per sample the block keeps: its input, the attention output and the
// saved matmuls' outputs (flash attention's logsumexp, 4 bytes per head, is
// left out).
func selectiveBlock(m *Model, mms []blockMatmul, d float64) float64 {
	kept := 2 * (d + d)
	for i, mm := range mms {
		if (i+1)%2 == 0 {
			m.Tensors[mm.tensor].Recompute += mm.flop
			continue
		}
		kept += 2 * mm.width
	}
	return kept
}

// blockKeeps is what one block keeps per sample for its backward under mode.
func (m *Model) blockKeeps(mode string) float64 {
	switch mode {
	case Selective:
		return m.SelectiveBytes
	case Full:
		return 2 * float64(m.Hidden) // the block's bf16 input
	}
	return m.BlockBytes
}

// ActivationBytesWith is the most one sample's activations take under a
// checkpointing mode: every block keeps what the mode keeps, and the block
// whose backward is running holds its whole activations again, recomputed.
// Models without transformer blocks keep ActivationBytes.
func (m *Model) ActivationBytesWith(mode string) float64 {
	if m.Blocks == 0 {
		return m.ActivationBytes
	}
	freed := m.BlockBytes - m.blockKeeps(mode)
	return m.ActivationBytes - float64(m.Blocks-1)*freed
}

// recomputeFLOPs is the forward FLOPs per sample tensor i's layer recomputes
// in the backward under mode: full recomputes every block's forward,
// selective the matmuls its policy does not save.
func (m *Model) recomputeFLOPs(i int, mode string) float64 {
	switch mode {
	case Selective:
		return m.Tensors[i].Recompute
	case Full:
		for _, sb := range m.SubBlocks {
			if i >= sb[0] && i < sb[1] {
				return m.Tensors[i].FwdFLOPs
			}
		}
	}
	return 0
}

// RecomputeFLOPs is the forward FLOPs per sample the backward recomputes
// under mode.
func (m *Model) RecomputeFLOPs(mode string) float64 {
	var f float64
	for i := range m.Tensors {
		f += m.recomputeFLOPs(i, mode)
	}
	return f
}
