package playback

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	simmetrics "fabriclab/sim/metrics"
)

// A report in two parts: its totals once the run is done, its flows and
// links once they have come and Result is asked for, the same as the
// report written whole; flows and links that do not decode stop the run
// with an error that says so.
func TestReportInTwoParts(t *testing.T) {
	local := newPlayer(t, "incast")
	computeAll(t, local)
	want := local.Result()
	require.NotEmpty(t, want.Links)
	require.NotEmpty(t, want.Flows)
	head, err := ReportHead(want)
	require.NoError(t, err)
	rest, err := ReportRest(want)
	require.NoError(t, err)

	rec, p := remote(t, "incast")
	for !rec.Compute(time.Minute) {
	}
	require.True(t, p.Done())
	for _, c := range []struct {
		name string
		rest []byte
		err  string
	}{{"whole", rest, ""}, {"cut", []byte(`{"flows":[{"id":"x"}]`), "the run's report, its flows and links"}} {
		q := *p // finished whole by the wire (remote_test.go): now in two parts
		var h simmetrics.Result
		require.NoError(t, json.Unmarshal(head, &h))
		q.FinishHead(&h)
		assert.True(t, q.Done(), c.name)
		assert.Equal(t, want.Totals, q.Report().Totals, c.name)
		assert.Nil(t, q.Report().Links, c.name)
		assert.Nil(t, q.Result(), "%s: no result before its flows and links", c.name)
		q.TakeRest(c.rest)
		assert.Nil(t, q.Report().Flows, "%s: not decoded before Result", c.name)
		got := q.Result()
		require.NotNil(t, got, c.name)
		if c.err != "" {
			require.Error(t, q.Err(), c.name)
			assert.Contains(t, q.Err().Error(), c.err)
			continue
		}
		require.NoError(t, q.Err())
		wantJSON, err := json.Marshal(want)
		require.NoError(t, err)
		gotJSON, err := json.Marshal(got)
		require.NoError(t, err)
		assert.JSONEq(t, string(wantJSON), string(gotJSON), "the report as written whole")
	}
}
