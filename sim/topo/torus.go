package topo

import (
	"strconv"
	"strings"

	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// A torus is chips on a 1-, 2- or 3-D grid with wrap-around links in each
// dimension, as TPU pods wire them with ICI (a dimension of 2 chips has one
// cable between them, not a second one round the back). Each chip is an endpoint (role
// GPU) joined to its own router (role ICI), which has one link per direction
// per dimension to its neighbours' routers; the chip–router link is on the
// chip and carries all of them at once.
var torusKind = kind{
	name:      TorusKind,
	sizeField: "dims",
	check:     checkTorus,
	endpoints: func(s *Shape) int { return product(s.Dims) },
	describe:  func(s *Shape) msg.Text { return msg.F("a %s torus", DimsText(s.Dims)) },
	build:     (*builder).torus,
}

// MaxTorusDims is the most dimensions a torus has.
const MaxTorusDims = 3

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
		if n > MaxEndpoints {
			return MaxEndpoints + 1 // no overflow on absurd sizes
		}
	}
	return n
}

// DimsText prints dims as "4×4×4".
func DimsText(dims []int) string {
	s := make([]string, len(dims))
	for i, d := range dims {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "×")
}

func checkTorus(s *Shape) []*Problem {
	if len(s.Dims) < 1 || len(s.Dims) > MaxTorusDims {
		return []*Problem{{Field: "dims", Msg: msg.F("has %d sizes: a torus has 1 to %d dimensions (e.g. dims: [4, 4, 4])", len(s.Dims), MaxTorusDims),
			Unset: msg.F("is missing: a torus needs its size in each dimension (e.g. dims: [4, 4, 4])")}}
	}
	for _, d := range s.Dims {
		if d < 2 {
			return []*Problem{{Field: "dims", Value: DimsText(s.Dims), Msg: msg.F("is not allowed: each dimension needs at least 2 chips (e.g. dims: [4, 4, 4])")}}
		}
	}
	if n := product(s.Dims); n > MaxEndpoints {
		return []*Problem{{Field: "dims", Value: DimsText(s.Dims), Msg: msg.F("is too many: at most %d chips in all (e.g. dims: [16, 16, 16])", MaxEndpoints)}}
	}
	if s.Oversub != 1 && s.Oversub != 0 {
		return []*Problem{{Field: "oversubscription", Value: s.Oversub, Msg: msg.F("is not allowed: a torus has no switches to oversubscribe; use oversubscription: 1")}}
	}
	return nil
}

// Torus is what routing needs of a torus: its dimensions, each endpoint's
// router and each router's ports.
type Torus struct {
	Dims   []int
	Router []int // by endpoint: its router's node ID
	// Port[e·2d + 2i + k] is the link out of endpoint e's router along
	// dimension i, k = 0 towards +1, k = 1 towards −1; Down[e] is the link
	// from the router to its chip.
	Port []int
	Down []int
	node []int32 // by node ID: the endpoint whose chip or router it is
}

// Coord is endpoint e's coordinate in dimension i (dimension 0 varies fastest).
func (t *Torus) Coord(e, i int) int {
	for _, d := range t.Dims[:i] {
		e /= d
	}
	return e % t.Dims[i]
}

// Step is the way dimension-order routing goes from coordinate a to b on a
// ring of d chips: +1 or −1 the shorter way round, 0 when a == b. A tie
// (b half way round) goes +1 from an even a and −1 from an odd one, so
// that the ring's two directions share such flows; after the first hop the
// way is no longer a tie, so each flow keeps its way.
func Step(a, b, d int) int {
	if a == b {
		return 0
	}
	fwd := ((b-a)%d + d) % d
	switch {
	case 2*fwd < d:
		return 1
	case 2*fwd > d:
		return -1
	case a%2 == 0:
		return 1
	}
	return -1
}

// Next is the link dimension-order routing takes out of node n (a chip or
// a router) towards endpoint dst: the chip's link to its router, a ring
// link in the first dimension whose coordinate differs, or the router's
// link down to dst.
func (t *Torus) Next(topo *Topology, n int, dst int) int {
	e := int(t.node[n])
	if topo.Nodes[n].Role != ICI {
		return topo.Nodes[n].Out[0]
	}
	d := len(t.Dims)
	for i := range t.Dims {
		a, b := t.Coord(e, i), t.Coord(dst, i)
		switch Step(a, b, t.Dims[i]) {
		case 1:
			return t.Port[e*2*d+2*i]
		case -1:
			return t.Port[e*2*d+2*i+1]
		}
	}
	return t.Down[e]
}

// Hops is the number of ring links between endpoints a and b.
func (t *Torus) Hops(a, b int) int {
	h := 0
	for i, d := range t.Dims {
		x := ((t.Coord(b, i)-t.Coord(a, i))%d + d) % d
		h += min(x, d-x)
	}
	return h
}

func (b *builder) torus(s *Shape) {
	n := product(s.Dims)
	d := len(s.Dims)
	tor := &Torus{Dims: append([]int(nil), s.Dims...), Router: make([]int, n), Port: make([]int, n*2*d), Down: make([]int, n)}
	for e := range n {
		label := coordText(tor, e)
		chip := b.node(GPU, 0, -1, e, "chip"+label)
		b.t.Endpoints = append(b.t.Endpoints, chip)
		tor.Router[e] = b.node(ICI, 1, -1, e, "ici"+label)
		// On the chip: as fast as all its ICI links together.
		b.cable(chip, tor.Router[e], link.ICI, b.rate*unit.Rate(2*d), 0)
		tor.Down[e] = len(b.t.Links) - 1
	}
	for e := range n {
		stride := 1
		for i, size := range s.Dims {
			c := tor.Coord(e, i)
			next := e + ((c+1)%size-c)*stride // the +1 neighbour
			switch {
			case size > 2:
				b.cable(tor.Router[e], tor.Router[next], link.ICI, b.rate, b.latency)
				tor.Port[e*2*d+2*i] = len(b.t.Links) - 2
				tor.Port[next*2*d+2*i+1] = len(b.t.Links) - 1
			case c == 0: // two chips: one cable, no second one round the back
				b.cable(tor.Router[e], tor.Router[next], link.ICI, b.rate, b.latency)
				l := len(b.t.Links) - 2
				tor.Port[e*2*d+2*i], tor.Port[e*2*d+2*i+1] = l, l
				tor.Port[next*2*d+2*i], tor.Port[next*2*d+2*i+1] = l+1, l+1
			}
			stride *= size
		}
	}
	tor.node = make([]int32, len(b.t.Nodes))
	for e := range n {
		tor.node[b.t.Endpoints[e]] = int32(e)
		tor.node[tor.Router[e]] = int32(e)
	}
	b.t.Torus = tor
}

// coordText is endpoint e's coordinates, e.g. "(1,2,0)".
func coordText(t *Torus, e int) string {
	parts := make([]string, len(t.Dims))
	for i := range t.Dims {
		parts[i] = strconv.Itoa(t.Coord(e, i))
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// Index is the endpoint whose chip or router node n is.
func (t *Torus) Index(n int) int { return int(t.node[n]) }
