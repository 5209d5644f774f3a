package engine

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

func TestOrderByTimeThenSequence(t *testing.T) {
	s := New[string](1)
	s.At(5*unit.Microsecond, "c")
	s.At(1*unit.Microsecond, "a")
	s.At(5*unit.Microsecond, "d") // same time as c, scheduled later
	s.At(2*unit.Microsecond, "b")
	var got []string
	for {
		ev, ok := s.Next(unit.Never)
		if !ok {
			break
		}
		got = append(got, ev)
	}
	assert.Equal(t, []string{"a", "b", "c", "d"}, got)
	assert.Equal(t, 5*unit.Microsecond, s.Now())
	assert.EqualValues(t, 4, s.Events())
}

func TestNextStopsAtLimit(t *testing.T) {
	s := New[int](1)
	s.At(10, 1)
	s.At(20, 2)
	ev, ok := s.Next(15)
	require.True(t, ok)
	assert.Equal(t, 1, ev)
	_, ok = s.Next(15)
	assert.False(t, ok)
	assert.Equal(t, unit.Time(10), s.Now(), "clock stays at the last event")
	assert.Equal(t, 1, s.Pending())
}

func TestPastEventPanics(t *testing.T) {
	s := New[int](1)
	s.At(10, 1)
	s.Next(unit.Never)
	assert.Panics(t, func() { s.At(5, 2) })
}

// A random schedule comes out sorted, whatever the insertion order.
func TestHeapProperty(t *testing.T) {
	s := New[int](7)
	r := s.Rand()
	for i := range 10000 {
		s.At(unit.Time(r.IntN(1000)), i)
	}
	prev := unit.Time(-1)
	prevSeq := -1
	for {
		ev, ok := s.Next(unit.Never)
		if !ok {
			break
		}
		require.GreaterOrEqual(t, s.Now(), prev)
		if s.Now() == prev {
			require.Greater(t, ev, prevSeq, "ties run in scheduling order")
		}
		prev, prevSeq = s.Now(), ev
	}
}

func TestSameSeedSameRandom(t *testing.T) {
	a, b, c := New[int](3), New[int](3), New[int](4)
	x, y, z := a.Rand().Uint64(), b.Rand().Uint64(), c.Rand().Uint64()
	assert.Equal(t, x, y)
	assert.NotEqual(t, x, z)
}

