package plan

import (
	"fmt"

	"fabriclab/sim/coll"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
)

// Collective is one collective operation over the first Ranks endpoints.
type Collective struct {
	Ranks    int
	Op, Algo string       // as the scenario names them (algo may be auto)
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
		return nil, fmt.Errorf("collective: %w", err)
	}
	return sched, nil
}

// collective builds sc's collective and checks that its transfers fit a run.
func collective(sc *scenario.Scenario) (*Collective, error) {
	c := &sc.Collective
	ranks := c.Ranks
	if ranks == 0 {
		ranks = sc.Endpoints()
	}
	p := sc.CollParams(ranks, c.Root)
	p.SummaryOnly = options(sc, c.Algo).Streamed // a run without a viewer needs no steps
	sched, err := coll.Build(c.Op, c.Algo, p)
	if err != nil {
		return nil, fmt.Errorf("collective: %w", err)
	}
	o := options(sc, sched.Algo)
	if n := sched.TransferCount(o); n > MaxRunFlows {
		fix := "use sim: {fidelity: flow} or collective.execution: streamed (one transfer per pair per phase), or a larger collective.chunk"
		if o.Streamed {
			fix = "use fewer collective.ranks"
		}
		return nil, fmt.Errorf("collective: %s/%s on %d ranks makes %d transfers, more than the %d flows a run may make: %s",
			c.Op, c.Algo, ranks, n, MaxRunFlows, fix)
	}
	return &Collective{Ranks: ranks, Op: c.Op, Algo: c.Algo, Params: p, Options: o, Schedule: sched}, nil
}

// options are the options of the collective (or training's all-reduces)
// running algo.
func options(sc *scenario.Scenario, algo string) coll.Options {
	c := &sc.Collective
	streamed := sc.Sim.Fidelity == scenario.FlowLevel
	if c.Execution != "" {
		streamed = c.Execution == "streamed"
	}
	o := coll.Options{Bytes: c.Bytes, Channels: c.Channels, Chunk: c.Chunk, Alpha: c.Alpha, Streamed: streamed}
	if sc.StepLatency() == scenario.LatencyNCCL {
		o.Latency = coll.NCCLLatency(algo)
	}
	return o
}

// training is sc's training job.
func training(sc *scenario.Scenario) *Training {
	t := &sc.Training
	ranks := t.Ranks
	if ranks == 0 {
		ranks = sc.Endpoints()
	}
	cfg := t.TrainConfig()
	cfg.Algo, cfg.GPUsPerNode, cfg.OneSwitch, cfg.Coll = t.Algo, sc.NodeGPUs(), sc.OneSwitch(), options(sc, t.Algo)
	cfg.NVSwitch = sc.NVSwitch()
	cfg.MaxFlows = MaxRunFlows
	return &Training{Ranks: ranks, Config: cfg, GPUHourPrice: t.GPUHourPrice}
}
