package fluid

import (
	"fmt"
	"math"
	"slices"

	"fabriclab/sim/link"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// far is the hop count of a node that has no minimal route.
const far = 255

// router finds the minimal paths between endpoints without a hop-count table
// per destination (topo.HopsTo costs one byte per node per destination and a
// search of the whole fabric: 600 MB for 16,384 GPUs on 2048 DGX nodes, 4.6 GB
// for a k=64 fat tree). Every topology topo builds is tiered, with each link
// joining two tiers, and its minimal paths go up and then down (valley-free).
// So the distance from v to a destination is the shortest "up some links, then
// down some links" walk: down-distances come from one upward search from the
// destination over its ancestors, up-distances from a memoised recursion over
// v's up-links. Both visit only the cones above the two endpoints (about
// 2,000 nodes in a 16,384-GPU cluster). route_test.go checks the result
// against topo.HopsTo on every topology kind.
type router struct {
	t        *topo.Topology
	forwards []bool
	tier     []int8
	to       []int32 // each link's far end
	outPos   []int32 // each link's place in its node's Out list
	upStart  []int32 // node n's up-links are upLinks[upStart[n]:upStart[n+1]], in Out order
	upLinks  []int32
	dnStart  []int32 // and its down-links dnLinks[dnStart[n]:dnStart[n+1]]
	dnLinks  []int32
	// height is each node's distance to the nearest endpoint, a lower bound
	// on its distance to any destination; minUp is the least height among a
	// node's up-neighbours. They let dist and candidates skip the up-links of
	// a node with hundreds of spines above it.
	height []uint8
	minUp  []uint8

	// The current destination's ancestors: anc[n] == ancGen<<8 | d means n
	// can reach the destination going only down, in d hops.
	ancDst int32
	ancGen uint32
	anc    []uint32
	queue  []int32 // the ancestors with up-links found so far, level by level
	// Every ancestor up to ancLevel hops is marked; queue[ancNext:] are those
	// on that level not yet looked above, the least minUp among them ancMinUp.
	ancLevel uint8
	ancNext  int
	ancMinUp int
	// The down-links on minimal paths to it, found by the same search (the
	// reverse of each up-link it climbs one hop further): ancestor n's are
	// dnEnt[dnFirst[n]], then each entry's next, to -1. candidates reads them
	// instead of scanning all of n's down-links (16,384 on a star's switch).
	dnFirst []int32
	dnEnt   []dnEntry
	rev     []int32 // each link's reverse

	// Up-down distances to the current destination, memoised.
	memoGen uint32
	memo    []uint32
	du      []uint8
	exact   []bool // du is the distance, not only a bound (see dist)

	cands []int32

	// Per-route scratch for split (multipath) routes.
	seenGen uint32
	seen    []uint32
	frac    []float64
	arrive  []unit.Time
	level   []int32
	next    []int32

	work uint64 // links looked at while routing, for the scaling test (Model.Work)

	linkDelay []unit.Time // propagation plus the far node's switch latency
	linkHdr   []unit.Bytes
}

func newRouter(t *topo.Topology, switchLatency unit.Time) *router {
	if t.Torus != nil {
		return newTorusRouter(t, switchLatency)
	}
	n := len(t.Nodes)
	r := &router{
		t: t, forwards: make([]bool, n), tier: make([]int8, n), upStart: make([]int32, n+1), dnStart: make([]int32, n+1),
		to: make([]int32, len(t.Links)), outPos: make([]int32, len(t.Links)),
		height: make([]uint8, n), minUp: make([]uint8, n),
		ancDst: -1, anc: make([]uint32, n), dnFirst: make([]int32, n), rev: make([]int32, len(t.Links)),
		memo: make([]uint32, n), du: make([]uint8, n), exact: make([]bool, n),
		seen: make([]uint32, n), frac: make([]float64, n), arrive: make([]unit.Time, n),
		linkDelay: make([]unit.Time, len(t.Links)), linkHdr: make([]unit.Bytes, len(t.Links)),
	}
	for i := range t.Nodes {
		r.forwards[i] = t.Nodes[i].Role.Forwards()
		r.tier[i] = int8(t.Nodes[i].Tier)
	}
	for i := range t.Links {
		r.to[i], r.rev[i] = int32(t.Links[i].To), int32(t.Links[i].Reverse)
	}
	for i := range t.Nodes {
		r.upStart[i], r.dnStart[i] = int32(len(r.upLinks)), int32(len(r.dnLinks))
		for k, l := range t.Nodes[i].Out {
			r.outPos[l] = int32(k)
			switch to := t.Links[l].To; {
			case r.tier[to] > r.tier[i]:
				r.upLinks = append(r.upLinks, int32(l))
			case r.tier[to] < r.tier[i]:
				r.dnLinks = append(r.dnLinks, int32(l))
			default:
				panic(fmt.Sprintf("fluid: link %s joins two nodes of tier %d; routing needs tiered topologies", t.LinkName(l), r.tier[i]))
			}
		}
	}
	r.upStart[n], r.dnStart[n] = int32(len(r.upLinks)), int32(len(r.dnLinks))
	r.heights()
	for i, l := range t.Links {
		r.linkDelay[i] = l.Latency
		if r.forwards[l.To] {
			r.linkDelay[i] += switchLatency
		}
		r.linkHdr[i] = link.Header(l.Kind)
	}
	return r
}

func (r *router) up(n int32) []int32   { return r.upLinks[r.upStart[n]:r.upStart[n+1]] }
func (r *router) down(n int32) []int32 { return r.dnLinks[r.dnStart[n]:r.dnStart[n+1]] }

// heights finds every node's distance to the nearest endpoint, by one search
// from all endpoints at once through forwarding nodes.
func (r *router) heights() {
	for i := range r.height {
		r.height[i] = far
	}
	q := r.queue[:0]
	for _, e := range r.t.Endpoints {
		r.height[e] = 0
		q = append(q, int32(e))
	}
	for i := 0; i < len(q); i++ {
		u := q[i]
		for _, l := range r.t.Nodes[u].Out {
			v := r.to[l]
			if r.height[v] == far && r.forwards[v] {
				r.height[v] = r.height[u] + 1
				q = append(q, v)
			}
		}
	}
	r.queue = q
	for i := range r.minUp {
		r.minUp[i] = far
		for _, l := range r.up(int32(i)) {
			r.minUp[i] = min(r.minUp[i], r.height[r.to[l]])
		}
	}
}

// bump advances a generation counter, clearing its marks when it wraps.
func bump(gen *uint32, marks []uint32) {
	*gen++
	if *gen == 0 {
		clear(marks)
		*gen = 1
	}
}

// target makes dst (a node) the current destination and forgets the
// distances memoised for the last one. Its ancestors are found a level at a
// time, as distTo needs them: a rail-local flow never marks the 2,048 spines
// above its leaf.
func (r *router) target(dst int32) {
	if dst == r.ancDst {
		return
	}
	bump(&r.memoGen, r.memo)
	r.ancDst = dst
	if r.ancGen++; r.ancGen == 1<<24 {
		clear(r.anc)
		r.ancGen = 1
	}
	r.anc[dst] = r.ancGen << 8
	r.queue, r.dnEnt = append(r.queue[:0], dst), r.dnEnt[:0]
	r.ancLevel, r.ancNext, r.ancMinUp = 0, 0, int(r.minUp[dst])
}

// grow marks the ancestors one level further up, with their down-links on
// minimal paths, and forgets the distances found without them.
func (r *router) grow() {
	bump(&r.memoGen, r.memo)
	q, ents := r.queue, r.dnEnt
	end, minUp := len(q), far
	for i := r.ancNext; i < end; i++ {
		u := q[i]
		d := r.anc[u] + 1
		r.work += uint64(len(r.up(u)))
		for _, l := range r.up(u) {
			v := r.to[l]
			if !r.forwards[v] {
				continue
			}
			if r.anc[v]>>8 != r.ancGen {
				r.anc[v], r.dnFirst[v] = d, -1
				if r.upStart[v] != r.upStart[v+1] {
					q = append(q, v)
					minUp = min(minUp, int(r.minUp[v]))
				}
			}
			if r.anc[v] == d { // v reaches dst through u in its fewest hops
				ents = append(ents, dnEntry{link: r.rev[l], next: r.dnFirst[v]})
				r.dnFirst[v] = int32(len(ents) - 1)
			}
		}
	}
	r.queue, r.dnEnt = q, ents
	r.ancLevel, r.ancNext, r.ancMinUp = r.ancLevel+1, end, minUp
}

// unseen is the fewest hops from an endpoint to the destination through an
// ancestor not yet marked: one on the next level has a height of at least
// ancMinUp, one further up at least 1 (and every walk from an endpoint to a
// node is at least its height long).
func (r *router) unseen() int {
	if r.ancNext == len(r.queue) {
		return math.MaxInt // all marked
	}
	return min(int(r.ancLevel)+1+r.ancMinUp, int(r.ancLevel)+3)
}

// distTo is dist(src), marking as many levels of ancestors as it takes for
// every minimal path from src to be among the marked ones.
func (r *router) distTo(src int32) uint8 {
	for {
		u := r.unseen()
		if d := r.dist(src, uint8(min(u, far))); int(d) < u {
			return d
		}
		r.grow()
	}
}

// dnEntry is one down-link in an ancestor's list (router.dnFirst).
type dnEntry struct{ link, next int32 }

// descent returns the hops from v down to the current destination, if v is
// one of its ancestors.
func (r *router) descent(v int32) (uint8, bool) {
	a := r.anc[v]
	return uint8(a), a>>8 == r.ancGen
}

// dist is the hop count from v to the current destination when it is below
// lim, else a count of at least lim (far if there is no route): distTo and
// candidates need no more, and it spares looking up through 2,048 spines
// for a path already known to be shorter or not yet searchable.
func (r *router) dist(v int32, lim uint8) uint8 {
	if r.memo[v] == r.memoGen && (r.exact[v] || r.du[v] >= lim) {
		return r.du[v] // exact, or the limit it was found not to be below
	}
	d := far
	if dd, ok := r.descent(v); ok {
		d = int(dd)
	}
	if best := int(r.minUp[v]) + 1; min(d, int(lim)) > best {
		for _, l := range r.up(v) {
			r.work++
			to := r.to[l]
			c := min(d, int(lim))
			if int(r.height[to])+1 >= c || !r.forwards[to] {
				continue // cannot beat d, or not below lim
			}
			if d = min(d, int(r.dist(to, uint8(c-1)))+1); d == best {
				break
			}
		}
	}
	r.memo[v], r.exact[v], r.du[v] = r.memoGen, d < int(lim), uint8(min(d, far))
	if d >= int(lim) {
		r.du[v] = lim
	}
	return r.du[v]
}

// candidates lists, in n's Out order, the links from n that lie on a minimal
// path to the current destination, n being at distance want+1.
func (r *router) candidates(n int32, want uint8) []int32 {
	c := r.cands[:0]
	if dd, ok := r.descent(n); ok && dd == want+1 {
		for e := r.dnFirst[n]; e >= 0; e = r.dnEnt[e].next {
			c = append(c, r.dnEnt[e].link)
		}
		r.work += uint64(len(c))
		if len(c) > 1 { // into Out order
			r.sortOut(c)
		}
	}
	downs := len(c)
	if want >= r.minUp[n] {
		r.work += uint64(len(r.up(n)))
		for _, l := range r.up(n) {
			to := r.to[l]
			if r.height[to] <= want && r.forwards[to] && r.dist(to, want+1) == want {
				c = append(c, l)
			}
		}
	}
	if downs > 0 && len(c) > downs {
		// Both directions: back into Out order.
		r.sortOut(c)
	}
	r.cands = c
	return c
}

// sortOut sorts links leaving one node into their Out order (their outPos
// differ). A few by insertion: slices.SortFunc's comparison is an indirect
// call, dear in WebAssembly.
func (r *router) sortOut(c []int32) {
	if len(c) > 32 {
		slices.SortFunc(c, func(a, b int32) int { return int(r.outPos[a] - r.outPos[b]) })
		return
	}
	for i := 1; i < len(c); i++ {
		l, p := c[i], r.outPos[c[i]]
		j := i
		for ; j > 0 && r.outPos[c[j-1]] > p; j-- {
			c[j] = c[j-1]
		}
		c[j] = l
	}
}

// storeForward is the time one packet of payload bytes takes to cross link l
// once more: the store-and-forward delay it adds past the first hop.
func (r *router) storeForward(l int32, payload unit.Bytes) unit.Time {
	return r.t.Links[l].Rate.TxTime(payload + r.linkHdr[l])
}

// path walks one minimal path from src to dst (nodes), letting pick choose
// among the candidates at each node. It returns the links and the one-way
// latency: propagation and switch latency per hop, plus one packet of payload
// bytes stored and forwarded at every hop after the first.
func (r *router) path(src, dst int32, payload unit.Bytes, pick func(n int32, cands []int32) int32, links []int32) ([]int32, unit.Time) {
	if r.t.Torus != nil {
		return r.torusPath(src, dst, payload, links)
	}
	r.target(dst)
	d := r.distTo(src)
	if d == far {
		panic(fmt.Sprintf("fluid: no route from %s to %s", r.t.Nodes[src].Name, r.t.Nodes[dst].Name))
	}
	var delay unit.Time
	for n := src; n != dst; d-- {
		c := r.candidates(n, d-1)
		l := c[0]
		if len(c) > 1 {
			l = pick(n, c)
		}
		if n != src {
			delay += r.storeForward(l, payload)
		}
		delay += r.linkDelay[l]
		links = append(links, l)
		n = r.to[l]
	}
	return links, delay
}

// split spreads a flow from src to dst evenly over its minimal paths — at
// every node, equally over the minimal next hops — and returns each link's
// share of the flow. The latency is that of the slowest minimal path.
// On a torus, dimension-order routing has one path: all of the flow takes it.
func (r *router) split(src, dst int32, payload unit.Bytes, links []int32, weights []float64) ([]int32, []float64, unit.Time) {
	if r.t.Torus != nil {
		links, d := r.torusPath(src, dst, payload, links)
		for range links {
			weights = append(weights, 1)
		}
		return links, weights, d
	}
	r.target(dst)
	d := r.distTo(src)
	if d == far {
		panic(fmt.Sprintf("fluid: no route from %s to %s", r.t.Nodes[src].Name, r.t.Nodes[dst].Name))
	}
	bump(&r.seenGen, r.seen)
	gen := r.seenGen
	r.seen[src], r.frac[src], r.arrive[src] = gen, 1, 0
	level := append(r.level[:0], src)
	for ; d > 0; d-- {
		next := r.next[:0]
		for _, n := range level {
			c := r.candidates(n, d-1)
			share := r.frac[n] / float64(len(c))
			for _, l := range c {
				to := r.to[l]
				at := r.arrive[n] + r.linkDelay[l]
				if n != src {
					at += r.storeForward(l, payload)
				}
				if r.seen[to] != gen {
					r.seen[to], r.frac[to], r.arrive[to] = gen, 0, at
					next = append(next, to)
				}
				r.frac[to] += share
				r.arrive[to] = max(r.arrive[to], at)
				links = append(links, l)
				weights = append(weights, share)
			}
		}
		r.level, r.next = next, level
		level = next
	}
	return links, weights, r.arrive[dst]
}
