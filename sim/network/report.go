package network

import (
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// Label is what a workload called a transfer (fabric.Transfer's Tag and
// Step), kept for snapshots; -1 where it does not apply.
type Label struct{ Tag, Step int32 }

// NoLabel labels a scenario's own flows.
var NoLabel = Label{-1, -1}

// LabelOf is tr's label.
func LabelOf(tr fabric.Transfer) Label { return Label{int32(tr.Tag), int32(tr.Step)} }

// Flow is the part of a flow's snapshot every model fills alike.
func (l Label) Flow(src, dst int32, bytes int64, start unit.Time) snap.Flow {
	return snap.Flow{Src: int(src), Dst: int(dst), Bytes: bytes, Start: start, Tag: int(l.Tag), Step: int(l.Step)}
}

// Snapshot starts a picture of the run now, with a place for each link and flow.
func (r *Run[E]) Snapshot(links, flows int) *snap.Snapshot {
	return &snap.Snapshot{Time: r.eng.Now(), Done: r.ended, Links: make([]snap.Link, links), Flows: make([]snap.Flow, flows)}
}

// Result starts the run's report: scenario, seed, fidelity, time, and why
// it stopped early if it did.
func (r *Run[E]) Result(fidelity string) *metrics.Result {
	res := &metrics.Result{Scenario: r.sc.Name, Seed: r.sc.Seed, Fidelity: fidelity}
	res.Totals.SimTimeUs = metrics.Micros(r.eng.Now())
	res.Totals.Truncated = r.truncated
	return res
}

// Finish fills in the figures of a flow of bytes that ran from start to finish.
func Finish(fr *metrics.Flow, bytes int64, start, finish unit.Time) {
	fr.Finished = true
	fr.FinishUs, fr.FctUs = metrics.Micros(finish), metrics.Micros(finish-start)
	fr.Gbps = metrics.Gbps(bytes, finish-start)
}

// FlowTimes sets the totals' longest and mean completion time over the finished flows.
func FlowTimes(t *metrics.Totals, flows []metrics.Flow) {
	var sum float64
	n := 0
	for i := range flows {
		if fr := &flows[i]; fr.Finished {
			t.MaxFctUs = max(t.MaxFctUs, fr.FctUs)
			sum += fr.FctUs
			n++
		}
	}
	if n > 0 {
		t.MeanFctUs = metrics.Round(sum/float64(n), 3)
	}
}
