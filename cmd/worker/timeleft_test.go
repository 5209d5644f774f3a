package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"fabriclab/cmd/internal/wasmheap"
	"fabriclab/protocol"
	"fabriclab/sim/unit"
)

// TestTimeLeft measures how honest the worker's time left is (issue 29's
// goal: within ±30 % of the truth after the first 10 %), offline: it
// computes runs as the browser's worker does (Work in 25 ms slices under the
// browser's memory limit, the heap grown ahead as main does), keeps each
// slice's progress and time left, and prints, over the slices past 10 %
// with at least FABRICLAB_TIMELEFT_MIN_LEFT (1s) still to compute,
// |time left − what computing really took from there| / that, p50 / p95 /
// max, with the look-ahead and without it. It asserts nothing about speed.
// FABRICLAB_TIMELEFT lists the runs as begins' queries, comma-separated
// ("all": incast, ecmp-collisions, perm-1024 and the 8,192-GPU all-reduce);
// FABRICLAB_TIMELEFT_ROUNDS runs each so many times (1), alternating with
// and without; FABRICLAB_WORKER_LOOKAHEAD sets the look-ahead's budget of
// the runs with one, and FABRICLAB_TIMELEFT_WAYS=with (or without) runs
// only those (a module's first run is slower: V8 optimises it as it runs,
// so to compare runs as a page's first, run each in a process of its own);
// FABRICLAB_TIMELEFT_TRACE=1 prints every slice. Under
// Node (GOOS=js GOARCH=wasm go test -c; go_js_wasm_exec) it runs as the
// browser's worker does, without postMessage.
func TestTimeLeft(t *testing.T) {
	list := os.Getenv("FABRICLAB_TIMELEFT")
	if list == "" {
		t.Skip("set FABRICLAB_TIMELEFT=all (or incast,perm-1024,…) to measure")
	}
	if list == "all" {
		list = "incast,ecmp-collisions,perm-1024,hierarchical-allreduce&set=topology.nodes=1024"
	}
	minLeft := time.Second
	if v := os.Getenv("FABRICLAB_TIMELEFT_MIN_LEFT"); v != "" {
		var err error
		minLeft, err = time.ParseDuration(v)
		require.NoError(t, err)
	}
	rounds := 1
	if v := os.Getenv("FABRICLAB_TIMELEFT_ROUNDS"); v != "" {
		_, err := fmt.Sscan(v, &rounds)
		require.NoError(t, err)
	}
	var budget time.Duration // with the look-ahead: the builder's budget unless set
	if v := os.Getenv("FABRICLAB_WORKER_LOOKAHEAD"); v != "" {
		var err error
		budget, err = time.ParseDuration(v)
		require.NoError(t, err)
	}
	ways := []time.Duration{budget, -1} // with the look-ahead, and without
	switch os.Getenv("FABRICLAB_TIMELEFT_WAYS") {
	case "with":
		ways = ways[:1]
	case "without":
		ways = ways[1:]
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30)) // as main (bridge_js.go)
	for round := 1; round <= rounds; round++ {
		for _, q := range strings.Split(list, ",") {
			for _, ahead := range ways {
				tl := timeLeft(t, q, ahead)
				way := "with the look-ahead"
				switch {
				case ahead < 0:
					way = "without"
				case tl.ended:
					way += " (ended)"
				case tl.aside > 0 && tl.ended:
					way += fmt.Sprintf(" (set aside after %.2f s, ended at %.2f s)", tl.ahead.Seconds(), tl.aside.Seconds())
				case tl.aside > 0:
					way += fmt.Sprintf(" (set aside after %.2f s, dropped at %.2f s)", tl.ahead.Seconds(), tl.aside.Seconds())
				default:
					way += fmt.Sprintf(" (dropped after %.2f s)", tl.ahead.Seconds())
				}
				errs := tl.errors(minLeft)
				fmt.Printf("time left %s %s/%s round %d, %s: computed in %.2f s (%.2f in Compute, %.2f in the last slice); |eta − truth|/truth past 10 %%: %s (n %d of %d slices)\n",
					q, runtime.GOOS, runtime.GOARCH, round, way, tl.took.Seconds(), tl.work.Seconds(), tl.last.Seconds(), quantiles(errs), len(errs), len(tl.slices))
				if os.Getenv("FABRICLAB_TIMELEFT_TRACE") != "" {
					for _, s := range tl.slices {
						fmt.Printf("  %.3f s progress %.3f eta %.3f truth %.3f at %d ns\n", s.at.Seconds(), s.progress, s.eta, (tl.took - s.at).Seconds(), s.t/unit.Nanosecond)
					}
				}
			}
		}
	}
}

