package snap

import (
	"unsafe"

	"fabriclab/sim/unit"
)

// Routing is where a snapshot's flows go: how many cross each link now and
// how many packets arrived out of order. Each flow's links are in Routes,
// which one run builds once and every snapshot of it shares.
type Routing struct {
	Routes *Routes
	// LinkFlows is, by link, how many started, unfinished flows cross it:
	// those routed over it, or under per-packet routing those whose packets
	// have taken it.
	LinkFlows []int32
	// Reordered holds the running flows with packets that arrived ahead of
	// order, and how many; a finished flow's count is in Routes.
	Reordered      []FlowCount
	ReorderedTotal int64 // over all flows so far
}

// FlowCount is a count for one flow.
type FlowCount struct {
	Flow int32
	N    int64
}

// Routes is a run's table of flow paths and names, by flow ID. A model
// fills it as the run goes: entries are added, never changed; the links a
// per-packet flow takes carry the time they were first taken, and a
// rerouted flow's new path the time it moved (Reroute), so that an earlier
// snapshot sees only its own. One goroutine (the model's) writes and reads it.
type Routes struct {
	// PerPacket: adaptive routing or spraying, a flow's packets take several paths.
	PerPacket bool
	MTU       int64    // payload bytes per packet, to turn bytes into packets
	Names     []string // by flow ID: the scenario's name for it, "" for none; may be shorter than the flows

	path  func(flow int) []int32 // the flow's links (static or ECMP routing, or all its minimal paths)
	paths [][]int32              // path's answers, kept
	taken [][]Use                // per-packet routing in the packet model: links in the order first taken
	seen  [][]uint64             // by running flow: a bit per link in taken, so Took is O(1)
	links int
	words int // bitset words held now, uses recorded: kept under MaxTracked
	uses  int
	// Truncated: some flow's links went unrecorded, the run being too big (MaxTracked).
	Truncated bool
	final     map[int32]int64 // finished flows' reordered packets
	finals    []FlowCount     // the same, in the order they finished (RouteReader)
	moves     [][]Move        // by flow: the paths it moved to, in time order
	moveLog   []FlowMove      // the same, in the order recorded (RouteReader)
}

// Move is a path a flow moved to at a time (a reroute around a failed link,
// or back once it returns).
type Move struct {
	At    unit.Time
	Links []int32
}

// FlowMove is a flow's move.
type FlowMove struct {
	Flow int32
	Move
}

// Reroute records that flow's path is links from time at on (at no earlier
// than its last move). Its path until then stays what Path answered.
func (r *Routes) Reroute(flow int32, links []int32, at unit.Time) {
	r.Path(int(flow)) // pinned: the path before the move
	r.addMove(FlowMove{flow, Move{at, links}})
}

func (r *Routes) addMove(m FlowMove) {
	for int(m.Flow) >= len(r.moves) {
		r.moves = append(r.moves, nil)
	}
	r.moves[m.Flow] = append(r.moves[m.Flow], m.Move)
	r.moveLog = append(r.moveLog, m)
}

// pathAt is flow's path at time at: its last move by then, else Path.
func (r *Routes) pathAt(flow int, at unit.Time) []int32 {
	if flow < len(r.moves) {
		ms := r.moves[flow]
		for k := len(ms) - 1; k >= 0; k-- {
			if ms[k].At <= at {
				return ms[k].Links
			}
		}
	}
	return r.Path(flow)
}

// Use is a link and when a flow first took it.
type Use struct {
	Link int32
	At   unit.Time
}

// NewRoutes makes a run's table for a fabric of links links. path gives a
// flow's links (computed once, the first time one is asked for); its answer
// must not change. With track, Took records the links flows take instead.
func NewRoutes(perPacket bool, mtu int64, links int, track bool, path func(flow int) []int32) *Routes {
	r := &Routes{PerPacket: perPacket, MTU: mtu, path: path, links: links}
	if track {
		r.taken = [][]Use{}
	}
	return r
}

