// Package train runs data-parallel training iterations on a simulated
// cluster: forward and backward compute per layer, PyTorch-DDP gradient
// buckets all-reduced over the network while the backward pass goes on, and
// the optimizer step. Activation checkpointing (checkpointing.go) trades a
// transformer block's kept activations for recomputation in its backward.
package train

import (
	"fmt"
	"sort"
	"strings"

	"fabriclab/sim/msg"
)

// Tensor is one parameter tensor, in the order the model defines it.
type Tensor struct {
	Name   string
	Params int64
	// FwdFLOPs is the forward FLOPs per sample attributed to this tensor's layer
	// (on the layer's first tensor; 0 on the rest).
	FwdFLOPs float64
	// Recompute is the forward FLOPs per sample of this tensor's layer that
	// selective activation checkpointing recomputes in the backward.
	Recompute float64
}

// Model is a network as DDP sees it: parameter tensors in definition order.
type Model struct {
	Name    string
	Tensors []Tensor
	// Sample says what one unit of the per-GPU batch is (an image, a token).
	Sample string
	// Published is the parameter count the model's authors give, for checking.
	Published int64
	// DefaultBatch is the per-GPU micro-batch when the scenario gives none,
	// DefaultAccumulation the micro-batches per optimizer step, and
	// DefaultSharding how the published runs shard (NoSharding for plain DDP).
	DefaultBatch        int
	DefaultAccumulation int
	DefaultSharding     string
	// ActivationBytes is what one sample's forward pass keeps for the
	// backward pass (mixed precision), for the memory check.
	ActivationBytes float64
	// Units are the first tensor of each FSDP unit (a transformer block, a
	// ResNet stage) in definition order; Units[0] is 0.
	Units []int
	// SubBlocks are a transformer's attention and MLP sub-blocks, [first,
	// end) tensor ranges: Megatron tensor parallelism all-reduces their
	// output in forward and their input's gradient in backward. Hidden is
	// the width those activations have.
	SubBlocks [][2]int
	Hidden    int
	// Blocks is a transformer's block count (0 for other models); each block
	// keeps BlockBytes per sample without activation checkpointing and
	// SelectiveBytes under torchtitan's selective policy (checkpointing.go).
	Blocks                     int
	BlockBytes, SelectiveBytes float64
	// A transformer's context (its training sequence), what one token adds
	// to the KV cache (bf16), and the output head's forward FLOPs per token,
	// for inference (sim/infer).
	Context         int
	KVBytesPerToken int64
	HeadFLOPs       float64
	// TiedHead says the output head reuses the embedding: its FLOPs sit on
	// Tensors[0] (pipelineModel moves them to the last stage).
	TiedHead bool
}

// MaxUnits is how many FSDP units a custom model's layers are grouped into
// at most.
const MaxUnits = 64

// GroupUnits makes m's FSDP units runs of consecutive tensors, at most
// MaxUnits of them (one per tensor when there are that few).
func (m *Model) GroupUnits() {
	per := max((len(m.Tensors)+MaxUnits-1)/MaxUnits, 1)
	m.Units = m.Units[:0]
	for i := 0; i < len(m.Tensors); i += per {
		m.Units = append(m.Units, i)
	}
}

// Params is the total parameter count.
func (m *Model) Params() int64 {
	var n int64
	for _, t := range m.Tensors {
		n += t.Params
	}
	return n
}

// FwdFLOPs is the forward FLOPs per sample.
func (m *Model) FwdFLOPs() float64 {
	var f float64
	for _, t := range m.Tensors {
		f += t.FwdFLOPs
	}
	return f
}

// MatmulFLOPs is a transformer's forward FLOPs per token without attention's
// scores: 2 per weight of its matrices, the output head's included.
func (m *Model) MatmulFLOPs() float64 {
	return m.FwdFLOPs() - 4*float64(m.Blocks)*float64(m.Context)*float64(m.Hidden)
}

// Presets lists the model preset names.
func Presets() []string { return []string{"gpt2-1.5b", "llama3-8b", "resnet50"} }

