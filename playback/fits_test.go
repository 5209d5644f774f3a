package playback

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

func TestFitsBrowser(t *testing.T) {
	for _, b := range scenario.Builtins() {
		sc, err := scenario.Load(b.Name, nil, nil)
		require.NoError(t, err)
		assert.NoError(t, FitsBrowser(&sc), "built-in %s plays in the browser", b.Name)
	}
	for sets, want := range map[string][]string{
		"topology.k=32": {"scenario perm-1024 is too big for the browser canvas: a k=32 fat tree", "8192 endpoints", "at most 1024 at packet level",
			"sim.fidelity: flow"},
		"topology.k=16,traffic.pattern=alltoall,sim.fidelity=flow,network.routing=ecmp": {"its traffic is 1047552 flows", "at most 262144 even with the flow-level model"},
		"topology.k=40,sim.fidelity=flow,network.routing=ecmp":                          {"16000 endpoints", "at most 8192 even with the flow-level model", "fabriclab run"},
		"topology.k=16,traffic.pattern=alltoall,traffic.bytes=64KiB":                    {"its traffic is 1047552 flows", "at most 65536 at packet level", "sim.fidelity: flow"},
	} {
		sc, err := scenario.Load("perm-1024", nil, strings.Split(sets, ","))
		require.NoError(t, err, sets)
		err = FitsBrowser(&sc)
		require.Error(t, err, sets)
		for _, w := range want {
			assert.Contains(t, err.Error(), w, sets)
		}
	}
	sc, err := scenario.Load("perm-1024", nil, []string{"topology.k=32", "sim.fidelity=flow", "network.routing=ecmp"})
	require.NoError(t, err)
	assert.NoError(t, FitsBrowser(&sc), "8,192 hosts at flow level fit")
}
