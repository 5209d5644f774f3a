package fluid

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/network/networktest"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// The same runs give the same JSON natively and in WebAssembly: both compare
// against one golden file (go test ./sim/fluid -update rewrites them).
func TestGoldenJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		sc   func(t *testing.T) *scenario.Scenario
		ring bool // drive a ring workload with Send instead
	}{
		{"permutation-ecmp", func(t *testing.T) *scenario.Scenario {
			return builtin(t, "permutation", "traffic.bytes=1MiB", "seed=3")
		}, false},
		{"permutation-spray", func(t *testing.T) *scenario.Scenario {
			return builtin(t, "permutation", "traffic.bytes=1MiB", "network.routing=spray", "seed=3")
		}, false},
		{"ring-fattree", func(t *testing.T) *scenario.Scenario {
			return noTraffic(flowScenario(t, "name: ring\ntopology: {kind: fattree, k: 4, link_gbps: 100}\nnetwork: {routing: ecmp}\n"))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(resolve(t, tc.sc(t)))
			if tc.ring {
				ranks := make([]int, 16)
				for i := range ranks {
					ranks[i] = (i * 5) % 16 // hops across edges and pods
				}
				networktest.RingSteps(m, ranks, 300*unit.KiB, 3)
			}
			m.Run()
			got, err := json.MarshalIndent(m.Result(), "", " ")
			require.NoError(t, err)
			golden.Equal(t, filepath.Join("testdata", tc.name+".golden.json"), got)
		})
	}
}
