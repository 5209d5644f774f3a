package snap

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFlowActivity(t *testing.T) {
	s := &Snapshot{Flows: []Flow{
		{Src: 0, Dst: 1, Started: true},             // on the way
		{Src: 2, Dst: 3, Started: true, Done: true}, // finished
		{Src: 4, Dst: 5},                            // not started yet
		{Src: 1, Dst: 9, Started: true},             // an end outside the n asked for
	}}
	assert.Equal(t, []Activity{Communicating, Communicating, Idle, Idle, Idle, Idle}, s.FlowActivity(6))
	assert.Equal(t, "computing", Computing.String())
}

// RecordChunks makes Compact's chunks, sharing the same ones, and trusts
// same without reading the chunks it names.
func TestRecordChunks(t *testing.T) {
	flows := func(n, bump int) []Flow {
		out := make([]Flow, n)
		for i := range out {
			out[i] = Flow{Src: i, Bytes: int64(i)}
		}
		if bump >= 0 {
			out[bump].Delivered = 1
		}
		return out
	}
	prev := (&Snapshot{Flows: flows(600, -1)}).Compact(nil)
	now := flows(700, 300) // chunk 1 changed, chunk 2 grew
	want := (&Snapshot{Flows: now}).Compact(prev).FlowChunks
	fill := func(part []Flow, first int) { copy(part, now[first:]) }
	got := RecordChunks(len(now), prev.FlowChunks, nil, fill)
	assert.Equal(t, want, got)
	assert.Equal(t, cap(want), cap(got))
	for k, ch := range got {
		shared := &ch[0] == &prev.FlowChunks[k][0]
		assert.Equal(t, &want[k][0] == &prev.FlowChunks[k][0], shared, "chunk %d", k)
		assert.Equal(t, len(ch), cap(ch), "chunk %d", k)
	}
	assert.False(t, &got[1][0] == &prev.FlowChunks[1][0], "the changed chunk is new")

	filled := []int{}
	trusted := RecordChunks(len(now), prev.FlowChunks, func(k int) bool { return k == 1 }, func(part []Flow, first int) {
		filled = append(filled, first)
		fill(part, first)
	})
	assert.Equal(t, []int{0, 512}, filled, "a chunk same names is not read, nor one that grew trusted")
	assert.Same(t, &prev.FlowChunks[1][0], &trusted[1][0])
}
