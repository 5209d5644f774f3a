package train

import (
	"fmt"
	"math"
	"sort"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// Config is one data-parallel training job.
type Config struct {
	Model         *Model
	GPU           GPU
	MFU           float64    // share of the GPU's peak the kernels reach
	Batch         int        // samples per GPU per iteration
	BucketCap     unit.Bytes // DDP bucket_cap_mb
	FirstBucket   unit.Bytes // DDP's first bucket
	Overlap       bool       // start each bucket's all-reduce as soon as its gradients are ready
	BytesPerParam int64      // gradient element size on the wire (4 fp32, 2 bf16/fp16, 1 fp8/int8)
	Iterations    int
	Algo          string // all-reduce algorithm
	GPUsPerNode   int
	OneSwitch     bool         // innetwork all-reduce is possible
	Coll          coll.Options // channels, chunk, alpha, streamed; Bytes is set per bucket
	MaxFlows      int64        // the model's flow budget: a job whose transfers would pass it is refused (0: none)
}

// OptimizerBytesPerParam is the HBM traffic of an Adam step with fp32 master
// weights: read parameter, gradient and two moments, write three back.
const OptimizerBytesPerParam = 28

// MaxTimelineGPUs bounds how many GPUs' timelines a result lists.
const MaxTimelineGPUs = 16

// Start sets training going on the ranks' endpoints of f; done gets the
// report of the last iteration. The job tells a viewer what its GPUs do.
func Start(f fabric.Fabric, cfg Config, ranks []int, done func(metrics.Training)) (*Job, error) {
	n := len(ranks)
	sched, err := coll.Build(coll.AllReduce, cfg.Algo, coll.Params{Ranks: n, GPUsPerNode: cfg.GPUsPerNode, OneSwitch: cfg.OneSwitch})
	if err != nil {
		return nil, fmt.Errorf("training.algo: %w", err)
	}
	m := cfg.Model
	rate := cfg.GPU.PeakFLOPS * cfg.MFU
	sec := func(flops float64) unit.Time { return unit.Time(math.Ceil(flops / rate * 1e12)) }
	batch := float64(cfg.Batch)

	// Per-tensor backward time (2× forward), in gradient-ready order.
	var fwd unit.Time
	for _, t := range m.Tensors {
		fwd += sec(t.FwdFLOPs * batch)
	}
	buckets := Buckets(m, cfg.FirstBucket, cfg.BucketCap, cfg.BytesPerParam)
	readyAfter := make([]unit.Time, len(buckets)) // offset from the start of backward
	var bwd unit.Time
	bi, inBucket := 0, 0
	for i := len(m.Tensors) - 1; i >= 0; i-- {
		bwd += sec(2 * m.Tensors[i].FwdFLOPs * batch)
		inBucket++
		if inBucket == len(buckets[bi].Tensors) {
			readyAfter[bi] = bwd
			bi, inBucket = bi+1, 0
		}
	}
	if err := checkFlows(cfg, sched, buckets); err != nil {
		return nil, err
	}
	opt := unit.Time(math.Ceil(float64(m.Params()) * OptimizerBytesPerParam / cfg.GPU.HBM * 1e12))
	compute := fwd + bwd + opt

	r := &Job{f: f, cfg: cfg, sched: sched, ranks: ranks, buckets: buckets, readyAfter: readyAfter,
		fwd: fwd, bwd: bwd, opt: opt, done: done}
	r.res = metrics.Training{Model: m.Name, GPU: cfg.GPU.Name, Ranks: n, Params: m.Params(),
		GradBytes: m.Params() * cfg.BytesPerParam, ComputeUs: metrics.Micros(compute)}
	r.iteration(max(cfg.Iterations, 1))
	return r, nil
}

// checkFlows refuses a job whose all-reduces would make more flows than the
// model may keep (every iteration adds its own), naming what would fit.
func checkFlows(cfg Config, sched *coll.Schedule, buckets []Bucket) error {
	if cfg.MaxFlows <= 0 {
		return nil
	}
	var perIter int64
	for _, b := range buckets {
		o := cfg.Coll
		o.Bytes = unit.Bytes(b.Params * cfg.BytesPerParam)
		perIter += sched.TransferCount(o)
	}
	iters := int64(max(cfg.Iterations, 1))
	if perIter*iters <= cfg.MaxFlows {
		return nil
	}
	var fix string
	switch {
	case perIter <= cfg.MaxFlows:
		fix = fmt.Sprintf("use training.iterations: %d or fewer (the report is the last iteration's)", cfg.MaxFlows/perIter)
		if !cfg.Coll.Streamed {
			fix += ", or sim: {fidelity: flow}"
		}
	case !cfg.Coll.Streamed:
		fix = "use sim: {fidelity: flow} (one transfer per pair per phase), fewer training.ranks or a larger training.bucket_cap"
	default:
		fix = "use fewer training.ranks or a larger training.bucket_cap"
	}
	if iters == 1 {
		return fmt.Errorf("training: an iteration's all-reduces make %d transfers, more than the %d flows a run may make: %s",
			perIter, cfg.MaxFlows, fix)
	}
	return fmt.Errorf("training: %d iterations of %d all-reduce transfers each make %d flows, more than the %d a run may make: %s",
		iters, perIter, perIter*iters, cfg.MaxFlows, fix)
}

// Job is a training run on a fabric.
type Job struct {
	f             fabric.Fabric
	cfg           Config
	sched         *coll.Schedule
	ranks         []int
	buckets       []Bucket
	readyAfter    []unit.Time
	fwd, bwd, opt unit.Time
	done          func(metrics.Training)
	res           metrics.Training
	start         unit.Time
	next          int // next bucket to all-reduce
	commFree      unit.Time
	commIntervals [][]metrics.Interval // per GPU
	bucketReports []metrics.Bucket
	iters         []iterTimes // every iteration begun so far
}

// iterTimes is when an iteration's compute runs; optStart is -1 until the
// last bucket's all-reduce ends and fixes it.
type iterTimes struct{ start, backwardEnd, optStart unit.Time }

func (j *Job) iteration(left int) {
	j.start = j.f.Now()
	j.next = 0
	j.bucketReports = j.bucketReports[:0]
	shown := min(len(j.ranks), MaxTimelineGPUs)
	j.commIntervals = make([][]metrics.Interval, shown)
	backwardEnd := j.start + j.fwd + j.bwd
	j.commFree = j.start
	if !j.cfg.Overlap {
		j.commFree = backwardEnd
	}
	j.iters = append(j.iters, iterTimes{j.start, backwardEnd, -1})
	it := len(j.iters) - 1
	j.launch(func() {
		optStart := max(j.f.Now(), backwardEnd)
		j.iters[it].optStart = optStart
		j.f.At(optStart+j.opt, func() {
			j.report(backwardEnd, optStart)
			if left > 1 {
				j.iteration(left - 1)
				return
			}
			j.done(j.res)
		})
	})
}

// launch all-reduces the buckets one after another (NCCL runs them in order
// on one stream), each once its gradients are ready; then calls after.
func (j *Job) launch(after func()) {
	if j.next == len(j.buckets) {
		after()
		return
	}
	b := j.next
	ready := j.start + j.fwd + j.readyAfter[b]
	at := max(ready, j.commFree, j.f.Now())
	j.f.At(at, func() {
		bytes := unit.Bytes(j.buckets[b].Params * j.cfg.BytesPerParam)
		o := j.cfg.Coll
		o.Bytes = bytes
		started := j.f.Now()
		coll.Run(j.f, j.sched, j.ranks, o, func(_ metrics.Collective, last []unit.Time) {
			j.bucketReports = append(j.bucketReports, metrics.Bucket{Bytes: int64(bytes), Tensors: len(j.buckets[b].Tensors),
				ReadyUs: metrics.Micros(ready - j.start), StartUs: metrics.Micros(started - j.start), FinishUs: metrics.Micros(j.f.Now() - j.start)})
			for g := range j.commIntervals {
				j.commIntervals[g] = append(j.commIntervals[g], metrics.Interval{Kind: "communicate",
					Label: fmt.Sprintf("all-reduce bucket %d", b), StartUs: metrics.Micros(started - j.start), EndUs: metrics.Micros(last[g] - j.start)})
			}
			j.commFree = j.f.Now()
			j.next++
			j.launch(after)
		})
	})
}

func (j *Job) report(backwardEnd, optStart unit.Time) {
	end := j.f.Now()
	iter := end - j.start
	compute := j.fwd + j.bwd + j.opt
	t := &j.res
	t.IterationUs = metrics.Micros(iter)
	t.ExposedCommUs = metrics.Micros(iter - compute)
	t.GPUUtil = math.Round(float64(compute)/float64(iter)*1e4) / 1e4
	t.ScalingEfficiency = t.GPUUtil // one GPU needs exactly the compute time
	t.SamplesPerSecond = math.Round(float64(j.cfg.Batch*len(j.ranks)) / iter.Seconds())
	t.Buckets = append([]metrics.Bucket(nil), j.bucketReports...)
	t.Timeline = t.Timeline[:0]
	for g := range j.commIntervals {
		iv := []metrics.Interval{
			{Kind: "compute", Label: "forward", StartUs: 0, EndUs: metrics.Micros(j.fwd)},
			{Kind: "compute", Label: "backward", StartUs: metrics.Micros(j.fwd), EndUs: metrics.Micros(backwardEnd - j.start)},
		}
		if optStart > backwardEnd {
			iv = append(iv, metrics.Interval{Kind: "idle", Label: "waiting for gradients", StartUs: metrics.Micros(backwardEnd - j.start), EndUs: metrics.Micros(optStart - j.start)})
		}
		iv = append(iv, metrics.Interval{Kind: "compute", Label: "optimizer", StartUs: metrics.Micros(optStart - j.start), EndUs: metrics.Micros(end - j.start)})
		iv = append(iv, j.commIntervals[g]...)
		t.Timeline = append(t.Timeline, metrics.GPUTimeline{GPU: g, Intervals: iv})
	}
}

// Phase is the compute a GPU runs at some time.
type Phase uint8

// The phases of an iteration; NoCompute while a GPU waits for gradients,
// and before and after the run.
const (
	NoCompute Phase = iota
	Forward
	Backward
	Optimizer
)

func (p Phase) String() string {
	return [...]string{"no compute", "forward", "backward", "optimizer"}[p]
}

// Ranks are the endpoints the job trains on, by rank.
func (j *Job) Ranks() []int { return j.ranks }

// Phase is what every rank computes at t (data parallel: each rank runs the
// same model on the same batch size at once). It answers for any t up to the
// fabric's now; it only reads what the run has recorded.
func (j *Job) Phase(t unit.Time) Phase {
	i := sort.Search(len(j.iters), func(i int) bool { return j.iters[i].start > t }) - 1
	if i < 0 {
		return NoCompute
	}
	it := &j.iters[i]
	switch {
	case t < it.start+j.fwd:
		return Forward
	case t < it.backwardEnd:
		return Backward
	case it.optStart >= 0 && t >= it.optStart && t < it.optStart+j.opt:
		return Optimizer
	}
	return NoCompute
}

// ComputeSeconds is one iteration's compute on one GPU — forward, backward
// (2 × forward) and the optimizer step — in seconds: what Start turns into
// picoseconds, for checking a job before it starts.
func ComputeSeconds(m *Model, gpu GPU, mfu float64, batch int) float64 {
	return 3*m.FwdFLOPs()*float64(batch)/(gpu.PeakFLOPS*mfu) + float64(m.Params())*OptimizerBytesPerParam/gpu.HBM
}
