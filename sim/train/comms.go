package train

import (
	"fabriclab/sim/coll"
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// comms runs a job's collectives over its data-parallel ranks. Reduce-scatter
// and all-gather run on NCCL's rail-aligned rings over whole nodes (on one
// flat ring otherwise); with algo hierarchical they go in two stages, as NCCL and FSDP's
// hybrid layouts do where a topology has both NVLink and a network:
// reduce-scatter inside each node over NVLink, then across nodes between the
// GPUs of one rail on a 1/g share; all-gather the other way round.
type comms struct {
	scheds map[string][]stage
}

// stage is one collective run concurrently on groups of ranks; each group
// gets bytes·share.
type stage struct {
	sched  *coll.Schedule
	groups [][]int // indices into the job's ranks
	share  float64
}

// Needed lists the collectives a sharding mode runs.
func needed(sharding string) []string {
	switch sharding {
	case ZeRO1, ZeRO2, FSDP:
		return []string{coll.ReduceScatter, coll.AllGather}
	}
	return []string{coll.AllReduce}
}

// Schedules builds the schedules a training job with sharding and
// tensor-parallel degree tp runs over p (algo is training.algo, the
// data-parallel all-reduce's), for checking a job before it starts.
func Schedules(sharding, algo string, p coll.Params, tp int, spread bool) ([]*coll.Schedule, error) {
	tp = max(tp, 1)
	g := newGroups(p.Ranks, tp, p.GPUsPerNode, spread)
	g.torus = p.Torus
	var out []*coll.Schedule
	if g.dp > 1 {
		c, err := newComms(sharding, g.dpAlgo(algo, p.OneSwitch, p.NVSwitch), g.dpParams(p.OneSwitch, p.NVSwitch))
		if err != nil {
			return nil, err
		}
		for _, op := range needed(sharding) {
			for _, st := range c.scheds[op] {
				out = append(out, st.sched)
			}
		}
	}
	if tp > 1 {
		s, err := coll.Build(coll.AllReduce, coll.Ring, coll.Params{Ranks: tp})
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func newComms(sharding, algo string, p coll.Params) (*comms, error) {
	n := p.Ranks
	all := [][]int{identity(n)}
	c := &comms{scheds: map[string][]stage{}}
	for _, op := range needed(sharding) {
		if op == coll.AllReduce {
			s, err := coll.Build(op, algo, p)
			if err != nil {
				return nil, err
			}
			c.scheds[op] = []stage{{s, all, 1}}
			continue
		}
		g := p.GPUsPerNode
		if algo == coll.Hierarchical && g >= 2 && n%g == 0 && n/g >= 2 {
			intra, err := coll.Build(op, coll.Ring, coll.Params{Ranks: g})
			if err != nil {
				return nil, err
			}
			inter, err := coll.Build(op, coll.Ring, coll.Params{Ranks: n / g})
			if err != nil {
				return nil, err
			}
			nodes, rails := make([][]int, n/g), make([][]int, g)
			for r := range n {
				nodes[r/g] = append(nodes[r/g], r)
				rails[r%g] = append(rails[r%g], r)
			}
			in, across := stage{intra, nodes, 1}, stage{inter, rails, 1 / float64(g)}
			if op == coll.ReduceScatter {
				c.scheds[op] = []stage{in, across}
			} else {
				c.scheds[op] = []stage{across, in}
			}
			continue
		}
		a := coll.Ring
		if algo == coll.Rabenseifner || algo == coll.TorusAlgo {
			a = algo
		}
		// With the node layout, a ring over whole nodes is NCCL's rail-aligned
		// rings, as collective.algo: ring builds.
		s, err := coll.Build(op, a, coll.Params{Ranks: n, GPUsPerNode: g, Torus: p.Torus})
		if err != nil {
			return nil, err
		}
		c.scheds[op] = []stage{{s, all, 1}}
	}
	return c, nil
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// run starts op of bytes on the ranks' endpoints now; done gets the time each
// rank's part ended.
func (c *comms) run(f fabric.Fabric, op string, bytes unit.Bytes, ranks []int, o coll.Options, done func(last []unit.Time)) {
	last := make([]unit.Time, len(ranks))
	stages := c.scheds[op]
	var next func(i int)
	next = func(i int) {
		if i == len(stages) {
			done(last)
			return
		}
		st := stages[i]
		o.Bytes = max(unit.Bytes(float64(bytes)*st.share), 1)
		left := len(st.groups)
		for _, g := range st.groups {
			eps := make([]int, len(g))
			for k, r := range g {
				eps[k] = ranks[r]
			}
			coll.Run(f, st.sched, eps, o, func(_ metrics.Collective, l []unit.Time) {
				for k, r := range g {
					last[r] = l[k]
				}
				if left--; left == 0 {
					next(i + 1)
				}
			})
		}
	}
	next(0)
}

// transfers counts the flows one run of op on one group makes, every stage
// and every sub-group included (coll.Schedule.TransferCount).
func (c *comms) transfers(op string, bytes unit.Bytes, o coll.Options) int64 {
	var n int64
	for _, st := range c.scheds[op] {
		o.Bytes = max(unit.Bytes(float64(bytes)*st.share), 1)
		n += int64(len(st.groups)) * st.sched.TransferCount(o)
	}
	return n
}
