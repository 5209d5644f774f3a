// Package snap is an immutable picture of a running simulation at one instant:
// all the renderer draws from. Counters are cumulative: rates come from two
// snapshots.
package snap

import "fabriclab/sim/unit"

// Snapshot is the state of the network at Time.
type Snapshot struct {
	Time    unit.Time
	Links   []Link   // by link ID (both directions of every cable)
	Flows   []Flow   // by flow ID, in the order flows were added
	Packets []Packet // packets on the wire now (at most a few per link)
	// Controls are congestion notifications on their way back to a sender:
	// DCQCN's CNPs and InfiniBand's BECNs (the latest per flow).
	Controls []Control
	// Activity is what each endpoint does now, by endpoint index: nil from a
	// bare model; sim.Started.Snapshot fills it in.
	Activity []Activity
	// Training is what a training run's GPUs have done so far; nil without one.
	Training *Training
	Marking  Marking
	// Collective is a running collective's progress (nil otherwise):
	// sim.Started.Snapshot fills it in.
	Collective *Collective
	// Inference is an inference service's requests (nil otherwise).
	Inference *Inference
	Done      bool // the run has ended
	// Faults are the faults in effect now (nil without any): sim.Started
	// fills them in.
	Faults *Faults

	Routing *Routing // where flows go (routing.go); nil from a model that does not say
	// Classes names the traffic classes (network.classes) that Flow.Class
	// indexes; nil with a single class.
	Classes []string

	// A compact snapshot's links and flows (see NumFlows): Links and Flows
	// are nil, LinkChunks and FlowChunks hold LinkCount and FlowCount.
	LinkChunks           [][]Link
	FlowChunks           [][]Flow
	LinkCount, FlowCount int
}

// Activity is what an endpoint is doing.
type Activity uint8

// Endpoint activities. A GPU that computes while its gradients are on the
// wire is Computing: its links show the communication.
const (
	Idle          Activity = iota
	Communicating          // an end of a started, unfinished flow
	Computing              // a GPU in a training iteration's forward, backward or optimizer step
)

func (a Activity) String() string { return [...]string{"idle", "communicating", "computing"}[a] }

// FlowActivity is n endpoints' activity as the flows show it: Communicating
// at both ends of a started, unfinished flow, Idle elsewhere.
func (s *Snapshot) FlowActivity(n int) []Activity {
	out := make([]Activity, n)
	for i := range s.NumFlows() {
		if f := s.Flow(i); f.Started && !f.Done {
			for _, e := range [2]int{f.Src, f.Dst} {
				if e >= 0 && e < n {
					out[e] = Communicating
				}
			}
		}
	}
	return out
}

// Marking is the egress queue depths, in bytes, at which switches mark
// packets for congestion control; 0 where nothing marks.
type Marking struct {
	ECNKmin, ECNKmax int64 // DCQCN (RED): marking starts above Kmin and takes every packet above Kmax
	FECN             int64 // InfiniBand CC: ports above it mark FECN
}

// Link is one egress port and the wire it feeds.
type Link struct {
	TxBytes     int64 // wire bytes sent so far
	QueueBytes  int64 // waiting in the egress queue now
	BufferBytes int64 // the queue's capacity (0: unbounded, e.g. lossless egress)
	Drops       int64
	PauseFrames int64 // received so far
	Paused      bool  // held by PFC now
	ECNMarks    int64 // packets marked congestion-experienced so far
}

// Flow is one transfer.
type Flow struct {
	Src, Dst  int
	Bytes     int64
	Delivered int64
	Start     unit.Time
	Finish    unit.Time // 0 until done
	Done      bool
	Started   bool
	Class     uint8 // traffic class: an index into Snapshot.Classes (0 with one class)
	Tag       int   // what the workload labelled it with: a collective's chunk id, or -1
	Step      int   // a collective's step, or -1
	// RateGbps is the rate congestion control allows the sender now; 0 when
	// nothing limits it (no congestion control, or the flow is done).
	RateGbps float64
}

// Packet is a packet (or, Count > 1, a burst of them) on a link's wire.
type Packet struct {
	Link     int
	Flow     int
	Progress float64 // 0 just sent … 1 arriving
	Count    int
	Marked   bool // ECN congestion experienced
}

// Control is a congestion notification travelling from a flow's receiver back
// to its sender.
type Control struct {
	Flow     int
	Kind     string  // "cnp" or "becn"
	Progress float64 // 0 leaving the receiver … 1 reaching the sender
}

// ChunkLen is how many flows or links one chunk of a compact snapshot holds.
const ChunkLen = 256

