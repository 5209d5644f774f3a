package scenario

import (
	"fmt"
	"slices"

	"fabriclab/sim/coll"
	"fabriclab/sim/unit"
)

// Training is a data-parallel training job over the first Ranks endpoints.
type Training struct {
	Model       string     `yaml:"model"`        // resnet50 | gpt2-1.5b | llama3-8b | custom
	Layers      []Layer    `yaml:"layers"`       // model custom
	GPU         string     `yaml:"gpu"`          // a100 | h100 | h200 | b200
	MFU         float64    `yaml:"mfu"`          // share of peak FLOPs reached
	Batch       int        `yaml:"batch"`        // samples (images, tokens) per GPU; 0: the model's default
	BucketCap   unit.Bytes `yaml:"bucket_cap"`   // DDP bucket_cap_mb
	FirstBucket unit.Bytes `yaml:"first_bucket"` // DDP's first, small bucket
	Overlap     bool       `yaml:"overlap"`      // all-reduce buckets during the backward pass
	Compression string     `yaml:"compression"`  // gradients on the wire: fp32 | bf16 | fp16 | fp8 | int8
	Iterations  int        `yaml:"iterations"`
	Ranks       int        `yaml:"ranks"` // 0: every endpoint
	Algo        string     `yaml:"algo"`  // all-reduce algorithm; default ring, hierarchical on multi-node GPU topologies
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

// GradientBytes is the gradient element size on the wire for a training.compression.
func GradientBytes(compression string) (int64, bool) {
	switch compression {
	case "fp32":
		return 4, true
	case "bf16", "fp16":
		return 2, true
	case "fp8", "int8":
		return 1, true
	}
	return 0, false
}

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
		if len(tr.Layers) == 0 {
			c.fail("training.layers", "model custom needs layers, e.g. layers: [{name: fc, params: 1000000, flops: 2000000}]")
		}
		for i, l := range tr.Layers {
			key := fmt.Sprintf("training.layers[%d]", i)
			if l.Params <= 0 || l.Params > 1e13 {
				c.fail(key+".params", "%s is not allowed: a layer has 1 to 10^13 parameters", c.text(key+".params", l.Params))
			}
			if !(l.FLOPs >= 0 && l.FLOPs <= 1e18) {
				c.fail(key+".flops", "%s is not allowed: forward FLOPs per sample, 0 to 10^18", c.text(key+".flops", l.FLOPs))
			}
		}
	} else if !slices.Contains(trainPresets, tr.Model) {
		c.oneOf("training.model", tr.Model, "a model", append(slices.Clone(trainPresets), "custom")...)
	}
	c.oneOf("training.gpu", tr.GPU, "a GPU", "a100", "h100", "h200", "b200")
	if !(tr.MFU > 0 && tr.MFU <= 1) {
		c.fail("training.mfu", "%s is not allowed: a share of peak FLOPs above 0 and at most 1 (e.g. mfu: 0.4)", c.text("training.mfu", tr.MFU))
	}
	c.between("training.batch", tr.Batch, 0, 1<<24, 256, "batch (0 picks the model's default)")
	c.between("training.iterations", tr.Iterations, 1, 100, 1, "iterations")
	if tr.BucketCap < unit.KiB || tr.BucketCap > unit.GiB {
		c.fail("training.bucket_cap", "%s is not allowed: 1KiB to 1GiB (PyTorch's default is 25MiB)", c.text("training.bucket_cap", tr.BucketCap))
	}
	if tr.FirstBucket < 1 || tr.FirstBucket > unit.GiB {
		c.fail("training.first_bucket", "%s is not allowed: 1 byte to 1GiB (PyTorch's default is 1MiB)", c.text("training.first_bucket", tr.FirstBucket))
	}
	if _, ok := GradientBytes(tr.Compression); !ok {
		c.oneOf("training.compression", tr.Compression, "a gradient format", "fp32", "bf16", "fp16", "fp8", "int8")
	}
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("training.ranks", tr.Ranks, endpoints)
	if !ok {
		return
	}
	sched, err := coll.Build(coll.AllReduce, tr.Algo, s.CollParams(ranks, 0))
	if err != nil {
		c.fail("training.algo", "%v", err)
	} else if sched.Steps == nil && s.Sim.Fidelity != FlowLevel && s.Collective.Execution != "streamed" {
		c.fail("training.ranks", "an all-reduce over %d ranks has too many transfers to run step by step; use sim: {fidelity: flow}", ranks)
	}
}

var trainPresets = []string{"gpt2-1.5b", "llama3-8b", "resnet50"}
