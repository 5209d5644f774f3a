// Package snap is an immutable picture of a running simulation at one instant:
// what the renderer draws. Counters are cumulative; Between turns two
// snapshots into rates over the interval between them.
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
	Done     bool // the run has ended
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

// LinkRates is what a link did between two snapshots.
type LinkRates struct {
	Util  float64 // share of capacity used
	Drops int64   // new drops
	Pause int64   // new pause frames
}

// Between returns each link's utilisation between prev and cur (rates in bits/s by link).
func Between(prev, cur *Snapshot, rates []unit.Rate) []LinkRates {
	out := make([]LinkRates, len(cur.Links))
	dt := cur.Time - prev.Time
	for i := range cur.Links {
		if i >= len(prev.Links) {
			continue
		}
		a, b := &prev.Links[i], &cur.Links[i]
		if dt > 0 && rates[i] > 0 {
			out[i].Util = min(1, float64(b.TxBytes-a.TxBytes)*8/(float64(rates[i])*dt.Seconds()))
		}
		out[i].Drops = b.Drops - a.Drops
		out[i].Pause = b.PauseFrames - a.PauseFrames
	}
	return out
}

// Control is a congestion notification travelling from a flow's receiver back
// to its sender.
type Control struct {
	Flow     int
	Kind     string  // "cnp" or "becn"
	Progress float64 // 0 leaving the receiver … 1 reaching the sender
}
