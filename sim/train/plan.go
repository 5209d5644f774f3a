package train

import (
	"fmt"
	"math"

	"fabriclab/sim/coll"
	"fabriclab/sim/unit"
)

// Sharding says how data parallelism splits the training state over ranks.
const (
	NoSharding = "none"  // PyTorch DDP: every rank keeps everything, gradients all-reduced
	ZeRO1      = "zero1" // optimizer state sharded; gradients all-reduced, parameters all-gathered after the step
	ZeRO2      = "zero2" // gradients and optimizer state sharded; gradients reduce-scattered
	FSDP       = "fsdp"  // everything sharded (ZeRO-3, FSDP FULL_SHARD): parameters all-gathered per unit
)

// Shardings lists the sharding modes.
var Shardings = []string{NoSharding, ZeRO1, ZeRO2, FSDP}

// GradBytesPerParam is the gradient element size DDP forms buckets on: fp32,
// whatever the communication hook then sends.
const GradBytesPerParam = 4

// ParamWireBytes is the size of a parameter all-gathered by ZeRO and FSDP:
// bf16, the mixed-precision parameter dtype.
const ParamWireBytes = 2

// task is a stretch of compute on every rank's compute stream.
type task struct {
	label string
	phase Phase
	dur   unit.Time
	wait  int    // the comm op that must end before it starts, or -1
	idle  string // what a rank waits for when wait holds it up
}

// op is a collective on the ranks' communication stream (NCCL runs them in order).
type op struct {
	kind    string // coll.AllReduce, coll.ReduceScatter, coll.AllGather
	label   string
	bytes   unit.Bytes
	after   int  // the compute task that must end (or start, with onStart) first, or -1
	onStart bool // FSDP's prefetch: the all-gather for the next unit goes out as this one's compute starts
	tensors int  // gradient tensors it carries (reported as a bucket), 0 for parameters
}

// plan is one iteration: the compute stream's tasks and the communication
// stream's ops, each in order, and the dependencies between them.
type plan struct {
	tasks   []task
	ops     []op
	compute unit.Time // sum of the tasks
}

func (p *plan) addTask(t task) int {
	p.tasks = append(p.tasks, t)
	p.compute += t.dur
	return len(p.tasks) - 1
}

func (p *plan) addOp(o op) int {
	p.ops = append(p.ops, o)
	return len(p.ops) - 1
}

// timing turns FLOPs into picoseconds at cfg's achieved rate.
type timing struct{ rate, batch float64 }

func (tm timing) of(m *Model, from, to int, factor float64) unit.Time {
	var d unit.Time
	for i := from; i < to; i++ {
		d += unit.Time(math.Ceil(factor * m.Tensors[i].FwdFLOPs * tm.batch / tm.rate * 1e12))
	}
	return d
}

func paramsOf(m *Model, from, to int) int64 {
	var n int64
	for i := from; i < to; i++ {
		n += m.Tensors[i].Params
	}
	return n
}

// optimizerTime is an Adam step over params parameters, bound by HBM.
func optimizerTime(params int64, gpu GPU) unit.Time {
	return unit.Time(math.Ceil(float64(params) * OptimizerBytesPerParam / gpu.HBM * 1e12))
}

