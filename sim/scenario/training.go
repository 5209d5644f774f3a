package scenario

import (
	"fmt"
	"slices"
	"strings"

	"fabriclab/sim/coll"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// Training is a data-parallel training job over the first Ranks endpoints.
type Training struct {
	Model        string     `yaml:"model"`        // resnet50 | gpt2-1.5b | llama3-8b | custom
	Layers       []Layer    `yaml:"layers"`       // model custom
	GPU          string     `yaml:"gpu"`          // a100 | h100 | h200 | b200
	MFU          float64    `yaml:"mfu"`          // share of peak FLOPs reached; 0: calibrated for the model and GPU
	Batch        int        `yaml:"batch"`        // samples (images, tokens) per GPU per micro-batch; 0: the model's default
	Accumulation int        `yaml:"accumulation"` // micro-batches per optimizer step; 0: the model's default
	Sharding     string     `yaml:"sharding"`     // none | zero1 | zero2 | fsdp; "": the model's default
	TP           int        `yaml:"tp"`           // tensor-parallel degree; 0 or 1: none
	TPLayout     string     `yaml:"tp_layout"`    // node (a group's ranks on one node) | spread (on different nodes)
	BucketCap    unit.Bytes `yaml:"bucket_cap"`   // DDP bucket_cap_mb
	FirstBucket  unit.Bytes `yaml:"first_bucket"` // DDP's first, small bucket
	Overlap      bool       `yaml:"overlap"`      // all-reduce buckets during the backward pass
	Compression  string     `yaml:"compression"`  // gradients on the wire: fp32 | bf16 | fp16 | fp8 | int8
	Iterations   int        `yaml:"iterations"`
	Ranks        int        `yaml:"ranks"` // 0: every endpoint
	Algo         string     `yaml:"algo"`  // all-reduce algorithm; default ring, hierarchical on multi-node GPU topologies
	// GPUHourPrice is what one GPU-hour costs, for the report's training.cost
	// (0: no price, GPU-hours only); the run itself never reads it.
	GPUHourPrice float64 `yaml:"gpu_hour_price"`
}

// Layer is one layer of a custom model.
type Layer struct {
	Name   string  `yaml:"name"`
	Params int64   `yaml:"params"`
	FLOPs  float64 `yaml:"flops"` // forward FLOPs per sample
}

// fillDefaults picks the all-reduce: hierarchical when every GPU of a
// multi-node topology takes part, else ring.
func (tr *Training) fillDefaults(present func(key string) bool, t *Topology) {
	if !present("training.algo") && tr.Model != "" {
		tr.Algo = coll.Ring
		if (t.Kind == DGX && t.Nodes > 1 || t.Kind == LeafSpine && t.GPUsPerNode > 1) && tr.Ranks == 0 {
			tr.Algo = coll.Hierarchical
		}
	}
}

// GradientBytes is the gradient element size on the wire for a
// training.compression: DDP's fp16/bf16 compression hooks cast each fp32
// bucket and all-reduce half the bytes.
func GradientBytes(compression string) (int64, bool) {
	switch compression {
	case "fp32":
		return 4, true
	case "bf16", "fp16":
		return 2, true
	}
	return 0, false
}

// Compressions lists the gradient formats training.compression takes.
var Compressions = []string{"fp32", "bf16", "fp16"}

// training checks the training keys when a model is set.
func (c *checker) training(endpoints int, topoOK bool) {
	s := c.s
	tr := &s.Training
	if tr.Model == "" {
		return
	}
	if s.Collective.Op != "" {
		c.fail("training.model", "a scenario runs a collective or training, not both: remove one of collective and training")
	}
	if s.Traffic.Pattern != PatternNone {
		c.fail("traffic.pattern", "%s cannot run beside training: remove the traffic keys or set pattern: none", c.text("traffic.pattern", s.Traffic.Pattern))
	}
	modelOK := true
	if tr.Model == "custom" {
		modelOK = c.layers()
	} else if !slices.Contains(trainPresets, tr.Model) {
		c.oneOf("training.model", tr.Model, "a model", append(slices.Clone(trainPresets), "custom")...)
		modelOK = false
	}
	gpuOK := c.oneOf("training.gpu", tr.GPU, "a GPU", "a100", "h100", "h200", "b200")
	mfuOK := tr.MFU == 0 || c.share("training.mfu", tr.MFU, MinMFU, 1, "a share of peak FLOPs (0 picks the model's calibrated one)", 0.4)
	batchOK := c.between("training.batch", tr.Batch, 0, MaxBatch, 256, "batch (0 picks the model's default)")
	accumOK := c.between("training.accumulation", tr.Accumulation, 0, MaxAccumulation, 8, "accumulation (0 picks the model's default)")
	shardOK := tr.Sharding == "" || c.oneOf("training.sharding", tr.Sharding, "a sharding mode", train.Shardings...)
	c.between("training.iterations", tr.Iterations, 1, 100, 1, "iterations")
	if tr.BucketCap < unit.KiB || tr.BucketCap > unit.GiB {
		c.fail("training.bucket_cap", "%s is not allowed: 1KiB to 1GiB (PyTorch's default is 25MiB)", c.text("training.bucket_cap", tr.BucketCap))
	}
	if tr.FirstBucket < 1 || tr.FirstBucket > unit.GiB {
		c.fail("training.first_bucket", "%s is not allowed: 1 byte to 1GiB (PyTorch's default is 1MiB)", c.text("training.first_bucket", tr.FirstBucket))
	}
	c.gpuHourPrice()
	tpOK := c.tensorParallel(modelOK && gpuOK && shardOK)
	jobOK := modelOK && gpuOK && mfuOK && batchOK && accumOK && shardOK && tpOK
	if jobOK {
		jobOK = c.computeTime()
	}
	switch tr.Compression {
	case "fp8", "int8":
		c.fail("training.compression", "%s is not something PyTorch DDP runs: its compression hooks all-reduce fp16 or bf16, and its quantization hooks all-gather instead of all-reducing; use fp32, bf16 or fp16", c.text("training.compression", tr.Compression))
	default:
		if _, ok := GradientBytes(tr.Compression); !ok {
			c.oneOf("training.compression", tr.Compression, "a gradient format", Compressions...)
		}
	}
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("training.ranks", tr.Ranks, endpoints)
	if !ok {
		return
	}
	tp := 1
	if tpOK {
		tp = max(tr.TP, 1)
		if ranks%tp != 0 {
			c.fail(c.blame("training.tp", "training.ranks", s.Topology.sizeKey()), "%s does not divide the %d ranks into tensor-parallel groups; use a divisor of %d (e.g. tp: %d)",
				c.text("training.tp", tr.TP), ranks, ranks, gcd(ranks, 8))
			return
		}
	}
	if jobOK && tr.Model != "custom" {
		c.memory(ranks) // a custom model gives no activation sizes
	}
	sharding := train.NoSharding
	if shardOK && modelOK && gpuOK { // TrainConfig needs a known model and GPU
		sharding = tr.TrainConfig().Sharding
	}
	scheds, err := train.Schedules(sharding, tr.Algo, s.CollParams(ranks, 0), tp, tr.TPLayout == "spread")
	if err != nil {
		c.fail("training.algo", "%v", err)
		return
	}
	for _, sched := range scheds {
		if sched.Steps == nil && s.Sim.Fidelity != FlowLevel && s.Collective.Execution != "streamed" {
			c.fail(c.blame("training.ranks", s.Topology.sizeKey(), "training.algo"), "a %s over %d ranks has too many transfers to run step by step; use sim: {fidelity: flow}", sched.Op, sched.Ranks)
			return
		}
	}
}

// memory checks that a rank's weights, gradients, optimizer state and
// activations fit its GPU's HBM, and names what would.
func (c *checker) memory(ranks int) {
	tr := &c.s.Training
	cfg := tr.TrainConfig()
	tp := cfg.TP
	dp := ranks / tp
	mem := train.MemoryPerGPU(cfg.Model, cfg.Sharding, dp, tp, cfg.Batch, cfg.Accumulation)
	hbm := cfg.GPU.HBMCapacity
	if mem.Total() <= hbm {
		return
	}
	var fits []string
	for _, sh := range train.Shardings {
		if sh == train.FSDP && tp > 1 {
			continue
		}
		if m := train.MemoryPerGPU(cfg.Model, sh, dp, tp, cfg.Batch, cfg.Accumulation); sh != cfg.Sharding && m.Total() <= hbm {
			fits = append(fits, fmt.Sprintf("training.sharding: %s (%.0f GB)", sh, m.Total()/1e9))
			break
		}
	}
	if a := cfg.Model.ActivationBytes; a > 0 {
		if most := int((hbm - (mem.Total() - mem.Activations)) / a); most >= 1 {
			fits = append(fits, fmt.Sprintf("a smaller batch (at most %d %ss per GPU)", most, cfg.Model.Sample))
		}
	}
	if len(fits) == 0 {
		fits = append(fits, "a GPU with more memory")
	}
	key := c.blame("training.batch", "training.sharding", "training.gpu", "training.model", "training.layers")
	c.fail(key, "%s does not fit: %s with sharding %s and batch %d needs %.0f GB per GPU (%s), more than %s's %.0f GB; use %s",
		c.text(key, valueOf(key, tr)), cfg.Model.Name, cfg.Sharding, cfg.Batch, mem.Total()/1e9, mem, tr.GPU, hbm/1e9, strings.Join(fits, ", or "))
}

// TrainConfig is the job training describes, with the model's defaults filled
// in (batch, accumulation, sharding, calibrated efficiency); the network keys
// (algo, collective options) are left to the caller. It panics on a model or
// GPU Validate rejects.
func (tr *Training) TrainConfig() train.Config {
	m := tr.TrainModel()
	gpu, err := train.GPUPreset(tr.GPU)
	if err != nil {
		panic(fmt.Sprintf("scenario: %v", err))
	}
	cfg := train.Config{Model: m, GPU: gpu, MFU: tr.MFU, Batch: tr.Batch, Accumulation: tr.Accumulation,
		Sharding: tr.Sharding, BucketCap: tr.BucketCap, FirstBucket: tr.FirstBucket, Overlap: tr.Overlap,
		Iterations: tr.Iterations}
	cfg.WireBytes, _ = GradientBytes(tr.Compression)
	if cfg.MFU == 0 {
		cfg.MFU = train.Efficiency(m.Name, gpu.Name)
	}
	if cfg.Batch == 0 {
		cfg.Batch = m.DefaultBatch
	}
	if cfg.Accumulation == 0 {
		cfg.Accumulation = max(m.DefaultAccumulation, 1)
	}
	if cfg.Sharding == "" {
		cfg.Sharding = m.DefaultSharding
	}
	if cfg.Sharding == "" {
		cfg.Sharding = train.NoSharding
	}
	cfg.TP, cfg.TPSpread = max(tr.TP, 1), tr.TPLayout == "spread"
	return cfg
}

// MaxGPUHourPrice bounds training.gpu_hour_price: far above any GPU's rent,
// low enough that a cost in the report stays a finite number.
const MaxGPUHourPrice = 1e6

// gpuHourPrice checks training.gpu_hour_price: a plain number, 0 to MaxGPUHourPrice.
func (c *checker) gpuHourPrice() {
	p := c.s.Training.GPUHourPrice
	if !(p >= 0 && p <= MaxGPUHourPrice) { // NaN fails both
		c.fail("training.gpu_hour_price", "%s is not allowed: the price of one GPU-hour, a number from 0 (no price) to %.0f (e.g. gpu_hour_price: 2.5)",
			c.text("training.gpu_hour_price", p), float64(MaxGPUHourPrice))
	}
}

// MaxTP bounds training.tp.
const MaxTP = 64

// tensorParallel checks training.tp and tp_layout: Megatron-style tensor
// parallelism splits a transformer's sub-blocks; FSDP does not combine with it here.
func (c *checker) tensorParallel(modelOK bool) bool {
	tr := &c.s.Training
	ok := c.between("training.tp", tr.TP, 0, MaxTP, 8, "tp (0 or 1: no tensor parallelism)")
	if tr.TPLayout != "" {
		ok = c.oneOf("training.tp_layout", tr.TPLayout, "a tensor-parallel layout", "node", "spread") && ok
	}
	if !ok || tr.TP <= 1 {
		return ok
	}
	if modelOK && len(tr.TrainModel().SubBlocks) == 0 {
		c.fail("training.tp", "%s needs a transformer to split (Megatron-style: attention and MLP sub-blocks); use model gpt2-1.5b or llama3-8b, or tp: 1", c.text("training.tp", tr.TP))
		return false
	}
	if modelOK && tr.TrainConfig().Sharding == train.FSDP {
		c.fail(c.blame("training.tp", "training.sharding"), "%s with sharding fsdp is not modelled; use sharding zero1 or zero2 with tensor parallelism, or tp: 1 with fsdp", c.text("training.tp", tr.TP))
		return false
	}
	return true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

var trainPresets = train.Presets()

// Limits on training.
const (
	MinMFU          = 0.01
	MaxBatch        = 1 << 24
	MaxAccumulation = 1024
	MaxLayers       = 65536
	MaxLayerParams  = 100_000_000_000    // 10^11: 400 GB of fp32 gradients in one tensor
	MaxModelParams  = 10_000_000_000_000 // 10^13 in all
	MaxLayerFLOPs   = 1e15               // forward, per sample
	maxComputeParts = 3                  // forward and backward (2 × forward)
)

// layers checks a custom model's training.layers.
func (c *checker) layers() bool {
	layers := c.s.Training.Layers
	switch {
	case len(layers) == 0:
		c.fail("training.layers", "model custom needs layers, e.g. layers: [{name: fc, params: 1000000, flops: 2000000}]")
		return false
	case len(layers) > MaxLayers:
		c.fail("training.layers", "%d layers are too many: at most %d", len(layers), MaxLayers)
		return false
	}
	ok := true
	var params int64
	for i, l := range layers {
		key := fmt.Sprintf("training.layers[%d]", i)
		ok = c.printable(key+".name", l.Name, "fc") && ok
		if l.Params < 1 || l.Params > MaxLayerParams {
			c.fail(key+".params", "%s is not allowed: a layer has 1 to 10^11 parameters (e.g. params: 1000000)", c.text(key+".params", l.Params))
			ok = false
		} else {
			params += l.Params
		}
		if !(l.FLOPs >= 0 && l.FLOPs <= MaxLayerFLOPs) {
			c.fail(key+".flops", "%s is not allowed: forward FLOPs per sample, 0 to 10^15 (e.g. flops: 2000000)", c.text(key+".flops", l.FLOPs))
			ok = false
		}
		if len(c.errs) > maxErrors {
			return false
		}
	}
	if ok && params > MaxModelParams {
		c.fail("training.layers", "the %d layers have %d parameters in all; a model has at most 10^13", len(layers), params)
		ok = false
	}
	return ok
}

// TrainModel is the model training.model names: a preset, or a custom model
// of training.layers. It panics on a model Validate rejects.
func (tr *Training) TrainModel() *train.Model {
	if tr.Model != "custom" {
		m, err := train.Preset(tr.Model)
		if err != nil {
			panic(fmt.Sprintf("scenario: %v", err))
		}
		return m
	}
	m := &train.Model{Name: "custom", Sample: "sample", DefaultBatch: 1}
	for _, l := range tr.Layers {
		m.Tensors = append(m.Tensors, train.Tensor{Name: l.Name, Params: l.Params, FwdFLOPs: l.FLOPs})
	}
	m.GroupUnits()
	return m
}

// computeTime checks that one step's compute fits in a run: the engine
// counts time in int64 picoseconds, and an iteration longer than MaxUntil
// never reports.
func (c *checker) computeTime() bool {
	tr := &c.s.Training
	cfg := tr.TrainConfig()
	m, gpu := cfg.Model, cfg.GPU
	sec := train.ComputeSeconds(m, gpu, cfg.MFU, cfg.Batch, cfg.Accumulation)
	if sec <= MaxUntil.Seconds() {
		return true
	}
	fits := "use fewer parameters"
	if f := m.FwdFLOPs(); f > 0 {
		most := (MaxUntil.Seconds() - float64(m.Params())*train.OptimizerBytesPerParam/gpu.HBM) * gpu.PeakFLOPS * cfg.MFU / (maxComputeParts * f * float64(cfg.Accumulation))
		if most >= 1 {
			fits = fmt.Sprintf("e.g. batch: %d", int(most))
		}
	}
	key := c.blame("training.batch", "training.accumulation", "training.mfu", "training.layers", "training.gpu", "training.model")
	c.fail(key, "%s makes one step's compute take %.4gs (%.4g FLOPs per sample forward, × 3 for backward, × batch %d × accumulation %d at %g of %s's %g TFLOP/s, plus the optimizer); a run simulates at most %s: %s",
		c.text(key, valueOf(key, tr)), sec, m.FwdFLOPs(), cfg.Batch, cfg.Accumulation, cfg.MFU, tr.GPU, gpu.PeakFLOPS/1e12, MaxUntil, fits)
	return false
}

// valueOf is the value of a training key, for messages about a scenario
// built in Go.
func valueOf(key string, tr *Training) any {
	switch key {
	case "training.batch":
		return tr.Batch
	case "training.accumulation":
		return tr.Accumulation
	case "training.sharding":
		return tr.Sharding
	case "training.mfu":
		return tr.MFU
	case "training.gpu":
		return tr.GPU
	case "training.layers":
		return "the layers"
	}
	return tr.Model
}
