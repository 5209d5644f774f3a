package render

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/protocol"
	"fabriclab/sim/unit"
)

// linkID finds the link a view row names.
func linkID(t *testing.T, L *Layout, from, to string) int {
	t.Helper()
	for id := range L.Topo.Links {
		l := &L.Topo.Links[id]
		if nodeName(L, l.From) == from && nodeName(L, l.To) == to {
			return id
		}
	}
	require.Failf(t, "no such link", "%s→%s", from, to)
	return -1
}

// The view's figures are the scene's: each link's load is what its tooltip
// says, its queue the snapshot's, the busiest first; each chart's title and
// line names are words the scene drew, its last row the time shown.
func TestViewIsWhatTheSceneDraws(t *testing.T) {
	r := play(t, "incast", nil, 60*unit.Microsecond, 30)
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Title: "incast", Lang: lang})
		var b Builder
		dl := b.Scene(r.frame(L))
		drawn := strings.Split(texts(dl), "\n")
		v := b.View()
		require.NotNil(t, v)
		assert.Equal(t, r.cur().Time.Micros(), v.TUs)
		require.Len(t, v.Nodes, len(r.topo.Nodes))
		h8 := v.Nodes[r.topo.Endpoints[8]]
		assert.Equal(t, i18n.T(lang, "role.host"), h8.Kind)
		assert.Equal(t, i18n.Tf(lang, "node.host.abbr", 8), h8.Name)
		assert.Contains(t, drawn, h8.Name, "a node's name is its label")
		sw := v.Nodes[r.topo.Links[r.topo.Nodes[r.topo.Endpoints[8]].Out[0]].To]
		assert.Equal(t, i18n.T(lang, "node.switch"), sw.Name, "the switch's name in the canvas's language")
		assert.Contains(t, drawn, sw.Name, "the switch's name is its label")

		require.NotEmpty(t, v.Links)
		assert.Equal(t, len(r.topo.Links)-len(v.Links), v.MoreLinks)
		assert.Equal(t, i18n.Tf(lang, "node.host.abbr", 8), v.Links[0].To, "incast's busiest link is the one into the receiver")
		assert.Equal(t, 100, v.Links[0].LoadPct)
		for i, l := range v.Links {
			if i > 0 {
				assert.LessOrEqual(t, l.LoadPct, v.Links[i-1].LoadPct, "busiest first")
			}
			id := linkID(t, L, l.From, l.To)
			assert.Equal(t, int(b.util[id]*100+0.5), l.LoadPct, "the load its colour shows")
			assert.Equal(t, r.cur().Links[id].QueueBytes, l.QueueBytes, "%s→%s", l.From, l.To)
			assert.Equal(t, r.cur().Links[id].Paused, l.Paused, "%s→%s", l.From, l.To)
			if i < 3 { // what its tooltip draws
				f := r.frame(L)
				x := (L.Links[id].X1 + L.Links[id].X2) / 2
				f.Hover = Hover{Kind: HoverLink, ID: id, X: x, Y: (L.Links[id].Y1 + L.Links[id].Y2) / 2}
				var tb Builder
				tip := texts(tb.Scene(f))
				u := b.util[id]
				assert.Contains(t, tip, i18n.Tf(lang, "tip.load", fmtPct(u), fmtRate(u*float64(r.topo.Links[id].Rate))), "%s→%s", l.From, l.To)
				tipText, ok := tb.Tooltip(f.Hover)
				assert.True(t, ok)
				assert.Contains(t, tipText, l.From+"→"+l.To)
				_, ok = tb.Tooltip(Hover{Kind: HoverNode})
				assert.False(t, ok, "not the hover drawn")
			}
		}

		require.Len(t, v.Flows, 8)
		for i, fl := range v.Flows {
			if i > 0 && !fl.Done && !v.Flows[i-1].Done {
				assert.LessOrEqual(t, fl.RateGbps, v.Flows[i-1].RateGbps, "busiest first")
			}
			assert.True(t, strings.HasSuffix(fl.Name, "→h8") || strings.HasSuffix(fl.Name, "→8号"), fl.Name)
		}

		require.NotEmpty(t, v.Charts)
		tp := v.Charts[0]
		assert.Equal(t, i18n.T(lang, "chart.throughput.flow"), tp.Title)
		assert.Len(t, tp.Columns, 9, "the time, and a line per flow")
		for _, name := range tp.Columns[1:3] {
			assert.Contains(t, drawn, name, "the chart's key names its lines")
		}
		require.NotEmpty(t, tp.Rows)
		assert.LessOrEqual(t, len(tp.Rows), viewRows)
		assert.Equal(t, fmtMicros(r.cur().Time.Micros()), tp.Rows[len(tp.Rows)-1][0], "the last row is the time shown")
		// The readout at the first line's last point says the last row's value.
		ln := b.ch.lines[0]
		last := ln.p0 + 2*(ln.n-1)
		f := r.frame(L)
		f.Hover = Hover{Kind: HoverChart, ID: 0, X: float64(dl.Points[last]), Y: float64(dl.Points[last+1])}
		var rb Builder
		assert.Contains(t, texts(rb.Scene(f)), tp.Columns[1]+": "+tp.Rows[len(tp.Rows)-1][1]+"\n")
		for _, c := range v.Charts {
			assert.NotEmpty(t, c.Title)
			assert.True(t, slices.ContainsFunc(drawn, func(s string) bool { return strings.HasPrefix(c.Title, strings.TrimSuffix(s, "…")) }),
				"the scene drew the title %q", c.Title)
		}
	}
}

