package player

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestComputeTimes prints how long the canvas's player takes to compute
// scenarios (Compute in 100 ms slices to the end, as a page that waits does)
// and the memory it ends with, for BENCHMARKS.md; it asserts nothing about
// speed. FABRICLAB_COMPUTE_BENCH lists the scenarios, comma-separated, each
// optionally with sets after "|" (perm-1024|topology.k=32|sim.fidelity=flow).
// Under Node (GOOS=js GOARCH=wasm) it runs with the browser's memory limit.
func TestComputeTimes(t *testing.T) {
	list := os.Getenv("FABRICLAB_COMPUTE_BENCH")
	if list == "" {
		t.Skip("set FABRICLAB_COMPUTE_BENCH=ring-allreduce-8,perm-1024 to measure")
	}
	if runtime.GOOS == "js" {
		debug.SetMemoryLimit(1 << 30) // as cmd/viz/bridge_js.go
	}
	for _, item := range strings.Split(list, ",") {
		parts := strings.Split(item, "|")
		p := newPlayer(t, parts[0], parts[1:]...)
		start := time.Now()
		for i := 0; !p.Compute(100 * time.Millisecond); i++ {
			require.Less(t, time.Since(start), 10*time.Minute)
			if os.Getenv("FABRICLAB_COMPUTE_TRACE") != "" && i%10 == 0 {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				fmt.Printf("  %.1fs %v heap %d idle %d inuse %d sys %d gc %d pause %.2fs\n", time.Since(start).Seconds(), p.End(), m.HeapAlloc>>20, m.HeapIdle>>20, m.HeapInuse>>20, m.Sys>>20, m.NumGC, float64(m.PauseTotalNs)/1e9)
			}
		}
		require.NoError(t, p.Err())
		took := time.Since(start)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		n, dt := p.Frames()
		fmt.Printf("%s %s/%s: computed %v in %.2f s; %d frames %v apart, %.0f MiB of frames (%.1f KiB a frame); heap %.0f MiB, sys %.0f MiB\n",
			item, runtime.GOOS, runtime.GOARCH, p.End(), took.Seconds(), n, dt, float64(p.FrameBytes())/(1<<20), float64(p.FrameBytes())/1024/float64(n),
			float64(m.HeapAlloc)/(1<<20), float64(m.Sys)/(1<<20))
	}
}
