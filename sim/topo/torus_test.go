package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTorusShape(t *testing.T) {
	for _, tc := range []struct {
		dims          []int
		chips, cables int
	}{
		{[]int{8}, 8, 8 + 8},
		{[]int{4, 4}, 16, 16 + 32},
		{[]int{4, 4, 4}, 64, 64 + 192},
		{[]int{2, 4}, 8, 8 + 4 + 8}, // the dimension of 2: one cable per pair
	} {
		tp := build(t, Shape{Kind: TorusKind, Dims: tc.dims})
		assert.Len(t, tp.Endpoints, tc.chips)
		assert.Len(t, tp.Links, 2*tc.cables, "%v", tc.dims)
		for e := range tp.Endpoints {
			for k, l := range tp.Torus.Port[e*2*len(tc.dims) : (e+1)*2*len(tc.dims)] {
				assert.Equal(t, tp.Torus.Router[e], tp.Links[l].From, "port %d of %d", k, e)
			}
		}
	}
}

func TestTorusChecks(t *testing.T) {
	for _, dims := range [][]int{nil, {1, 4}, {4, 4, 4, 4}, {256, 256, 2}} {
		assert.NotEmpty(t, Shape{Kind: TorusKind, Dims: dims}.Check(), "%v", dims)
	}
	assert.Empty(t, Shape{Kind: TorusKind, Dims: []int{2}, Oversub: 1}.Check())
}

// Dimension-order routing: x first, then y, each the shorter way round;
// a tie half way round goes +1 from an even coordinate, −1 from an odd one.
func TestTorusDimensionOrder(t *testing.T) {
	tp := build(t, Shape{Kind: TorusKind, Dims: []int{4, 5}})
	tr := tp.Torus
	at := func(x, y int) int { return x + 4*y }
	walk := func(src, dst int) []string {
		var path []string
		for n := tp.Endpoints[src]; n != tp.Endpoints[dst]; {
			l := tr.Next(tp, n, dst)
			path = append(path, tp.Nodes[tp.Links[l].To].Name)
			n = tp.Links[l].To
			require.Less(t, len(path), 20)
		}
		return path
	}
	assert.Equal(t, []string{"ici(0,0)", "ici(3,0)", "ici(3,1)", "chip(3,1)"}, walk(at(0, 0), at(3, 1)), "x −1 round the back, then y +1")
	assert.Equal(t, []string{"ici(1,0)", "ici(1,4)", "ici(1,3)", "chip(1,3)"}, walk(at(1, 0), at(1, 3)), "y −1 round the back")
	assert.Equal(t, []string{"ici(0,0)", "ici(1,0)", "ici(2,0)", "chip(2,0)"}, walk(at(0, 0), at(2, 0)), "a tie from x = 0 goes +1")
	assert.Equal(t, []string{"ici(1,0)", "ici(0,0)", "ici(3,0)", "chip(3,0)"}, walk(at(1, 0), at(3, 0)), "a tie from x = 1 goes −1")
	assert.Equal(t, 2, tr.Hops(at(1, 0), at(1, 3)))
	for s := range tp.Endpoints {
		for d := range tp.Endpoints {
			if s != d {
				assert.Len(t, walk(s, d), tr.Hops(s, d)+2, "minimal: %d → %d", s, d)
			}
		}
	}
}
