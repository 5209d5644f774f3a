package render

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/golden"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// routingCases are the routing views: golden SVGs, and PNGs to look at
// (TestRoutingShots).
var routingCases = []struct {
	name, scenario string
	sets           []string
	until          unit.Time
	selected       func(r *run) int // the Frame's Selected
}{
	{"routing-ecmp-collisions", "ecmp-collisions", nil, 150 * unit.Microsecond, none},
	{"routing-selected", "ecmp-collisions", nil, 150 * unit.Microsecond, func(*run) int { return 1 + 5 }},
	{"routing-perm-1024", "perm-1024", nil, 40 * unit.Microsecond, none},
	{"routing-victim-flow", "victim-flow", nil, 1200 * unit.Microsecond, none},
	{"routing-spray", "permutation", []string{"network.routing=spray"}, 120 * unit.Microsecond, func(*run) int { return 1 + 3 }},
}

func none(*run) int { return 0 }

func TestRoutingGolden(t *testing.T) {
	for _, c := range routingCases {
		t.Run(c.name, func(t *testing.T) {
			r := play(t, c.scenario, c.sets, c.until, 12)
			L := NewLayout(r.topo, 1280, 720, Options{Title: c.scenario})
			f := r.frame(L)
			f.Selected = c.selected(r)
			var buf bytes.Buffer
			require.NoError(t, Scene(f).SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", c.name+".svg"), buf.Bytes(),
				"the picture changed: look at it, then go test ./render -update")
		})
	}
}

// texts is every text of the display list, one a line.
func texts(dl *DisplayList) string {
	var sb strings.Builder
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			sb.WriteString(p.Str + "\n")
		}
	}
	return sb.String()
}

func TestRoutingCountsCollisions(t *testing.T) {
	r := play(t, "ecmp-collisions", nil, 150*unit.Microsecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{})
	var b Builder
	dl := b.Scene(r.frame(L))
	require.True(t, b.rt.perNode, "64 spines in a row leave no room for a badge per uplink")
	// What the badges should say: the flows through each spine, from the paths.
	cur := r.cur()
	through := map[int]int32{}
	var bins [4]int
	for i := range cur.Flows {
		for _, l := range cur.Routing.Routes.Path(i) {
			if r.topo.Nodes[r.topo.Links[l].To].Role == topo.Spine {
				through[r.topo.Links[l].To]++
			}
		}
	}
	leaf0 := r.topo.Links[r.topo.Nodes[r.topo.Endpoints[0]].Out[0]].To
	for _, l := range r.topo.Nodes[leaf0].Out {
		if n := cur.Routing.LinkFlows[l]; r.topo.Nodes[r.topo.Links[l].To].Tier > r.topo.Nodes[leaf0].Tier {
			bins[min(int(n), 3)]++
		}
	}
	assert.Equal(t, 64, bins[0]+bins[1]+bins[2]+bins[3])
	assert.Positive(t, bins[0], "some uplinks carry nothing")
	assert.Positive(t, bins[2]+bins[3], "some carry two or more")
	badges := map[string]int{}
	warm := 0
	for i, p := range dl.Prims {
		if p.Kind == KindRect && p.Layer == LayerMarker && i+1 < len(dl.Prims) && dl.Prims[i+1].Kind == KindText && dl.Prims[i+1].Layer == LayerMarker {
			badges[dl.Prims[i+1].Str]++
			if p.Fill == countTwo || p.Fill == countThree {
				warm++
			}
		}
	}
	want := map[string]int{}
	twoPlus := 0
	for id := range r.topo.Nodes {
		if r.topo.Nodes[id].Role == topo.Spine {
			want[strconv.Itoa(int(through[id]))]++
			if through[id] >= 2 {
				twoPlus++
			}
		}
	}
	assert.Equal(t, want, badges, "a badge per spine with the flows through it")
	assert.Equal(t, twoPlus, warm, "collisions are warm")
	s := texts(dl)
	assert.Contains(t, s, "flows per uplink")
	for k, n := range bins {
		assert.Contains(t, s, "\n"+strconv.Itoa(n)+"\n", "bin %d", k)
	}
}

