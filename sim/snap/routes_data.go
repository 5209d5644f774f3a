package snap

// A run's Routes lives beside its model and answers from it. A viewer
// elsewhere (the canvas, while a worker computes) keeps a copy made of plain
// data: a RouteReader reads what the run's Routes learned since the frame
// before (RouteNews), and Apply adds it to a Routes made by RoutesFromData,
// which then answers for every frame up to then as the run's does.

// RouteNews is what a run's Routes learned between two frames.
type RouteNews struct {
	Tracked, Truncated bool
	Paths              []FlowPath  // flows whose path is new: each flow's once (static and ECMP routing, or flow level)
	Uses               []FlowUse   // links flows took for the first time (per-packet routing, tracked)
	Final              []FlowCount // flows that finished with packets out of order
	Moves              []FlowMove  // flows rerouted (Reroute), in the order recorded
}

// FlowPath is a flow's links.
type FlowPath struct {
	Flow  int32
	Links []int32
}

// FlowUse is a link a flow took, and when.
type FlowUse struct {
	Flow int32
	Use
}

// RouteReader reads a run's Routes frame by frame: what it has read, so
// that each Read returns only news. The zero value has read nothing.
type RouteReader struct {
	paths int     // flows whose paths were read
	uses  []int32 // by flow: how many of its uses were read
	final int     // finals read
	moves int     // moves read
}

// Read is what r learned since the last Read, for a frame of flows flows.
func (c *RouteReader) Read(r *Routes, flows int) RouteNews {
	n := RouteNews{Tracked: r.Tracked(), Truncated: r.Truncated}
	if !n.Tracked {
		for ; c.paths < flows; c.paths++ {
			if p := r.Path(c.paths); p != nil {
				n.Paths = append(n.Paths, FlowPath{int32(c.paths), p})
			}
		}
	}
	for f, uses := range r.taken {
		if f >= len(c.uses) {
			c.uses = append(c.uses, make([]int32, f+1-len(c.uses))...)
		}
		for _, u := range uses[c.uses[f]:] {
			n.Uses = append(n.Uses, FlowUse{int32(f), u})
		}
		c.uses[f] = int32(len(uses))
	}
	n.Final = r.finals[c.final:len(r.finals):len(r.finals)]
	c.final = len(r.finals)
	n.Moves = r.moveLog[c.moves:len(r.moveLog):len(r.moveLog)]
	c.moves = len(r.moveLog)
	return n
}

// RoutesFromData is a run's Routes without its model, to be filled by Apply.
func RoutesFromData(perPacket bool, mtu int64, names []string) *Routes {
	return &Routes{PerPacket: perPacket, MTU: mtu, Names: names}
}

// Apply adds news read from a run's Routes to r, one made by
// RoutesFromData: news in the order they were read.
func (r *Routes) Apply(n RouteNews) {
	if n.Tracked {
		r.Track()
	}
	r.Truncated = n.Truncated
	for _, p := range n.Paths {
		for int(p.Flow) >= len(r.paths) {
			r.paths = append(r.paths, nil)
		}
		r.paths[p.Flow] = p.Links
	}
	for _, u := range n.Uses {
		for int(u.Flow) >= len(r.taken) {
			r.taken = append(r.taken, nil)
		}
		r.taken[u.Flow] = append(r.taken[u.Flow], u.Use)
	}
	for _, f := range n.Final {
		if r.final == nil {
			r.final = map[int32]int64{}
		}
		r.final[f.Flow] = f.N
		r.finals = append(r.finals, f)
	}
	for _, m := range n.Moves {
		r.addMove(m)
	}
}

// known is flow's path as kept (nil beyond what is kept).
func (r *Routes) known(flow int) []int32 {
	if flow < len(r.paths) {
		return r.paths[flow]
	}
	return nil
}
