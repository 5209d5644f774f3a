package playback

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"fabriclab/sim/scenario"

	"github.com/stretchr/testify/require"
)

// TestComputeTimes prints how long the canvas's player takes to compute
// scenarios (Compute in 100 ms slices to the end, as a page that waits does)
// and the memory it ends with, for BENCHMARKS.md; it asserts nothing about
// speed. FABRICLAB_COMPUTE_SLICE sets the slice (100ms), and the longest
// call of Compute is printed. FABRICLAB_COMPUTE_BENCH lists the scenarios, comma-separated, each
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
	slice := 100 * time.Millisecond
	if s := os.Getenv("FABRICLAB_COMPUTE_SLICE"); s != "" {
		var err error
		slice, err = time.ParseDuration(s)
		require.NoError(t, err, "FABRICLAB_COMPUTE_SLICE=%s: give a duration (60ms)", s)
	}
	for _, item := range strings.Split(list, ",") {
		parts := strings.Split(item, "|")
		p := newPlayer(t, parts[0], parts[1:]...)
		start := time.Now()
		var longest time.Duration
		over := 0
		for i := 0; ; i++ {
			t0 := time.Now()
			done := p.Compute(slice)
			runtime.Gosched() // a turn for the collector's workers between slices, as the canvas yields to the page (in WebAssembly nothing else runs meanwhile)
			took := time.Since(t0)
			longest = max(longest, took)
			if took > slice+slice/4 {
				over++
			}
			if done {
				break
			}
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
		fmt.Printf("%s %s/%s: computed %v in %.2f s; %d frames %v apart, %.0f MiB of frames (%.1f KiB a frame); heap %.0f MiB, sys %.0f MiB; slices of %v: the longest %.0f ms, %d over a quarter past it\n",
			item, runtime.GOOS, runtime.GOARCH, p.End(), took.Seconds(), n, dt, float64(p.FrameBytes())/(1<<20), float64(p.FrameBytes())/1024/float64(n),
			float64(m.HeapAlloc)/(1<<20), float64(m.Sys)/(1<<20), slice, longest.Seconds()*1000, over)
	}
}

// computeCases are the scenarios BenchmarkCompute records: packet level
// small and mid-sized, and the flow-level 16k all-reduce of `fabriclab bench`.
var computeCases = []struct {
	name, scenario string
	sets           []string
}{
	{"incast", "incast", nil},
	{"ecmp-collisions", "ecmp-collisions", nil},
	{"perm-1024", "perm-1024", nil},
	{"hier-16k", "hierarchical-allreduce", []string{"topology.nodes=2048"}},
}

// BenchmarkCompute is what the canvas's player takes to build a scenario and
// record it to the end (New + Compute), against `fabriclab run` for the model
// alone. -bench 'Compute/hier-16k' -cpuprofile profiles one case.
func BenchmarkCompute(b *testing.B) {
	for _, c := range computeCases {
		b.Run(c.name, func(b *testing.B) {
			sc, err := scenario.Load(c.scenario, nil, c.sets)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				p, err := New(sc)
				require.NoError(b, err)
				for !p.Compute(time.Hour) {
				}
				require.NoError(b, p.Err())
				n, _ := p.Frames()
				b.ReportMetric(float64(n), "frames")
			}
		})
	}
}
