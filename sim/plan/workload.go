package plan

import (
	"fmt"
	"slices"

	"fabriclab/sim/coll"
	"fabriclab/sim/msg"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// Collective is one collective operation over the first Ranks endpoints.
type Collective struct {
	Ranks    int
	Op, Algo string       // as the scenario names them (algo may be auto)
	Protocol string       // NCCL's protocol the run uses (coll.LL, LL128 or Simple)
	Params   coll.Params  // what coll.Build built Schedule from
	Options  coll.Options // how it runs (Track unset)
	// Schedule is the operation's schedule as a run without a chunk view
	// needs it: only its Summary when it runs streamed.
	Schedule *coll.Schedule
}

// Training is data-parallel training over the first Ranks endpoints.
type Training struct {
	Ranks  int
	Config train.Config
	// GPUHourPrice prices the report's GPU-hours; the run never reads it.
	GPUHourPrice float64
}

// ScheduleFor is the collective's schedule for a run that keeps its
// progress for a viewer (track) or not: a streamed run with a viewer needs
// the steps, which Schedule leaves out.
func (c *Collective) ScheduleFor(track bool) (*coll.Schedule, error) {
	if !track || !c.Params.SummaryOnly {
		return c.Schedule, nil
	}
	p := c.Params
	p.SummaryOnly = false
	sched, err := coll.Build(c.Op, c.Algo, p)
	if err != nil {
		return nil, msg.Errorf("collective: %w", err)
	}
	return sched, nil
}

// collective builds sc's collective and checks that it can run (nil, with
// the problems in k, when it cannot).
func collective(sc *scenario.Scenario, k *scenario.Check) *Collective {
	c := &sc.Collective
	ranks := c.Ranks
	if ranks == 0 {
		ranks = sc.Endpoints()
	}
	p := collParams(sc, ranks, c.Root)
	streamed := options(sc, c.Algo, coll.Simple, p).Streamed
	p.SummaryOnly = streamed // a run without a viewer needs no steps
	sched := checkCollective(sc, k, ranks, p, streamed)
	if sched == nil {
		return nil
	}
	proto := protocol(sc, sched.Algo, p)
	if proto != coll.Simple && !slices.Contains(coll.ProtocolAlgos, sched.Algo) {
		k.Fail(k.Blame("collective.protocol", "collective.algo"), "%s runs only NCCL's Simple protocol, not %s: use protocol: auto or simple, or algo: ring or tree",
			sched.Algo, c.Protocol)
		return nil
	}
	return &Collective{Ranks: ranks, Op: c.Op, Algo: c.Algo, Protocol: proto, Params: p, Options: collOptions(sc, sched.Algo, proto, p), Schedule: sched}
}

// protocol is the NCCL protocol sc's collective runs with algo:
// collective.protocol, or under auto the one NCCL's tuning model picks for
// the size (Simple under latency: alpha, which models no protocol).
func protocol(sc *scenario.Scenario, algo string, p coll.Params) string {
	switch sc.Collective.Protocol {
	case scenario.ProtocolLL:
		return coll.LL
	case scenario.ProtocolLL128:
		return coll.LL128
	case scenario.ProtocolSimple:
		return coll.Simple
	}
	if sc.StepLatency() != scenario.LatencyNCCL {
		return coll.Simple
	}
	return coll.TuneProtocol(sc.Collective.Op, algo, p, int64(sc.Collective.Bytes))
}

// collParams describes ranks of sc's topology to coll.Build.
func collParams(sc *scenario.Scenario, ranks, root int) coll.Params {
	return coll.Params{Ranks: ranks, GPUsPerNode: sc.NodeGPUs(), Root: root, OneSwitch: sc.OneSwitch(),
		NVSwitch: sc.NVSwitch(), Bytes: int64(sc.Collective.Bytes), Arch: arch(sc),
		PXN: sc.Collective.PXN, Torus: sc.TorusDims()}
}

// arch is topology.gpu's architecture for NCCL's tuning tables.
func arch(sc *scenario.Scenario) coll.Arch {
	switch sc.Topology.GPU {
	case "a100":
		return coll.Ampere
	case "b200":
		return coll.Blackwell
	}
	return coll.Hopper
}

// collOptions are the collective's options: options with nccl-tests' floor.
func collOptions(sc *scenario.Scenario, algo, proto string, p coll.Params) coll.Options {
	o := options(sc, algo, proto, p)
	if sc.StepLatency() == scenario.LatencyNCCL {
		o.Floor = sc.Collective.Floor
	}
	return o
}

// options are the options of the collective (or training's all-reduces)
// running algo with NCCL's protocol proto on p.
func options(sc *scenario.Scenario, algo, proto string, p coll.Params) coll.Options {
	c := &sc.Collective
	streamed := sc.Sim.Fidelity == scenario.FlowLevel
	if c.Execution != "" {
		streamed = c.Execution == "streamed"
	}
	o := coll.Options{Bytes: c.Bytes, Channels: c.Channels, Chunk: c.Chunk, Alpha: c.Alpha, Streamed: streamed}
	if sc.StepLatency() == scenario.LatencyNCCL {
		o.Latency = coll.NCCLLatency(algo, proto, p)
	}
	o.Protocol, o.Wire = proto, coll.WireFactor(sc.Collective.Op, algo, proto, p)
	return o
}

// training is sc's training job, checked (nil, with the problems in k,
// when it cannot run).
func training(sc *scenario.Scenario, k *scenario.Check) *Training {
	t := &sc.Training
	ranks := t.Ranks
	if ranks == 0 {
		ranks = sc.Endpoints()
	}
	cfg := trainConfig(t)
	if checkTraining(sc, k, &cfg, ranks); k.Err() != nil {
		return nil
	}
	cfg.Algo, cfg.GPUsPerNode, cfg.OneSwitch, cfg.Coll = t.Algo, sc.NodeGPUs(), sc.OneSwitch(), options(sc, t.Algo, coll.Simple, coll.Params{})
	cfg.NVSwitch, cfg.Torus = sc.NVSwitch(), sc.TorusDims()
	cfg.MaxFlows = MaxRunFlows
	cfg.Slow = slowRanks(sc, ranks)
	storage(sc, &cfg)
	return &Training{Ranks: ranks, Config: cfg, GPUHourPrice: t.GPUHourPrice}
}

// storage gives cfg the storage nodes (the endpoints after the GPUs), what
// a checkpoint writes and what the loader reads per rank and iteration.
func storage(sc *scenario.Scenario, cfg *train.Config) {
	t := &sc.Training
	for i := range sc.Topology.StorageNodes {
		cfg.Storage = append(cfg.Storage, sc.Endpoints()+i)
	}
	cfg.CheckpointEvery = t.CheckpointEvery
	if t.CheckpointEvery > 0 {
		cfg.CheckpointBytes = train.CheckpointBytes(cfg.Model)
	}
	cfg.ReadBytes = t.SampleBytes * unit.Bytes(cfg.Batch*max(cfg.Accumulation, 1))
}

// trainConfig is the job tr describes, with the model's defaults filled in
// (batch, accumulation, sharding, calibrated efficiency); the network keys
// (algo, collective options) are left to the caller. It panics on a model or
// GPU Validate rejects.
func trainConfig(tr *scenario.Training) train.Config {
	m := trainModel(tr)
	gpu, err := train.GPUPreset(tr.GPU)
	if err != nil {
		panic(fmt.Sprintf("plan: %v", err))
	}
	cfg := train.Config{Model: m, GPU: gpu, MFU: tr.MFU, Batch: tr.Batch, Accumulation: tr.Accumulation,
		Sharding: tr.Sharding, BucketCap: tr.BucketCap, FirstBucket: tr.FirstBucket, Overlap: tr.Overlap,
		Iterations: tr.Iterations, Checkpointing: tr.Checkpointing}
	cfg.WireBytes, _ = scenario.GradientBytes(tr.Compression)
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
	if cfg.Checkpointing == "" {
		cfg.Checkpointing = train.NoCheckpointing
	}
	cfg.TP, cfg.TPSpread = max(tr.TP, 1), tr.TPLayout == "spread"
	cfg.PP, cfg.PPSchedule, cfg.PPVirtual, cfg.Placement = max(tr.PP, 1), tr.PPSchedule, max(tr.PPVirtual, 1), tr.Placement
	if cfg.PP > 1 {
		cfg.TPSpread = false // the placement places the groups
	}
	return cfg
}

// trainModel is the model training.model names: a preset, or a custom model
// of training.layers. It panics on a model Validate rejects.
func trainModel(tr *scenario.Training) *train.Model {
	if tr.Model != "custom" {
		m, err := train.Preset(tr.Model)
		if err != nil {
			panic(fmt.Sprintf("plan: %v", err))
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
