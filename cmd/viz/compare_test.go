package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/render"
	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
)

func lastEvent(h *pageHost, kind string) map[string]any {
	for i := len(h.events) - 1; i >= 0; i-- {
		if h.events[i]["fabriclab"] == kind {
			return h.events[i]
		}
	}
	return nil
}

// A comparison computes both sides, plays them on one clock and tells the
// page each side's totals, the same as a native run's, and the difference.
func TestCompareGame(t *testing.T) {
	const sets = "&left.set=topology.hosts=3&left.set=traffic.senders=2&left.set=traffic.bytes=256KiB" +
		"&right.set=topology.hosts=3&right.set=traffic.senders=1&right.set=traffic.bytes=256KiB"
	g, h := started(t, "?compare=1&left=incast&left.label=Two&right=incast"+sets)
	require.NotNil(t, g.cmp, "compare=1 plays a comparison")
	loaded := lastEvent(h, "loaded")
	require.NotNil(t, loaded)
	assert.Equal(t, "Two vs incast", loaded["name"], "a side without a label is named by its scenario")
	for i := 0; lastEvent(h, "done") == nil; i++ {
		require.Less(t, i, 500, "both sides are computed")
		require.NoError(t, g.Update())
	}
	done := lastEvent(h, "done")
	for side, senders := range map[string]string{"left": "2", "right": "1"} {
		sc, err := scenario.Load("incast", nil, []string{"topology.hosts=3", "traffic.senders=" + senders, "traffic.bytes=256KiB"})
		require.NoError(t, err)
		r, err := sim.Run(sc)
		require.NoError(t, err)
		got := done[side].(map[string]any)
		assert.Equal(t, r.Totals.SimTimeUs, got["sim_time_us"], side)
		assert.Equal(t, r.Totals.MaxFctUs, got["max_fct_us"], side)
	}
	assert.Contains(t, done["difference"], "incast finished", "the one-sender side finishes first")
	summary := lastEvent(h, "summary")
	require.NotNil(t, summary)
	assert.Contains(t, summary["text"], "Two: incast: 2 senders to 1", "a label, then what runs")
	assert.Contains(t, summary["text"], ". incast: 1 sender to 1", "a side named by its scenario says the name once")
	assert.NotContains(t, summary["text"], "incast: incast")

	// Both panes at the shared time, under the strip.
	h.send(`{"fabriclab":"seek","t_us":5}`)
	require.NoError(t, g.Update())
	c := g.cmp
	for i := range c.panes {
		f := c.panes[i].frame
		require.NotNil(t, f.Cur)
		assert.InDelta(t, 5, f.Cur.Time.Micros(), 0.2, "pane %d shows t = 5 µs", i)
		assert.Equal(t, 400.0, f.Layout.W, "each pane is half the 800 px canvas")
		assert.Equal(t, [2]string{"Two", "incast"}[i], f.Layout.Opt.Title, "pane %d is titled with its side's label", i)
	}
	assert.Equal(t, float64(render.CompareStrip), c.split.Panes[0].Y)
	assert.Equal(t, "t = 5 µs", c.stripLeft())
	assert.Equal(t, done["difference"], c.stripRight())
	h.send(`{"fabriclab":"seek","t_us":1000}`)
	require.NoError(t, g.Update())
	assert.True(t, c.panes[1].frame.Cur.Done, "the side that has ended shows its last frame")
	assert.Equal(t, c.pair.End(), c.pair.Pos())

	// Playback commands move both; a one-scenario load leaves compare mode.
	h.send(`{"fabriclab":"reset"}`)
	h.send(`{"fabriclab":"step"}`)
	require.NoError(t, g.Update())
	assert.Positive(t, c.pair.Pos())
	assert.Equal(t, c.pair.Pos(), c.pair.Sides[0].Pos())
	h.send(`{"fabriclab":"load","scenario":"incast"}`)
	require.NoError(t, g.Update())
	assert.Nil(t, g.cmp)
	require.NotNil(t, g.p)
	h.send(`{"fabriclab":"load","left":{"scenario":"incast","label":"A"},"right":{"scenario":"incast-dcqcn","label":"B"}}`)
	require.NoError(t, g.Update())
	require.NotNil(t, g.cmp)
	assert.Nil(t, g.p)
	assert.Equal(t, [2]string{"A", "B"}, g.cmp.labels)
}