// buildPlan lays out one optimizer step of cfg on dp data-parallel ranks.
func buildPlan(cfg *Config, dp int) *plan {
	m := cfg.Model
	tm := timing{rate: cfg.GPU.PeakFLOPS * cfg.MFU, batch: float64(cfg.Batch)}
	p := &plan{}
	n := len(m.Tensors)
	accum := max(cfg.Accumulation, 1)
	wire := cfg.WireBytes
	if cfg.Sharding == FSDP {
		fsdpPlan(p, cfg, tm, dp, accum)
		return p
	}
	// DDP and ZeRO-1/2: every rank holds the parameters. Micro-batches before
	// the last run under no_sync: no communication.
	for range accum - 1 {
		p.addTask(task{label: "forward", phase: Forward, dur: tm.of(m, 0, n, 1), wait: -1})
		p.addTask(task{label: "backward", phase: Backward, dur: tm.of(m, 0, n, 2), wait: -1})
	}
	p.addTask(task{label: "forward", phase: Forward, dur: tm.of(m, 0, n, 1), wait: -1})
	buckets := Buckets(m, cfg.FirstBucket, cfg.BucketCap, GradBytesPerParam)
	kind, verb := coll.AllReduce, "all-reduce"
	if cfg.Sharding == ZeRO2 {
		kind, verb = coll.ReduceScatter, "reduce-scatter"
	}
	var segs []int
	for _, b := range buckets {
		// Bucket tensors are contiguous and in reverse definition order.
		hi, lo := b.Tensors[0]+1, b.Tensors[len(b.Tensors)-1]
		segs = append(segs, p.addTask(task{label: "backward", phase: Backward, dur: tm.of(m, lo, hi, 2), wait: -1}))
	}
	last := -1
	for i, b := range buckets {
		after := segs[i]
		if !cfg.Overlap {
			after = segs[len(segs)-1]
		}
		last = p.addOp(op{kind: kind, label: fmt.Sprintf("%s bucket %d", verb, i), bytes: unit.Bytes(b.Params * wire),
			after: after, tensors: len(b.Tensors)})
	}
	params := m.Params()
	if cfg.Sharding == NoSharding {
		p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(params, cfg.GPU), wait: last, idle: "waiting for gradients"})
		return p
	}
	opt := p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(ceilDiv(params, int64(dp)), cfg.GPU),
		wait: last, idle: "waiting for gradients"})
	p.addOp(op{kind: coll.AllGather, label: "all-gather parameters", bytes: unit.Bytes(params * ParamWireBytes), after: opt})
	return p
}

// fsdpPlan is FSDP FULL_SHARD: each unit's parameters are all-gathered before
// its forward and again before its backward (resharded after forward), the
// next unit's all-gather prefetched as a unit's compute starts; each unit's
// gradients are reduce-scattered once its backward ends; the optimizer steps
// on the rank's shard. Under accumulation (no_sync) the gradients are kept
// unsharded and reduce-scattered after the last micro-batch only.
func fsdpPlan(p *plan, cfg *Config, tm timing, dp, accum int) {
	m := cfg.Model
	units := append(append([]int(nil), m.Units...), len(m.Tensors))
	nu := len(units) - 1
	lastRS := -1
	for mb := range accum {
		final := mb == accum-1
		prevCompute := -1 // the first all-gather goes out at once
		gathers := make([]int, nu)
		// forward
		for u := range nu {
			lo, hi := units[u], units[u+1]
			gathers[u] = p.addOp(op{kind: coll.AllGather, label: fmt.Sprintf("all-gather unit %d", u),
				bytes: unit.Bytes(paramsOf(m, lo, hi) * ParamWireBytes), after: prevCompute, onStart: true})
			prevCompute = p.addTask(task{label: "forward", phase: Forward, dur: tm.of(m, lo, hi, 1), wait: gathers[u], idle: "waiting for parameters"})
		}
		// Backward, units in reverse: the last unit's parameters stay gathered;
		// the next unit's all-gather goes out before this unit's
		// reduce-scatter (FSDP's BACKWARD_PRE prefetch).
		wait := gathers[nu-1]
		for u := nu - 1; u >= 0; u-- {
			lo, hi := units[u], units[u+1]
			t := p.addTask(task{label: "backward", phase: Backward, dur: tm.of(m, lo, hi, 2), wait: wait, idle: "waiting for parameters"})
			if u > 0 {
				wait = p.addOp(op{kind: coll.AllGather, label: fmt.Sprintf("all-gather unit %d", u-1),
					bytes: unit.Bytes(paramsOf(m, units[u-1], lo) * ParamWireBytes), after: t, onStart: true})
			}
			if final && cfg.Overlap {
				lastRS = p.addOp(op{kind: coll.ReduceScatter, label: fmt.Sprintf("reduce-scatter unit %d", u),
					bytes: unit.Bytes(paramsOf(m, lo, hi) * cfg.WireBytes), after: t, tensors: hi - lo})
			}
		}
		if final && !cfg.Overlap { // every reduce-scatter waits for the end of the backward pass
			for u := nu - 1; u >= 0; u-- {
				lastRS = p.addOp(op{kind: coll.ReduceScatter, label: fmt.Sprintf("reduce-scatter unit %d", u),
					bytes: unit.Bytes(paramsOf(m, units[u], units[u+1]) * cfg.WireBytes), after: len(p.tasks) - 1, tensors: units[u+1] - units[u]})
			}
		}
	}
	p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(ceilDiv(m.Params(), int64(dp)), cfg.GPU),
		wait: lastRS, idle: "waiting for gradients"})
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
