package train

import (
	"math"
	"sort"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/msg"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// Config is one data-parallel training job.
type Config struct {
	Model        *Model
	GPU          GPU
	MFU          float64    // share of the GPU's peak the kernels reach
	Batch        int        // samples per GPU per micro-batch
	Accumulation int        // micro-batches per optimizer step (DDP's no_sync on all but the last)
	BucketCap    unit.Bytes // DDP bucket_cap_mb
	FirstBucket  unit.Bytes // DDP's first bucket
	Overlap      bool       // start each bucket's all-reduce as soon as its gradients are ready
	// WireBytes is a gradient element's size on the wire: 4 for fp32, 2 with
	// DDP's fp16/bf16 compression hooks (buckets still form on fp32 sizes).
	WireBytes int64
	Sharding  string // NoSharding, ZeRO1, ZeRO2 or FSDP
	// Checkpointing is the activation-checkpointing mode (NoCheckpointing,
	// Selective, Full): what each block's backward recomputes first.
	Checkpointing string
	// TP is the tensor-parallel degree (1: none): groups of TP ranks split
	// every transformer sub-block Megatron-style. The groups are consecutive
	// ranks (inside a node) unless TPSpread puts each one's ranks on
	// different nodes.
	TP       int
	TPSpread bool
	// PP is the pipeline-parallel degree (1: none): stages of the model's
	// layers, each on its own ranks, running PPSchedule (GPipe, OneFOneB or
	// Interleaved with PPVirtual chunks per stage) over the Accumulation
	// micro-batches; Placement orders tp, pp and dp over the ranks.
	PP          int
	PPSchedule  string
	PPVirtual   int
	Placement   string
	Iterations  int
	Algo        string // all-reduce algorithm
	GPUsPerNode int
	OneSwitch   bool         // innetwork all-reduce is possible
	NVSwitch    bool         // each node's GPUs share a reducing NVSwitch: nvlstree is possible
	Torus       []int        // a torus's chips per dimension (topology.kind: torus), nil on others
	Coll        coll.Options // channels, chunk, alpha, streamed; Bytes is set per bucket
	MaxFlows    int64        // the model's flow budget: a job whose transfers would pass it is refused (0: none)
	// Slow maps a rank (its index in ranks) to how many times as long its
	// compute takes (faults: slow_gpu); nil: none is slow.
	Slow map[int]float64
	// Storage is the storage nodes' endpoints: each rank writes its part of
	// a checkpoint to, and reads its samples from, all of them (striped).
	Storage []int
	// CheckpointEvery writes a checkpoint of CheckpointBytes (the whole
	// training state, shared evenly by the ranks) after every CheckpointEvery
	// iterations but the last, while the next ones run (0: none).
	CheckpointEvery int
	CheckpointBytes unit.Bytes
	// ReadBytes is what each rank's data loader reads per iteration, for the
	// next step while this one runs (0: none).
	ReadBytes unit.Bytes
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
	if cfg.Sharding == "" {
		cfg.Sharding = NoSharding
	}
	cfg.TP, cfg.PP = max(cfg.TP, 1), max(cfg.PP, 1)
	if cfg.PPSchedule == "" {
		cfg.PPSchedule = OneFOneB
	}
	if cfg.PPSchedule != Interleaved {
		cfg.PPVirtual = 1
	}
	g := newGroups(n/cfg.PP, cfg.TP, cfg.GPUsPerNode, cfg.TPSpread)
	g.torus = cfg.Torus
	j := &Job{f: f, cfg: cfg, ranks: ranks, groups: g, done: done}
	if err := j.placeStages(); err != nil {
		return nil, err
	}
	if g.dp > 1 {
		algo, params := g.dpAlgo(cfg.Algo, cfg.OneSwitch, cfg.NVSwitch), g.dpParams(cfg.OneSwitch, cfg.NVSwitch)
		if cfg.PP > 1 { // a stage's replicas: a flat ring in rank order
			algo, params = coll.Ring, coll.Params{Ranks: g.dp}
		}
		c, err := newComms(cfg.Sharding, algo, params)
		if err != nil {
			return nil, msg.Errorf("training.algo: %w", err)
		}
		j.comms = c
	}
	if cfg.TP > 1 {
		c, err := newComms(NoSharding, coll.Ring, coll.Params{Ranks: cfg.TP})
		if err != nil {
			return nil, msg.Errorf("training.tp: %w", err)
		}
		j.tpComms = c
	}
	m := cfg.Model
	var compute unit.Time
	for s, st := range j.stages {
		if cfg.PP > 1 {
			st.plan = stagePlan(&j.cfg, s, g.dp)
		} else {
			st.plan = buildPlan(&j.cfg, g.dp, cfg.TP)
		}
		for i, o := range st.plan.ops {
			k := 0
			if o.tp {
				k = 1
			}
			st.streams[k] = append(st.streams[k], i)
		}
		j.slowDown(st)
		compute = max(compute, st.plan.compute)
	}
	if cfg.PP > 1 {
		act := activationBytes(m, cfg.Batch) / unit.Bytes(cfg.TP)
		j.msgs = pipelineMessages(cfg.PP, max(cfg.Accumulation, 1), cfg.PPVirtual, max(act, 1))
	}
	if err := j.checkFlows(); err != nil {
		return nil, err
	}
	j.res = metrics.Training{Model: m.Name, GPU: cfg.GPU.Name, Ranks: n, Params: m.Params(), MFU: cfg.MFU,
		Batch: cfg.Batch, Accumulation: max(cfg.Accumulation, 1), Sharding: cfg.Sharding, TP: cfg.TP,
		// all-reduced or reduce-scattered per data-parallel group: S is the rank's whole gradient
		GradBytes: ceilDiv(m.Params(), int64(cfg.TP*cfg.PP)) * cfg.WireBytes, ComputeUs: metrics.Micros(compute),
		MemoryBytes: int64(MemoryPerGPU(m, cfg.Sharding, cfg.Checkpointing, g.dp, cfg.TP, cfg.Batch, cfg.Accumulation).Total())}
	if cfg.PP > 1 {
		j.res.PP, j.res.PPSchedule = cfg.PP, cfg.PPSchedule
		j.res.MemoryBytes = int64(PipelineMemory(&j.cfg, g.dp).Total())
		if cfg.PPSchedule == Interleaved {
			j.res.PPVirtual = cfg.PPVirtual
		}
	}
	if cfg.Checkpointing != NoCheckpointing {
		j.res.Checkpointing = cfg.Checkpointing
	}
	j.tl.rows = j.trainRows()
	j.iteration(max(cfg.Iterations, 1))
	return j, nil
}

// placeStages puts the ranks into pipeline stages (one with PP 1, the
// groups as newGroups made them) and each stage's ranks into its
// data-parallel and tensor-parallel groups.
func (j *Job) placeStages() error {
	cfg, g, n := &j.cfg, j.groups, len(j.ranks)
	j.stageOf = make([]int, n)
	if cfg.PP == 1 {
		j.stages = []*pipelineStage{{dpGroups: g.dpGroups, tpGroups: g.tpGroups, ranks: identity(n)}}
		return nil
	}
	pl, err := NewPlacement(cfg.Placement, cfg.TP, cfg.PP, g.dp)
	if err != nil {
		return msg.Errorf("training.placement: %w", err)
	}
	j.place = pl
	for s := range cfg.PP {
		st := &pipelineStage{}
		for t := range cfg.TP {
			var grp []int
			for d := range g.dp {
				grp = append(grp, pl.Rank(d, s, t))
			}
			st.dpGroups = append(st.dpGroups, grp)
		}
		for d := range g.dp {
			var grp []int
			for t := range cfg.TP {
				r := pl.Rank(d, s, t)
				grp = append(grp, r)
				st.ranks = append(st.ranks, r)
				j.stageOf[r] = s
			}
			st.tpGroups = append(st.tpGroups, grp)
		}
		sort.Ints(st.ranks)
		j.stages = append(j.stages, st)
	}
	return nil
}

// groups places n ranks in dp data-parallel groups of tp tensor-parallel ranks.
type groups struct {
	dp, tp, gpusPerNode int
	spread              bool
	torus               []int   // the torus's shape, when its chips are the ranks
	dpGroups, tpGroups  [][]int // rank indices; a data-parallel group per tensor-parallel rank
}

func newGroups(n, tp, gpusPerNode int, spread bool) *groups {
	dp := n / tp
	g := &groups{dp: dp, tp: tp, gpusPerNode: gpusPerNode, spread: spread}
	at := func(d, t int) int {
		if spread {
			return t*dp + d
		}
		return d*tp + t
	}
	for t := range tp {
		var grp []int
		for d := range dp {
			grp = append(grp, at(d, t))
		}
		g.dpGroups = append(g.dpGroups, grp)
	}
	for d := range dp {
		var grp []int
		for t := range tp {
			grp = append(grp, at(d, t))
		}
		g.tpGroups = append(g.tpGroups, grp)
	}
	return g
}

// dpAlgo is the data-parallel all-reduce algorithm: algo, except that with
// tensor parallelism a group that no longer spans whole nodes' worth of
// GPUs (hierarchical, nvlstree) or one switch (innetwork) uses a ring.
func (g *groups) dpAlgo(algo string, oneSwitch, nvSwitch bool) string {
	if g.tp == 1 {
		return algo
	}
	p := g.dpParams(oneSwitch, nvSwitch)
	switch {
	case (algo == coll.Hierarchical || algo == coll.NVLSTree) && (p.GPUsPerNode < 2 || p.Ranks%p.GPUsPerNode != 0 || p.Ranks/p.GPUsPerNode < 2),
		algo == coll.InNetwork && !p.OneSwitch,
		algo == coll.NVLSTree && !p.NVSwitch:
		return coll.Ring
	}
	return algo
}

// dpParams describes a data-parallel group to coll.Build: its members on one
// node are consecutive in it, gpusPerNode/tp of them (all of a node's when
// the tensor-parallel groups are spread over nodes).
func (g *groups) dpParams(oneSwitch, nvSwitch bool) coll.Params {
	per := g.gpusPerNode
	if !g.spread && per > 0 {
		per = 0
		if g.gpusPerNode%g.tp == 0 {
			per = g.gpusPerNode / g.tp
		}
	}
	if per < 2 {
		per = 0
	}
	p := coll.Params{Ranks: g.dp, GPUsPerNode: per, OneSwitch: oneSwitch && g.tp == 1, NVSwitch: nvSwitch && per == g.gpusPerNode}
	if g.tp == 1 && len(g.torus) > 0 && g.dp == product(g.torus) { // the group is the whole torus: its rings can run
		p.Torus = g.torus
	}
	return p
}

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// Job is a training run on a fabric.
type Job struct {
	f       fabric.Fabric
	cfg     Config
	comms   *comms // over each data-parallel group; nil with one
	tpComms *comms // over each tensor-parallel group; nil without
	groups  *groups
	ranks   []int
	stages  []*pipelineStage // pipeline stages; one without pipeline parallelism
	stageOf []int            // each rank's stage
	place   Placement        // with pipeline stages
	msgs    []message        // pipeline sends of an iteration, by messageID
	done    func(metrics.Training)
	res     metrics.Training

	// the iteration under way
	start         unit.Time
	left          int // iterations still to begin after this one
	msgEnd        []unit.Time
	over          bool
	bubbleTime    unit.Time            // the last iteration's pipeline bubble, averaged over stages
	commIntervals [][]metrics.Interval // per shown GPU
	bucketReports []metrics.Bucket

	spans []span // every compute task of the first stage begun so far, in time order
	tl    timeline
	io    storageIO // checkpoints and reads
}

// pipelineStage is the ranks of one pipeline stage (every rank without pipeline
// parallelism): they run the same compute, so one plan and one place in it
// stand for all of them.
type pipelineStage struct {
	plan               *plan
	streams            [2][]int // op indices: data-parallel, tensor-parallel (own NCCL communicators, run side by side)
	dpGroups, tpGroups [][]int  // rank indices; a data-parallel group per tensor-parallel rank
	ranks              []int    // rank indices, ascending
	slow               float64  // its slowest rank's factor (faults: slow_gpu), 0 if none is slow

	// the iteration under way
	taskStart, taskEnd []unit.Time
	opStart, opEnd     []unit.Time
	nextTask           int
	nextOp             [2]int // position in each stream
	taskBusy           bool
	opBusy             [2]bool
}

// span is a stretch of compute on every rank.
type span struct {
	start, end unit.Time
	phase      Phase
}

func (j *Job) iteration(left int) {
	j.start, j.left = j.f.Now(), left-1
	reset := func(n int) []unit.Time {
		s := make([]unit.Time, n)
		for i := range s {
			s[i] = -1
		}
		return s
	}
	for _, st := range j.stages {
		p := st.plan
		st.taskStart, st.taskEnd = reset(len(p.tasks)), reset(len(p.tasks))
		st.opStart, st.opEnd = reset(len(p.ops)), reset(len(p.ops))
		st.nextTask, st.nextOp, st.taskBusy, st.opBusy = 0, [2]int{}, false, [2]bool{}
	}
	j.msgEnd = reset(len(j.msgs))
	j.over = false
	j.bucketReports = j.bucketReports[:0]
	shown := min(len(j.ranks), MaxTimelineGPUs)
	j.commIntervals = make([][]metrics.Interval, shown)
	j.tl.starts = append(j.tl.starts, j.start)
	j.startReads()
	j.advance()
}

// advance starts whatever every stage's streams can start now, and ends the
// iteration when all have run out.
func (j *Job) advance() {
	idle := true
	for s, st := range j.stages {
		j.advanceStage(s, st)
		idle = idle && !st.taskBusy && !st.opBusy[0] && !st.opBusy[1] && st.nextTask == len(st.plan.tasks) &&
			st.nextOp[0] == len(st.streams[0]) && st.nextOp[1] == len(st.streams[1])
	}
	if !j.over && idle {
		j.over = true
		now := j.f.Now()
		j.report()
		j.tl.steps = append(j.tl.steps, snap.Step{Start: j.start, End: now, IterationUs: j.res.IterationUs,
			ExposedCommUs: j.res.ExposedCommUs, GPUUtil: j.res.GPUUtil, Bubble: j.res.BubbleFraction, BubbleUs: metrics.Micros(j.bubbleTime)})
		j.iterationDone()
	}
}

func (j *Job) advanceStage(s int, st *pipelineStage) {
	p := st.plan
	now := j.f.Now()
	if !st.taskBusy && st.nextTask < len(p.tasks) {
		k := st.nextTask
		t := &p.tasks[k]
		if (t.wait < 0 || st.opEnd[t.wait] >= 0) && (t.recv < 0 || j.msgEnd[t.recv] >= 0) {
			st.taskBusy = true
			st.taskStart[k] = now
			if s == 0 {
				j.spans = append(j.spans, span{now, now + t.dur, t.phase})
			}
			j.tl.task(t, s, now)
			if k > 0 && st.taskEnd[k-1] < now || k == 0 && now > j.start {
				j.tl.waited(t)
			}
			j.f.At(now+t.dur, func() {
				st.taskEnd[k] = j.f.Now()
				st.taskBusy = false
				st.nextTask++
				if t.send >= 0 {
					j.send(t.send)
				}
				j.advance()
			})
		}
	}
	for k, stream := range st.streams {
		if st.opBusy[k] || st.nextOp[k] == len(stream) {
			continue
		}
		i := stream[st.nextOp[k]]
		o := &p.ops[i]
		if o.after < 0 || st.taskEnd[o.after] >= 0 || o.onStart && st.taskStart[o.after] >= 0 {
			st.opBusy[k] = true
			st.opStart[i] = now
			j.tl.opStart(s, k, o, now)
			j.collective(st, o, func(last []unit.Time) {
				st.opEnd[i] = j.f.Now()
				j.recordOp(s, i, last)
				j.tl.opEnd(s, k, last)
				st.opBusy[k] = false
				st.nextOp[k]++
				j.advance()
			})
		}
	}
}

// send starts pipeline message id: a transfer between each pair of ranks
// that hold the same tensor-parallel slice of the same replica.
func (j *Job) send(id int) {
	msg := j.msgs[id]
	left := j.groups.dp * j.cfg.TP
	for d := range j.groups.dp {
		for t := range j.cfg.TP {
			src, dst := j.ranks[j.place.Rank(d, msg.from, t)], j.ranks[j.place.Rank(d, msg.to, t)]
			j.f.Send(fabric.Transfer{Src: src, Dst: dst, Bytes: msg.bytes, Tag: -1, Step: -1}, func() {
				if left--; left == 0 {
					j.msgEnd[id] = j.f.Now()
					j.advance()
				}
			})
		}
	}
}

// collective runs o on every group of st it spans at once; done gets the
// time each rank's part ended.
func (j *Job) collective(st *pipelineStage, o *op, done func(last []unit.Time)) {
	c, groups := j.comms, st.dpGroups
	if o.tp {
		c, groups = j.tpComms, st.tpGroups
	}
	last := make([]unit.Time, len(j.ranks))
	left := len(groups)
	for _, grp := range groups {
		eps := make([]int, len(grp))
		for i, r := range grp {
			eps[i] = j.ranks[r]
		}
		c.run(j.f, o.kind, o.bytes, eps, j.cfg.Coll, func(l []unit.Time) {
			for i, r := range grp {
				last[r] = l[i]
			}
			if left--; left == 0 {
				done(last)
			}
		})
	}
}

func (j *Job) recordOp(s, k int, last []unit.Time) {
	st := j.stages[s]
	o := &st.plan.ops[k]
	rel := func(t unit.Time) float64 { return metrics.Micros(t - j.start) }
	if o.tensors > 0 {
		ready := j.start
		if o.after >= 0 {
			ready = st.taskEnd[o.after]
		}
		j.bucketReports = append(j.bucketReports, metrics.Bucket{Bytes: int64(o.bytes), Tensors: o.tensors,
			ReadyUs: rel(ready), StartUs: rel(st.opStart[k]), FinishUs: rel(j.f.Now())})
	}
	for g := range j.commIntervals {
		if j.stageOf[g] == s {
			j.commIntervals[g] = append(j.commIntervals[g], metrics.Interval{Kind: "communicate", Label: o.label,
				StartUs: rel(st.opStart[k]), EndUs: rel(last[g])})
		}
	}
}

func (j *Job) report() {
	end := j.f.Now()
	iter := end - j.start
	t := &j.res
	var compute, busy unit.Time // the busiest stage's, and all stages'
	for _, st := range j.stages {
		compute = max(compute, st.plan.compute)
		busy += st.plan.compute
	}
	// Each GPU's own compute, and what it would be at full speed: a stage's
	// tasks take its slowest rank's time (faults: slow_gpu), the others wait.
	var own, ideal float64
	for g, s := range j.stageOf {
		st := j.stages[s]
		c, f := float64(st.plan.compute), max(st.slow, 1)
		own += c * j.factor(g) / f
		ideal += c / f
	}
	ranks := float64(max(len(j.stageOf), 1))
	t.IterationUs = metrics.Micros(iter)
	t.ExposedCommUs = metrics.Micros(iter - compute)
	t.GPUUtil = math.Round(own/ranks/float64(iter)*1e4) / 1e4
	t.ScalingEfficiency = math.Round(ideal/ranks/float64(iter)*1e4) / 1e4 // one GPU at full speed needs exactly the compute time
	t.SamplesPerSecond = math.Round(float64(j.cfg.Batch*max(j.cfg.Accumulation, 1)*j.groups.dp) / iter.Seconds())
	t.Buckets = append([]metrics.Bucket(nil), j.bucketReports...)
	if j.cfg.PP > 1 { // exposed: neither a stage's compute (on average) nor its bubble
		t.BubbleFraction, j.bubbleTime = j.bubble()
		t.ExposedCommUs = metrics.Micros(iter - busy/unit.Time(len(j.stages)) - j.bubbleTime)
	}
	lanes := make([][]metrics.Interval, len(j.stages))
	for s, st := range j.stages {
		lanes[s] = j.lane(st, end)
	}
	t.Timeline = t.Timeline[:0]
	for g := range j.commIntervals {
		lane := lanes[j.stageOf[g]]
		if f := j.stages[j.stageOf[g]].slow; f > 1 && j.factor(g) < f {
			lane = fasterLane(lane, j.factor(g)/f)
		}
		iv := append(append([]metrics.Interval(nil), lane...), j.commIntervals[g]...)
		t.Timeline = append(t.Timeline, metrics.GPUTimeline{GPU: g, Intervals: iv})
	}
}

// lane is a stage's compute lane in the iteration that ends at end: the
// tasks, with idle gaps where a task waited; runs of one label (a backward
// pass cut at bucket boundaries) merge.
func (j *Job) lane(st *pipelineStage, end unit.Time) []metrics.Interval {
	rel := func(x unit.Time) float64 { return metrics.Micros(x - j.start) }
	var lane []metrics.Interval
	add := func(kind, label string, from, to unit.Time) {
		if to <= from {
			return
		}
		if n := len(lane); n > 0 && lane[n-1].Kind == kind && lane[n-1].Label == label && lane[n-1].EndUs == rel(from) {
			lane[n-1].EndUs = rel(to)
			return
		}
		lane = append(lane, metrics.Interval{Kind: kind, Label: label, StartUs: rel(from), EndUs: rel(to)})
	}
	prev := j.start
	for k, tk := range st.plan.tasks {
		add("idle", tk.idle, prev, st.taskStart[k])
		add("compute", tk.label, st.taskStart[k], st.taskEnd[k])
		prev = st.taskEnd[k]
	}
	add("idle", "waiting for parameters", prev, end)
	return lane
}

// bubble is the share of the pipeline's forward-backward phase (from the
// iteration's start to the end of its last backward, on any stage) that
// stages spend idle for the pipeline: neither computing nor waiting for a
// tensor-parallel all-reduce, averaged over the stages; and that idle time.
func (j *Job) bubble() (float64, unit.Time) {
	var phase unit.Time
	busy := make([]unit.Time, len(j.stages)) // computing or waiting for tensor parallelism
	for s, st := range j.stages {
		for k, tk := range st.plan.tasks {
			if tk.phase != Forward && tk.phase != Backward {
				continue
			}
			phase = max(phase, st.taskEnd[k]-j.start)
			busy[s] += tk.dur
			if k > 0 && tk.wait >= 0 && tk.recv < 0 {
				busy[s] += st.taskStart[k] - st.taskEnd[k-1]
			}
		}
	}
	var idle float64
	for _, b := range busy {
		idle += float64(phase - b)
	}
	idle /= float64(len(busy))
	return math.Round(idle/float64(phase)*1e4) / 1e4, unit.Time(idle)
}

// Phase is the compute a GPU runs at some time.
type Phase uint8

// The phases of an iteration; NoCompute while a GPU waits for gradients or
// parameters, and before and after the run.
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
// same model on the same batch size at once; with pipeline stages, what the
// first stage computes). It answers for any t up to the
// fabric's now; it only reads what the run has recorded.
func (j *Job) Phase(t unit.Time) Phase {
	i := sort.Search(len(j.spans), func(i int) bool { return j.spans[i].start > t }) - 1
	if i < 0 || t >= j.spans[i].end {
		return NoCompute
	}
	return j.spans[i].phase
}

// InCollective reports whether one of the job's collectives is under way now
// (on the wire, or waiting out its steps' latencies with nothing on the wire).
func (j *Job) InCollective() bool {
	for _, st := range j.stages {
		if st.opBusy[0] || st.opBusy[1] {
			return true
		}
	}
	return false
}

// ComputeSeconds is one optimizer step's compute on one GPU — forward and
// backward (2 × forward, plus what checkpointing recomputes) for each
// micro-batch, and the optimizer step — in seconds: what Start turns into
// picoseconds, for checking a job before it starts.
func ComputeSeconds(m *Model, gpu GPU, mfu float64, checkpointing string, batch, accumulation int) float64 {
	return (3*m.FwdFLOPs()+m.RecomputeFLOPs(checkpointing))*float64(batch)*float64(max(accumulation, 1))/(gpu.PeakFLOPS*mfu) + float64(m.Params())*OptimizerBytesPerParam/gpu.HBM
}

// checkFlows refuses a job whose collectives would make more flows than the
// model may keep (every iteration adds its own), naming what would fit.
func (j *Job) checkFlows() error {
	cfg := &j.cfg
	if cfg.MaxFlows <= 0 {
		return nil
	}
	perIter := int64(len(j.msgs) * j.groups.dp * cfg.TP) // pipeline sends
	if cfg.ReadBytes > 0 {
		perIter += int64(len(j.ranks) * len(cfg.Storage))
	}
	if cfg.CheckpointEvery > 0 {
		perIter += int64(len(j.ranks) * len(cfg.Storage)) // at most one checkpoint an iteration
	}
	for _, st := range j.stages {
		for _, o := range st.plan.ops {
			c, groups := j.comms, len(st.dpGroups)
			if o.tp {
				c, groups = j.tpComms, len(st.tpGroups)
			}
			if c == nil {
				continue
			}
			perIter += int64(groups) * c.transfers(o.kind, o.bytes, cfg.Coll)
		}
	}
	return flowBudget(perIter, int64(max(cfg.Iterations, 1)), cfg.MaxFlows, cfg.Coll.Streamed)
}

func flowBudget(perIter, iters, maxFlows int64, streamed bool) error {
	if perIter*iters <= maxFlows {
		return nil
	}
	var fix msg.Text
	switch {
	case perIter <= maxFlows:
		fix = msg.F("use training.iterations: %d or fewer (the report is the last iteration's)", maxFlows/perIter)
		if !streamed {
			fix = msg.F("%s, or sim: {fidelity: flow}", fix)
		}
	case !streamed:
		fix = msg.F("use sim: {fidelity: flow} (one transfer per pair per phase), fewer training.ranks or a larger training.bucket_cap")
	default:
		fix = msg.F("use fewer training.ranks or a larger training.bucket_cap")
	}
	if iters == 1 {
		return msg.Errorf("training: an iteration's collectives make %d transfers, more than the %d flows a run may make: %s",
			perIter, maxFlows, fix)
	}
	return msg.Errorf("training: %d iterations of %d collective transfers each make %d flows, more than the %d flows a run may make: %s",
		iters, perIter, perIter*iters, maxFlows, fix)
}
