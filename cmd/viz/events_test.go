package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

func kinds(h *pageHost) []string {
	var out []string
	for _, ev := range h.events {
		out = append(out, ev["fabriclab"].(string))
	}
	return out
}

// Ready comes before anything about the first scenario, an error included.
func TestReadyBeforeLoaded(t *testing.T) {
	_, h := started(t, "?scenario=incast")
	require.GreaterOrEqual(t, len(h.events), 2)
	assert.Equal(t, []string{"ready", "loaded"}, kinds(h)[:2])

	_, h = started(t, "?scenario=nosuch")
	assert.Equal(t, []string{"ready", "error"}, kinds(h)[:2])
}

// Played to its end a run sends done (computed), then ended once, with a
// summary whose counters are the run's; playing again sends ended again.
func TestEndedAndSummary(t *testing.T) {
	g, h := started(t, "?scenario=incast&set=until=20us")
	for i := 0; i < 2000 && !g.p.Done(); i++ {
		require.NoError(t, g.Update())
	}
	require.True(t, g.p.Done())
	assert.NotContains(t, kinds(h), "ended", "computed is not played")
	h.send(`{"fabriclab":"seek","t_us":20}`)
	require.NoError(t, g.Update())
	k := kinds(h)
	assert.Contains(t, k, "done")
	require.Contains(t, k, "ended")
	var ended map[string]any
	for _, ev := range h.events {
		if ev["fabriclab"] == "ended" {
			ended = ev
		}
	}
	assert.InDelta(t, 20, ended["t_us"], 1e-9)
	tot := g.p.Result().Totals
	assert.Contains(t, ended["summary"], "incast: 8 senders to 1, t = 20 µs")
	assert.Contains(t, ended["summary"], "0 of 8 flows done")
	assert.Contains(t, ended["summary"], "finished")
	if tot.PauseFrames > 0 {
		assert.Contains(t, ended["summary"], strconv.FormatInt(tot.PauseFrames, 10)+" pause frames")
	}
	require.NoError(t, g.Update())
	n := count(h, "ended")
	assert.Equal(t, 1, n, "ended once at the end")
	h.send(`{"fabriclab":"reset"}`)
	require.NoError(t, g.Update())
	h.send(`{"fabriclab":"seek","t_us":20}`)
	require.NoError(t, g.Update())
	assert.Equal(t, 2, count(h, "ended"), "back at the end: ended again")
}

// Time events keep a 100 ms cadence even when ticks come late.
func TestTimeCadence(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.events = nil
	start := time.Now()
	g.page.nextTime = start
	for i := range 59 { // a second of 17 ms ticks, [0, 1 s)
		g.events(start.Add(time.Duration(i) * 17 * time.Millisecond))
	}
	assert.Equal(t, 10, count(h, "time"), "ten a second at 60 ticks a second")
}

func count(h *pageHost, kind string) int {
	n := 0
	for _, ev := range h.events {
		if ev["fabriclab"] == kind {
			n++
		}
	}
	return n
}

// The summary's opening says what runs.
func TestSummaryNamesWhatRuns(t *testing.T) {
	for name, want := range map[string]string{
		"incast":           "incast: 8 senders to 1",
		"victim-flow":      "victim-flow: 8 flows",
		"perm-1024":        "perm-1024: permutation",
		"noisy-neighbor":   "noisy-neighbor: allreduce (ring) on 8 ranks beside ",
		"ring-allreduce-8": "ring-allreduce-8: allreduce (ring)",
		"dp-resnet50":      "dp-resnet50: resnet50 training",
	} {
		sc, err := scenario.Load(name, nil, nil)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(what(&sc, i18n.EN), want), "%s: %q", name, what(&sc, i18n.EN))
	}
}

// The summary names the marks as the congestion control that made them:
// InfiniBand's FECN marks, DCQCN's ECN marks.
func TestSummaryNamesTheMarks(t *testing.T) {
	for name, want := range map[string]string{"incast-ibcc": " FECN marks", "incast-dcqcn": " ECN marks"} {
		g, h := started(t, "?scenario="+name+"&set=until=300us")
		for i := 0; i < 5000 && !g.p.Done(); i++ {
			require.NoError(t, g.Update())
		}
		require.True(t, g.p.Done(), name)
		h.send(`{"fabriclab":"seek","t_us":300}`)
		require.NoError(t, g.Update())
		var summary string
		for _, ev := range h.events {
			if ev["fabriclab"] == "ended" {
				summary = ev["summary"].(string)
			}
		}
		assert.Contains(t, summary, want, name)
		if want == " ECN marks" {
			assert.NotContains(t, summary, "FECN", name)
		}
	}
}

// On a Chinese page the summary is Chinese.
func TestSummaryInThePagesLanguage(t *testing.T) {
	sc, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	s := &snap.Snapshot{Flows: make([]snap.Flow, 8), Links: []snap.Link{{Drops: 3}}}
	assert.Equal(t, "incast：8 个发送方发往 1 个接收方，t = 20 µs，0 / 8 个流已完成，丢包 3 次", summarize(&sc, s, 20*unit.Microsecond, i18n.ZH))
	assert.Equal(t, "incast: 8 senders to 1, t = 20 µs, 0 of 8 flows done, 3 drops", summarize(&sc, s, 20*unit.Microsecond, i18n.EN))
}
