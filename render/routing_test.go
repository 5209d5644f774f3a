package render

import (
	"fabriclab/sim/unit"
)

// routingCases are the routing views: golden SVGs and PNGs to look at.
var routingCases = []struct {
	name, scenario string
	sets           []string
	until          unit.Time
	selected       func(r *run) int // the Frame's Selected
}{
	{"routing-ecmp-collisions", "ecmp-collisions", nil, 150 * unit.Microsecond, none},
	{"routing-selected", "ecmp-collisions", nil, 150 * unit.Microsecond, func(*run) int { return 1 + 5 }},
	{"routing-perm-1024", "perm-1024", nil, 40 * unit.Microsecond, none},
	{"routing-victim-flow", "victim-flow", nil, 1200 * unit.Microsecond, none},
	{"routing-spray", "permutation", []string{"network.routing=spray"}, 120 * unit.Microsecond, func(*run) int { return 1 + 3 }},
}

func none(*run) int { return 0 }
