package playback

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	simmetrics "fabriclab/sim/metrics"
)

// finishSplit is a remote player's end as cmd/viz takes a worker's report:
// the head decoded, the flows and links as they came (rest, unless replaced).
func finishSplit(t *testing.T, res *simmetrics.Result, p *Player, rest []byte) {
	head, r, err := SplitReport(res)
	require.NoError(t, err)
	var h simmetrics.Result
	require.NoError(t, json.Unmarshal(head, &h))
	if rest == nil {
		rest = r
	}
	p.FinishReport(&h, rest)
}

// A report in two parts: its totals at once, its flows and links once
// Result is asked for, the same as the report written whole; flows and
// links that do not decode stop the run with an error that says so.
func TestReportInTwoParts(t *testing.T) {
	local := newPlayer(t, "incast")
	computeAll(t, local)
	want := local.Result()
	require.NotEmpty(t, want.Links)
	require.NotEmpty(t, want.Flows)

	rec, p := remote(t, "incast")
	for !rec.Compute(time.Minute) {
	}
	require.True(t, p.Done())
	got := p.Result() // finished whole by the wire (remote_test.go): now split
	p2 := *p
	finishSplit(t, got, &p2, nil)
	assert.Equal(t, want.Totals, p2.Report().Totals)
	assert.Nil(t, p2.Report().Links, "not decoded before Result")
	assert.Nil(t, p2.Report().Flows)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(p2.Result())
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(gotJSON), "the report as written whole")
	assert.NoError(t, p2.Err())

	p3 := *p
	finishSplit(t, got, &p3, []byte(`{"flows":[{"id":"x"}]`))
	assert.Equal(t, want.Totals, p3.Report().Totals)
	assert.Nil(t, p3.Result().Flows)
	require.Error(t, p3.Err())
	assert.Contains(t, p3.Err().Error(), "the run's report, its flows and links")
}
