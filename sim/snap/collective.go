package snap

import (
	"unsafe"

	"fabriclab/sim/unit"
)

// Bounds on Collective, so that a snapshot stays small at any rank count.
const (
	MaxCollRows   = 64  // Cells rows (ranks, or groups of ranks beyond 64)
	MaxCollCols   = 64  // Cells columns
	MaxCollSends  = 256 // Sends listed for the current step
	MaxCollRoutes = 256 // Routes: whole channels from the first
	MaxCollSpans  = 64  // Spans (steps, or groups of steps)
)

// CellKind says what a Collective cell measures.
type CellKind uint8

// Cell kinds.
const (
	// Reduced: how many ranks' contributions the row's copy of the column's
	// chunks sums, over all ranks (255 = all N; in an all-gather or broadcast,
	// 255 = holds the chunk, 0 = does not yet).
	Reduced CellKind = iota
	// Received: in an all-to-all, the share of what the column's ranks send
	// the row's ranks that has arrived (the diagonal is a rank's own data).
	Received
)

// Collective is a running collective's progress: sim/coll keeps it as
// transfers arrive. Every slice is bounded by the Max* constants.
type Collective struct {
	Op, Algo string
	Ranks    int
	Lanes    int // channels the runner keeps (NCCL's rings or trees, or Options.Channels)
	Streamed bool
	// Pipelined phases run at once, each on its own piece (hierarchical,
	// tree, NVLS tree); a streamed pipelined run moves them all together.
	Pipelined bool
	// Phase is what the run is doing now: the phase of the step the moved
	// bytes have reached (PhaseIndex of Phases), and Step of Steps that
	// phase's steps (1-based; 0 when streamed, which runs phases whole).
	Phase              string
	PhaseIndex, Phases int
	PhaseNames         []string // every phase, in order (a handful)
	Step, Steps        int
	AllSteps           int // the steps of every phase (0 when streamed)
	// Sends are the current step's transfers as endpoint pairs (−1 is the
	// switch of an in-network reduction), deduplicated, at most MaxCollSends.
	Sends []Send
	// Routes are the channels NCCL builds (sim/coll's Schedule.Routes: its
	// rings, or its trees' hops from each rank to its parent) as endpoint
	// pairs with their lane, whole channels from lane 0 while they fit in
	// MaxCollRoutes; nil when the schedule builds none. They do not change
	// during a run.
	Routes []Send
	// Cells is a Rows×Cols matrix, row-major, of 0…255: rows are ranks (or
	// RowRanks ranks each), columns the buffer's chunks (see ColOwner).
	Kind       CellKind
	Rows, Cols int
	RowRanks   int // ranks per row: 1, a node's GPUs, or ranks/64
	// ColOwner says that column c is the chunks rank row c ends up owning
	// after reduce-scatter (or holds first, in an all-gather); otherwise the
	// columns are equal slices of the buffer in order.
	ColOwner bool
	Cells    []uint8
	// Slot is Cells as the schedule has them for one pipeline piece at the
	// current step (part way from the step before by the step's share
	// done): the textbook picture, where Cells average over every piece in
	// flight. Nil for Received, and beyond a few hundred steps.
	Slot []uint8
	// Spans are steps (or phases when streamed, or groups of steps beyond
	// MaxCollSpans) with when their first transfer left and last arrived.
	Spans []Span
	// Bytes is the message S; Done the share of its transfers' bytes that has
	// arrived (0…1).
	Bytes int64
	Done  float64
	// Elapsed is the time since the collective started (until it finished).
	Elapsed unit.Time
	// AlgBwGBps and BusBwGBps are Done·S over Elapsed and the nccl-tests bus
	// factor times that; when Finished, the run's final figures.
	AlgBwGBps, BusBwGBps float64
	Finished             bool
}

// Send is one rank sending to another in the current step.
type Send struct {
	Src, Dst int32 // endpoints; −1 the in-network reduction point
	Lane     int32 // the channel
	Net      bool  // crosses the network between nodes
}

// Span is a step's (or phase's) life: First is when its first transfer
// left, Last when its latest one arrived (0 when none has), Done the share of
// its transfers that have arrived.
type Span struct {
	Phase       int // index into the phases
	First, Last unit.Time
	Done        float64
}

// Size is about what c takes in memory (0 for nil): a recorded frame's share.
func (c *Collective) Size() int64 {
	if c == nil {
		return 0
	}
	return int64(unsafe.Sizeof(*c)) + int64(cap(c.Sends)+cap(c.Routes))*int64(unsafe.Sizeof(Send{})) +
		int64(cap(c.Cells)+cap(c.Slot)) + int64(cap(c.Spans))*int64(unsafe.Sizeof(Span{}))
}
