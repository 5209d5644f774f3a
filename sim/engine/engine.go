// Package engine is the discrete-event core: a clock in integer picoseconds, an
// event heap ordered by (time, sequence), and a seeded random source, all owned
// by one simulation value so that several can run side by side.
package engine

import (
	"fmt"
	"math"
	"math/rand/v2"

	"fabriclab/sim/unit"
)

// The heap holds 16-byte keys — the time, and the sequence number in the high
// bits of a word whose low bits index the event's slot — so that a node's four
// children share a cache line; the events themselves wait in slots.
const (
	slotBits = 24
	slotMask = 1<<slotBits - 1
	// MaxPending is the most events that may be scheduled at once.
	MaxPending = slotMask
)

type key struct {
	at     unit.Time
	seqIdx uint64 // sequence << slotBits | slot
}

func (a key) less(b key) bool { return a.at < b.at || a.at == b.at && a.seqIdx < b.seqIdx }

// Sim is a discrete-event simulation whose events are values of type E.
// Events at the same time run in the order they were scheduled.
type Sim[E any] struct {
	now    unit.Time
	seq    uint64
	heap   []key // 4-ary min-heap
	slots  []E
	free   []uint32
	events uint64
	budget uint64 // Next runs at most this many events in all
	rng    *rand.Rand
}

// New returns a simulation at time 0 whose random source is PCG seeded with seed.
func New[E any](seed uint64) *Sim[E] {
	return &Sim[E]{budget: math.MaxUint64, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// SetBudget bounds the events Next runs, counting those run already.
func (s *Sim[E]) SetBudget(n uint64) { s.budget = n }

// Exhausted reports whether Next has run its budget of events.
func (s *Sim[E]) Exhausted() bool { return s.events >= s.budget }

// Now is the current simulated time.
func (s *Sim[E]) Now() unit.Time { return s.now }

// Events is the number of events run so far.
func (s *Sim[E]) Events() uint64 { return s.events }

// Pending is the number of scheduled events.
func (s *Sim[E]) Pending() int { return len(s.heap) }

// Rand is the simulation's own random source.
func (s *Sim[E]) Rand() *rand.Rand { return s.rng }

// At schedules ev at time at, which must not be in the past.
func (s *Sim[E]) At(at unit.Time, ev E) {
	if at < s.now {
		panic(fmt.Sprintf("engine: event at %v scheduled in the past (now %v)", at, s.now))
	}
	var slot uint32
	if n := len(s.free); n > 0 {
		slot = s.free[n-1]
		s.free = s.free[:n-1]
		s.slots[slot] = ev
	} else {
		if len(s.slots) >= MaxPending {
			panic(fmt.Sprintf("engine: more than %d pending events", MaxPending))
		}
		slot = uint32(len(s.slots))
		s.slots = append(s.slots, ev)
	}
	s.seq++
	s.heap = append(s.heap, key{at, s.seq<<slotBits | uint64(slot)})
	s.up(len(s.heap) - 1)
}

// After schedules ev d after now.
func (s *Sim[E]) After(d unit.Time, ev E) { s.At(s.now+d, ev) }

// Next removes the earliest event, advances the clock to it and returns it.
// ok is false when no event is due at or before limit, or the budget is
// spent (the clock then stays put).
func (s *Sim[E]) Next(limit unit.Time) (ev E, ok bool) {
	if len(s.heap) == 0 || s.heap[0].at > limit || s.events >= s.budget {
		return ev, false
	}
	top := s.heap[0]
	last := len(s.heap) - 1
	s.heap[0] = s.heap[last]
	s.heap = s.heap[:last]
	if last > 0 {
		s.down(0)
	}
	slot := uint32(top.seqIdx & slotMask)
	ev = s.slots[slot]
	var zero E
	s.slots[slot] = zero
	s.free = append(s.free, slot)
	s.now = top.at
	s.events++
	return ev, true
}

// AdvanceTo moves the clock forward to t without running events (t must not pass a pending event).
func (s *Sim[E]) AdvanceTo(t unit.Time) {
	if t < s.now || len(s.heap) > 0 && s.heap[0].at < t {
		panic(fmt.Sprintf("engine: cannot advance from %v to %v", s.now, t))
	}
	s.now = t
}

func (s *Sim[E]) up(i int) {
	h := s.heap
	e := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (s *Sim[E]) down(i int) {
	h := s.heap
	n := len(h)
	e := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].less(h[m]) {
				m = j
			}
		}
		if !h[m].less(e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}
