package network

import (
	"strings"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
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

// Compact starts a compact picture of the run now (Model.Record), with
// its links and flows counted; the caller fills in the chunks.
func (r *Run[E]) Compact(links, flows int) *snap.Snapshot {
	return &snap.Snapshot{Time: r.eng.Now(), Done: r.ended, LinkCount: links, FlowCount: flows}
}

// Result starts the run's report: scenario, seed, fidelity, time, and why
// it stopped early if it did.
func (r *Run[E]) Result(fidelity string) *metrics.Result {
	res := &metrics.Result{Scenario: r.name, Seed: r.seed, Fidelity: fidelity}
	res.Totals.SimTimeUs = metrics.Micros(r.eng.Now())
	res.Totals.Truncated = r.truncated
	return res
}

// FlowTimes gathers the completion times of a run's finished flows.
type FlowTimes struct {
	n        int
	sum, max float64 // µs
}

// Finish fills in the figures of a flow of bytes that ran from start to
// finish, and counts its completion time.
func (ft *FlowTimes) Finish(fr *metrics.Flow, bytes int64, start, finish unit.Time) {
	fr.Finished = true
	fr.FinishUs, fr.FctUs = metrics.Micros(finish), metrics.Micros(finish-start)
	fr.Gbps = metrics.Gbps(bytes, finish-start)
	ft.n++
	ft.sum += fr.FctUs
	ft.max = max(ft.max, fr.FctUs)
}

// Totals sets the totals' longest and mean completion time.
func (ft *FlowTimes) Totals(t *metrics.Totals) {
	t.MaxFctUs = ft.max
	if ft.n > 0 {
		t.MeanFctUs = metrics.Round(ft.sum/float64(ft.n), 3)
	}
}

// NameLinks sets each link's Name to t.LinkName(ID), the names cut from one
// string: one allocation, not one a link (131 k links on the 16k-GPU fabric;
// an allocation costs WebAssembly several times what it costs native code).
func NameLinks(t *topo.Topology, links []metrics.Link) {
	size := 0
	for i := range links {
		l := &t.Links[links[i].ID]
		size += len(t.Nodes[l.From].Name) + len(arrow) + len(t.Nodes[l.To].Name)
	}
	var b strings.Builder
	b.Grow(size)
	for i := range links {
		l := &t.Links[links[i].ID]
		b.WriteString(t.Nodes[l.From].Name)
		b.WriteString(arrow)
		b.WriteString(t.Nodes[l.To].Name)
	}
	all, at := b.String(), 0
	for i := range links {
		l := &t.Links[links[i].ID]
		n := len(t.Nodes[l.From].Name) + len(arrow) + len(t.Nodes[l.To].Name)
		links[i].Name = all[at : at+n]
		at += n
	}
}

const arrow = "→" // topo.LinkName's
