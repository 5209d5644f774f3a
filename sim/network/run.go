package network

import (
	"fmt"

	"fabriclab/sim/engine"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// MaxEvents bounds one run: at a few million events a second it is minutes
// of work, and no lesson or benchmark comes near it.
const MaxEvents = 1_000_000_000

// Run is one model's run around its event loop: when it stops (idle, time
// limit, event budget), its callbacks and its ordered streams. A model keeps
// the loop itself, so that handling an event stays a direct call:
//
//	t, ok := m.run.Begin(t, m.idle())
//	if !ok {
//		return false
//	}
//	for !m.run.Stopped {
//		ev, ok := m.eng.Next(t)
//		if !ok {
//			break
//		}
//		m.handle(ev)
//	}
//	return m.run.Pause(t)
type Run[E any] struct {
	eng   *engine.Sim[E]
	sc    *scenario.Scenario
	limit unit.Time // until, or MaxUntil

	// Stopped says nothing more will run: every flow finished with no
	// callback pending, or the event budget ran out.
	Stopped      bool
	truncated    string // why the run stopped early, if it did
	begun, ended bool

	Calls   Calls
	Streams Streams
}

// NewRun starts the run of sc on eng, with the default event budget.
func NewRun[E any](eng *engine.Sim[E], sc *scenario.Scenario) Run[E] {
	eng.SetBudget(MaxEvents)
	limit := sc.Until
	if limit == 0 {
		limit = scenario.MaxUntil
	}
	return Run[E]{eng: eng, sc: sc, limit: limit}
}

// SetEventBudget bounds the events the run may handle.
func (r *Run[E]) SetEventBudget(n uint64) { r.eng.SetBudget(n) }

// Begin opens a step up to t: it returns t within the time limit, or false
// if the run has ended. idle says the model has nothing to do; it stops the
// run if it says so before the first event.
func (r *Run[E]) Begin(t unit.Time, idle bool) (unit.Time, bool) {
	if r.ended {
		return t, false
	}
	if !r.begun {
		r.begun = true
		r.Stopped = idle
	}
	return min(t, r.limit), true
}

// StopIf stops the run when the model is idle.
func (r *Run[E]) StopIf(idle bool) {
	if idle {
		r.Stopped = true
	}
}

// Pause closes a step Begin opened at t (the loop has run what it could) and
// reports whether the run goes on past t. When it does not, the run has ended:
// the model takes its last sample.
func (r *Run[E]) Pause(t unit.Time) bool {
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
		if r.sc.Until > 0 {
			r.eng.AdvanceTo(r.limit) // the limit, not the last event, ends the run
		}
	}
	r.ended = true
	return false
}