func BenchmarkScheduleNext(b *testing.B) {
	s := New[int](1)
	r := s.Rand()
	for i := range 4096 {
		s.At(unit.Time(r.IntN(1_000_000)), i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Next(unit.Never)
		s.After(unit.Time(r.IntN(1_000_000)), i)
	}
}

func TestBudgetStopsNext(t *testing.T) {
	s := New[int](1)
	for i := range 5 {
		s.At(unit.Time(i), i)
	}
	s.SetBudget(3)
	for range 3 {
		_, ok := s.Next(unit.Never)
		require.True(t, ok)
	}
	assert.True(t, s.Exhausted())
	_, ok := s.Next(unit.Never)
	assert.False(t, ok, "the budget is spent")
	assert.Equal(t, unit.Time(2), s.Now(), "the clock stays at the last event run")
	assert.Equal(t, 2, s.Pending())
	s.SetBudget(4)
	assert.False(t, s.Exhausted())
	ev, ok := s.Next(unit.Never)
	require.True(t, ok)
	assert.Equal(t, 3, ev)
}

// Against a sorted reference: events spread over the ring, past it (the far
// heap) and at the same times, scheduled while others run, with AdvanceTo
// and limits in between, come out in (time, scheduling) order.
func TestQueueMatchesReference(t *testing.T) {
	type ref struct {
		at  unit.Time
		seq int
	}
	for _, spread := range []int64{1000, 50_000, 9_000_000, 20_000_000, 5_000_000_000} {
		s := New[int](int64ToSeed(spread))
		r := s.Rand()
		var want []ref
		seq := 0
		add := func() {
			at := s.Now() + unit.Time(r.Int64N(spread))
			if r.IntN(8) == 0 {
				at = s.Now() // now, behind what is due now
			}
			s.At(at, seq)
			want = append(want, ref{at, seq})
			seq++
		}
		pop := func() ref {
			b := 0
			for i, w := range want {
				if w.at < want[b].at || w.at == want[b].at && w.seq < want[b].seq {
					b = i
				}
			}
			w := want[b]
			want = append(want[:b], want[b+1:]...)
			return w
		}
		for range 200 {
			add()
		}
		for n := 0; n < 20000 && len(want) > 0; n++ {
			if r.IntN(50) == 0 {
				// A step that ends before the next event: Next stops, the clock moves on.
				next := want[0]
				for _, w := range want {
					if w.at < next.at {
						next = w
					}
				}
				if limit := s.Now() + (next.at-s.Now())/2; limit < next.at {
					_, ok := s.Next(limit)
					require.False(t, ok)
					s.AdvanceTo(limit)
					require.Equal(t, limit, s.Now())
					add() // maybe before the bucket Next looked at
				}
			}
			ev, ok := s.Next(unit.Never)
			require.True(t, ok)
			w := pop()
			require.Equal(t, w.seq, ev, "spread %d, event %d", spread, n)
			require.Equal(t, w.at, s.Now())
			require.Equal(t, len(want), s.Pending())
			for range r.IntN(3) {
				add()
			}
		}
	}
}

func int64ToSeed(v int64) uint64 { return uint64(v) }

// A key filed in the far heap joins the ring as soon as the ring covers its
// bucket, ahead of a later key scheduled into the same bucket.
func TestFarKeysJoinTheRing(t *testing.T) {
	s := New[string](1)
	farAt := unit.Time((ringSize+5)*bucketWidth + 10)
	s.At(farAt, "far")                  // past the ring: the far heap
	s.At(unit.Time(6*bucketWidth), "a") // bucket 6: the ring
	ev, ok := s.Next(unit.Never)
	require.True(t, ok)
	require.Equal(t, "a", ev)
	s.At(farAt+1, "near") // the ring now covers farAt's bucket
	var got []string
	for {
		ev, ok := s.Next(unit.Never)
		if !ok {
			break
		}
		got = append(got, ev)
	}
	assert.Equal(t, []string{"far", "near"}, got)
}

func TestInt64NIsRandsStream(t *testing.T) {
	a, b := New[int](7), New[int](7)
	for i, n := range []int64{1, 2, 3, 7, 64, 1000, 1 << 40, 1<<63 - 1, 5, 12345} {
		for range 50 {
			require.Equal(t, a.Rand().Int64N(n), b.Int64N(n), "n=%d (%d)", n, i)
			require.Equal(t, a.Rand().IntN(int(n)), b.IntN(int(n)), "IntN n=%d (%d)", n, i)
		}
	}
}

// The event NextRef returns keeps its slot while the events its handling
// schedules take others, and AtRef's event comes out as filled in.
func TestNextRefKeepsItsSlot(t *testing.T) {
	s := New[[2]int64](1)
	*s.AtRef(5) = [2]int64{5, 50}
	var got [][2]int64
	for {
		ev := s.NextRef(unit.Never)
		if ev == nil {
			break
		}
		if ev[0] < 8 {
			for i := range int64(3) {
				*s.AtRef(s.Now() + 1) = [2]int64{ev[0] + 1, i}
			}
		}
		got = append(got, *ev) // after the scheduling: still this event
	}
	require.Len(t, got, 1+3+9+27)
	require.Equal(t, [2]int64{5, 50}, got[0])
	require.Equal(t, [2]int64{6, 0}, got[1])
	require.Equal(t, [2]int64{8, 2}, got[len(got)-1])
	require.Equal(t, uint64(len(got)), s.Events())
}

// sortKeys sorts every size and order it meets, heapsort included.
func TestSortKeys(t *testing.T) {
	r := New[int](3).Rand()
	for _, n := range []int{0, 1, 2, 5, 16, 17, 33, 100, 1000} {
		for _, order := range []string{"random", "ascending", "descending", "organ"} {
			q := make([]key, n)
			for i := range q {
				at := unit.Time(r.IntN(50))
				switch order {
				case "ascending":
					at = unit.Time(i)
				case "descending":
					at = unit.Time(n - i)
				case "organ":
					at = unit.Time(min(i, n-i))
				}
				q[i] = key{at, uint64(i)}
			}
			want := slices.Clone(q)
			slices.SortFunc(want, func(a, b key) int {
				if a.less(b) {
					return -1
				}
				return 1
			})
			h := slices.Clone(q)
			sortKeys(q)
			require.Equal(t, want, q, "n=%d %s", n, order)
			heapKeys(h)
			require.Equal(t, want, h, "heapsort n=%d %s", n, order)
		}
	}
}

// A simulation starts with room for reserved pending events, each in a
// bucket of its own: scheduling them moves neither the slots nor the blocks
// (growing by append would touch fresh pages twice over).
func TestReservedRoom(t *testing.T) {
	s := New[[5]int64](1)
	s.At(0, [5]int64{})
	first, block := &s.slots[0], &s.blocks[0]
	for i := 1; i < reserved; i++ {
		s.At(unit.Time(i)*bucketWidth, [5]int64{int64(i)})
	}
	require.Equal(t, reserved, s.Pending())
	require.Len(t, s.blocks, reserved, "a block a bucket")
	assert.Same(t, first, &s.slots[0], "slots moved")
	assert.Same(t, block, &s.blocks[0], "blocks moved")
	for i := range reserved {
		ev, ok := s.Next(unit.Never)
		require.True(t, ok)
		assert.EqualValues(t, i, ev[0])
	}
}

// A bucket's blocks go back to the spare list once it is sorted, whether it
// had one block or several: a long run uses the same few.
func TestBlocksReused(t *testing.T) {
	for _, per := range []int{2, blockKeys + 2} { // one block a bucket, two
		s := New[int](1)
		for i := range 5000 {
			at := unit.Time(i) * 10 * bucketWidth
			for j := range per {
				s.At(at, j)
			}
			for j := range per {
				ev, ok := s.Next(unit.Never)
				require.True(t, ok)
				require.Equal(t, j, ev)
			}
		}
		assert.LessOrEqual(t, len(s.blocks), 2, "%d events a bucket", per)
	}
}