// Preset returns a model by name.
func Preset(name string) (*Model, error) {
	switch name {
	case "resnet50":
		return resNet50(), nil
	case "gpt2-1.5b":
		return gpt2XL(), nil
	case "llama3-8b":
		return llama3_8B(), nil
	}
	return nil, msg.Errorf("unknown model %q; use one of %s, or custom with layers", name, strings.Join(Presets(), ", "))
}

// resNet50 is torchvision's resnet50 at 224×224: 25,557,032 parameters and
// 4.09 G multiply-adds (8.2 GFLOPs) forward per image.
func resNet50() *Model {
	m := &Model{Name: "resnet50", Sample: "image", Published: 25_557_032, DefaultBatch: 256, DefaultAccumulation: 1,
		DefaultSharding: NoSharding, Units: []int{0}}
	hw := 112 // output side of conv1
	// Each convolution keeps its output for batch norm's backward and the
	// ReLU's output for the next convolution's: two fp16 tensors per output element.
	conv := func(name string, cin, cout, k, stride int) {
		if stride == 2 {
			hw /= 2
		}
		m.Tensors = append(m.Tensors, Tensor{Name: name + ".weight", Params: int64(cout * cin * k * k),
			FwdFLOPs: 2 * float64(cout*cin*k*k) * float64(hw*hw)})
		m.ActivationBytes += 2 * 2 * float64(cout*hw*hw)
	}
	bn := func(name string, c int) {
		m.Tensors = append(m.Tensors, Tensor{Name: name + ".weight", Params: int64(c)}, Tensor{Name: name + ".bias", Params: int64(c)})
	}
	m.Tensors = append(m.Tensors, Tensor{Name: "conv1.weight", Params: 64 * 3 * 7 * 7, FwdFLOPs: 2 * 64 * 3 * 49 * 112 * 112})
	m.ActivationBytes = 2*3*224*224 + 2*2*64*112*112 // the input image, conv1's output and ReLU
	bn("bn1", 64)
	hw = 56 // after the max pool
	in := 64
	for li, layer := range []struct{ width, blocks, stride int }{{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}} {
		out := layer.width * 4
		if li > 0 {
			m.Units = append(m.Units, len(m.Tensors))
		}
		for b := range layer.blocks {
			p := fmt.Sprintf("layer%d.%d", li+1, b)
			stride := 1
			if b == 0 {
				stride = layer.stride
			}
			conv(p+".conv1", in, layer.width, 1, 1)
			bn(p+".bn1", layer.width)
			conv(p+".conv2", layer.width, layer.width, 3, stride) // torchvision v1.5: stride on the 3×3
			bn(p+".bn2", layer.width)
			conv(p+".conv3", layer.width, out, 1, 1)
			bn(p+".bn3", out)
			if b == 0 {
				conv(p+".downsample.0", in, out, 1, 1)
				bn(p+".downsample.1", out)
			}
			in = out
		}
	}
	m.Tensors = append(m.Tensors, Tensor{Name: "fc.weight", Params: 1000 * 2048, FwdFLOPs: 2 * 1000 * 2048}, Tensor{Name: "fc.bias", Params: 1000})
	return m
}

// transformer builds a decoder-only model: token (and position) embeddings,
// blocks, final norm and (untied) output head. Forward FLOPs per token are
// 2 × matrix parameters plus attention's 4 × seq × d per layer (causal mask ignored).
type transformerShape struct {
	name              string
	layers, d, ffn    int
	heads, kvHeads    int
	vocab, seq        int
	positions         bool // learned position embeddings (GPT-2)
	gated, bias, tied bool // SwiGLU MLP (Llama); biases and LayerNorm (GPT-2); tied head
	published         int64
	// The published runs' defaults: sequences per micro-batch, micro-batches
	// per step, sharding.
	batch, accumulation int
	sharding            string
}