func TestSelectedFlowPath(t *testing.T) {
	r := play(t, "ecmp-collisions", nil, 150*unit.Microsecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	f := r.frame(L)
	f.Selected = 1 + 5
	var b Builder
	dl := b.Scene(f)
	path := r.cur().Routing.Routes.Path(5)
	hl := 0
	sel := b.selectColor()
	for _, p := range dl.Prims {
		if p.Kind == KindLine && p.Layer == LayerLink && p.Stroke == sel {
			hl++
		}
	}
	assert.Equal(t, len(path), hl, "each link of the path is highlighted")
	spine := r.topo.Nodes[r.topo.Links[path[1]].To].Name
	s := texts(dl)
	assert.Contains(t, s, "flow 5\nh5 → h69\nsending at ") // one name per node: the canvas's
	assert.Contains(t, s, "via leaf0 → "+spine+" → leaf1\n")
	assert.Contains(t, s, " of 16.00 MiB (")
	assert.NotContains(t, s, "reordered", "ECMP keeps a flow on one path")
	assert.NotEqual(t, assets.Dark.Highlight, sel, "a pick is not a hover")

	f.Selected = 0
	for _, p := range Scene(f).Prims {
		assert.False(t, p.Kind == KindLine && p.Stroke == sel, "nothing picked, nothing highlighted")
	}
}

func TestSprayShowsReordering(t *testing.T) {
	r := play(t, "permutation", []string{"network.routing=spray"}, 120*unit.Microsecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{})
	f := r.frame(L)
	f.Selected = 1 + 3
	s := texts(Scene(f))
	assert.Contains(t, s, "· reordered ", "the header has the run's share")
	assert.Regexp(t, `\nreordered \d+ % of packets \(\d+\)\n`, s, "and the inset the picked flow's")
	assert.Regexp(t, `packets spread over \d+ links`, s)
	f.Selected = 0
	s = texts(Scene(f))
	assert.Contains(t, s, "per-packet routing: flows spread", "with no flow picked, the inset has the uplinks'")
	assert.NotContains(t, s, "3+", "no histogram: every flow crosses every spine")
}

func TestNamedFlowIsMarked(t *testing.T) {
	r := play(t, "victim-flow", nil, 1200*unit.Microsecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	assert.Contains(t, texts(dl), "\nvictim\n")
	c := assets.Light.Categorical(flowIndex(&r.cur().Flows[7], 7))
	n := 0
	for _, p := range dl.Prims {
		if p.Kind == KindLine && p.Layer == LayerLink && p.Stroke == c {
			n++
		}
	}
	assert.Equal(t, len(r.cur().Routing.Routes.AppendPath(nil, 7, r.cur().Time)), n, "the victim's links are drawn in its colour")
}

func TestRoutingViewOnlyForTrafficOnFabrics(t *testing.T) {
	for _, name := range []string{"incast", "ring-allreduce-8", "noisy-neighbor"} {
		r := play(t, name, nil, 100*unit.Microsecond, 2)
		L := NewLayout(r.topo, 1280, 720, Options{})
		f := r.frame(L)
		f.Selected = 1
		assert.NotContains(t, texts(Scene(f)), "flows per uplink", name)
		assert.Zero(t, PickFlow(f, HitTest(L, L.Nodes[r.topo.Endpoints[0]].X+1, L.Nodes[r.topo.Endpoints[0]].Y+1)), name)
	}
}

func TestPickAndStepFlows(t *testing.T) {
	r := play(t, "ecmp-collisions", nil, 150*unit.Microsecond, 2)
	L := NewLayout(r.topo, 1280, 720, Options{})
	f := r.frame(L)
	click := func(x, y float64) int { f.Selected = PickFlow(f, HitTest(L, x, y)); return f.Selected }
	x, y := L.Nodes[r.topo.Endpoints[5]].Center()
	assert.Equal(t, 6, click(x, y), "a click on host 5 picks its flow")
	assert.Equal(t, 6, click(x, y), "its only flow: clicking again keeps it")
	x, y = L.Nodes[r.topo.Endpoints[64+9]].Center()
	assert.Equal(t, 10, click(x, y), "a receiver picks the flow to it")
	spine := r.topo.Links[r.cur().Routing.Routes.Path(9)[1]].To
	x, y = L.Nodes[spine].Center()
	var through []int
	for i := range r.cur().Flows {
		for _, l := range r.cur().Routing.Routes.Path(i) {
			if r.topo.Links[l].To == spine {
				through = append(through, i+1)
			}
		}
	}
	require.Contains(t, through, 10)
	seen := []int{}
	for range through {
		seen = append(seen, click(x, y))
	}
	assert.ElementsMatch(t, through, seen, "clicks on a spine cycle through the flows it carries")
	ln := L.Links[r.cur().Routing.Routes.Path(20)[1]]
	assert.Equal(t, 21, click((ln.X1+ln.X2)/2, (ln.Y1+ln.Y2)/2), "a click on a leaf's uplink")
	ch := L.Charts[0]
	assert.Equal(t, 21, click(ch.X+ch.W/2, ch.Y+ch.H/2), "a click on a chart keeps the pick")
	assert.Equal(t, 0, click(L.Area.X+L.Area.W/2, L.Area.Y+L.Area.H*0.45), "empty space clears it")

	assert.Equal(t, 1, StepFlow(f, 0, +1))
	assert.Equal(t, 64, StepFlow(f, 0, -1))
	assert.Equal(t, 1, StepFlow(f, 64, +1))
	assert.Equal(t, 64, StepFlow(f, 1, -1))
	assert.Equal(t, 8, StepFlow(f, 7, +1))
}

func TestSpineBadgeCountsEachFlowOnce(t *testing.T) {
	// victim-flow's leaves have two uplinks to each spine; adaptive routing uses both.
	r := play(t, "victim-flow", nil, 1200*unit.Microsecond, 2)
	L := NewLayout(r.topo, 1280, 720, Options{})
	var b Builder
	dl := b.Scene(r.frame(L))
	require.True(t, b.rt.perNode)
	cur := r.cur()
	for k, id := range b.rt.tops {
		flows := map[int]bool{}
		twice := false
		for i := range cur.Flows {
			n := 0
			for _, l := range cur.Routing.Routes.AppendPath(nil, i, cur.Time) {
				if r.topo.Links[l].To == int(id) {
					n++
				}
			}
			flows[i] = n > 0 && cur.Flows[i].Started && !cur.Flows[i].Done
			twice = twice || n > 1
			if !flows[i] {
				delete(flows, i)
			}
		}
		require.True(t, twice, "some flow reaches %s over both links", r.topo.Nodes[id].Name)
		assert.Equal(t, int32(len(flows)), b.rt.topCount[k], r.topo.Nodes[id].Name)
	}
	assert.Contains(t, texts(dl), "badge: flows into each spine")
}

func TestChartMarksNamedAndPickedFlows(t *testing.T) {
	r := play(t, "victim-flow", nil, 1200*unit.Microsecond, 6)
	L := NewLayout(r.topo, 1280, 720, Options{})
	f := r.frame(L)
	f.Selected = 1 + 2
	var b Builder
	dl := b.Scene(f)
	var labels []string
	picked := 0
	for _, p := range dl.Prims {
		if p.Layer == LayerChart && p.Kind == KindText && (p.Str == "victim" || strings.HasPrefix(p.Str, "flow ")) {
			labels = append(labels, p.Str)
		}
		if p.Layer == LayerChart && p.Kind == KindPolyline && p.Stroke == b.selectColor() {
			picked++
		}
	}
	assert.ElementsMatch(t, []string{"flow 2", "victim"}, labels, "the throughput chart names its lines")
	assert.Equal(t, 1, picked, "the picked flow's line stands out")
}

// At the run's end no flow is on an uplink: no wall of zero badges, and the
// panel says every flow has finished (not "none yet"), in both languages.
func TestRoutingAtTheEnd(t *testing.T) {
	for _, name := range []string{"ecmp-collisions", "perm-1024"} {
		data, ok := scenario.Builtin(name)
		require.True(t, ok)
		r := fitRun(t, string(data))
		for _, lang := range []Lang{EN, ZH} {
			L := NewLayout(r.topo, 1280, 720, Options{Lang: lang})
			var b Builder
			dl := b.Scene(r.frame(L))
			require.True(t, b.routingShown(), name)
			drawn := strings.Split(texts(dl), "\n")
			assert.Contains(t, drawn, i18n.T(lang, "route.all-done"), name)
			assert.NotContains(t, drawn, i18n.T(lang, "route.none"), name)
			for _, p := range dl.Prims {
				assert.False(t, p.Kind == KindText && p.Layer == LayerMarker && p.Str == "0", "%s: a badge of 0 at (%.0f, %.0f)", name, p.X, p.Y)
			}
		}
	}
}
