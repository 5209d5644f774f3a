package network

import (
	"testing"

	"fabriclab/sim/engine"
	"fabriclab/sim/plan"
	"fabriclab/sim/unit"
)

// ticker is a model whose every event schedules the next, with 64 pending.
type ticker struct {
	eng  *engine.Sim[int32]
	left int
}

//go:noinline
func (k *ticker) handle(ev int32) { // not inlined, as no model's handle is
	if k.left > 0 {
		k.left--
		k.eng.At(k.eng.Now()+unit.Time(ev), ev)
	}
}

func newTicker(n int) *ticker {
	k := &ticker{eng: engine.New[int32](1), left: n}
	for i := range int32(64) {
		k.eng.At(unit.Time(i), i+1)
	}
	return k
}

// BenchmarkLoop compares a model's own loop, calling handle directly, with
// Run.Advance calling it through a func value: the cost per event of sharing
// the loop.
func BenchmarkLoop(b *testing.B) {
	const events = 1 << 20
	p := &plan.Plan{}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			k := newTicker(events)
			for {
				ev, ok := k.eng.Next(unit.Never)
				if !ok {
					break
				}
				k.handle(ev)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
	})
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			k := newTicker(events)
			r := NewRun(k.eng, p)
			r.Advance(unit.Never, false, k.handle, func() {})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
	})
}
