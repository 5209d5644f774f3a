package network

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

func TestNameLinksAsLinkName(t *testing.T) {
	sc, err := scenario.Load("hierarchical-allreduce", nil, nil)
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	tp := p.Topology
	require.Greater(t, len(tp.Links), 3)
	// Every other link, backwards: names follow the IDs, not the order.
	var links []metrics.Link
	for id := len(tp.Links) - 1; id >= 0; id -= 2 {
		links = append(links, metrics.Link{ID: id})
	}
	NameLinks(tp, links)
	for _, l := range links {
		assert.Equal(t, tp.LinkName(l.ID), l.Name, "link %d", l.ID)
	}
	NameLinks(tp, nil) // nothing to name
}