// MaxTracked bounds what Took keeps, in recorded links and in bitset
// words each: about 16 MiB and 8 MiB. Past it, new links go unrecorded.
const MaxTracked = 1 << 20

// Track starts recording the links flows take (Took), if not yet.
func (r *Routes) Track() {
	if r.taken == nil {
		r.taken = [][]Use{}
	}
}

// Took records that flow took link at time at, the first time it does,
// once Track has been called.
func (r *Routes) Took(flow int32, link int32, at unit.Time) {
	if r.taken == nil {
		return
	}
	for int(flow) >= len(r.taken) {
		r.taken = append(r.taken, nil)
		r.seen = append(r.seen, nil)
	}
	seen := r.seen[flow]
	if seen == nil {
		n := (r.links + 63) / 64
		if r.words+n > MaxTracked {
			r.Truncated = true
			return
		}
		seen = make([]uint64, n)
		r.seen[flow], r.words = seen, r.words+n
	}
	if w, b := link/64, uint64(1)<<(link%64); seen[w]&b == 0 {
		if r.uses >= MaxTracked {
			r.Truncated = true
			return
		}
		seen[w] |= b
		r.taken[flow] = append(r.taken[flow], Use{link, at})
		r.uses++
	}
}

// Tracked reports whether the links flows take are recorded (Took).
func (r *Routes) Tracked() bool { return r.taken != nil }

// Finished records that flow has finished with reordered packets out of
// order; Took forgets what it kept to answer fast.
func (r *Routes) Finished(flow int32, reordered int64) {
	if int(flow) < len(r.seen) && r.seen[flow] != nil {
		r.words -= len(r.seen[flow])
		r.seen[flow] = nil
	}
	if reordered == 0 {
		return
	}
	if r.final == nil {
		r.final = map[int32]int64{}
	}
	r.final[flow] = reordered
	r.finals = append(r.finals, FlowCount{flow, reordered})
}

// AppendPath appends to dst the links flow crossed by time at: its path at
// that time, or under per-packet routing the links its packets had taken by then.
func (r *Routes) AppendPath(dst []int32, flow int, at unit.Time) []int32 {
	if flow < 0 {
		return dst
	}
	if r.taken != nil {
		if flow < len(r.taken) {
			for _, u := range r.taken[flow] {
				if u.At <= at {
					dst = append(dst, u.Link)
				}
			}
		}
		return dst
	}
	return append(dst, r.pathAt(flow, at)...)
}

// Path is flow's links as routing first chose them (all its minimal paths
// under per-packet routing at flow level); nil when not known. A reroute's
// path is in AppendPath.
func (r *Routes) Path(flow int) []int32 {
	if flow < 0 {
		return nil
	}
	if flow < len(r.paths) && r.paths[flow] != nil || r.path == nil {
		return r.known(flow)
	}
	for flow >= len(r.paths) {
		r.paths = append(r.paths, nil)
	}
	if r.paths[flow] == nil {
		r.paths[flow] = r.path(flow)
	}
	return r.paths[flow]
}

// Name is flow's name in the scenario, "" for none.
func (r *Routes) Name(flow int) string {
	if flow < 0 || flow >= len(r.Names) {
		return ""
	}
	return r.Names[flow]
}

// Reordered is how many of flow's packets had arrived out of order in s.
func (s *Snapshot) Reordered(flow int) int64 {
	g := s.Routing
	if g == nil || flow < 0 || flow >= len(s.Flows) {
		return 0
	}
	if s.Flows[flow].Done && g.Routes != nil {
		return g.Routes.final[int32(flow)]
	}
	for _, c := range g.Reordered {
		if int(c.Flow) == flow {
			return c.N
		}
	}
	return 0
}

// Bytes is about how much memory this snapshot's part of the routing
// picture holds (Routes, shared by the run's snapshots, not counted).
func (g *Routing) Bytes() int64 {
	if g == nil {
		return 0
	}
	return int64(unsafe.Sizeof(*g)) + 4*int64(cap(g.LinkFlows)) + int64(cap(g.Reordered))*int64(unsafe.Sizeof(FlowCount{}))
}
