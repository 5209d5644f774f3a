// Package engine is the discrete-event core: a clock in integer picoseconds, an
// event queue ordered by (time, sequence), and a seeded random source, all owned
// by one simulation value so that several can run side by side.
package engine

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"fabriclab/sim/unit"
)

// Events wait in slots; the queue orders 16-byte keys — the time, and the
// sequence number in the high bits of a word whose low bits index the
// event's slot. Keys due within ringSize buckets (of bucketWidth each) of
// the current one wait in a calendar ring, each bucket an unordered list of
// blocks of a few keys (two cache lines each); later ones wait in a 4-ary
// min-heap ("far", whose four children share a cache line) and join the
// ring as the clock comes near. The earliest bucket is sorted into a small
// array when the clock reaches it. A bucket holds a few events, so putting
// one in is an append and taking one out a read, where a heap of the
// thousands a packet model keeps pending costs a dozen cache lines a step.
const (
	slotBits = 24
	slotMask = 1<<slotBits - 1
	// MaxPending is the most events that may be scheduled at once.
	MaxPending = slotMask

	bucketBits  = 9  // a bucket is 512 ps: a packet model has a few events in each
	ringBits    = 14 // 16,384 buckets: 8.4 µs, a few link round trips
	ringSize    = 1 << ringBits
	ringMask    = ringSize - 1
	bucketWidth = 1 << bucketBits
)

type key struct {
	at     unit.Time
	seqIdx uint64 // sequence << slotBits | slot
}

func (a key) less(b key) bool { return a.at < b.at || a.at == b.at && a.seqIdx < b.seqIdx }

func bucketOf(t unit.Time) int64 { return int64(t) >> bucketBits }

// block is a piece of a bucket's list.
type block struct {
	k    [blockKeys]key
	n    int32
	next int32 // the next block + 1, 0 at the end
}

const blockKeys = 7 // 128 bytes a block

// Sim is a discrete-event simulation whose events are values of type E.
// Events at the same time run in the order they were scheduled.
type Sim[E any] struct {
	now    unit.Time
	seq    uint64
	slots  []E
	free   []uint32
	held   uint32 // the slot of the event NextRef returned + 1, freed at the next call
	freed  uint32 // the slot held last + 1, if not in free: the next event takes it
	events uint64
	budget uint64 // Next runs at most this many events in all
	rng    *rand.Rand
	pcg    *rand.PCG // rng's source, for Int64N

	// The ring holds buckets cur … cur+ringSize-1 (bucket b at b&ringMask);
	// cur never passes the clock's bucket. Bucket sorted, if ≥ 0, is the
	// earliest and waits in order in run[rd:] instead.
	head   [ringSize]int32 // first block + 1 of each bucket's list (the latest, filling)
	blocks []block
	spare  int32                 // a free block + 1, the rest linked through next
	occ    [ringSize / 64]uint64 // bit b&ringMask: bucket b's list is not empty
	near   int                   // keys in the ring
	cur    int64
	sorted int64
	run    []key
	rd     int
	far    []key // 4-ary min-heap of the keys past the ring
}

// reserved is how many pending events, blocks and free slots a simulation
// starts with room for. Room never used costs nothing (its pages are never
// touched), where growing by append touches the old array and the new: a
// fresh page is a page fault, 2–17 µs on this VM (BENCHMARKS.md), and the
// incast's 250 pending events and 220 blocks grew through nine copies each.
const reserved = 1024

