package main

import (
	"runtime"
	"runtime/metrics"
	"time"

	"fabriclab/playback"
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
	// computed ahead. With frames on demand (frames.go) the turns while
	// playback waits are short but for a frame a second, and a slice is
	// waitShare/(1-waitShare) turns, so computing keeps waitShare of the
	// time. A slice ends after the simulation step that passes it, so a
	// slow step makes it longer.
	slicePlay = 8 * time.Millisecond
	sliceMin  = 20 * time.Millisecond
	sliceMax  = 60 * time.Millisecond
	waitShare = 0.85
	// A turn and the slice after it make one page frame (the next frame
	// cannot start before the slice ends): while playback waits, after a
	// long turn (a frame drawn, on software WebGL 35–70 ms) the slice is cut
	// to what keeps the two within frameBudget, but not below sliceFloor.
	frameBudget = 75 * time.Millisecond
	sliceFloor  = 4 * time.Millisecond
	// A slice of building a scenario (startup.go): the page shows only its
	// loading box meanwhile, so its turns are short, and a shorter slice
	// costs the build little (perm-1024: 3–4 slices of 60 ms reached
	// 100–124 ms at load 10–14; its build is 0.1–0.4 s of work in all).
	buildSliceMax = 30 * time.Millisecond
)

// afterTurn is the slice s cut so that it and the turn before it fit in
// frameBudget.
func afterTurn(s, turn time.Duration) time.Duration {
	return min(s, max(sliceFloor, frameBudget-turn))
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// gcIdle is the time the collector's idle worker has marked for: in
// WebAssembly it runs when every goroutine waits, before the page's event
// loop gets its turn, and until the mark is done.
func gcIdle() time.Duration {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return time.Duration(s[0].Value.Float64() * float64(time.Second))
}

// sliceFor is the slice, at least least (sliceMin or slicePlay), given what a turn of the event
// loop takes.
func sliceFor(turn, least time.Duration) time.Duration { return max(least, min(sliceMax, 2*turn)) }

// waitSlice is the slice while playback waits for computing and frames run
// on demand, given what a turn takes.
func waitSlice(turn time.Duration) time.Duration {
	return max(sliceMin, min(sliceMax, time.Duration(float64(turn)*waitShare/(1-waitShare))))
}

// yielder is a host that must hand its event loop a turn between slices:
// yield returns once the loop has run what was waiting (a frame, input).
type yielder interface{ yield() }

// startComputing starts the computing goroutine; from then on Update no
// longer computes. Where the host can (the browser), frames then run on
// demand (frames.go).
func (g *Game) startComputing() {
	g.mu.Lock()
	g.background = true
	g.framesOnDemand()
	g.mu.Unlock()
	go g.computeLoop()
}

// slice is the next slice of computing for p, given what a turn takes and
// what the last one took. While playback plays through computed frames
// every frame is drawn, and cutting the slices after each would starve
// computing (ring-allreduce-8 took 2.4 times as long): there the slice is
// as before.
func (g *Game) slice(p *playback.Player, turn, last time.Duration) time.Duration {
	if budget(p, 0) == playBudget { // frames ahead
		return sliceFor(turn, slicePlay)
	}
	s := sliceFor(turn, sliceMin)
	if g.frames.on {
		s = waitSlice(turn)
	}
	if p.Playing() && p.Pos() < p.End() { // playing the last frames computed: each is drawn
		return s
	}
	return afterTurn(s, last)
}

func (g *Game) computeLoop() {
	sy, startup := g.out.(startupHost)
	if startup {
		g.startUp(sy) // startup.go
	}
	var yielded time.Duration // the last turn given to the event loop
	var turn time.Duration    // what a turn takes, averaged
	for {
		g.mu.Lock()
		g.tel.yieldTook += yielded
		if yielded > 0 {
			turn += (yielded - turn) / 4
			g.frames.turns = keep(g.frames.turns, yielded.Seconds()*1000)
			g.frames.measured(yielded)
		}
		p := g.p
		busy := p != nil && !p.Done() && p.Err() == nil
		building, built := g.first != nil, false
		g.idle = !busy && !building && !g.cmp.busy()
		t0 := time.Now()
		if building { // startup.go: nothing is drawn meanwhile but the loading picture
			busy = true
			built = g.buildSlice(min(buildSliceMax, afterTurn(sliceFor(turn, sliceMin), yielded)))
			g.frames.buildMax = max(g.frames.buildMax, time.Since(t0))
		} else if g.cmp.busy() { // a comparison: the pair gives each slice to the side behind
			busy = true
			s := sliceFor(turn, sliceMin)
			if g.frames.on && !g.cmp.pair.Playing() {
				s = afterTurn(waitSlice(turn), yielded)
			}
			g.cmp.pair.Compute(s)
		} else if busy {
			g.grow() // memory.go: its time is the slice's
			p.Compute(g.slice(p, turn, yielded) - time.Since(t0))
			a, s, at, span := p.Slowest()
			if a > g.frames.advanceMax {
				g.frames.advanceMax, g.frames.advanceAt, g.frames.advanceSpan = a, at, span
			}
			g.frames.snapshotMax = max(g.frames.snapshotMax, s)
		}
		if busy {
			g.frames.sliceMax = max(g.frames.sliceMax, time.Since(t0))
		}
		g.between(time.Now())
		g.mu.Unlock()
		t0 = time.Now()
		switch {
		case built && startup:
			sy.yieldFrame() // a frame with the first picture before computing
		case busy:
			idle := gcIdle()
			if y, ok := g.out.(yielder); ok {
				y.yield()
			} else {
				runtime.Gosched()
			}
			g.frames.gcIdleMax = max(g.frames.gcIdleMax, gcIdle()-idle)
		case g.frames.on: // the page's events go on between frames
			select {
			case <-g.wake: // a new run to compute
			case <-time.After(eventEvery):
			}
		default:
			<-g.wake
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
