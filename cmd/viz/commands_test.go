package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
)

// A page that floods commands between two frames fills the queue only up to
// maxQueued; the rest are dropped, and the next Update says how many, then
// runs what fits. A later command runs as usual.
func TestCommandFloodBounded(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	// About the longest command DecodeCommand takes.
	long := `{"fabriclab":"seek","t_us":1,"pad":"` + strings.Repeat("x", protocol.MaxCommand-40) + `"}`
	require.LessOrEqual(t, len(long), protocol.MaxCommand)
	const sent = 200
	for range sent {
		h.send(long)
	}
	h.queue.mu.Lock()
	held := h.queue.bytes
	h.queue.mu.Unlock()
	assert.LessOrEqual(t, held, maxQueued, "the queue holds at most maxQueued bytes")

	h.events = nil
	require.NoError(t, g.Update())
	errs := 0
	for _, ev := range h.events {
		if ev["fabriclab"] == "error" {
			errs++
			msg, _ := ev["message"].(string)
			fit := maxQueued / (len(long) + 64)
			assert.True(t, strings.HasPrefix(msg, fmt.Sprintf("%d commands dropped: more than 8 MiB", sent-fit)), msg)
		}
	}
	assert.Equal(t, 1, errs, "one error says how many were dropped")
	assert.Equal(t, "time", lastEvent(h, "time")["fabriclab"], "the commands that fit ran")

	h.events = nil
	h.send(`{"fabriclab":"play"}`)
	require.NoError(t, g.Update())
	assert.Equal(t, true, lastEvent(h, "time")["playing"], "a later command runs")
	assert.Nil(t, lastEvent(h, "error"), "nothing more dropped")
}
