package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"fabriclab/sim"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// benchCases are the scenarios `fabriclab bench` times, with their overrides.
var benchCases = []struct {
	label string
	name  string
	sets  []string
}{
	{"perm-1024 spray", "perm-1024", []string{"network.routing=spray"}},
	{"perm-1024 ecmp", "perm-1024", []string{"network.routing=ecmp"}},
	{"incast", "incast", nil},
	{"ring-allreduce-8", "ring-allreduce-8", nil},
	{"hierarchical 16k flow", "hierarchical-allreduce", []string{"topology.nodes=2048"}},
	{"dp-llama3-8b-1024 flow", "dp-llama3-8b-1024", nil},
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "run only the cases whose label contains this text")
	repeat := fs.Int("repeat", 1, "run each case this many times in a row, a line each (the later runs show the steady state past start-up and, in WebAssembly, V8's tiering up)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *repeat < 1 {
		return fmt.Errorf("--repeat %d: give a count of at least 1", *repeat)
	}
	var labels []string
	matched := false
	for _, c := range benchCases {
		labels = append(labels, c.label)
		matched = matched || strings.Contains(c.label, *only)
	}
	if !matched {
		return fmt.Errorf("--only %q matches no case: give text from one of the cases' labels: %s", *only, strings.Join(labels, ", "))
	}
	var gcDefault <-chan struct{} = closed()
	fmt.Fprintf(stdout, "%-24s %8s %8s %12s %10s %10s %10s %8s\n", "scenario", "wall s", "cpu s", "sim µs", "events", "events/s", "heap MiB", "sys MiB")
	for _, c := range benchCases {
		if *only != "" && !strings.Contains(c.label, *only) {
			continue
		}
		sc, err := plan.Load(c.name, scenario.ReadFile, c.sets)
		if err != nil {
			return err
		}
		for range *repeat {
			if err := benchCase(c.label, sc, &gcDefault, stdout); err != nil {
				return err
			}
		}
	}
	runtime.GC()
	<-gcDefault
	fmt.Fprintf(stdout, "%s %s/%s, %d CPUs\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return nil
}

// benchCase runs sc once and prints its line; gcDefault is the last case's
// sentinel, replaced by this one's.
func benchCase(label string, sc scenario.Scenario, gcDefault *<-chan struct{}, stdout io.Writer) error {
	// Each case as `fabriclab run` runs it: collected from a clean start,
	// then no collection for its first 256 MiB (deferGC).
	runtime.GC()
	<-*gcDefault // the last case's sentinel, collected: the default is back
	*gcDefault = deferGC(mappedBytes() + firstGC)
	peak, stop := watchHeap()
	start, cpu0 := time.Now(), processCPU()
	res, err := sim.Run(sc)
	wall, cpu := time.Since(start), processCPU()-cpu0
	stop()
	if err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	ev := res.Totals.Events
	fmt.Fprintf(stdout, "%-24s %8.2f %8.2f %12.1f %10d %10.3g %10.0f %8.0f\n", label, wall.Seconds(), cpu.Seconds(), res.Totals.SimTimeUs,
		ev, float64(ev)/wall.Seconds(), float64(peak.Load())/(1<<20), float64(ms.Sys)/(1<<20))
	return nil
}

// watchHeap samples the live heap every few milliseconds and keeps the peak.
func watchHeap() (*atomic.Uint64, func()) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	read := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return &peak, func() { close(done); <-finished }
}
