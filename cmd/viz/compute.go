package main

import (
	"runtime"
	"time"
)

// Computing runs in its own goroutine (startComputing), in slices, between
// frames: in the browser, where Go has one thread, each slice ends by
// handing the JavaScript event loop a turn (yielder), so frames, input and
// commands go on between slices. g.mu keeps Update, Draw and the slices
// apart (on a desktop they run on threads).

const (
	// Slices of computing: twice what a turn of the event loop takes (so
	// computing keeps two thirds of the time), at most sliceMax and at least
	// sliceMin while playback waits, slicePlay while it plays frames
	// computed ahead. A slice ends after the simulation step that passes it,
	// so a slow step makes it longer.
	slicePlay = 8 * time.Millisecond
	sliceMin  = 20 * time.Millisecond
	sliceMax  = 60 * time.Millisecond
)

// sliceFor is the slice, at least least (sliceMin or slicePlay), given what a turn of the event
// loop takes.
func sliceFor(turn, least time.Duration) time.Duration { return max(least, min(sliceMax, 2*turn)) }

// yielder is a host that must hand its event loop a turn between slices:
// yield returns once the loop has run what was waiting (a frame, input).
type yielder interface{ yield() }

// startComputing starts the computing goroutine; from then on Update no
// longer computes.
func (g *Game) startComputing() {
	g.mu.Lock()
	g.background = true
	g.mu.Unlock()
	go g.computeLoop()
}

func (g *Game) computeLoop() {
	var yielded time.Duration // the last turn given to the event loop
	var turn time.Duration    // what a turn takes, averaged
	for {
		g.mu.Lock()
		g.yieldTook += yielded
		if yielded > 0 {
			turn += (yielded - turn) / 4
		}
		p := g.p
		busy := p != nil && !p.Done() && p.Err() == nil
		g.idle = !busy && !g.cmp.busy()
		if g.cmp.busy() { // a comparison: the pair gives each slice to the side behind
			busy = true
			g.cmp.pair.Compute(sliceFor(turn, sliceMin))
		} else if busy {
			least := sliceMin
			if budget(p, 0) == playBudget { // frames ahead
				least = slicePlay
			}
			p.Compute(sliceFor(turn, least))
		}
		g.mu.Unlock()
		t0 := time.Now()
		if busy {
			if y, ok := g.out.(yielder); ok {
				y.yield()
			} else {
				runtime.Gosched()
			}
		} else {
			<-g.wake // a new run to compute
		}
		yielded = 0
		if busy {
			yielded = time.Since(t0)
		}
	}
}

// woken tells the computing goroutine that there is a new run.
func (g *Game) woken() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}
