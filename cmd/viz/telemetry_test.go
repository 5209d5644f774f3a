package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stats command reports the timings gathered since the last stats, then
// starts them over.
func TestStatsReportsTelemetryAndStartsOver(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	require.NoError(t, g.Update())
	g.tel.intervals = []float64{4, 1, 3, 2} // as DrawFinalScreen records them
	h.send(`{"fabriclab":"stats"}`)
	require.NoError(t, g.Update())
	st := lastEvent(h, "stats")
	require.NotNil(t, st)
	assert.Equal(t, 4.0, st["frames"])
	assert.Equal(t, 3.0, st["interval_p50_ms"])
	assert.Equal(t, 4.0, st["interval_max_ms"])
	assert.Equal(t, 2.0, st["updates"], "the Updates before the stats command")

	h.send(`{"fabriclab":"stats"}`)
	require.NoError(t, g.Update())
	st = lastEvent(h, "stats")
	assert.Equal(t, 0.0, st["frames"], "started over")
	assert.Equal(t, 1.0, st["updates"], "started over: only the Update since")
}

func TestKeepKeepsTheLastFrames(t *testing.T) {
	var v []float64
	for i := range keptFrames + 5 {
		v = keep(v, float64(i))
	}
	require.Len(t, v, keptFrames)
	assert.Equal(t, 5.0, v[0], "the oldest dropped")
	assert.Equal(t, float64(keptFrames+4), v[len(v)-1])
}
