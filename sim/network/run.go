package network

import (
	"fmt"

	"fabriclab/sim/engine"
	"fabriclab/sim/plan"
	"fabriclab/sim/unit"
)

// MaxEvents bounds one run: at a few million events a second it is minutes
// of work, and no lesson or benchmark comes near it.
const MaxEvents = 1_000_000_000

// MaxRunFlows bounds the flows one run makes, a workload's chunk transfers
// included. A model keeps every flow to the end of the run (a few hundred
// bytes each: about 0.5 KiB at flow level and 0.8 KiB at packet level), so
// this bounds its memory at about 1–2 GiB; a training run's iterations
// each add theirs.
const MaxRunFlows = plan.MaxRunFlows

// Run is one model's run: its event loop, when it stops (idle, time limit,
// event budget), its callbacks and its ordered streams. The model supplies
// the physics: how to handle each of its events.
type Run[E any] struct {
	eng       *engine.Sim[E]
	name      string // the plan's, for the report
	seed      uint64
	until     unit.Time // 0: none
	flowLevel bool
	limit     unit.Time // until, or MaxUntil

	// Stopped says nothing more will run: every flow finished with no
	// callback pending, or the event budget ran out.
	Stopped      bool
	truncated    string // why the run stopped early, if it did
	begun, ended bool
	flowBudget   int    // most flows the run may make
	budget       uint64 // most events the run may handle
	capped       bool   // the step's events are capped (Cap) below budget

	Calls   Calls
	Streams Streams
}

// NewRun starts the run of p on eng, with the default event budget.
func NewRun[E any](eng *engine.Sim[E], p *plan.Plan) Run[E] {
	eng.SetBudget(MaxEvents)
	limit := p.Until
	if limit == 0 {
		limit = plan.MaxUntil
	}
	return Run[E]{eng: eng, name: p.Name, seed: p.Seed, until: p.Until, flowLevel: p.FlowLevel,
		limit: limit, flowBudget: MaxRunFlows, budget: MaxEvents}
}

// SetEventBudget bounds the events the run may handle.
func (r *Run[E]) SetEventBudget(n uint64) { r.budget = n; r.eng.SetBudget(n) }

// SetFlowBudget bounds the flows the run may make.
func (r *Run[E]) SetFlowBudget(n int) { r.flowBudget = n }

// Advance runs every event up to time t through handle and reports whether
// the run goes on past it; the clock ends at t unless the run ended first.
// idle says the model has nothing to do (checked before the first event);
// final runs once, when the run ends.
//
// A model's own Advance may instead run the loop itself between Begin and
// End, calling its handle directly: natively that costs the same
// (BenchmarkLoop), in WebAssembly a call less per event is worth having.
func (r *Run[E]) Advance(t unit.Time, idle bool, handle func(E), final func()) bool {
	t, ok := r.Begin(t, idle)
	if !ok {
		return false
	}
	for !r.Stopped {
		ev, ok := r.eng.Next(t)
		if !ok {
			break
		}
		handle(ev)
	}
	return r.End(t, final)
}

// Begin starts a step to t: it returns the time to run events up to (t,
// or the run's limit) and false if the run has ended. The model then takes
// events from its engine while Stopped is false, and calls End.
func (r *Run[E]) Begin(t unit.Time, idle bool) (unit.Time, bool) {
	if r.ended {
		return t, false
	}
	if !r.begun {
		r.begun = true
		r.Stopped = idle || r.truncated != ""
	}
	return min(t, r.limit), true
}

// Cap bounds the step Begin started to n more events (0: no bound but the
// run's budget). The engine's budget check stops the loop there, so the
// event loop itself pays nothing for it; the model then asks Cut.
func (r *Run[E]) Cap(n uint64) {
	if c := r.eng.Events() + n; n > 0 && c < r.budget && c >= n {
		r.eng.SetBudget(c)
		r.capped = true
	}
}

// Cut lifts Cap's bound and reports whether the loop stopped at it: the
// step ends short of its time, with no End, and the next step goes on from
// the event it stopped before (the clock stays at the last event handled;
// others may wait at that time).
func (r *Run[E]) Cut() bool {
	if !r.capped {
		return false
	}
	cut := !r.Stopped && r.eng.Exhausted()
	r.eng.SetBudget(r.budget)
	r.capped = false
	return cut
}

// End ends the step Begin returned t for and reports whether the run goes
// on past it; final runs once, when the run ends.
func (r *Run[E]) End(t unit.Time, final func()) bool {
	if r.pause(t) {
		return true
	}
	final()
	return false
}

// CountFlow tells the run that the model now holds n flows. Past its flow
// budget (MaxRunFlows unless set) the run stops once the event at hand is
// handled, and says why.
func (r *Run[E]) CountFlow(n int) {
	if n <= r.flowBudget || r.truncated != "" {
		return
	}
	fix := "use sim: {fidelity: flow} (one transfer per pair per phase), fewer training.iterations (the report is the last iteration's), fewer ranks, or a larger collective.chunk"
	if r.flowLevel {
		fix = "use fewer training.iterations (the report is the last iteration's), fewer ranks, or larger training.bucket_cap"
	}
	r.truncated = fmt.Sprintf("stopped at %v: the run made more than %d flows (a collective's chunk transfers count as flows, and each is kept to the end of the run): %s",
		r.eng.Now(), r.flowBudget, fix)
	r.Stopped = true
}

// StopIf stops the run when the model is idle.
func (r *Run[E]) StopIf(idle bool) {
	if idle {
		r.Stopped = true
	}
}

// pause ends a step at t, once the loop has run what it could, and reports
// whether the run goes on past t.
func (r *Run[E]) pause(t unit.Time) bool {
	if r.eng.Exhausted() {
		// A run that would take hours (a lossy incast collapsing for
		// seconds of simulated time) stops here and says so.
		r.truncated = fmt.Sprintf("stopped after %d events at %v: set until to a shorter time, or make the flows smaller", r.eng.Events(), r.eng.Now())
		r.Stopped = true
	}
	if !r.Stopped && r.eng.Pending() > 0 {
		if t < r.limit {
			r.eng.AdvanceTo(t)
			return true
		}
		if r.until > 0 {
			r.eng.AdvanceTo(r.limit) // the limit, not the last event, ends the run
		}
	}
	if !r.Stopped {
		// The model is not idle: flows (or a workload's callbacks) are unfinished.
		switch {
		case r.eng.Pending() == 0:
			r.truncated = fmt.Sprintf("nothing left to run at %v with flows unfinished", r.eng.Now())
		case r.until > 0:
			r.truncated = fmt.Sprintf("until %v reached with flows unfinished", r.until)
		default:
			r.truncated = fmt.Sprintf("stopped at the %v limit of simulated time with flows unfinished: set until, or make the flows smaller", plan.MaxUntil)
		}
	}
	r.ended = true
	return false
}