// New returns a simulation at time 0 whose random source is PCG seeded with seed.
func New[E any](seed uint64) *Sim[E] {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &Sim[E]{budget: math.MaxUint64, rng: rand.New(pcg), pcg: pcg, sorted: -1,
		slots: make([]E, 0, reserved), free: make([]uint32, 0, reserved), blocks: make([]block, 0, reserved)}
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
func (s *Sim[E]) Pending() int { return s.near + len(s.far) }

// Rand is the simulation's own random source.
func (s *Sim[E]) Rand() *rand.Rand { return s.rng }

// Int64N is Rand().Int64N(n), the same number from the same stream, with
// no call through rand.Source (an interface call is dear in WebAssembly).
func (s *Sim[E]) Int64N(n int64) int64 {
	if n <= 0 {
		panic("engine: Int64N of a number ≤ 0")
	}
	u := uint64(n) // math/rand/v2's uint64n for 64-bit words
	if u&(u-1) == 0 {
		return int64(s.pcg.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(s.pcg.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(s.pcg.Uint64(), u)
		}
	}
	return int64(hi)
}

// IntN is Rand().IntN(n), as Int64N is Rand().Int64N.
func (s *Sim[E]) IntN(n int) int { return int(s.Int64N(int64(n))) }

// At schedules ev at time at, which must not be in the past.
func (s *Sim[E]) At(at unit.Time, ev E) { *s.AtRef(at) = ev }

// AtRef schedules an event at time at, which must not be in the past, and
// returns it for the caller to fill in. It holds what its slot held last:
// set every field the event's handler reads. (A model whose events are
// structs over 16 bytes saves a copy: in WebAssembly each is a call to
// memory.copy, dearer than storing the fields.)
func (s *Sim[E]) AtRef(at unit.Time) *E {
	if at < s.now {
		panic(fmt.Sprintf("engine: event at %v scheduled in the past (now %v)", at, s.now))
	}
	var slot uint32
	if s.freed != 0 {
		slot = s.freed - 1
		s.freed = 0
	} else if n := len(s.free); n > 0 {
		slot = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		if len(s.slots) >= MaxPending {
			panic(fmt.Sprintf("engine: more than %d pending events", MaxPending))
		}
		slot = uint32(len(s.slots))
		var zero E
		s.slots = append(s.slots, zero)
	}
	ev := &s.slots[slot]
	s.seq++
	k := key{at, s.seq<<slotBits | uint64(slot)}
	// The common case, put and link inlined by hand (calls cost most in
	// WebAssembly): a ring bucket other than the sorted one, whose latest
	// block has room.
	if b := bucketOf(at); b-s.cur < ringSize {
		if b > s.sorted {
			i := b & ringMask
			if h := s.head[i]; h != 0 {
				if bl := &s.blocks[h-1]; bl.n < blockKeys {
					bl.k[bl.n] = k
					bl.n++
					s.near++
					return ev
				}
			} else if n := s.spare; n != 0 { // an empty bucket: a spare block starts its list
				bl := &s.blocks[n-1]
				s.spare = bl.next
				bl.k[0], bl.n, bl.next = k, 1, 0
				s.head[i] = n
				s.occ[i>>6] |= 1 << (i & 63)
				s.near++
				return ev
			}
		} else if b == s.sorted && len(s.run) < cap(s.run) && s.run[len(s.run)-1].less(k) {
			s.run = append(s.run, k) // the latest of the sorted bucket: no move, no growth
			s.near++
			return ev
		}
	}
	s.put(k)
	return ev
}

// put files k in its bucket, or in the far heap past the ring.
func (s *Sim[E]) put(k key) {
	b := bucketOf(k.at)
	if b-s.cur >= ringSize {
		s.far = append(s.far, k)
		s.up(len(s.far) - 1)
		return
	}
	s.near++
	if b == s.sorted {
		// In order: k is usually the latest (it has the highest sequence).
		q := append(s.run, k)
		j := len(q) - 1
		for j > s.rd && k.less(q[j-1]) {
			q[j] = q[j-1]
			j--
		}
		q[j] = k
		s.run = q
		return
	}
	if b < s.sorted {
		s.unsort() // a step's end let the clock stop short of the sorted bucket
	}
	s.link(b, k)
}

func (s *Sim[E]) link(b int64, k key) {
	i := b & ringMask
	h := s.head[i]
	if h == 0 || s.blocks[h-1].n == blockKeys {
		if s.spare != 0 {
			n := s.spare
			s.spare = s.blocks[n-1].next
			s.blocks[n-1].n, s.blocks[n-1].next = 0, h
			h = n
		} else {
			s.blocks = append(s.blocks, block{next: h})
			h = int32(len(s.blocks))
		}
		s.head[i] = h
		s.occ[i>>6] |= 1 << (i & 63)
	}
	bl := &s.blocks[h-1]
	bl.k[bl.n] = k
	bl.n++
}

// unsort puts the sorted bucket back in the ring's lists.
func (s *Sim[E]) unsort() {
	for _, k := range s.run[s.rd:] {
		s.link(s.sorted, k)
	}
	s.run, s.rd, s.sorted = s.run[:0], 0, -1
}

// After schedules ev d after now.
func (s *Sim[E]) After(d unit.Time, ev E) { s.At(s.now+d, ev) }

// first returns the earliest key without removing it, sorting its bucket.
func (s *Sim[E]) first() (key, bool) {
	if s.sorted >= 0 {
		return s.run[s.rd], true
	}
	if s.near == 0 {
		if len(s.far) == 0 {
			return key{}, false
		}
		return s.far[0], true
	}
	return s.sortBucket(s.nextBucket()), true
}

// sortBucket takes bucket b's keys out of the ring into run, in order, and returns the first.
func (s *Sim[E]) sortBucket(b int64) key {
	i := b & ringMask
	if h := s.head[i]; s.blocks[h-1].next == 0 {
		// One block, the common case: its keys in the order scheduled.
		bl := &s.blocks[h-1]
		n := int(bl.n)
		if cap(s.run) < n {
			s.run = make([]key, 0, max(n, 2*cap(s.run)))
		}
		q := s.run[:n]
		for j, k := range bl.k[:n] {
			q[j] = k
		}
		bl.next, s.spare = s.spare, h
		s.head[i] = 0
		s.occ[i>>6] &^= 1 << (i & 63)
		insertKeys(q)
		s.run, s.rd, s.sorted = q, 0, b
		return q[0]
	}
	// The list runs from the latest block back: the keys go in from the
	// end, so that they are in the order they were scheduled, nearly
	// sorted already (a stream's later events are later), and the
	// insertion sort below has little to move.
	total := 0
	for n := s.head[i]; n != 0; n = s.blocks[n-1].next {
		total += int(s.blocks[n-1].n)
	}
	if cap(s.run) < total {
		s.run = make([]key, 0, max(total, 2*cap(s.run)))
	}
	q := s.run[:total]
	end := total
	for n := s.head[i]; n != 0; {
		bl := &s.blocks[n-1]
		end -= int(bl.n)
		for j, k := range bl.k[:bl.n] {
			q[end+j] = k // key by key: copy calls memmove, dear in WebAssembly for a few keys
		}
		next := bl.next
		bl.next, s.spare = s.spare, n
		n = next
	}
	s.head[i] = 0
	s.occ[i>>6] &^= 1 << (i & 63)
	if len(q) <= 16 {
		insertKeys(q) // a few keys, blocks each in order
	} else {
		sortKeys(q)
	}
	s.run, s.rd, s.sorted = q, 0, b
	return q[0]
}

// nextBucket is the first non-empty bucket from cur on (the ring's lists are not all empty).
func (s *Sim[E]) nextBucket() int64 {
	i := s.cur & ringMask
	w := i >> 6
	if m := s.occ[w] >> (i & 63); m != 0 {
		return s.cur + int64(bits.TrailingZeros64(m))
	}
	d := 64 - (i & 63) // buckets to the next word
	for n := int64(1); n <= int64(len(s.occ)); n++ {
		if m := s.occ[(w+n)&(int64(len(s.occ))-1)]; m != 0 {
			return s.cur + d + int64(bits.TrailingZeros64(m))
		}
		d += 64
	}
	panic("engine: ring count and buckets disagree")
}

// Next removes the earliest event, advances the clock to it and returns it.
// ok is false when no event is due at or before limit, or the budget is
// spent (the clock then stays put).
func (s *Sim[E]) Next(limit unit.Time) (ev E, ok bool) {
	p := s.NextRef(limit)
	if p == nil {
		return ev, false
	}
	ev = *p
	var zero E
	*p = zero // let the collector have what it points to
	return ev, true
}

// NextRef is Next returning the event in its slot, or nil: the slot is
// kept for it until the next call of Next or NextRef, events scheduled
// meanwhile take others. It is not cleared (Next's copy and clearing are
// calls in WebAssembly): a model whose events hold pointers should use Next.
func (s *Sim[E]) NextRef(limit unit.Time) *E {
	if s.held != 0 {
		// Most events schedule one: the slot waits in freed for it, not in free.
		if s.freed == 0 {
			s.freed = s.held
		} else {
			s.free = append(s.free, s.held-1)
		}
		s.held = 0
	}
	if s.events >= s.budget {
		return nil
	}
	// first and its removal, inlined by hand, and a bucket of one key
	// taken from its block without sorting.
	var top key
	switch {
	case s.sorted >= 0:
		top = s.run[s.rd]
	case s.near > 0:
		var b int64
		if i := s.cur & ringMask; s.occ[i>>6]>>(i&63) != 0 { // nextBucket's common case
			b = s.cur + int64(bits.TrailingZeros64(s.occ[i>>6]>>(i&63)))
		} else {
			b = s.nextBucket()
		}
		i := b & ringMask
		h := s.head[i]
		if bl := &s.blocks[h-1]; bl.n == 1 && bl.next == 0 {
			if top = bl.k[0]; top.at > limit {
				return nil
			}
			s.head[i] = 0
			s.occ[i>>6] &^= 1 << (i & 63)
			bl.next, s.spare = s.spare, h
			s.near--
			goto taken
		}
		top = s.sortBucket(b)
	case len(s.far) > 0:
		top = s.far[0]
	default:
		return nil
	}
	if top.at > limit {
		return nil
	}
	if s.sorted >= 0 {
		s.rd++
		s.near--
		if s.rd == len(s.run) {
			s.run, s.rd, s.sorted = s.run[:0], 0, -1
		}
	} else {
		s.popFar()
	}
taken:
	if b := bucketOf(top.at); b > s.cur { // setCur, inlined by hand
		s.cur = b
		if len(s.far) > 0 && bucketOf(s.far[0].at)-b < ringSize {
			s.bringFar(b)
		}
	}
	slot := uint32(top.seqIdx & slotMask)
	s.held = slot + 1
	s.now = top.at
	s.events++
	return &s.slots[slot]
}

// setCur moves the ring on to bucket b and brings in the far keys it now covers.
func (s *Sim[E]) setCur(b int64) {
	if b <= s.cur {
		return
	}
	s.cur = b
	s.bringFar(b)
}

// bringFar moves the far keys that the ring now covers (from bucket b on) into it.
func (s *Sim[E]) bringFar(b int64) {
	for len(s.far) > 0 && bucketOf(s.far[0].at)-b < ringSize {
		s.put(s.popFar())
	}
}

func (s *Sim[E]) popFar() key {
	top := s.far[0]
	last := len(s.far) - 1
	s.far[0] = s.far[last]
	s.far = s.far[:last]
	if last > 0 {
		s.down(0)
	}
	return top
}

// AdvanceTo moves the clock forward to t without running events (t must not pass a pending event).
func (s *Sim[E]) AdvanceTo(t unit.Time) {
	top, ok := s.first()
	if t < s.now || ok && top.at < t {
		panic(fmt.Sprintf("engine: cannot advance from %v to %v", s.now, t))
	}
	s.now = t
	s.setCur(bucketOf(t))
}

func (s *Sim[E]) up(i int) {
	h := s.far
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
	h := s.far
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

// sortKeys sorts keys (distinct) in order: insertion sort for a few, else
// quicksort, with less called directly (slices.SortFunc calls its
// comparison through a func value, dear in WebAssembly; natively perm-1024
// then runs 21 % more instructions) and heapsort past a depth of 2·log₂ n,
// for n log n at worst.
func sortKeys(q []key) {
	quickKeys(q, 2*bits.Len(uint(len(q))))
}

func quickKeys(q []key, depth int) {
	for len(q) > 16 {
		if depth == 0 {
			heapKeys(q)
			return
		}
		depth--
		// The median of the first, middle and last keys, moved to the end.
		n := len(q) - 1
		m := n / 2
		if q[m].less(q[0]) {
			q[m], q[0] = q[0], q[m]
		}
		if q[n].less(q[0]) {
			q[n], q[0] = q[0], q[n]
		}
		if q[m].less(q[n]) {
			q[m], q[n] = q[n], q[m]
		}
		pivot, j := q[n], 0
		for i := range n {
			if q[i].less(pivot) {
				q[i], q[j] = q[j], q[i]
				j++
			}
		}
		q[j], q[n] = q[n], q[j]
		// Recurse into the smaller side, loop on the larger.
		if j < n-j {
			quickKeys(q[:j], depth)
			q = q[j+1:]
		} else {
			quickKeys(q[j+1:], depth)
			q = q[:j]
		}
	}
	insertKeys(q)
}

func insertKeys(q []key) {
	for i := 1; i < len(q); i++ {
		k := q[i]
		j := i
		for j > 0 && k.less(q[j-1]) {
			q[j] = q[j-1]
			j--
		}
		q[j] = k
	}
}

func heapKeys(q []key) {
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && q[c].less(q[c+1]) {
				c++
			}
			if !q[i].less(q[c]) {
				return
			}
			q[i], q[c] = q[c], q[i]
			i = c
		}
	}
	for i := len(q)/2 - 1; i >= 0; i-- {
		down(i, len(q))
	}
	for n := len(q) - 1; n > 0; n-- {
		q[0], q[n] = q[n], q[0]
		down(0, n)
	}
}
