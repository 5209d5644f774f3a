package main

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"fabriclab/playback"
	"fabriclab/protocol"
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
	ticks []float64
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
	g.out.event(protocol.Stats{Frames: len(g.tel.intervals),
		HeapBytes: m.HeapAlloc, LiveBytes: playback.LiveHeap(), SysBytes: m.Sys, FrameBytes: frameBytes,
		ComputeS: computeS, RunS: runS, GCCPUS: gcCPU(), GCs: m.NumGC,
		IntervalP50Ms: percentile(g.tel.intervals, 0.5), IntervalP95Ms: percentile(g.tel.intervals, 0.95), IntervalMaxMs: percentile(g.tel.intervals, 1),
		DrawP50Ms: percentile(g.tel.drawTimes, 0.5), DrawP95Ms: percentile(g.tel.drawTimes, 0.95),
		Updates: len(g.tel.updates), UpdateP50Ms: percentile(g.tel.updates, 0.5), UpdateP95Ms: percentile(g.tel.updates, 0.95),
		ComputingTicks: len(g.tel.ticks), ComputingTickP50Ms: percentile(g.tel.ticks, 0.5),
		ComputingTickP95Ms: percentile(g.tel.ticks, 0.95), ComputingTickMaxMs: percentile(g.tel.ticks, 1),
		FramesAsked: g.frames.asks, Workers: g.workerStats(),
		Grows: g.memory.grows, GrownBytes: g.memory.bytes, GrowMaxMs: ms(g.memory.longest)})
	g.tel.intervals, g.tel.drawTimes, g.tel.updates, g.tel.ticks = g.tel.intervals[:0], g.tel.drawTimes[:0], g.tel.updates[:0], g.tel.ticks[:0]
	g.frames.asks = 0
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

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
