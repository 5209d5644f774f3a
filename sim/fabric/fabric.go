// Package fabric is the contract between workloads (collectives, training)
// and the network models that carry them: the packet-level model and the
// flow-level model both implement Fabric (and sim/network's Model, which a
// driver runs).
package fabric

import "fabriclab/sim/unit"

// Transfer is one message from endpoint Src to endpoint Dst.
type Transfer struct {
	Src, Dst int
	Bytes    unit.Bytes
	// Stream orders messages like one RDMA queue pair: transfers with the same
	// Src, Dst and Stream > 0 leave the sender one after another, each once the
	// one before has been sent. Stream 0 sends at once, beside everything else.
	Stream int
	// Tag and Step label the transfer for the renderer: a collective's chunk
	// id and step (use -1 when they do not apply).
	Tag, Step int
	// Storage puts the transfer in the storage traffic class
	// (training.storage_class) instead of the workload's: a checkpoint's
	// writes, a data loader's reads.
	Storage bool
}

// StreamKey identifies an ordered stream of transfers.
type StreamKey struct{ Src, Dst, Stream int }

// Fabric carries transfers between endpoints and keeps simulated time: what a
// workload drives. Callbacks run inside the simulation, at their event's
// time, and may call Send and At again; they must not block.
type Fabric interface {
	// Now is the current simulated time.
	Now() unit.Time
	// Send starts tr now; done runs when its last byte has arrived.
	Send(tr Transfer, done func())
	// At runs fn at time t (not before now).
	At(t unit.Time, fn func())
	// Latency is the one-way latency of a packet from endpoint src to dst on an
	// idle fabric: propagation and switch latency per hop, plus one full packet
	// stored and forwarded at every hop after the first.
	Latency(src, dst int) unit.Time
}