// A Chinese page's comparison summary ends its sentences, and puts its
// labels, the Chinese way.
func TestCompareSummaryInChinese(t *testing.T) {
	g, h := started(t, "?compare=1&lang=zh&left=incast&left.label=PFC&right=incast&left.set=topology.hosts=3&left.set=traffic.senders=2&left.set=traffic.bytes=256KiB"+
		"&right.set=topology.hosts=3&right.set=traffic.senders=1&right.set=traffic.bytes=256KiB")
	for i := 0; lastEvent(h, "done") == nil; i++ {
		require.Less(t, i, 500, "both sides are computed")
		require.NoError(t, g.Update())
	}
	text, _ := lastEvent(h, "summary")["text"].(string)
	assert.Contains(t, text, "PFC：incast：2 个发送方", "a label, then what runs")
	assert.Contains(t, text, "个流已完成。incast：1 个发送方", "a side's sentence, then the next")
	assert.NotContains(t, text, ". ")
	assert.NotContains(t, text, ": ", "a label's colon too")
	assert.True(t, strings.HasSuffix(text, "。"), "%q", text)
}

func TestCompareErrorNamesTheSide(t *testing.T) {
	_, h := started(t, "?compare=1&left=incast&right=incast&right.set=traffic.senders=0")
	ev := lastEvent(h, "error")
	require.NotNil(t, ev)
	assert.Contains(t, ev["message"], "right side: ")
}

// A click in a pane picks a flow there, as on one run's canvas; the other
// side picks the same flow (the same endpoints), so both show its path; ]
// steps both. The stats event sums both sides' computing.
func TestComparePickAndStats(t *testing.T) {
	const sets = "&left.set=topology.leaves=2&left.set=topology.hosts_per_leaf=4&left.set=topology.spines=4&left.set=traffic.bytes=256KiB" +
		"&right.set=topology.leaves=2&right.set=topology.hosts_per_leaf=4&right.set=topology.spines=4&right.set=traffic.bytes=256KiB&right.set=network.routing=adaptive"
	g, h := started(t, "?compare=1&left=permutation&right=permutation"+sets)
	require.NotNil(t, g.cmp)
	for i := 0; !g.cmp.pair.Done(); i++ {
		require.Less(t, i, 500, "both sides are computed")
		require.NoError(t, g.Update())
	}
	h.send(`{"fabriclab":"seek","t_us":3}`)
	require.NoError(t, g.Update())
	c := g.cmp
	r, pn := c.split.Panes[1], &c.panes[1]
	host := pn.layout.Nodes[pn.layout.Topo.Endpoints[2]]
	x, y := host.Center()
	h.send(fmt.Sprintf(`{"fabriclab":"tap","x":%g,"y":%g}`, r.X+x, r.Y+y))
	require.NoError(t, g.Update())
	sel := c.panes[1].selected
	require.Positive(t, sel, "a click on a host of the right pane picks a flow")
	f := c.panes[1].frame.Cur.Flows[sel-1]
	assert.True(t, f.Src == 2 || f.Dst == 2, "one that starts or ends there")
	assert.Equal(t, sel, c.panes[1].frame.Selected, "the right pane shows its path")
	assert.Equal(t, sel, c.panes[0].frame.Selected, "the left pane shows the same flow's")
	assert.Equal(t, sel, g.key.cmp.selected[0], "the picture is redrawn")
	h.send(`{"fabriclab":"nextflow"}`)
	require.NoError(t, g.Update())
	assert.Equal(t, sel%len(f0(c))+1, c.panes[1].selected, "] steps the side picked last")
	assert.Equal(t, c.panes[1].selected, c.panes[0].selected)
	// A click on the left pane's empty space drops the pick there (and so on the right).
	l := c.panes[0].layout
	h.send(fmt.Sprintf(`{"fabriclab":"tap","x":%g,"y":%g}`, l.Area.X+2, l.Area.Y+l.Area.H/2+3))
	require.NoError(t, g.Update())
	assert.Zero(t, c.panes[0].selected)
	assert.Zero(t, c.panes[1].selected)

	h.send(`{"fabriclab":"stats"}`)
	require.NoError(t, g.Update())
	st := lastEvent(h, "stats")
	require.NotNil(t, st)
	sum := c.pair.Sides[0].ComputeTime() + c.pair.Sides[1].ComputeTime()
	assert.Positive(t, st["compute_s"])
	assert.InDelta(t, sum.Seconds(), st["compute_s"], 1e-9, "compute_s sums both sides")
	assert.Positive(t, st["frame_bytes"])
}

