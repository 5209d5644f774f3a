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

// The checks of a scenario that need an algorithm: whether a collective's
// schedule can be built and fits a run, whether a training job fits its
// GPUs and a run. Each reports through scenario.Check, so its message reads
// like Parse's: "file:line: key: …; fix".

// checkCollective builds the collective's schedule for ranks (a run without
// a viewer's: only the summary when streamed) and checks it; nil when it
// cannot run.
func checkCollective(sc *scenario.Scenario, k *scenario.Check, ranks int, p coll.Params, streamed bool) *coll.Schedule {
	co := &sc.Collective
	sched, err := coll.Build(co.Op, co.Algo, p)
	if err != nil {
		key := "collective.algo"
		if !slices.Contains(coll.Ops, co.Op) {
			key = "collective.op"
		}
		k.Fail(key, "%v", err)
		return nil
	}
	sizeKey := sc.Topology.SizeKey()
	if sched.Steps == nil && !streamed {
		k.Fail(k.Blame("collective.execution", "collective.ranks", sizeKey, "collective.algo", "sim.fidelity"), "%s/%s on %d ranks has too many transfers to run step by step (at most %d); use sim: {fidelity: flow} or collective.execution: streamed",
			co.Op, co.Algo, ranks, coll.MaxStepTransfers)
		return nil
	}
	if sc.Sim.Fidelity != scenario.FlowLevel && co.Bytes > 0 {
		// Every rank sends at most about twice the message.
		packets := int64(ranks) * 2 * int64((co.Bytes+sc.Network.MTU-1)/sc.Network.MTU)
		if key := k.Blame("collective.bytes", "collective.ranks", sizeKey, "network.mtu", "collective.op"); packets > scenario.MaxTotalPackets && key != "collective.bytes" {
			k.Fail(key, "%s makes %d ranks exchange the %s collective.bytes, about %d packets; packet-level runs allow at most %d (send less, or use sim: {fidelity: flow})",
				k.Text(key, nil), ranks, scenario.SizeText(co.Bytes), packets, scenario.MaxTotalPackets)
			return nil
		} else if packets > scenario.MaxTotalPackets {
			k.Fail("collective.bytes", "%s on %d ranks comes to about %d packets; packet-level runs allow at most %d (send less, or use sim: {fidelity: flow})",
				k.Text("collective.bytes", co.Bytes), ranks, packets, scenario.MaxTotalPackets)
			return nil
		}
	}
	if !transfersFit(sc, k, sched, ranks, streamed) {
		return nil
	}
	return sched
}

// transfersFit checks that the collective's transfers fit a run: a schedule's
// transfers, times channels and pipeline pieces when it runs step by step.
// The run would find out only after building the network.
func transfersFit(sc *scenario.Scenario, k *scenario.Check, sched *coll.Schedule, ranks int, streamed bool) bool {
	co := &sc.Collective
	o := coll.Options{Bytes: co.Bytes, Channels: co.Channels, Chunk: co.Chunk, Streamed: streamed}
	n := sched.TransferCount(o)
	if n <= MaxRunFlows {
		return true
	}
	fix := msg.F("use fewer collective.ranks")
	if !streamed {
		fix = msg.F("use collective.execution: streamed (one transfer per pair per phase)")
		if sc.Sim.Fidelity == scenario.Packet {
			fix = msg.F("use sim: {fidelity: flow} or collective.execution: streamed (one transfer per pair per phase)")
		}
		one := sched.TransferCount(coll.Options{Bytes: co.Bytes, Channels: co.Channels, Chunk: 0}) // one piece per channel
		if one <= MaxRunFlows {
			perChannel := (co.Bytes + unit.Bytes(max(co.Channels, 1)) - 1) / unit.Bytes(max(co.Channels, 1))
			pieces := unit.Bytes(MaxRunFlows / one)
			fix = msg.F("%s, or collective.chunk: %s or more", fix, scenario.SizeText(scenario.RoundUp((perChannel+pieces-1)/pieces)))
		}
	}
	key := k.Blame("collective.chunk", "collective.bytes", "collective.channels", "collective.ranks", sc.Topology.SizeKey(), "collective.execution")
	k.Fail(key, "%s/%s on %d ranks makes %d transfers, more than the %d a run may make: %s", co.Op, co.Algo, ranks, n, MaxRunFlows, fix)
	return false
}

