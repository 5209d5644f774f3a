// Package network is what every network model shares around its own physics:
// the interface a driver runs a model through, and the run itself — time limit,
// event budget, workload callbacks, ordered streams, sampling cadence and the
// common part of snapshots and reports.
package network

import (
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Model is a network model as a driver sees it: a fabric that workloads
// drive, which runs to its end or step by step, pictures itself and reports.
type Model interface {
	fabric.Fabric
	// Run runs until nothing is left to do, the scenario's time limit, or the
	// event budget.
	Run()
	// Advance runs every event up to time t and reports whether the run goes
	// on past it. The clock ends at t unless the run ended first.
	Advance(t unit.Time) bool
	// AdvanceEvents is Advance handling at most n events (n ≥ 1), and says
	// whether it reached t. A call that stops short leaves the model between
	// two events, perhaps of the same time, and the next call goes on from
	// there: the run is the same however its steps are cut.
	AdvanceEvents(t unit.Time, n uint64) (more, reached bool)
	// Events is how many events the model's engine has handled.
	Events() uint64
	// Snapshot pictures the model now; the model goes on unchanged.
	Snapshot() *snap.Snapshot
	// Record is Snapshot in compact form (snap.Snapshot.Compact) against
	// prev, a compact snapshot of this run or nil. When prev is what Record
	// returned last, the chunks of links and flows the model has not
	// touched since are shared without being read: a recording costs what
	// changed.
	Record(prev *snap.Snapshot) *snap.Snapshot
	// Topology is the fabric the model runs on.
	Topology() *topo.Topology
	// Result reports the run (so far).
	Result() *metrics.Result
	// SetEventBudget bounds the engine events the run may handle (MaxEvents
	// unless set; the flow model's Totals.Events counts fewer, only flow
	// starts, deliveries, callbacks and rate recomputations). A run that
	// reaches it stops and says so in Result().Totals.Truncated.
	SetEventBudget(n uint64)
	// SetFlowBudget bounds the flows the run may make, a workload's transfers
	// included (MaxRunFlows unless set); a run that passes it stops and says
	// so in Result().Totals.Truncated.
	SetFlowBudget(n int)
}