// A snapshot holds its links and flows in one of two forms. A full snapshot
// (what the models return, and the frame a player shows) has them in Links
// and Flows, indexed by link and flow ID. A compact one (a recorded frame the
// player keeps) has Links and Flows nil and holds them in LinkChunks and
// FlowChunks instead: ChunkLen per chunk, chunks that did not change since
// the frame before shared with it, so that a frame costs what changed, not
// every flow ever added. NumFlows, Flow, NumLinks and Link read either form;
// code that reads earlier snapshots (a chart's history) must use them, code
// that reads the frame shown may index Flows and Links directly.
// NumFlows is how many flows there are (added so far).
func (s *Snapshot) NumFlows() int {
	if s.Flows != nil || s.FlowChunks == nil {
		return len(s.Flows)
	}
	return s.FlowCount
}

// Flow is flow i, 0 ≤ i < NumFlows.
func (s *Snapshot) Flow(i int) *Flow {
	if s.Flows != nil {
		return &s.Flows[i]
	}
	return &s.FlowChunks[i/ChunkLen][i%ChunkLen]
}

// NumLinks is how many links there are.
func (s *Snapshot) NumLinks() int {
	if s.Links != nil || s.LinkChunks == nil {
		return len(s.Links)
	}
	return s.LinkCount
}

// Link is link i, 0 ≤ i < NumLinks.
func (s *Snapshot) Link(i int) *Link {
	if s.Links != nil {
		return &s.Links[i]
	}
	return &s.LinkChunks[i/ChunkLen][i%ChunkLen]
}

// Compact is s in compact form, sharing every chunk equal to prev's (a
// compact snapshot, or nil). s is not changed; Packets, Controls and
// Activity are shared with it. A compact s is returned as it is.
func (s *Snapshot) Compact(prev *Snapshot) *Snapshot {
	if s.Flows == nil && s.FlowChunks != nil || s.Links == nil && s.LinkChunks != nil {
		return s
	}
	c := *s
	c.Flows, c.Links = nil, nil
	c.FlowCount, c.LinkCount = len(s.Flows), len(s.Links)
	var pf [][]Flow
	var pl [][]Link
	if prev != nil {
		pf, pl = prev.FlowChunks, prev.LinkChunks
	}
	c.FlowChunks = compactChunks(s.Flows, pf)
	c.LinkChunks = compactChunks(s.Links, pl)
	return &c
}

func compactChunks[T comparable](all []T, prev [][]T) [][]T {
	out := make([][]T, 0, (len(all)+ChunkLen-1)/ChunkLen)
	for i := 0; i < len(all); i += ChunkLen {
		part := all[i:min(i+ChunkLen, len(all))]
		if k := i / ChunkLen; k < len(prev) && equal(prev[k], part) {
			out = append(out, prev[k])
			continue
		}
		out = append(out, append(make([]T, 0, len(part)), part...))
	}
	return out
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Full is s in full form: a new snapshot with Links and Flows filled in from
// the chunks (which it shares). A full s is returned as it is.
func (s *Snapshot) Full() *Snapshot {
	if s.Flows != nil && s.Links != nil || s.FlowChunks == nil && s.LinkChunks == nil {
		return s
	}
	c := *s
	c.Flows = make([]Flow, 0, s.NumFlows())
	for _, ch := range s.FlowChunks {
		c.Flows = append(c.Flows, ch...)
	}
	c.Links = make([]Link, 0, s.NumLinks())
	for _, ch := range s.LinkChunks {
		c.Links = append(c.Links, ch...)
	}
	return &c
}

// RecordChunks is n elements in chunks (as Compact makes them) against
// prev's chunks, for a model that writes a compact snapshot itself: chunk k
// is prev[k] when same(k) says the model left it as it was (same may be
// nil), else fill writes its elements, from index first on, and it is
// prev[k] again when they equal it, a new chunk otherwise. So a chunk the
// model did not touch costs nothing, and the result is Compact's.
func RecordChunks[T comparable](n int, prev [][]T, same func(k int) bool, fill func(part []T, first int)) [][]T {
	out := make([][]T, 0, (n+ChunkLen-1)/ChunkLen)
	var buf [ChunkLen]T
	for i := 0; i < n; i += ChunkLen {
		k, part := i/ChunkLen, buf[:min(ChunkLen, n-i)]
		old := k < len(prev) && len(prev[k]) == len(part)
		if old && same != nil && same(k) {
			out = append(out, prev[k])
			continue
		}
		fill(part, i)
		if old && equal(prev[k], part) {
			out = append(out, prev[k])
			continue
		}
		out = append(out, append(make([]T, 0, len(part)), part...))
	}
	return out
}
