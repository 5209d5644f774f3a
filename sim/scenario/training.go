package scenario

import (
	"fmt"
	"slices"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Training is a data-parallel training job over the first Ranks endpoints.
type Training struct {
	Model        string  `yaml:"model"`        // resnet50 | gpt2-1.5b | llama3-8b | custom
	Layers       []Layer `yaml:"layers"`       // model custom
	GPU          string  `yaml:"gpu"`          // a100 | h100 | h200 | b200
	MFU          float64 `yaml:"mfu"`          // share of peak FLOPs reached; 0: calibrated for the model and GPU
	Batch        int     `yaml:"batch"`        // samples (images, tokens) per GPU per micro-batch; 0: the model's default
	Accumulation int     `yaml:"accumulation"` // micro-batches per optimizer step; 0: the model's default
	Sharding     string  `yaml:"sharding"`     // none | zero1 | zero2 | fsdp; "": the model's default
	TP           int     `yaml:"tp"`           // tensor-parallel degree; 0 or 1: none
	TPLayout     string  `yaml:"tp_layout"`    // node (a group's ranks on one node) | spread (on different nodes)
	PP           int     `yaml:"pp"`           // pipeline stages; 0 or 1: none
	PPSchedule   string  `yaml:"pp_schedule"`  // gpipe | 1f1b | interleaved
	PPVirtual    int     `yaml:"pp_virtual"`   // model chunks per stage (interleaved only); 0 or 1: one
	// Placement orders the parallel dimensions over the ranks, fastest
	// first: tp-pp-dp puts a tensor-parallel group on consecutive ranks,
	// the stages next, data parallelism over the rest (used with pp above 1).
	Placement string `yaml:"placement"`
	// Checkpointing is activation checkpointing as torchtitan names it: none
	// | selective | full.
	Checkpointing string     `yaml:"checkpointing"`
	BucketCap     unit.Bytes `yaml:"bucket_cap"`   // DDP bucket_cap_mb
	FirstBucket   unit.Bytes `yaml:"first_bucket"` // DDP's first, small bucket
	Overlap       bool       `yaml:"overlap"`      // all-reduce buckets during the backward pass
	Compression   string     `yaml:"compression"`  // gradients on the wire: fp32 | bf16 | fp16 | fp8 | int8
	Iterations    int        `yaml:"iterations"`
	Ranks         int        `yaml:"ranks"` // 0: every endpoint
	Algo          string     `yaml:"algo"`  // all-reduce algorithm; default ring, hierarchical on multi-node GPU topologies
	// GPUHourPrice is what one GPU-hour costs, for the report's training.cost
	// (0: no price, GPU-hours only); the run itself never reads it.
	GPUHourPrice float64 `yaml:"gpu_hour_price"`
	// CheckpointEvery writes a checkpoint of the training state (fp32
	// weights and Adam's moments) to topology.storage_nodes after every
	// CheckpointEvery iterations, while training goes on (0: none).
	CheckpointEvery int `yaml:"checkpoint_every"`
	// SampleBytes is what the data loader reads from the storage nodes per
	// sample, for the next step while this one runs (0: no reads).
	SampleBytes unit.Bytes `yaml:"sample_bytes"`
	// StorageClass is the traffic class of the checkpoint's writes and the
	// loader's reads ("": collective.class's).
	StorageClass string `yaml:"storage_class"`
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
		tr.Algo = "ring"
		if (t.Kind == DGX && t.Nodes > 1 || t.Kind == LeafSpine && t.GPUsPerNode > 1) && tr.Ranks == 0 {
			tr.Algo = "hierarchical"
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
	if tr.Model == "custom" {
		c.layers()
	} else if !slices.Contains(TrainingModels, tr.Model) {
		c.oneOf("training.model", tr.Model, msg.F("a model"), append(slices.Clone(TrainingModels), "custom")...)
	}
	c.oneOf("training.gpu", tr.GPU, msg.F("a GPU"), "a100", "h100", "h200", "b200")
	if g := s.Topology.GPU; c.present("training.gpu") && c.present("topology.gpu") && tr.GPU != g {
		c.fail("training.gpu", "%s is not topology.gpu (%s): one cluster has one GPU generation; set one of the two (the other follows it)", c.text("training.gpu", tr.GPU), g)
	}
	if tr.MFU != 0 {
		c.share("training.mfu", tr.MFU, MinMFU, 1, msg.F("a share of peak FLOPs (0 picks the model's calibrated one)"), 0.4)
	}
	c.between("training.batch", tr.Batch, 0, MaxBatch, 256, msg.F("batch (0 picks the model's default)"))
	c.between("training.accumulation", tr.Accumulation, 0, MaxAccumulation, 8, msg.F("accumulation (0 picks the model's default)"))
	if tr.Sharding != "" {
		c.oneOf("training.sharding", tr.Sharding, msg.F("a sharding mode"), Shardings...)
	}
	if tr.Checkpointing != "" { // "": none, for a scenario built in Go
		c.oneOf("training.checkpointing", tr.Checkpointing, msg.F("an activation-checkpointing mode"), Checkpointings...)
	}
	c.between("training.iterations", tr.Iterations, 1, 100, 1, msg.F("iterations"))
	if tr.BucketCap < unit.KiB || tr.BucketCap > unit.GiB {
		c.fail("training.bucket_cap", "%s is not allowed: 1KiB to 1GiB (PyTorch's default is 25MiB)", c.text("training.bucket_cap", tr.BucketCap))
	}
	if tr.FirstBucket < 1 || tr.FirstBucket > unit.GiB {
		c.fail("training.first_bucket", "%s is not allowed: 1 byte to 1GiB (PyTorch's default is 1MiB)", c.text("training.first_bucket", tr.FirstBucket))
	}
	c.gpuHourPrice("training.gpu_hour_price", tr.GPUHourPrice)
	c.trainingStorage()
	tpOK := c.tensorParallel()
	ppOK := c.pipelineParallel()
	switch tr.Compression {
	case "fp8", "int8":
		c.fail("training.compression", "%s is not something PyTorch DDP runs: its compression hooks all-reduce fp16 or bf16, and its quantization hooks all-gather instead of all-reducing; use fp32, bf16 or fp16", c.text("training.compression", tr.Compression))
	default:
		if _, ok := GradientBytes(tr.Compression); !ok {
			c.oneOf("training.compression", tr.Compression, msg.F("a gradient format"), Compressions...)
		}
	}
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("training.ranks", tr.Ranks, endpoints)
	if !ok {
		return
	}
	if tp := max(tr.TP, 1); tpOK && ranks%tp != 0 {
		c.fail(c.blame("training.tp", "training.ranks", s.Topology.sizeKey()), "%s does not divide the %d ranks into tensor-parallel groups; use a divisor of %d (e.g. tp: %d)",
			c.text("training.tp", tr.TP), ranks, ranks, gcd(ranks, 8))
		return
	}
	if tp, pp := max(tr.TP, 1), max(tr.PP, 1); tpOK && ppOK && ranks%(tp*pp) != 0 {
		c.fail(c.blame("training.pp", "training.tp", "training.ranks", s.Topology.sizeKey()),
			"%s does not fit: tp %d × pp %d = %d does not divide the %d ranks, and tp × pp × dp must equal the ranks; use a pp that divides %d (e.g. pp: %d)",
			c.text("training.pp", tr.PP), tp, pp, tp*pp, ranks, ranks/tp, gcd(ranks/tp, 4))
	}
	// sim/plan checks what needs the model and the algorithm: memory,
	// compute time and the all-reduces' schedules (plan.Resolve).
}

// MaxGPUHourPrice bounds training.gpu_hour_price: far above any GPU's rent,
// low enough that a cost in the report stays a finite number.
const MaxGPUHourPrice = 1e6

// gpuHourPrice checks a gpu_hour_price (training's or inference's): a plain
// number, 0 to MaxGPUHourPrice.
func (c *checker) gpuHourPrice(key string, p float64) {
	if !(p >= 0 && p <= MaxGPUHourPrice) { // NaN fails both
		c.fail(key, "%s is not allowed: the price of one GPU-hour, a number from 0 (no price) to %.0f (e.g. gpu_hour_price: 2.5)",
			c.text(key, p), float64(MaxGPUHourPrice))
	}
}

// MaxTP bounds training.tp.
const MaxTP = 64

// tensorParallel checks training.tp and tp_layout (sim/plan checks that the
// model is a transformer to split, and not sharded with FSDP).
func (c *checker) tensorParallel() bool {
	tr := &c.s.Training
	ok := c.between("training.tp", tr.TP, 0, MaxTP, 8, msg.F("tp (0 or 1: no tensor parallelism)"))
	if tr.TPLayout != "" {
		ok = c.oneOf("training.tp_layout", tr.TPLayout, msg.F("a tensor-parallel layout"), "node", "spread") && ok
	}
	return ok
}

// MaxPP and MaxPPVirtual bound training.pp and training.pp_virtual.
const (
	MaxPP        = 64
	MaxPPVirtual = 16
)

// PPSchedules are the pipeline schedules training.pp_schedule takes.
var PPSchedules = []string{"gpipe", "1f1b", "interleaved"}

// Placements are the orders training.placement takes: the parallel
// dimensions over the ranks, the fastest-varying first.
var Placements = []string{"tp-pp-dp", "tp-dp-pp", "pp-tp-dp", "pp-dp-tp", "dp-tp-pp", "dp-pp-tp"}

// pipelineParallel checks training.pp, pp_schedule, pp_virtual and
// placement (sim/plan checks that the model's layers split into the stages).
func (c *checker) pipelineParallel() bool {
	tr := &c.s.Training
	ok := c.between("training.pp", tr.PP, 0, MaxPP, 4, msg.F("pp (0 or 1: no pipeline parallelism)"))
	if tr.PPSchedule != "" { // "": 1f1b, for a scenario built in Go
		ok = c.oneOf("training.pp_schedule", tr.PPSchedule, msg.F("a pipeline schedule"), PPSchedules...) && ok
	}
	if tr.Placement != "" { // "": tp-pp-dp
		ok = c.oneOf("training.placement", tr.Placement, msg.F("a placement (parallel dimensions, fastest first)"), Placements...) && ok
	}
	if !c.between("training.pp_virtual", tr.PPVirtual, 0, MaxPPVirtual, 2, msg.F("pp_virtual (model chunks per stage)")) {
		return false
	}
	switch {
	case tr.PPVirtual > 1 && tr.PPSchedule != "interleaved":
		c.fail(c.blame("training.pp_virtual", "training.pp_schedule"), "%s needs pp_schedule: interleaved (only Megatron's interleaved 1F1B gives a stage several model chunks); use pp_virtual: 1 or pp_schedule: interleaved",
			c.text("training.pp_virtual", tr.PPVirtual))
		ok = false
	case tr.PPSchedule == "interleaved" && tr.PPVirtual < 2 && tr.PP > 1:
		c.fail(c.blame("training.pp_schedule", "training.pp_virtual"), "interleaved needs two or more model chunks per stage; set pp_virtual: 2 (or more), or use pp_schedule: 1f1b")
		ok = false
	}
	return ok
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TrainingModels are the preset models training.model takes besides custom
// (sim/train's presets; a test in sim/plan keeps the two lists equal).
var TrainingModels = []string{"gpt2-1.5b", "llama3-8b", "resnet50"}

// Shardings are the sharding modes training.sharding takes (sim/train's).
var Shardings = []string{"none", "zero1", "zero2", "fsdp"}

// Checkpointings are the modes training.checkpointing takes (sim/train's).
var Checkpointings = []string{"none", "selective", "full"}

// Limits on training.
const (
	MinMFU          = 0.01
	MaxBatch        = 1 << 24
	MaxAccumulation = 1024
	MaxLayers       = 65536
	MaxLayerParams  = 100_000_000_000    // 10^11: 400 GB of fp32 gradients in one tensor
	MaxModelParams  = 10_000_000_000_000 // 10^13 in all
	MaxLayerFLOPs   = 1e15               // forward, per sample
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