// checkTraining checks what training needs of its model, GPUs and
// algorithm: a transformer to split under tensor parallelism, compute and
// memory that fit, and all-reduces that can run.
func checkTraining(sc *scenario.Scenario, k *scenario.Check, cfg *train.Config, ranks int) {
	tr := &sc.Training
	tpOK := tensorParallel(k, tr, cfg)
	ppOK := pipelineParallel(k, tr, cfg)
	if checkpointing(k, tr, cfg) && tpOK && ppOK && computeTime(k, tr, cfg) && tr.Model != "custom" {
		memory(k, tr, cfg, ranks) // a custom model gives no activation sizes
	}
	tp := 1
	if tpOK {
		tp = cfg.TP
	}
	if tr.Algo == coll.TorusAlgo && (sc.TorusDims() == nil || tp > 1 || cfg.PP > 1) {
		k.Fail("training.algo", "torus runs the torus's rings, so the data-parallel group must be the whole torus: use it on topology.kind: torus with training.tp and training.pp at 1, or use ring")
		return
	}
	algo, params := tr.Algo, collParams(sc, ranks, 0)
	if ppOK && cfg.PP > 1 { // each stage's replicas all-reduce on a flat ring (train.Start)
		algo, params = coll.Ring, coll.Params{Ranks: ranks / cfg.PP}
	}
	scheds, err := train.Schedules(cfg.Sharding, algo, params, tp, cfg.TPSpread)
	if err != nil {
		k.Fail("training.algo", "%v", err)
		return
	}
	for _, sched := range scheds {
		if sched.Steps == nil && sc.Sim.Fidelity != scenario.FlowLevel && sc.Collective.Execution != "streamed" {
			k.Fail(k.Blame("training.ranks", sc.Topology.SizeKey(), "training.algo"), "a %s over %d ranks has too many transfers to run step by step; use sim: {fidelity: flow}", sched.Op, sched.Ranks)
			return
		}
	}
}

// tensorParallel checks that Megatron-style tensor parallelism has a
// transformer's sub-blocks to split, and no FSDP beside it.
func tensorParallel(k *scenario.Check, tr *scenario.Training, cfg *train.Config) bool {
	if tr.TP <= 1 {
		return true
	}
	if len(cfg.Model.SubBlocks) == 0 {
		k.Fail("training.tp", "%s needs a transformer to split (Megatron-style: attention and MLP sub-blocks); use model gpt2-1.5b or llama3-8b, or tp: 1", k.Text("training.tp", tr.TP))
		return false
	}
	if cfg.Sharding == train.FSDP {
		k.Fail(k.Blame("training.tp", "training.sharding"), "%s with sharding fsdp is not modelled; use sharding zero1 or zero2 with tensor parallelism, or tp: 1 with fsdp", k.Text("training.tp", tr.TP))
		return false
	}
	return true
}

// pipelineParallel checks that the model's layers split into pp ×
// pp_virtual equal stages, without FSDP, and that an interleaved schedule
// has whole groups of pp micro-batches (Megatron-LM's rule).
func pipelineParallel(k *scenario.Check, tr *scenario.Training, cfg *train.Config) bool {
	if cfg.PP <= 1 {
		return true
	}
	m, pp, v := cfg.Model, cfg.PP, 1
	if cfg.PPSchedule == train.Interleaved {
		v = cfg.PPVirtual
	}
	layers := m.PipelineLayers()
	switch {
	case layers == 0:
		k.Fail(k.Blame("training.pp", "training.model"), "%s needs a model made of layers to split into stages; use model gpt2-1.5b, llama3-8b or custom, or pp: 1", k.Text("training.pp", tr.PP))
	case layers%(pp*v) != 0:
		key := k.Blame("training.pp", "training.pp_virtual", "training.model", "training.layers")
		k.Fail(key, "%s does not split %s's %d layers evenly: pp %d × pp_virtual %d = %d stages; use a pp × pp_virtual that divides %d (e.g. %s)",
			k.Text(key, valueOf(key, tr)), m.Name, layers, pp, v, pp*v, layers, stagesThatFit(layers, pp, v))
	case cfg.Sharding == train.FSDP:
		k.Fail(k.Blame("training.pp", "training.sharding"), "%s with sharding fsdp is not modelled; use sharding none, zero1 or zero2 with pipeline stages (Megatron-LM's distributed optimizer is zero1)", k.Text("training.pp", tr.PP))
	case v > 1 && cfg.Accumulation%pp != 0:
		key := k.Blame("training.accumulation", "training.pp", "training.pp_schedule")
		k.Fail(key, "%s micro-batches do not make whole groups of pp %d: Megatron-LM's interleaved schedule runs the micro-batches through each chunk in groups of pp; use an accumulation that is a multiple of %d (e.g. accumulation: %d)",
			k.Text(key, valueOf(key, tr)), pp, pp, pp*max(cfg.Accumulation/pp, 1))
	default:
		return true
	}
	return false
}

