package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/golden"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

func run(t testing.TB, yaml string, sets ...string) *metrics.Result {
	t.Helper()
	sc, err := scenario.ParseWith([]byte(yaml), t.Name(), sets)
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	return r
}

func builtin(t testing.TB, name string, sets ...string) *metrics.Result {
	t.Helper()
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	return r
}

// REFERENCE.md golden scenario 3: one flow reaches the published goodput ceiling.
func TestGolden3SingleFlowCeiling(t *testing.T) {
	for _, tc := range []struct {
		fabric string
		gbps   float64 // REFERENCE.md: RoCEv2 at 400GbE 392.1, NDR InfiniBand 397.5
	}{{"roce", 392.1}, {"ib", 397.5}} {
		t.Run(tc.fabric, func(t *testing.T) {
			r := run(t, `
name: one-flow
topology: {kind: star, hosts: 2, fabric: `+tc.fabric+`, link_gbps: 400, link_latency: 1us}
network: {mtu: 4096}
traffic: {pattern: flows, flows: [{src: 0, dst: 1, bytes: 64MiB}]}
`)
			require.Len(t, r.Flows, 1)
			f := r.Flows[0]
			require.True(t, f.Finished)
			assert.InEpsilon(t, tc.gbps, f.Gbps, 0.01, "goodput of one 64 MiB flow")
			assert.Zero(t, r.Totals.Drops)
		})
	}
}

// REFERENCE.md golden scenario 4: 64 flows hashed onto 64 spines use 1−(1−1/64)^64 ≈ 0.635
// of them; per-packet adaptive routing and spraying use nearly all.
func TestGolden4ECMPCollisions(t *testing.T) {
	// Until 150 µs no flow has finished (16 MiB at 49 GB/s takes 342 µs), so the
	// delivered bytes measure the aggregate rate while all 64 flows are active.
	// Uncollided flows run at the ceiling, so the fullest flow is the ideal.
	share := func(r *metrics.Result) float64 {
		var sum, top int64
		for _, f := range r.Flows {
			sum += f.Delivered
			top = max(top, f.Delivered)
		}
		return float64(sum) / float64(int64(len(r.Flows))*top)
	}
	const seeds = 20
	var mean float64
	for seed := 1; seed <= seeds; seed++ {
		r := builtin(t, "ecmp-collisions", "until=150us", fmt.Sprintf("seed=%d", seed))
		require.Len(t, r.Flows, 64)
		mean += share(r) / seeds
	}
	assert.InDelta(t, 0.635, mean, 0.02, "mean share of ideal over %d seeds", seeds)
	for _, routing := range []string{"adaptive", "spray"} {
		r := builtin(t, "ecmp-collisions", "until=150us", "network.routing="+routing)
		assert.GreaterOrEqual(t, share(r), 0.95, routing)
		assert.Positive(t, r.Totals.OutOfOrder, "%s reorders packets; the receiver counts them", routing)
	}
}

// REFERENCE.md golden scenario 5: lossless incast 8 → 1.
func TestGolden5LosslessIncast(t *testing.T) {
	for _, tc := range []struct {
		fabric, fc string
		ceiling    float64 // the receiver's goodput ceiling, Gb/s
	}{{"roce", "pfc", 392.1}, {"ib", "credit", 397.5}} {
		t.Run(tc.fc, func(t *testing.T) {
			r := builtin(t, "incast", "topology.fabric="+tc.fabric, "network.flow_control="+tc.fc)
			require.Len(t, r.Flows, 8)
			assert.Zero(t, r.Totals.Drops)
			assert.Zero(t, r.Totals.Retransmits)
			ideal := 8 * 64 * float64(1<<20) * 8 / (tc.ceiling * 1e3) // µs
			var lo, hi float64
			for i, f := range r.Flows {
				require.True(t, f.Finished, "flow %d", i)
				assert.GreaterOrEqual(t, f.FinishUs, ideal*0.999, "no flow beats the receiver's ceiling")
				lo, hi = min(lo, f.Gbps), max(hi, f.Gbps)
				if i == 0 {
					lo = f.Gbps
				}
			}
			assert.InEpsilon(t, ideal, r.Totals.MaxFctUs, 0.05, "last finish within 5 %% of 8·64 MiB / receiver goodput")
			assert.LessOrEqual(t, hi/lo, 1.1/0.9, "per-flow goodput within ±10 %% of each other")
			if tc.fc == "pfc" {
				assert.Positive(t, r.Totals.PauseFrames)
			} else {
				assert.Zero(t, r.Totals.PauseFrames)
			}
		})
	}
}