func f0(c *comparison) []snap.Flow { return c.panes[1].frame.Cur.Flows }

// Both panes' charts share their scales: each pane's axes reach the other's
// peaks, as they stand after both scenes are built.
func TestCompareSharesAxes(t *testing.T) {
	const sets = "&left.set=topology.hosts=5&left.set=traffic.senders=4&left.set=traffic.bytes=256KiB" +
		"&right.set=topology.hosts=3&right.set=traffic.senders=1&right.set=traffic.bytes=256KiB"
	g, h := started(t, "?compare=1&left=incast&right=incast"+sets)
	for i := 0; lastEvent(h, "done") == nil; i++ {
		require.Less(t, i, 500)
		require.NoError(t, g.Update())
	}
	c := g.cmp
	for _, us := range []string{"15", "40", "10"} { // forward, then back (the peaks start again)
		h.send(`{"fabriclab":"seek","t_us":` + us + `}`)
		require.NoError(t, g.Update())
		g.compareScene()
		l, r := &c.panes[0], &c.panes[1]
		assert.Equal(t, r.builder.Peaks(), l.axes, "t=%s: the left reaches the right's peaks", us)
		assert.Equal(t, l.builder.Peaks(), r.axes, "t=%s: the right reaches the left's", us)
		assert.Same(t, &l.axes, l.frame.Axes)
		assert.Positive(t, l.builder.Peaks()[0], "t=%s: four senders send", us) // the pane's one chart: throughput
	}
}

// A comparison's view (the page's "Canvas as a table") holds both runs,
// each named by its pane's label, once both panes are drawn.
func TestCompareView(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	draw(g)
	require.NoError(t, g.Update())
	require.NotEmpty(t, eventsNamed(h, "view"), "the run before the comparison sent its view")
	h.send(`{"fabriclab":"load","left":{"scenario":"incast","label":"PFC only"},"right":{"scenario":"incast-dcqcn","label":"DCQCN"}}`)
	require.NoError(t, g.Update())
	require.NotNil(t, g.cmp)
	for i := 0; lastEvent(h, "done") == nil; i++ {
		require.Less(t, i, 2000, "both sides are computed")
		require.NoError(t, g.Update())
	}
	g.compareScene()
	require.NoError(t, g.Update())
	v := lastEvent(h, "view")
	require.NotNil(t, v, "a view once both panes are drawn")
	sides, ok := v["sides"].([]any)
	require.True(t, ok, "the view has sides: %v", v)
	require.Len(t, sides, 2)
	for i, label := range []string{"PFC only", "DCQCN"} {
		s := sides[i].(map[string]any)
		assert.Equal(t, label, s["label"])
		assert.NotEmpty(t, s["links"], "side %d lists its links", i)
		assert.NotEmpty(t, s["nodes"], "side %d lists its nodes", i)
	}
	assert.Empty(t, v["links"], "the lists are the sides'")
}

// While a lesson's quiz waits for its answer (the quiz command), the strip
// keeps the difference back: on incast#cost it said which side finished
// sooner above the question that asks it. Answered, the difference shows.
func TestCompareStripHoldsTheDifferenceForAQuiz(t *testing.T) {
	const sets = "&left.set=traffic.bytes=256KiB&right.set=traffic.bytes=256KiB&right.set=traffic.senders=2"
	g, h := started(t, "?compare=1&left=incast&right=incast"+sets)
	h.send(`{"fabriclab":"quiz","pending":true}`)
	for i := 0; lastEvent(h, "done") == nil; i++ {
		require.Less(t, i, 500, "both sides are computed")
		require.NoError(t, g.Update())
	}
	require.NoError(t, g.Update())
	diff := g.cmp.diff
	require.NotEmpty(t, diff)
	assert.Equal(t, "both computed · the difference shows once the quiz is answered", g.cmp.stripRight())
	held := g.key
	h.send(`{"fabriclab":"quiz","pending":false}`)
	require.NoError(t, g.Update())
	assert.Equal(t, diff, g.cmp.stripRight(), "answered: the difference")
	assert.NotEqual(t, held, g.key, "the strip is drawn again")
}
