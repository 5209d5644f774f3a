package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"fabriclab/cmd/internal/wasmheap"
	"fabriclab/protocol"
)

// BenchmarkWorker is what the worker takes to compute a run to its end,
// posting every frame encoded (the page's end counts the bytes and does
// nothing else), in 25 ms slices under the browser's memory limit, the memory grown ahead
// as main does. FABRICLAB_WORKER_BENCH
// is the run as a begin's query ("hierarchical-allreduce&set=topology.nodes=1024",
// the default); FABRICLAB_WORKER_LOOKAHEAD its look-ahead's budget
// ("-1ns": none). -cpuprofile shows the shares of the model, the recording
// and the encoding; under Node (GOOS=js GOARCH=wasm) it runs as the
// browser's worker does, without postMessage.
func BenchmarkWorker(b *testing.B) {
	name, sets := "hierarchical-allreduce", []string{"topology.nodes=1024"}
	if q := os.Getenv("FABRICLAB_WORKER_BENCH"); q != "" {
		parts := strings.Split(q, "&set=")
		name, sets = parts[0], parts[1:]
	}
	var lookAhead time.Duration // FABRICLAB_WORKER_LOOKAHEAD: its budget, "-1ns" for none
	if v := os.Getenv("FABRICLAB_WORKER_LOOKAHEAD"); v != "" {
		var err error
		lookAhead, err = time.ParseDuration(v)
		require.NoError(b, err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30)) // as main (bridge_js.go)
	for b.Loop() {
		var frames, bytes int
		w := &Worker{post: func(msg, frame []byte) {
			if frame != nil {
				frames++
				bytes += len(frame)
			}
		}, lookAhead: lookAhead}
		begin, err := protocol.EncodeWorkerCommand(protocol.Begin{RunID: 1, Scenario: name, Sets: sets})
		require.NoError(b, err)
		w.Handle(begin)
		require.NotNil(b, w.run, "the begin was refused")
		for more := true; more; {
			wasmheap.GrowAhead(1 << 30) // as main
			more = w.Work(25 * time.Millisecond)
			runtime.Gosched() // a turn for the collector's workers, as main waits for the event loop between slices
		}
		require.True(b, w.run.over)
		b.ReportMetric(float64(frames), "frames")
		b.ReportMetric(float64(bytes)/(1<<20), "MiB-posted")
		if os.Getenv("FABRICLAB_WORKER_BENCH_V") != "" {
			n, dt := w.run.rec.Frames()
			fmt.Printf("%d frames posted, %d kept %v apart, %.1f MiB\n", frames, n, dt, float64(bytes)/(1<<20))
		}
	}
}