// REFERENCE.md golden scenario 6, lossy half: without flow control a shallow buffer drops,
// go-back-N retransmits, and goodput falls far below the lossless run's.
func TestGolden6LossyIncast(t *testing.T) {
	lossless := builtin(t, "incast", "until=5ms")
	lossy := builtin(t, "incast-lossy", "until=5ms")
	assert.Zero(t, lossless.Totals.Drops)
	assert.Positive(t, lossy.Totals.Drops)
	assert.Positive(t, lossy.Totals.Retransmits)
	assert.Positive(t, lossy.Totals.Timeouts+lossy.Totals.Retransmits)
	var a, b int64
	for i := range lossy.Flows {
		a += lossless.Flows[i].Delivered
		b += lossy.Flows[i].Delivered
	}
	assert.Less(t, float64(b), 0.5*float64(a), "lossy delivers less than half of what lossless does in 5 ms")
	var drops int64
	for _, l := range lossy.Links {
		drops += l.Drops
	}
	assert.Equal(t, lossy.Totals.Drops, drops, "per-link drops add up to the total")
}

// Lossless fabrics never drop, whatever the topology and routing.
func TestLosslessNeverDrops(t *testing.T) {
	cases := map[string][]string{
		"permutation pfc ecmp":      nil,
		"permutation pfc spray":     {"network.routing=spray"},
		"permutation ib adaptive":   {"topology.fabric=ib", "network.flow_control=credit", "network.routing=adaptive"},
		"permutation pfc small buf": {"network.buffer=256KiB", "network.routing=adaptive"},
		"alltoall ib static":        {"topology.fabric=ib", "network.flow_control=credit", "network.routing=static", "traffic.pattern=alltoall", "traffic.bytes=256KiB"},
	}
	for name, sets := range cases {
		t.Run(name, func(t *testing.T) {
			r := builtin(t, "permutation", append(sets, "traffic.bytes=1MiB")...)
			assert.Zero(t, r.Totals.Drops)
			assert.Equal(t, r.Totals.Flows, r.Totals.FlowsFinished)
			for _, f := range r.Flows {
				assert.Equal(t, f.Bytes, f.Delivered)
			}
		})
	}
}

func TestSameSeedSameJSON(t *testing.T) {
	a, err := json.Marshal(builtin(t, "permutation", "traffic.bytes=512KiB"))
	require.NoError(t, err)
	b, err := json.Marshal(builtin(t, "permutation", "traffic.bytes=512KiB"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(a, b), "two runs with one seed give byte-identical JSON")
}

func TestSeedChangesECMP(t *testing.T) {
	a := builtin(t, "ecmp-collisions", "until=50us", "seed=1")
	b := builtin(t, "ecmp-collisions", "until=50us", "seed=2")
	differ := false
	for i := range a.Flows {
		differ = differ || a.Flows[i].Delivered != b.Flows[i].Delivered
	}
	assert.True(t, differ, "another seed hashes flows onto other spines")
}

// The same small runs give the same JSON natively and in WebAssembly: both
// compare against one golden file.
func TestGoldenJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
	}{
		{"incast-small", []string{"traffic.bytes=256KiB"}},
		{"permutation-spray", []string{"traffic.bytes=128KiB", "network.routing=spray", "seed=3"}},
		{"lossy-small", []string{"traffic.bytes=256KiB", "seed=5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := map[string]string{"incast-small": "incast", "permutation-spray": "permutation", "lossy-small": "incast-lossy"}[tc.name]
			got, err := json.MarshalIndent(builtin(t, base, tc.sets...), "", " ")
			require.NoError(t, err)
			golden.Equal(t, filepath.Join("testdata", tc.name+".golden.json"), got)
		})
	}
}
