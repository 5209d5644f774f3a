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
