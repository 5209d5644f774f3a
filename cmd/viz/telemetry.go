package main

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"fabriclab/playback"
)

// telemetry is the frame timing the page's benchmarks read (the stats
// command), in milliseconds: intervals between draws, the time spent in Draw
// and in Update.
type telemetry struct {
	lastDraw  time.Time
	intervals []float64
	drawTimes []float64
	updates   []float64 // time spent in Update
	// ticks are the intervals between Updates (one a frame) while the run
	// computes: what a frame takes then, drawn or not.
	ticks     []float64
	yieldTook time.Duration // what the computing goroutine's turns to the event loop took
}

// keptFrames is how many timings each series keeps.
const keptFrames = 600

// keep appends x to v, dropping the oldest beyond keptFrames.
func keep(v []float64, x float64) []float64 {
	if len(v) >= keptFrames {
		copy(v, v[1:])
		v = v[:keptFrames-1]
	}
	return append(v, x)
}

func percentile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// stats tells the page the timings and memory since the last stats, then
// starts them over.
func (g *Game) stats() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	var frameBytes int64
	var computeS, runS float64
	if g.p != nil {
		frameBytes = g.p.FrameBytes()
		computeS, runS = g.p.ComputeTime().Seconds(), time.Since(g.loadedAt).Seconds()
	}
	if g.cmp != nil {
		fb, compute := g.cmp.computeStats()
		frameBytes, computeS, runS = fb, compute.Seconds(), time.Since(g.loadedAt).Seconds()
	}
	g.out.event(map[string]any{"fabriclab": "stats", "frames": len(g.tel.intervals),
		"heap_bytes": m.HeapAlloc, "live_bytes": playback.LiveHeap(), // heap_bytes also counts the garbage made since the last collection
		"sys_bytes": m.Sys, "frame_bytes": frameBytes,
		"compute_s": computeS, "run_s": runS, "yield_s": g.tel.yieldTook.Seconds(), "gc_cpu_s": gcCPU(), "gcs": m.NumGC,
		"interval_p50_ms": percentile(g.tel.intervals, 0.5), "interval_p95_ms": percentile(g.tel.intervals, 0.95), "interval_max_ms": percentile(g.tel.intervals, 1),
		"draw_p50_ms": percentile(g.tel.drawTimes, 0.5), "draw_p95_ms": percentile(g.tel.drawTimes, 0.95),
		"updates": len(g.tel.updates), "update_p50_ms": percentile(g.tel.updates, 0.5), "update_p95_ms": percentile(g.tel.updates, 0.95),
		"computing_ticks": len(g.tel.ticks), "computing_tick_p50_ms": percentile(g.tel.ticks, 0.5),
		"computing_tick_p95_ms": percentile(g.tel.ticks, 0.95), "computing_tick_max_ms": percentile(g.tel.ticks, 1),
		"frames_asked": g.frames.asks, "slice_max_ms": g.frames.sliceMax.Seconds() * 1000,
		"turn_p50_ms": percentile(g.frames.turns, 0.5), "turn_p95_ms": percentile(g.frames.turns, 0.95), "turns": len(g.frames.turns),
		// the parts of computing (compute.go, memory.go)
		"advance_max_ms": ms(g.frames.advanceMax), "advance_max_at_us": g.frames.advanceAt.Micros(),
		"advance_max_span_us": g.frames.advanceSpan.Micros(), "snapshot_max_ms": ms(g.frames.snapshotMax),
		"gc_idle_max_ms": ms(g.frames.gcIdleMax), "build_max_ms": ms(g.frames.buildMax), "gc_idle_s": gcIdle().Seconds(),
		"grows": g.memory.grows, "grown_bytes": g.memory.bytes, "grow_max_ms": ms(g.memory.longest)})
	g.tel.intervals, g.tel.drawTimes, g.tel.updates, g.tel.ticks = g.tel.intervals[:0], g.tel.drawTimes[:0], g.tel.updates[:0], g.tel.ticks[:0]
	g.frames.asks, g.frames.sliceMax, g.frames.turns = 0, 0, g.frames.turns[:0]
	g.frames.advanceMax, g.frames.snapshotMax, g.frames.gcIdleMax = 0, 0, 0
}

// gcCPU is the CPU time the collector has taken (on WebAssembly, where Go
// has one thread, wall time).
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}