func transformer(s transformerShape) *Model {
	m := &Model{Name: s.name, Sample: "token", Published: s.published, DefaultBatch: s.batch * s.seq,
		DefaultAccumulation: s.accumulation, DefaultSharding: s.sharding, Units: []int{0},
		// Korthikanti et al. 2022: a block keeps 34·d bytes per token with
		// selective recomputation (flash attention stores no score matrix);
		// the loss keeps fp32 logits.
		ActivationBytes: 34*float64(s.d)*float64(s.layers) + 4*float64(s.vocab),
		Blocks:          s.layers, BlockBytes: 34 * float64(s.d)}
	add := func(name string, params int64, flops float64) {
		m.Tensors = append(m.Tensors, Tensor{Name: name, Params: params, FwdFLOPs: flops})
	}
	d := int64(s.d)
	add("embed.weight", int64(s.vocab)*d, 0)
	if s.positions {
		add("pos_embed.weight", int64(s.seq)*d, 0)
	}
	norm := func(name string) {
		add(name+".weight", d, 0)
		if s.bias {
			add(name+".bias", d, 0)
		}
	}
	kv := d * int64(s.kvHeads) / int64(s.heads)
	attn := 4 * float64(s.seq) * float64(s.d)
	for l := range s.layers {
		p := fmt.Sprintf("layers.%d", l)
		m.Units = append(m.Units, len(m.Tensors))
		attnFrom := len(m.Tensors)
		norm(p + ".attn_norm")
		qkv := d*d + 2*d*kv
		add(p+".attn.qkv.weight", qkv, 2*float64(qkv)+attn)
		// The block's matmuls in torchtitan's forward order: wq, wk, wv, wo,
		// then w1, w3, w2 (gated) or up, down.
		mms := []blockMatmul{{len(m.Tensors) - 1, float64(d), 2 * float64(d*d)},
			{len(m.Tensors) - 1, float64(kv), 2 * float64(d*kv)}, {len(m.Tensors) - 1, float64(kv), 2 * float64(d*kv)}}
		if s.bias {
			add(p+".attn.qkv.bias", d+2*kv, 0)
		}
		add(p+".attn.out.weight", d*d, 2*float64(d*d))
		mms = append(mms, blockMatmul{len(m.Tensors) - 1, float64(d), 2 * float64(d*d)})
		if s.bias {
			add(p+".attn.out.bias", d, 0)
		}
		mlpFrom := len(m.Tensors)
		m.SubBlocks = append(m.SubBlocks, [2]int{attnFrom, mlpFrom})
		norm(p + ".mlp_norm")
		f := int64(s.ffn)
		if s.gated {
			add(p+".mlp.gate_up.weight", 2*d*f, 2*float64(2*d*f))
			gu := len(m.Tensors) - 1
			mms = append(mms, blockMatmul{gu, float64(f), 2 * float64(d*f)}, blockMatmul{gu, float64(f), 2 * float64(d*f)})
		} else {
			add(p+".mlp.up.weight", d*f, 2*float64(d*f))
			mms = append(mms, blockMatmul{len(m.Tensors) - 1, float64(f), 2 * float64(d*f)})
			if s.bias {
				add(p+".mlp.up.bias", f, 0)
			}
		}
		add(p+".mlp.down.weight", f*d, 2*float64(f*d))
		mms = append(mms, blockMatmul{len(m.Tensors) - 1, float64(d), 2 * float64(f*d)})
		m.SelectiveBytes = selectiveBlock(m, mms, float64(s.d))
		if s.bias {
			add(p+".mlp.down.bias", d, 0)
		}
		m.SubBlocks = append(m.SubBlocks, [2]int{mlpFrom, len(m.Tensors)})
	}
	m.Hidden, m.Context = s.d, s.seq
	m.KVBytesPerToken = 2 * int64(s.layers) * kv * 2 // a key and a value per layer, bf16
	m.HeadFLOPs = 2 * float64(int64(s.vocab)*d)
	m.Units = append(m.Units, len(m.Tensors)) // the final norm and the head
	norm("final_norm")
	if s.tied {
		// The head reuses the embedding: its FLOPs count, its parameters do not.
		m.Tensors[0].FwdFLOPs = 2 * float64(int64(s.vocab)*d)
		m.TiedHead = true
	} else {
		add("lm_head.weight", int64(s.vocab)*d, 2*float64(int64(s.vocab)*d))
	}
	return m
}