// stagesThatFit names a pp_virtual below v, or else a pp below pp, whose
// stages split layers evenly.
func stagesThatFit(layers, pp, v int) string {
	for w := v - 1; w >= 2; w-- {
		if layers%(pp*w) == 0 {
			return fmt.Sprintf("pp_virtual: %d", w)
		}
	}
	q := pp - 1
	for layers%(q*v) != 0 {
		q--
	}
	return fmt.Sprintf("pp: %d", q)
}

// checkpointing checks that activation checkpointing has transformer blocks
// to wrap.
func checkpointing(k *scenario.Check, tr *scenario.Training, cfg *train.Config) bool {
	if cfg.Checkpointing == train.NoCheckpointing || cfg.Model.Blocks > 0 {
		return true
	}
	k.Fail(k.Blame("training.checkpointing", "training.model"), "%s needs a transformer's blocks to checkpoint (torchtitan wraps each block); use model gpt2-1.5b or llama3-8b, or checkpointing: none",
		k.Text("training.checkpointing", tr.Checkpointing))
	return false
}

// memory checks that a rank's weights, gradients, optimizer state and
// activations fit its GPU's HBM (a pipeline's fullest stage), and names what
// would.
func memory(k *scenario.Check, tr *scenario.Training, cfg *train.Config, ranks int) {
	tp := cfg.TP
	dp := ranks / tp / max(cfg.PP, 1)
	need := func(sharding, checkpointing, schedule string) train.Memory {
		c := *cfg
		c.Sharding, c.Checkpointing, c.PPSchedule = sharding, checkpointing, schedule
		if c.PP > 1 {
			return train.PipelineMemory(&c, dp)
		}
		return train.MemoryPerGPU(c.Model, sharding, checkpointing, dp, tp, c.Batch, c.Accumulation)
	}
	mem := need(cfg.Sharding, cfg.Checkpointing, cfg.PPSchedule)
	hbm := cfg.GPU.HBMCapacity
	if mem.Total() <= hbm {
		return
	}
	var fits []msg.Text
	if cfg.PP > 1 && cfg.PPSchedule == train.GPipe {
		if m := need(cfg.Sharding, cfg.Checkpointing, train.OneFOneB); m.Total() <= hbm {
			fits = append(fits, msg.F("training.pp_schedule: 1f1b (%.0f GB)", m.Total()/1e9))
		}
	}
	for _, sh := range train.Shardings {
		if sh == train.FSDP && (tp > 1 || cfg.PP > 1) {
			continue
		}
		if m := need(sh, cfg.Checkpointing, cfg.PPSchedule); sh != cfg.Sharding && m.Total() <= hbm {
			fits = append(fits, msg.F("training.sharding: %s (%.0f GB)", sh, m.Total()/1e9))
			break
		}
	}
	if cfg.Model.Blocks > 0 {
		for _, ck := range train.Checkpointings[slices.Index(train.Checkpointings, cfg.Checkpointing)+1:] {
			if m := need(cfg.Sharding, ck, cfg.PPSchedule); m.Total() <= hbm {
				fits = append(fits, msg.F("training.checkpointing: %s (%.0f GB)", ck, m.Total()/1e9))
				break
			}
		}
	}
	if a := mem.Activations / float64(cfg.Batch); a > 0 {
		if most := int((hbm - (mem.Total() - mem.Activations)) / a); most >= 1 {
			fits = append(fits, msg.F("a smaller batch (at most %d %ss per GPU)", most, cfg.Model.Sample))
		}
	}
	if len(fits) == 0 {
		fits = append(fits, msg.F("a GPU with more memory"))
	}
	first, causes := "training.batch", []string{"training.sharding", "training.checkpointing", "training.gpu", "training.model", "training.layers"}
	if cfg.PP > 1 && cfg.PPSchedule == train.GPipe { // GPipe's activations grow with the micro-batches
		first, causes = "training.accumulation", append([]string{"training.pp_schedule", "training.batch"}, causes...)
	}
	key := k.Blame(first, causes...)
	with := msg.F("sharding %s", cfg.Sharding)
	if cfg.Model.Blocks > 0 {
		with = msg.F("%s, checkpointing %s", with, cfg.Checkpointing)
	}
	if cfg.PP > 1 {
		with = msg.F("%s, %d pipeline stages (%s, %d micro-batches)", with, cfg.PP, cfg.PPSchedule, max(cfg.Accumulation, 1))
	}
	use := fits[0]
	for _, f := range fits[1:] {
		use = msg.F("%s, or %s", use, f)
	}
	k.Fail(key, "%s does not fit: %s with %s and batch %d needs %.0f GB per GPU (%s), more than %s's %.0f GB; use %s",
		k.Text(key, valueOf(key, tr)), cfg.Model.Name, with, cfg.Batch, mem.Total()/1e9, mem.Text(), tr.GPU, hbm/1e9, use)
}

