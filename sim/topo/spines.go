package topo

import (
	"fmt"
	"math"

	"fabriclab/sim/msg"
)

// The spine layer joins the leaves of a leafspine topology, and the rail
// leaves of a multi-node dgx topology: each leaf has down downlinks and
// down/oversubscription uplinks, spread evenly over the spines.

// Uplinks is the number of uplinks of a leaf with down downlinks:
// down/oversub, when that is a whole number ≥ 1.
func Uplinks(down int, oversub float64) (int, bool) {
	if !(oversub >= 1) || math.IsInf(oversub, 0) {
		return 0, false
	}
	u := float64(down) / oversub
	r := math.Round(u)
	if r < 1 || math.Abs(u-r) > 1e-9*r {
		return 0, false
	}
	return int(r), true
}

// checkOversub checks the oversubscription of a two-tier shape.
func checkOversub(s *Shape) *Problem {
	if !(s.Oversub >= 1) || math.IsInf(s.Oversub, 0) {
		return &Problem{Field: "oversubscription", Value: s.Oversub, Msg: msg.F("is not allowed: it must be ≥ 1 (1: no oversubscription)")}
	}
	return nil
}

// checkSpines checks the spine layer above leaves with down downlinks each;
// downField names the field down comes from.
func checkSpines(s *Shape, leaves, down int, downField string) *Problem {
	u, ok := Uplinks(down, s.Oversub)
	switch {
	case !ok:
		return &Problem{Field: "oversubscription", Value: s.Oversub,
			Msg: msg.F("does not give a whole number of uplinks per leaf for %d %s: use %s", down, downField, divisors(down))}
	case s.Spines < 1:
		return &Problem{Field: "spines", Value: s.Spines,
			Msg:   msg.F("is not allowed: leaves need spines to join them (e.g. spines: %d)", u),
			Unset: msg.F("not set: %d leaves need spines to join them (e.g. spines: %d)", leaves, u)}
	case u%s.Spines != 0:
		return &Problem{Field: "spines", Value: s.Spines, Msg: msg.F("does not divide the %d uplinks of each leaf evenly: use %s", u, divisors(u))}
	}
	return nil
}

// spines adds the spine layer above leaves with down downlinks each.
func (b *builder) spines(leaves []int, down int, s *Shape) {
	u, ok := Uplinks(down, s.Oversub)
	count := s.Spines
	if count <= 0 {
		count = u // one spine per uplink
	}
	if !ok || u%count != 0 {
		panic(fmt.Sprintf("topo: %d downlinks at oversubscription %g do not divide over %d spines", down, s.Oversub, s.Spines))
	}
	for sp := range count {
		id := b.node(Spine, 3, -1, sp, name("spine", sp))
		for _, lf := range leaves {
			for range u / count {
				b.net(lf, id)
			}
		}
	}
}