// gpt2XL is GPT-2 1.5B (gpt2-xl): 48 layers, d 1600, 1,557,611,200
// parameters. llm.c's reproduction on 8 × H100 runs 16 sequences of 1,024
// tokens per GPU, 8 micro-batches per step (1,048,576 tokens), ZeRO-1.
func gpt2XL() *Model {
	return transformer(transformerShape{name: "gpt2-1.5b", layers: 48, d: 1600, ffn: 6400, heads: 25, kvHeads: 25,
		vocab: 50257, seq: 1024, positions: true, bias: true, tied: true, published: 1_557_611_200,
		batch: 16, accumulation: 8, sharding: ZeRO1})
}

// llama3_8B is Llama 3 8B: 32 layers, d 4096, SwiGLU 14336, 8 KV heads,
// vocabulary 128,256: 8,030,261,248 parameters. torchtitan trains it on
// 8 × H100 with FSDP, one 8,192-token sequence per GPU per step.
func llama3_8B() *Model {
	return transformer(transformerShape{name: "llama3-8b", layers: 32, d: 4096, ffn: 14336, heads: 32, kvHeads: 8,
		vocab: 128256, seq: 8192, gated: true, published: 8_030_261_248,
		batch: 1, accumulation: 1, sharding: FSDP})
}

// GPU is an accelerator's compute and memory peak.
type GPU struct {
	Name        string
	PeakFLOPS   float64 // dense BF16 tensor-core FLOP/s
	HBM         float64 // bytes/s
	HBMCapacity float64 // bytes
}

// GPUs lists the GPU presets: NVIDIA's published dense BF16 peaks, HBM
// bandwidths and capacities (SXM parts; A100 80 GB; B200 as in HGX B200).
func GPUs() []GPU {
	return []GPU{
		{"a100", 312e12, 2.039e12, 80e9},
		{"b200", 2250e12, 8e12, 180e9},
		{"h100", 989e12, 3.35e12, 80e9},
		{"h200", 989e12, 4.8e12, 141e9},
	}
}

// DefaultMFU is the compute efficiency of a model the calibration table
// does not know (a custom model).
const DefaultMFU = 0.4

// Efficiency is the share of gpu's peak that model's training kernels reach,
// calibrated on published per-GPU throughput (REFERENCE.md, training):
// ResNet-50 is memory-bound, so its share falls as the tensor cores outgrow
// HBM (MLPerf Training: 7,010–7,138 images/s on H100, 7,945 on H200,
// ≈ 3,450 on A100); GPT-2 1.5B 0.45 (llm.c, 46,811 tokens/s on H100);
// Llama 3 8B 0.40 (torchtitan, 5,762–6,667 tokens/s on H100). Without a
// published figure a GPU takes the nearest one's: B200's ResNet-50 share is
// H200's scaled by HBM bandwidth over peak, the transformers keep H100's.
func Efficiency(model, gpu string) float64 {
	table := map[string]map[string]float64{
		"resnet50":  {"a100": 0.27, "h100": 0.18, "h200": 0.20, "b200": 0.145},
		"gpt2-1.5b": {"a100": 0.45, "h100": 0.45, "h200": 0.45, "b200": 0.45},
		"llama3-8b": {"a100": 0.40, "h100": 0.40, "h200": 0.40, "b200": 0.40},
	}
	if e, ok := table[model][gpu]; ok {
		return e
	}
	return DefaultMFU
}

// GPUPreset returns a GPU by name.
func GPUPreset(name string) (GPU, error) {
	gs := GPUs()
	for _, g := range gs {
		if g.Name == name {
			return g, nil
		}
	}
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.Name
	}
	sort.Strings(names)
	return GPU{}, msg.Errorf("unknown gpu %q; use one of %s", name, strings.Join(names, ", "))
}
