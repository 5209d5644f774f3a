package network_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/scenario"
)

// retainedBytes is how much heap the result of run keeps alive.
func retainedBytes(t *testing.T, run func() *metrics.Result) (uint64, *metrics.Result) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := run()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc < before.HeapAlloc {
		return 0, r
	}
	return after.HeapAlloc - before.HeapAlloc, r
}

// An explicit sim.sample_interval on a long run is coarsened like the
// automatic one: the series keeps at most MaxSamples whatever the run's
// length, so the memory a run keeps does not grow with simulated time.
func TestExplicitSampleIntervalKeepsMemoryBounded(t *testing.T) {
	const (
		budget = 256 << 10 // 9 hosts: flows, links and series of at most 400 samples
		growth = 64 << 10  // measurement noise; 31,000 more samples would be over 2 MiB
	)
	for _, fidelity := range []string{"flow", "packet"} {
		var kept []uint64
		for _, until := range []string{"1ms", "32ms"} {
			sc, err := scenario.Load("incast", nil, []string{"sim.fidelity=" + fidelity, "traffic.bytes=64GiB",
				"until=" + until, "sim.sample_interval=1us"})
			require.NoError(t, err)
			n, r := retainedBytes(t, func() *metrics.Result {
				r, err := sim.Run(sc)
				require.NoError(t, err)
				return r
			})
			name := fmt.Sprintf("%s, until %s", fidelity, until)
			require.NotNil(t, r.Series, name)
			assert.LessOrEqual(t, len(r.Series.TimeUs), network.MaxSamples+1, "%s: samples", name)
			assert.Greater(t, r.Series.IntervalUs, 1.0, "%s: the 1 µs interval was coarsened", name)
			assert.Less(t, n, uint64(budget), "%s: bytes kept", name)
			kept = append(kept, n)
		}
		assert.Less(t, kept[1], kept[0]+growth, "%s: 32 times the simulated time keeps about the same memory", fidelity)
	}
}
