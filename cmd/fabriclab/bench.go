package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"fabriclab/sim"
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
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "run only the cases whose label contains this text")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "scenario\twall s\tsim µs\tevents\tevents/s\tpeak heap MiB\tsys MiB\t\n")
	for _, c := range benchCases {
		if *only != "" && !strings.Contains(c.label, *only) {
			continue
		}
		sc, err := scenario.Load(c.name, os.ReadFile, c.sets)
		if err != nil {
			return err
		}
		runtime.GC()
		peak, stop := watchHeap()
		start := time.Now()
		res, err := sim.Run(sc)
		wall := time.Since(start)
		stop()
		if err != nil {
			return err
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		ev := res.Totals.Events
		fmt.Fprintf(w, "%s\t%.2f\t%.1f\t%d\t%.3g\t%.0f\t%.0f\t\n", c.label, wall.Seconds(), res.Totals.SimTimeUs,
			ev, float64(ev)/wall.Seconds(), float64(peak.Load())/(1<<20), float64(ms.Sys)/(1<<20))
		w.Flush()
	}
	fmt.Fprintf(stdout, "%s %s/%s, %d CPUs\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
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
