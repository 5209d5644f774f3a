package player

import (
	"os"
	"runtime"
	"testing"
	"time"

	"fabriclab/sim/scenario"
)

func TestMeasure(t *testing.T) {
	name := os.Getenv("MEASURE")
	if name == "" {
		t.Skip()
	}
	var sets []string
	if s := os.Getenv("SETS"); s != "" {
		sets = []string{s}
	}
	sc, err := scenario.Load(name, nil, sets)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	var m runtime.MemStats
	for i := 0; ; i++ {
		d := p.Compute(100 * time.Millisecond)
		if i%20 == 0 || d {
			runtime.GC()
			runtime.ReadMemStats(&m)
			n, dt := p.Frames()
			t.Logf("%6.1fs sim %v frames %d dt %v framebytes %d MiB heap %d MiB sys %d MiB flows %d", time.Since(start).Seconds(), p.End(), n, dt, p.FrameBytes()>>20, m.HeapAlloc>>20, m.Sys>>20, p.latest.NumFlows())
		}
		if d || time.Since(start) > 120*time.Second {
			break
		}
	}
	t.Log(p.Err())
}

func TestProgressProbe(t *testing.T) {
	if os.Getenv("MEASURE") == "" {
		t.Skip()
	}
	for _, name := range []string{"incast", "ring-allreduce-8", "alltoall-moe", "perm-1024", "hierarchical-allreduce"} {
		p := newPlayer(t, name)
		var prog []float64
		for !p.Compute(20 * time.Millisecond) {
			prog = append(prog, p.Progress())
		}
		t.Log(name, len(prog), prog[:min(len(prog), 12)], p.End())
	}
}
