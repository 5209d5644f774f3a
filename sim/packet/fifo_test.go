package packet

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// pkt.set copies every field: one added to pkt and not to set fails here.
func TestPktSetCopiesEveryField(t *testing.T) {
	var x pkt
	v := reflect.ValueOf(&x).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem() // unexported
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint8:
			f.SetUint(uint64(i + 1))
		default:
			f.SetInt(int64(i + 1))
		}
	}
	var y pkt
	y.set(&x)
	require.Equal(t, x, y)
}

// A fifo keeps its packets in order across chunks, whatever the mix of adds
// and drops, and gives its chunks back but one: after a burst has drained,
// another queue's burst of the same size takes no new chunk.
func TestFifoChunks(t *testing.T) {
	var pool chunks
	var a, b fifo
	var want []int32
	next, peak := int32(0), 0
	count := func() int { // chunks on the free list
		n := 0
		for k := pool.free; k != nil; k = k.next {
			n++
		}
		return n
	}
	rng := uint32(1)
	for step := range 20000 {
		rng = rng*1664525 + 1013904223
		if len(want) == 0 || rng>>28 < 9 { // add more often than drop: the queue grows past several chunks
			a.add(&pool, &pkt{seq: next, flow: next % 7})
			want = append(want, next)
			next++
			peak = max(peak, len(want))
		} else {
			require.Equal(t, want[0], a.front().seq, "step %d", step)
			require.Equal(t, want[0]%7, a.front().flow, "step %d", step)
			a.drop(&pool)
			want = want[1:]
		}
		require.Equal(t, len(want), a.len())
	}
	require.Greater(t, len(want), 3*chunkPkts, "the test's queue spans several chunks")
	for len(want) > 0 {
		require.Equal(t, want[0], a.front().seq)
		a.drop(&pool)
		want = want[1:]
	}
	require.Zero(t, a.len())
	require.NotNil(t, a.head, "a drained queue keeps a chunk")
	require.Same(t, a.head, a.tail)
	free := count()
	require.GreaterOrEqual(t, free, (peak+chunkPkts-1)/chunkPkts-1, "a drained queue gives every other chunk back")
	a.add(&pool, &pkt{seq: 1})
	require.Equal(t, free, count(), "the kept chunk takes the next packet")
	require.Equal(t, int32(1), a.front().seq)
	for i := range free * chunkPkts {
		b.add(&pool, &pkt{seq: int32(i)})
	}
	require.Zero(t, count(), "the second burst reuses every chunk")
}
