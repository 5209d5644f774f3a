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
	ZeRO1      = "zero1" // optimizer state sharded; gradients reduce-scattered (each rank keeps them whole), parameters all-gathered after the step
	ZeRO2      = "zero2" // gradients sharded too
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
	micro int    // its micro-batch
	group int    // the bucket (FSDP: unit) whose gradients its backward completes, or -1 (for a viewer)
	chunk int    // its model chunk (interleaved pipeline), else 0
	recv  int    // the pipeline message that must arrive before it starts, or -1
	send  int    // the pipeline message it sends when it ends, or -1
}

// op is a collective on the ranks' communication stream (NCCL runs them in order).
type op struct {
	kind    string // coll.AllReduce, coll.ReduceScatter, coll.AllGather
	label   string
	bytes   unit.Bytes
	after   int  // the compute task that must end (or start, with onStart) first, or -1
	onStart bool // FSDP's prefetch: the all-gather for the next unit goes out as this one's compute starts
	tensors int  // gradient tensors it carries (reported as a bucket), 0 for parameters
	tp      bool // over the tensor-parallel group, on its own stream (else the data-parallel group)
	group   int  // the bucket or FSDP unit it carries, or -1 (for a viewer)
}

// plan is one iteration: the compute stream's tasks and the communication
// stream's ops, each in order, and the dependencies between them.
type plan struct {
	tasks   []task
	ops     []op
	compute unit.Time // sum of the tasks
}

// addTask appends t; a task sends and waits for no pipeline message unless
// the caller sets them after.
func (p *plan) addTask(t task) int {
	t.recv, t.send = -1, -1
	p.tasks = append(p.tasks, t)
	p.compute += t.dur
	return len(p.tasks) - 1
}

func (p *plan) addOp(o op) int {
	p.ops = append(p.ops, o)
	return len(p.ops) - 1
}

// timing turns FLOPs into picoseconds at cfg's achieved rate; batch is the
// micro-batch over the tensor-parallel degree (each rank computes its share);
// checkpointing says what a backward recomputes.
type timing struct {
	rate, batch   float64
	checkpointing string
}

// forward is the forward pass of tensors [from, to).
func (tm timing) forward(m *Model, from, to int) unit.Time {
	var d unit.Time
	for i := from; i < to; i++ {
		d += unit.Time(math.Ceil(m.Tensors[i].FwdFLOPs * tm.batch / tm.rate * 1e12))
	}
	return d
}

// backward is the backward pass of tensors [from, to): twice their forward,
// after recomputing what checkpointing did not keep.
func (tm timing) backward(m *Model, from, to int) unit.Time {
	var d unit.Time
	for i := from; i < to; i++ {
		f := 2*m.Tensors[i].FwdFLOPs + m.recomputeFLOPs(i, tm.checkpointing)
		d += unit.Time(math.Ceil(f * tm.batch / tm.rate * 1e12))
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

// buildPlan lays out one optimizer step of cfg on dp data-parallel groups of
// tp tensor-parallel ranks each.
func buildPlan(cfg *Config, dp, tp int) *plan {
	m := cfg.Model
	tm := timing{rate: cfg.GPU.PeakFLOPS * cfg.MFU, batch: float64(cfg.Batch) / float64(tp), checkpointing: cfg.Checkpointing}
	p := &plan{}
	accum := max(cfg.Accumulation, 1)
	if cfg.Sharding == FSDP {
		fsdpPlan(p, cfg, tm, dp, accum)
		return p
	}
	// DDP and ZeRO-1/2: every rank holds its parameters (1/tp of each
	// sub-block's). Micro-batches before the last run under no_sync: no
	// gradient communication.
	buckets := Buckets(m, cfg.FirstBucket*unit.Bytes(tp), cfg.BucketCap*unit.Bytes(tp), GradBytesPerParam)
	for mb := range accum {
		from := len(p.tasks)
		p.forward(m, tm, tp, 0, len(m.Tensors))
		p.backward(cfg, tm, tp, dp, buckets, mb == accum-1, 0, len(m.Tensors))
		for i := from; i < len(p.tasks); i++ {
			p.tasks[i].micro = mb
		}
	}
	p.step(cfg, ceilDiv(m.Params(), int64(tp)), dp, accum)
	return p
}

// step adds the optimizer step over params parameters once the last
// data-parallel collective has ended, and ZeRO's all-gather of the updated
// parameters after it.
func (p *plan) step(cfg *Config, params int64, dp, accum int) {
	last := -1
	for i := range p.ops {
		if !p.ops[i].tp {
			last = i
		}
	}
	if cfg.Sharding == NoSharding || dp == 1 {
		p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(params, cfg.GPU), wait: last, idle: "waiting for gradients", micro: accum - 1, group: -1})
		return
	}
	opt := p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(ceilDiv(params, int64(dp)), cfg.GPU),
		wait: last, idle: "waiting for gradients", micro: accum - 1, group: -1})
	p.addOp(op{kind: coll.AllGather, label: "all-gather parameters", bytes: unit.Bytes(params * ParamWireBytes), after: opt, group: -1})
}

// tpIdle is what a rank waits for when a tensor-parallel all-reduce holds it up.
const tpIdle = "waiting for tensor-parallel all-reduce"

// activationBytes is a micro-batch's bf16 activations at a sub-block's
// output: what Megatron's tensor-parallel all-reduces carry.
func activationBytes(m *Model, batch int) unit.Bytes {
	return unit.Bytes(int64(batch) * int64(m.Hidden) * ParamWireBytes)
}

