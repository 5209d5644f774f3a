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
	Done       bool // the run has ended

	Routing *Routing // where flows go (routing.go); nil from a model that does not say
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
	for i := range s.Flows {
		if f := &s.Flows[i]; f.Started && !f.Done {
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
	Tag       int // what the workload labelled it with: a collective's chunk id, or -1
	Step      int // a collective's step, or -1
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
