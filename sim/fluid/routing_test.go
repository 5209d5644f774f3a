package fluid

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

func TestRoutingAtFlowLevel(t *testing.T) {
	for _, c := range []struct {
		routing   string
		perPacket bool
		links     int // per flow
	}{
		{"ecmp", false, 4},
		{"spray", true, 2 + 2*8}, // both access links, and up and down through each of the 8 spines
	} {
		t.Run(c.routing, func(t *testing.T) {
			sc, err := scenario.Load("permutation", nil, []string{"sim.fidelity=flow", "network.routing=" + c.routing})
			require.NoError(t, err)
			m := New(resolve(t, &sc))
			m.Advance(10 * unit.Microsecond)
			s := m.Snapshot()
			g := s.Routing
			require.NotNil(t, g)
			assert.Equal(t, c.perPacket, g.Routes.PerPacket)
			want := make([]int32, len(m.links))
			for i := range s.Flows {
				p := g.Routes.AppendPath(nil, i, s.Time)
				if s.Flows[i].Src/8 == s.Flows[i].Dst/8 {
					assert.Len(t, p, 2, "within a leaf: up and down")
				} else {
					assert.Len(t, p, c.links)
				}
				for _, l := range p {
					want[l]++
				}
			}
			assert.Equal(t, want, g.LinkFlows, "all 64 flows send at 10 µs")
			assert.Nil(t, g.Reordered, "no packets, no reordering")
		})
	}
}

func TestNoRoutingPictureForCollectivesAtFlowLevel(t *testing.T) {
	sc, err := scenario.Load("ring-allreduce-8", nil, []string{"sim.fidelity=flow"})
	require.NoError(t, err)
	assert.Nil(t, New(resolve(t, &sc)).Snapshot().Routing, "its flows are chunks")
}