// forward adds a forward pass of tensors [from, to), cut after each
// sub-block when tp > 1 for the all-reduce of its output, which the next
// piece waits for.
func (p *plan) forward(m *Model, tm timing, tp, from, to int) {
	cuts := map[int]bool{}
	if tp > 1 {
		for _, sb := range m.SubBlocks {
			cuts[sb[1]-1] = true
		}
	}
	wait, lo := -1, from
	for i := from; i < to; i++ {
		if !cuts[i] && i < to-1 {
			continue
		}
		t := p.addTask(task{label: "forward", phase: Forward, dur: tm.forward(m, lo, i+1), wait: wait, idle: tpIdle, group: -1})
		wait, lo = -1, i+1
		if cuts[i] {
			wait = p.addOp(op{kind: coll.AllReduce, label: "tensor-parallel all-reduce", bytes: activationBytes(m, int(tm.batch*float64(tp))), after: t, tp: true, group: -1})
		}
	}
}

// backward adds a backward pass of tensors [from, to) in reverse, cut
// where a bucket's gradients are complete (final: the micro-batch that
// synchronises) and, when tp > 1, where a sub-block's input gradient is
// all-reduced.
func (p *plan) backward(cfg *Config, tm timing, tp, dp int, buckets []Bucket, final bool, from, to int) {
	m := cfg.Model
	closes := map[int]int{} // a bucket's last tensor in gradient-ready order → bucket
	in := map[int]int{}     // tensor → its bucket, when they are sent
	if final && dp > 1 {
		for b, bk := range buckets {
			closes[bk.Tensors[len(bk.Tensors)-1]] = b
			for _, i := range bk.Tensors {
				in[i] = b
			}
		}
	}
	cuts := map[int]bool{}
	if tp > 1 {
		for _, sb := range m.SubBlocks {
			cuts[sb[0]] = true
		}
	}
	kind, verb := coll.AllReduce, "all-reduce"
	if cfg.Sharding == ZeRO1 || cfg.Sharding == ZeRO2 {
		// The step needs only the rank's shard of the gradients (llm.c and
		// DeepSpeed reduce-scatter under ZeRO-1 too).
		kind, verb = coll.ReduceScatter, "reduce-scatter"
	}
	var grads []int
	wait, hi := -1, to
	for i := hi - 1; i >= from; i-- {
		b, closing := closes[i]
		if !closing && !cuts[i] && i > from {
			continue
		}
		grp, ok := in[i] // a piece lies inside one bucket: pieces end where buckets close
		if !ok {
			grp = -1
		}
		t := p.addTask(task{label: "backward", phase: Backward, dur: tm.backward(m, i, hi), wait: wait, idle: tpIdle, group: grp})
		wait, hi = -1, i
		if closing {
			bk := buckets[b]
			grads = append(grads, p.addOp(op{kind: kind, label: fmt.Sprintf("%s bucket %d", verb, b),
				bytes: unit.Bytes(ceilDiv(bk.Params, int64(tp)) * cfg.WireBytes), after: t, tensors: len(bk.Tensors), group: b}))
		}
		if cuts[i] {
			wait = p.addOp(op{kind: coll.AllReduce, label: "tensor-parallel all-reduce", bytes: activationBytes(m, int(tm.batch*float64(tp))), after: t, tp: true, group: -1})
		}
	}
	if !cfg.Overlap { // every bucket waits for the end of the backward pass
		for _, o := range grads {
			p.ops[o].after = len(p.tasks) - 1
		}
	}
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
				bytes: unit.Bytes(paramsOf(m, lo, hi) * ParamWireBytes), after: prevCompute, onStart: true, group: u})
			prevCompute = p.addTask(task{label: "forward", phase: Forward, dur: tm.forward(m, lo, hi), wait: gathers[u], idle: "waiting for parameters",
				micro: mb, group: u})
		}
		// Backward, units in reverse: the last unit's parameters stay gathered;
		// the next unit's all-gather goes out before this unit's
		// reduce-scatter (FSDP's BACKWARD_PRE prefetch).
		wait := gathers[nu-1]
		for u := nu - 1; u >= 0; u-- {
			lo, hi := units[u], units[u+1]
			t := p.addTask(task{label: "backward", phase: Backward, dur: tm.backward(m, lo, hi), wait: wait, idle: "waiting for parameters",
				micro: mb, group: u})
			if u > 0 {
				wait = p.addOp(op{kind: coll.AllGather, label: fmt.Sprintf("all-gather unit %d", u-1),
					bytes: unit.Bytes(paramsOf(m, units[u-1], lo) * ParamWireBytes), after: t, onStart: true, group: u - 1})
			}
			if final && cfg.Overlap {
				lastRS = p.addOp(op{kind: coll.ReduceScatter, label: fmt.Sprintf("reduce-scatter unit %d", u),
					bytes: unit.Bytes(paramsOf(m, lo, hi) * cfg.WireBytes), after: t, tensors: hi - lo, group: u})
			}
		}
		if final && !cfg.Overlap { // every reduce-scatter waits for the end of the backward pass
			for u := nu - 1; u >= 0; u-- {
				lastRS = p.addOp(op{kind: coll.ReduceScatter, label: fmt.Sprintf("reduce-scatter unit %d", u),
					bytes: unit.Bytes(paramsOf(m, units[u], units[u+1]) * cfg.WireBytes), after: len(p.tasks) - 1, tensors: units[u+1] - units[u], group: u})
			}
		}
	}
	p.addTask(task{label: "optimizer", phase: Optimizer, dur: optimizerTime(ceilDiv(m.Params(), int64(dp)), cfg.GPU),
		wait: lastRS, idle: "waiting for gradients", micro: accum - 1, group: -1})
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
