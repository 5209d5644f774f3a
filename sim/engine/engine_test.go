package engine

import (
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