// Big runs stay small on the wire: the lists are capped, the rest counted.
func TestViewIsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("the full suite (make test) runs it")
	}
	for _, c := range []struct {
		name string
		sets []string
	}{
		{"perm-1024", nil},
		{"hierarchical-allreduce", []string{"topology.nodes=1024"}},
	} {
		r := play(t, c.name, c.sets, 4*unit.Microsecond, 2)
		L := NewLayout(r.topo, 1280, 720, Options{Title: c.name})
		var b Builder
		b.Scene(r.frame(L))
		v := b.View()
		require.NotNil(t, v, c.name)
		data, err := protocol.EncodeEvent(*v)
		require.NoError(t, err)
		assert.Less(t, len(data), 24<<10, "%s: %d bytes", c.name, len(data))
		assert.Len(t, v.Links, viewLinks, c.name)
		assert.Len(t, v.Nodes, viewNodes, c.name)
		assert.Equal(t, len(r.topo.Links), len(v.Links)+v.MoreLinks, c.name)
		assert.Equal(t, len(r.topo.Nodes), len(v.Nodes)+v.MoreNodes, c.name)
		assert.Equal(t, len(r.cur().Flows), len(v.Flows)+v.MoreFlows, c.name)
		t.Logf("%s: %d bytes, %d nodes, %d links, %d flows", c.name, len(data), len(r.topo.Nodes), len(r.topo.Links), len(r.cur().Flows))
	}
}

// The keyboard's highlight visits every node and link shown, and wraps.
func TestInspectable(t *testing.T) {
	r := play(t, "incast", nil, 10*unit.Microsecond, 2)
	L := NewLayout(r.topo, 1280, 720, Options{})
	items := Inspectable(L)
	require.Len(t, items, len(r.topo.Nodes)+len(r.topo.Links))
	first := NextInspected(L, Hover{}, 1)
	assert.Equal(t, items[0], first)
	assert.Equal(t, items[len(items)-1], NextInspected(L, Hover{}, -1))
	assert.Equal(t, items[1], NextInspected(L, first, 1))
	assert.Equal(t, first, NextInspected(L, items[len(items)-1], 1), "wraps")
	for _, h := range items {
		assert.Equal(t, h.Kind, HitTest(L, h.X, h.Y).Kind, "the highlight is where the mouse would show the same kind")
	}
}

func TestViewBeforeAScene(t *testing.T) {
	var b Builder
	assert.Nil(t, b.View())
	_, ok := b.Tooltip(Hover{Kind: HoverNode})
	assert.False(t, ok)
	_, err := json.Marshal(protocol.View{})
	require.NoError(t, err)
}

// A down or degraded link heads the view's links with its state (as its
// tooltip says it), though it carries less than the busiest.
func TestViewListsFaultedLinksFirst(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want func(Lang) string
	}{
		{nil, func(l Lang) string { return i18n.T(l, "tip.link.down") }},
		{[]string{"faults=[{kind: link_degraded, link: leaf0->spine0, gbps: 100, at: 20us}]"},
			func(l Lang) string { return i18n.Tf(l, "tip.link.degraded", fmtRate(100e9)) }},
	} {
		r := play(t, "link-down", tc.sets, 100*unit.Microsecond, 10)
		for _, lang := range []Lang{EN, ZH} {
			L := NewLayout(r.topo, 1280, 720, Options{Title: "link-down", Lang: lang})
			var b Builder
			b.Scene(r.frame(L))
			v := b.View()
			require.NotNil(t, v)
			require.GreaterOrEqual(t, len(v.Links), 3)
			names := []string{v.Links[0].From + "→" + v.Links[0].To, v.Links[1].From + "→" + v.Links[1].To}
			assert.ElementsMatch(t, []string{"leaf0→spine0", "spine0→leaf0"}, names, "%v: both directions of the cable first", tc.sets)
			assert.Equal(t, tc.want(lang), v.Links[0].State)
			assert.Equal(t, tc.want(lang), v.Links[1].State)
			assert.Empty(t, v.Links[2].State, "a link that runs as built")
			assert.Less(t, v.Links[0].LoadPct, v.Links[2].LoadPct, "first though less busy")
		}
	}
}
