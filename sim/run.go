// Package sim runs a scenario and reports what happened. The model lives in
// sub-packages: engine (clock and events), unit, link (presets), topo,
// scenario (YAML), plan (a scenario resolved into what a run does), traffic,
// packet (the packet-level model), fluid (the flow-level model), fabric (what
// workloads drive), network (what the models share, and what a driver runs),
// coll (collectives), train (data-parallel training) and metrics (the report).
package sim

import (
	"math"

	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/fluid"
	"fabriclab/sim/infer"
	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/packet"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// Run simulates a validated scenario.
func Run(sc scenario.Scenario) (*metrics.Result, error) {
	st, err := start(sc, false)
	if err != nil {
		return nil, err
	}
	st.Model.Run()
	res := st.Result()
	if err := withBaseline(res, sc); err != nil {
		return nil, err
	}
	return res, nil
}

// Result reports a started scenario (complete once the model has run to its end).
func (st *Started) Result() *metrics.Result {
	res := st.Model.Result()
	res.Collective, res.Training, res.Inference = st.Collective, st.Training, st.Inference
	faultReport(res, st.faults, st.faultList)
	if len(res.Flows) > MaxListedFlows {
		// totals still count them all; a copy, so that the rest can be freed
		res.Flows = append([]metrics.Flow(nil), res.Flows[:MaxListedFlows]...)
	}
	return res
}

// MaxListedFlows bounds flows[] in a result: a collective on thousands of GPUs
// makes hundreds of thousands of transfers.
const MaxListedFlows = 4096

// model builds the model p asks for (sim.fidelity).
func model(p *plan.Plan) Live {
	if p.FlowLevel {
		return fluid.New(p)
	}
	return packet.New(p)
}

func firstEndpoints(n int) []int {
	eps := make([]int, n)
	for i := range eps {
		eps[i] = i
	}
	return eps
}

func startCollective(f fabric.Fabric, c *plan.Collective, track bool, done func(metrics.Collective)) (*coll.Progress, error) {
	sched, err := c.ScheduleFor(track)
	if err != nil {
		return nil, err
	}
	o := c.Options
	o.Track = track
	return coll.Run(f, sched, firstEndpoints(c.Ranks), o, func(r metrics.Collective, _ []unit.Time) { done(r) }), nil
}

func startTraining(f fabric.Fabric, t *plan.Training, done func(metrics.Training)) (*train.Job, error) {
	return train.Start(f, t.Config, firstEndpoints(t.Ranks), done)
}

// Live is a model the browser steps through and pictures.
type Live = network.Model

// Started is a scenario set going but not yet run: step it with Advance.
type Started struct {
	Model      Live
	Collective *metrics.Collective // filled in when the collective ends
	Training   *metrics.Training   // filled in when training ends
	Inference  *metrics.Inference  // filled in when the last request ends
	job        *train.Job          // the training workload, if any
	serve      *infer.Job          // the inference workload, if any
	coll       *coll.Progress      // the collective's progress, if any
	faults     *plan.Faults        // the run's faults, resolved, if any
	faultList  []scenario.Fault    // and as written
}

// Snapshot pictures the model now, with what each endpoint does: computing
// while training runs its GPUs' compute, else communicating while it has a
// flow on the way.
func (st *Started) Snapshot() *snap.Snapshot { return st.picture(st.Model.Snapshot()) }

// Record is Snapshot in compact form against prev, as the model's Record
// makes it (network.Model).
func (st *Started) Record(prev *snap.Snapshot) *snap.Snapshot {
	return st.picture(st.Model.Record(prev))
}

// picture adds to the model's snapshot s what the workload knows.
func (st *Started) picture(s *snap.Snapshot) *snap.Snapshot {
	s.Activity = s.FlowActivity(len(st.Model.Topology().Endpoints))
	s.Faults = st.faultsAt(s.Time)
	if st.coll != nil {
		s.Collective = st.coll.Snapshot(s.Time, s)
	}
	if st.job != nil {
		act := snap.Idle
		switch {
		case st.job.Phase(s.Time) != train.NoCompute:
			act = snap.Computing
		case st.job.InCollective():
			act = snap.Communicating // a collective's step latency leaves the wire empty
		}
		for _, ep := range st.job.Ranks() {
			s.Activity[ep] = max(s.Activity[ep], act)
		}
		s.Training = st.job.Timeline()
	}
	if st.serve != nil {
		s.Inference = st.serve.Snapshot()
		for i, ep := range st.serve.Ranks() {
			if st.serve.Computing(i, s.Time) {
				s.Activity[ep] = max(s.Activity[ep], snap.Computing)
			}
		}
	}
	return s
}

// Start builds the scenario's model and workload without running it, with
// the collective's progress kept for Snapshot.
func Start(sc scenario.Scenario) (*Started, error) { return start(sc, true) }

// start is Start; track keeps a collective's progress (Run needs none).
func start(sc scenario.Scenario, track bool) (*Started, error) {
	b, err := begin(sc, track)
	if err != nil {
		return nil, err
	}
	for !b.Step(math.MaxInt) {
	}
	return b.Started()
}

// Building is a scenario being started a budget of work at a time (Step),
// for a caller that must draw frames meanwhile: the packet-level model adds
// its traffic's flows, finding their routes, BuildFlows a step. What it
// starts is Start's, however the steps fall.
type Building struct {
	plan   *plan.Plan // until the build is done
	faults []scenario.Fault
	track  bool
	pkt    *packet.Build // the packet-level model, until it is built
	model  Live          // the model, once built
	st     *Started
	err    error
}

// BuildFlows is about a millisecond of Step's work in WebAssembly (perm-1024's
// flows, natively 7 µs each).
const BuildFlows = 32

// Begin starts building the scenario as Start would: Step it until it reports
// done, then take Started.
func Begin(sc scenario.Scenario) (*Building, error) { return begin(sc, true) }

// begin resolves sc's plan and starts building its model. A workload that
// cannot run is an error of Started, as when the run starts it.
func begin(sc scenario.Scenario, track bool) (*Building, error) {
	b := &Building{track: track, faults: sc.Faults}
	p, err := plan.Resolve(&sc)
	switch {
	case err != nil:
		b.err = err
	case p.FlowLevel:
		b.model, b.plan = model(p), p
	default:
		b.pkt, b.plan = packet.NewBuild(p), p
	}
	return b, nil
}

// Step does about n flows' worth of the build (n ≥ 1; BuildFlows is a
// millisecond's) and reports whether the scenario has started. The model's
// workload (a collective, training) starts in the last step.
func (b *Building) Step(n int) bool {
	if b.st != nil || b.err != nil {
		return true
	}
	if b.pkt != nil {
		if !b.pkt.Step(n) {
			return false
		}
		b.model, b.pkt = b.pkt.Model(), nil
	}
	p := b.plan
	st := &Started{Model: b.model, faults: p.Faults, faultList: b.faults}
	var err error
	switch {
	case p.Collective != nil:
		st.coll, err = startCollective(b.model, p.Collective, b.track, func(r metrics.Collective) { st.Collective = &r })
	case p.Training != nil:
		price := p.Training.GPUHourPrice
		st.job, err = startTraining(b.model, p.Training, func(r metrics.Training) {
			r.Cost = metrics.TrainingCost(&r, price) // reporting only
			st.Training = &r
		})
	case p.Inference != nil:
		in := p.Inference
		st.serve = infer.Start(b.model, in.Config, firstEndpoints(in.Ranks), func(r metrics.Inference) {
			r.Cost = metrics.InferenceCostOf(&r, in.GPUHourPrice) // reporting only
			st.Inference = &r
		})
	}
	b.st, b.err, b.plan = st, err, nil
	return true
}

// Progress is the share of the build done, from 0 to 1.
func (b *Building) Progress() float64 {
	if b.pkt == nil {
		return 1
	}
	added, all := b.pkt.Flows()
	return float64(added) / float64(max(all, 1))
}

// Started is what Start returns, once Step has reported the scenario started.
func (b *Building) Started() (*Started, error) {
	if b.st == nil && b.err == nil {
		panic("sim: Building.Started before the build is done")
	}
	return b.st, b.err
}