// maxComputeParts is forward and backward (2 × forward).
const maxComputeParts = 3

// computeTime checks that one step's compute fits in a run: the engine
// counts time in int64 picoseconds, and an iteration longer than MaxUntil
// never reports.
func computeTime(k *scenario.Check, tr *scenario.Training, cfg *train.Config) bool {
	m, gpu := cfg.Model, cfg.GPU
	sec := train.ComputeSeconds(m, gpu, cfg.MFU, cfg.Checkpointing, cfg.Batch, cfg.Accumulation)
	if sec <= MaxUntil.Seconds() {
		return true
	}
	fits := msg.F("use fewer parameters")
	recompute := m.RecomputeFLOPs(cfg.Checkpointing)
	if f := m.FwdFLOPs(); f > 0 {
		most := (MaxUntil.Seconds() - float64(m.Params())*train.OptimizerBytesPerParam/gpu.HBM) * gpu.PeakFLOPS * cfg.MFU / ((maxComputeParts*f + recompute) * float64(cfg.Accumulation))
		if most >= 1 {
			fits = msg.F("e.g. batch: %d", int(most))
		}
	}
	backward := msg.F("× 3 for backward")
	if recompute > 0 {
		backward = msg.F("× 3 for backward plus %.4g recomputed (checkpointing %s)", recompute, cfg.Checkpointing)
	}
	key := k.Blame("training.batch", "training.accumulation", "training.mfu", "training.layers", "training.gpu", "training.model")
	k.Fail(key, "%s makes one step's compute take %.4gs (%.4g FLOPs per sample forward, %s, × batch %d × accumulation %d at %g of %s's %g TFLOP/s, plus the optimizer); a run simulates at most %s: %s",
		k.Text(key, valueOf(key, tr)), sec, m.FwdFLOPs(), backward, cfg.Batch, cfg.Accumulation, cfg.MFU, tr.GPU, gpu.PeakFLOPS/1e12, MaxUntil, fits)
	return false
}

// valueOf is the value of a training key, for messages about a scenario
// built in Go.
func valueOf(key string, tr *scenario.Training) any {
	switch key {
	case "training.batch":
		return tr.Batch
	case "training.accumulation":
		return tr.Accumulation
	case "training.sharding":
		return tr.Sharding
	case "training.checkpointing":
		return tr.Checkpointing
	case "training.mfu":
		return tr.MFU
	case "training.gpu":
		return tr.GPU
	case "training.layers":
		return "the layers"
	case "training.pp":
		return tr.PP
	case "training.pp_virtual":
		return tr.PPVirtual
	case "training.pp_schedule":
		return tr.PPSchedule
	}
	return tr.Model
}