// timeLeftRun is what TestTimeLeft keeps of a run.
type timeLeftRun struct {
	slices []timeLeftSlice
	took   time.Duration // from the begin to the result
	work   time.Duration // of which in the recorder's Compute
	last   time.Duration // the last call of Work (the run's end and its report)
	ended  bool          // the look-ahead ended
	ahead  time.Duration // how long the look-ahead took before recording (ended or set aside)
	aside  time.Duration // when one set aside ended, or was dropped (0: none)
}

// timeLeftSlice is what the worker said after a slice: its progress and
// time left, at time at since the begin.
type timeLeftSlice struct {
	at            time.Duration
	progress, eta float64
	t             unit.Time // the last frame's
}

// timeLeft computes query q in the worker, as BenchmarkWorker does, with a
// look-ahead of budget (0: the builder's; below 0: none).
func timeLeft(t *testing.T, q string, budget time.Duration) timeLeftRun {
	parts := strings.Split(q, "&set=")
	w := &Worker{post: func(msg, frame []byte) {}, lookAhead: budget}
	begin, err := protocol.EncodeWorkerCommand(protocol.Begin{RunID: 1, Scenario: parts[0], Sets: parts[1:]})
	require.NoError(t, err)
	runtime.GC() // the run before's garbage is not this one's
	start := time.Now()
	w.Handle(begin)
	require.NotNil(t, w.run, "the begin was refused")
	var run timeLeftRun
	looking := false
	for more := true; more; {
		wasmheap.GrowAhead(1 << 30) // as main
		t0 := time.Now()
		more = w.Work(slice25)
		run.last = time.Since(t0)
		runtime.Gosched() // a turn for the collector's workers, as main waits for the event loop between slices
		rec := w.run.rec
		if rec == nil {
			continue
		}
		before, aside := rec.LookingAhead()
		if before {
			looking = true
			continue
		}
		if looking {
			looking, run.ahead = false, time.Since(start)
			run.ended = rec.EndKnown()
		}
		if !aside && run.aside == 0 && !run.ended && run.ahead > 0 {
			run.aside, run.ended = time.Since(start), rec.EndKnown()
		}
		if more {
			run.slices = append(run.slices, timeLeftSlice{time.Since(start), rec.Progress(), rec.ETA(), rec.End()})
		}
	}
	run.took, run.work = time.Since(start), w.run.rec.ComputeTime()
	require.True(t, w.run.over)
	require.NoError(t, w.run.rec.Err())
	return run
}

// slice25 is the browser worker's slice (bridge_js.go's slice).
const slice25 = 25 * time.Millisecond

// errors is |eta − truth| / truth for every slice past 10 % with at least
// minLeft still to compute, as TestBrowserWorkerGoals takes them.
func (r timeLeftRun) errors(minLeft time.Duration) []float64 {
	var errs []float64
	for _, s := range r.slices {
		left := r.took - s.at
		if s.progress >= 0.1 && s.progress < 1 && s.eta >= 0 && left >= minLeft {
			errs = append(errs, math.Abs(s.eta-left.Seconds())/left.Seconds())
		}
	}
	return errs
}

// quantiles is "p50 / p95 / max" of v.
func quantiles(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	q := func(f float64) float64 { return s[min(len(s)-1, int(f*float64(len(s))))] }
	return fmt.Sprintf("%.2f / %.2f / %.2f", q(0.5), q(0.95), s[len(s)-1])
}
