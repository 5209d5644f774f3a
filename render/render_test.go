package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim/golden"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

func build(tb testing.TB, name string, sets ...string) *topo.Topology {
	tb.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(tb, err)
	p, err := plan.Resolve(&sc)
	require.NoError(tb, err)
	return p.Topology
}

// shapes are the topologies the layout must handle.
var shapes = []struct {
	name, scenario string
	sets           []string
}{
	{"star9", "incast", nil},
	{"star128", "incast", []string{"topology.hosts=128"}},
	{"dgx1", "ring-allreduce-8", nil},
	{"dgx2", "alltoall-moe", nil},
	{"dgx4", "dp-resnet50", nil},
	{"dgx16", "dp-resnet50", []string{"topology.nodes=16"}},
	{"leafspine8x8", "permutation", nil},
	{"leafspine2x64", "ecmp-collisions", nil},
	{"leafspine-gpus", "permutation", []string{"topology.gpus_per_node=8", "topology.leaves=2", "topology.hosts_per_leaf=16", "topology.spines=4"}},
	{"leafspine-rails", "permutation", []string{"topology.gpus_per_node=8", "topology.leaves=8", "topology.hosts_per_leaf=4", "topology.spines=4", "topology.rail_optimized=true"}},
	{"fattree4", "perm-1024", []string{"topology.k=4"}},
	{"fattree8", "perm-1024", []string{"topology.k=8"}},
	{"fattree16", "perm-1024", nil},
}

var canvases = []struct {
	w, h float64
	opt  Options
}{
	{1280, 720, Options{}},
	{1920, 1080, Options{}},
	{1920, 1080, Options{Presenter: true}},
	{1280, 720, Options{Charts: NoCharts}},
	{720, 1280, Options{}}, // portrait: charts below
	{1024, 768, Options{}}, // 4:3 projector
}

func TestLayoutFitsAndDoesNotOverlap(t *testing.T) {
	for _, s := range shapes {
		tp := build(t, s.scenario, s.sets...)
		for _, c := range canvases {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f/%v", s.name, c.w, c.h, c.opt.Presenter), func(t *testing.T) {
				L := NewLayout(tp, c.w, c.h, c.opt)
				var boxes []int
				for id, nb := range L.Nodes {
					if !nb.Shown && nb.Pod >= 0 && L.Pods[nb.Pod].Hosts && nb.W == 0 { // in a group's box, not drawn
						assert.True(t, L.Pods[nb.Pod].Contains(nb.X, nb.Y), "node %s is in its group", tp.Nodes[id].Name)
						continue
					}
					require.Greater(t, nb.W, 0.0, "node %s has no box", tp.Nodes[id].Name)
					r := nb.Rect
					assert.True(t, r.X >= L.Area.X-0.5 && r.Y >= L.Area.Y-0.5 && r.X+r.W <= L.Area.X+L.Area.W+0.5 && r.Y+r.H <= L.Area.Y+L.Area.H+0.5,
						"node %s at %+v is outside the topology area %+v", tp.Nodes[id].Name, r, L.Area)
					boxes = append(boxes, id)
				}
				for i, a := range boxes {
					for _, b := range boxes[i+1:] {
						if L.Nodes[a].Overlaps(L.Nodes[b].Rect) {
							t.Fatalf("%s %+v overlaps %s %+v", tp.Nodes[a].Name, L.Nodes[a].Rect, tp.Nodes[b].Name, L.Nodes[b].Rect)
						}
					}
				}
				for i := range L.Pods {
					for j := i + 1; j < len(L.Pods); j++ {
						assert.False(t, L.Pods[i].Overlaps(L.Pods[j].Rect), "pods %d and %d overlap", i, j)
					}
				}
				for _, ch := range L.Charts {
					assert.False(t, ch.Overlaps(L.Area), "chart %+v overlaps the topology", ch)
					assert.True(t, ch.X >= 0 && ch.Y >= 0 && ch.X+ch.W <= c.w && ch.Y+ch.H <= c.h, "chart %+v off the canvas", ch)
				}
				if c.opt.Charts == NoCharts {
					assert.Empty(t, L.Charts)
				}
			})
		}
	}
}

func TestFatTreeCondensesAbove128Hosts(t *testing.T) {
	small := NewLayout(build(t, "perm-1024", "topology.k=8"), 1280, 720, Options{})
	assert.False(t, small.Condensed, "128 hosts are not condensed into pods")
	for _, p := range small.Pods {
		assert.True(t, p.Hosts, "only hosts too many for their labels are grouped")
	}
	shown := func(L *Layout) (n int) {
		for _, nb := range L.Nodes {
			if nb.Shown {
				n++
			}
		}
		return n
	}
	for _, sz := range [][2]float64{{1280, 720}, {3840, 2160}} {
		big := NewLayout(build(t, "perm-1024"), sz[0], sz[1], Options{})
		assert.Len(t, big.Bundles, 16*8, "each pod reaches each of the 8 core groups")
		for _, b := range big.Bundles {
			assert.Len(t, b.UpIDs, 8)
		}
		if sz[0] > 2000 {
			require.Len(t, big.Pods, 16)
			assert.Equal(t, 64, shown(big), "on a large canvas only the 64 core switches are drawn on their own")
			continue
		}
		// 64 cores in 1,280 px: a box per group of 8 (drawn one by one they
		// were 17 px wide, unnamed, and staggered down into the pods)
		require.Len(t, big.Pods, 16+8)
		assert.Zero(t, shown(big), "no switch on its own")
		assert.Equal(t, "core0–7", big.Pods[16].Label)
		assert.Equal(t, "core56–63", big.Pods[23].Label)
		for _, b := range big.Bundles {
			assert.InDelta(t, big.Pods[16].Y+big.Pods[16].H, b.Up.Y2, 3*big.U, "a bundle reaches its group's box")
		}
	}
}

func TestHitTest(t *testing.T) {
	tp := build(t, "incast")
	L := NewLayout(tp, 1280, 720, Options{})
	for id, nb := range L.Nodes {
		x, y := nb.Center()
		h := HitTest(L, x, y)
		assert.Equal(t, Hover{Kind: HoverNode, ID: id, X: x, Y: y}, h, tp.Nodes[id].Name)
	}
	// the middle of each host's uplink and downlink finds that very direction
	for _, e := range tp.Endpoints {
		for _, l := range []int{tp.Nodes[e].Out[0], tp.Links[tp.Nodes[e].Out[0]].Reverse} {
			ln := L.Links[l]
			x, y := (ln.X1+ln.X2)/2, (ln.Y1+ln.Y2)/2
			h := HitTest(L, x, y)
			assert.Equal(t, HoverLink, h.Kind, tp.LinkName(l))
			assert.Equal(t, l, h.ID, tp.LinkName(l))
		}
	}
	// the switch's egress port to the receiver has a queue bar
	sw := tp.Links[tp.Nodes[tp.Endpoints[8]].Out[0]].Reverse
	q := L.Links[sw].Queue
	require.Greater(t, q.W, 0.0)
	x, y := q.Center()
	assert.Equal(t, Hover{Kind: HoverQueue, ID: sw, X: x, Y: y}, HitTest(L, x, y))
	assert.Equal(t, HoverNone, HitTest(L, L.Area.X+2, L.Area.Y+2).Kind)

	big := NewLayout(build(t, "perm-1024"), 1280, 720, Options{})
	host := big.Topo.Endpoints[100]
	x, y = big.Nodes[host].Center()
	h := HitTest(big, x, y)
	assert.Equal(t, HoverNode, h.Kind)
	assert.Equal(t, host, h.ID, "a host cell of a condensed pod")
	bd := big.Bundles[5]
	x, y = (bd.Up.X1+bd.Up.X2)/2, (bd.Up.Y1+bd.Up.Y2)/2
	assert.Equal(t, HoverBundle, HitTest(big, x, y).Kind)
}

func TestLinkColoursFollowLoad(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{})
	rx := r.topo.Links[r.topo.Nodes[r.topo.Endpoints[8]].Out[0]].Reverse // switch → receiver
	colour := func(dl *DisplayList) Prim {
		ln := L.Links[rx]
		for _, p := range dl.Prims {
			if p.Kind == KindLine && p.Layer == LayerLink && p.X == float32(ln.X1) && p.Y == float32(ln.Y1) {
				return p
			}
		}
		t.Fatal("no line for the receiver's link")
		return Prim{}
	}
	var b Builder
	idle := colour(b.Scene(&Frame{Layout: L, Cur: r.history[0], Prev: r.history[0]}))
	var b2 Builder
	busy := colour(b2.Scene(r.frame(L)))
	assert.Equal(t, assets.Light.Idle, idle.Stroke, "nothing sent yet")
	assert.NotEqual(t, idle.Stroke, busy.Stroke)
	full := assets.Light.Load(1)
	for i, ch := range [][2]uint8{{full.R, busy.Stroke.R}, {full.G, busy.Stroke.G}, {full.B, busy.Stroke.B}} {
		assert.InDelta(t, ch[0], ch[1], 2, "channel %d: the receiver's downlink runs at (just under) line rate", i)
	}
	assert.Greater(t, busy.Width, idle.Width, "busier lines are thicker too")
}

func TestSceneShowsPausesQueuesAndPackets(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	var pauses, queueFills, packets int
	th := assets.Light
	for _, p := range dl.Prims {
		switch {
		case p.Kind == KindCircle && p.Layer == LayerMarker && p.Fill == th.Pause:
			pauses++
		case p.Kind == KindRect && p.Layer == LayerMarker && p.Fill == th.Queue:
			queueFills++
		case p.Kind == KindCircle && p.Layer == LayerPacket:
			packets++
		}
	}
	paused := 0
	for _, l := range r.cur().Links {
		if l.Paused {
			paused++
		}
	}
	require.Positive(t, paused, "PFC pauses the senders in an 8-to-1 incast")
	assert.Equal(t, paused, pauses)
	assert.Equal(t, 1, queueFills, "only the port to the receiver queues")
	assert.Positive(t, packets)
}

func TestTooltips(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{})
	rx := r.topo.Links[r.topo.Nodes[r.topo.Endpoints[8]].Out[0]].Reverse
	texts := func(h Hover) string {
		f := r.frame(L)
		f.Hover = h
		var out string
		for _, p := range Scene(f).Prims {
			if p.Kind == KindText && p.Layer == LayerTooltip {
				out += p.Str + "\n"
			}
		}
		return out
	}
	q := L.Links[rx].Queue
	s := texts(Hover{Kind: HoverQueue, ID: rx, X: q.X, Y: q.Y})
	assert.Contains(t, s, "switch→h8", "the link by the canvas's names of its ends")
	assert.Contains(t, s, "queue ")
	assert.Contains(t, s, "load 100%", "the receiver's link is saturated")
	x, y := L.Nodes[r.topo.Endpoints[0]].Center()
	s = texts(Hover{Kind: HoverNode, ID: r.topo.Endpoints[0], X: x, Y: y})
	assert.Contains(t, s, "endpoint 0 · communicating")
	assert.Contains(t, s, "→ h8: ", "the receiver as the canvas labels it")
	assert.Empty(t, texts(Hover{}))
}

func TestGolden(t *testing.T) {
	cases := []struct {
		file, scenario string
		until          unit.Time
		w, h           float64
		opt            Options
	}{
		{"incast.svg", "incast", 1 * unit.Millisecond, 1280, 720, Options{Title: "incast"}},
		{"leafspine.svg", "permutation", 100 * unit.Microsecond, 1280, 720, Options{Title: "permutation", Dark: true}},
		{"dgx.svg", "ring-allreduce-8", 300 * unit.Microsecond, 1920, 1080, Options{Title: "ring-allreduce-8", Presenter: true}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := play(t, c.scenario, nil, c.until, 12)
			L := NewLayout(r.topo, c.w, c.h, c.opt)
			f := r.frame(L)
			var buf bytes.Buffer
			require.NoError(t, Scene(f).SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", c.file), buf.Bytes(),
				"the picture changed: look at it, then go test ./render -update")
		})
	}
}

func requireWellFormed(t *testing.T, svg []byte) {
	d := xml.NewDecoder(bytes.NewReader(svg))
	texts := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
			texts++
		}
	}
	assert.Positive(t, texts, "text stays text")
}

func TestPNG(t *testing.T) {
	r := play(t, "incast", nil, 500*unit.Microsecond, 5)
	L := NewLayout(r.topo, 640, 360, Options{Dark: true})
	dl := Scene(r.frame(L))
	img := PNG(dl, 1280, 720, 2)
	require.Equal(t, 1280, img.Bounds().Dx())
	bg := assets.Dark.Background
	assert.Equal(t, bg, img.RGBAAt(2, 700), "the background fills the corners")
	// the receiver's link, at its middle, is drawn in a viridis colour
	rx := r.topo.Links[r.topo.Nodes[r.topo.Endpoints[8]].Out[0]].Reverse
	ln := L.Links[rx]
	px := img.RGBAAt(int((ln.X1 + ln.X2)), int((ln.Y1 + ln.Y2)))
	assert.NotEqual(t, bg, px)
	assert.Greater(t, int(px.R)+int(px.G), 300, "a busy link is bright yellow-green: %v", px)
	var buf bytes.Buffer
	require.NoError(t, WritePNG(&buf, dl, 1))
	assert.Equal(t, "\x89PNG", buf.String()[:4])
}

func TestReusedBuilderMatchesFresh(t *testing.T) {
	r := play(t, "permutation", nil, 100*unit.Microsecond, 8)
	L := NewLayout(r.topo, 1280, 720, Options{})
	var b Builder
	for i := 2; i < len(r.history); i++ {
		f := &Frame{Layout: L, Cur: r.history[i], Prev: r.history[i-2], History: r.history[:i+1]}
		got := b.Scene(f)
		want := Scene(f)
		require.Equal(t, len(want.Prims), len(got.Prims))
		assert.Equal(t, want.Prims, got.Prims)
		assert.Equal(t, want.Points, got.Points)
	}
}

func BenchmarkScene128(b *testing.B) {
	r := play(b, "ecmp-collisions", nil, 250*unit.Microsecond, 200)
	L := NewLayout(r.topo, 1280, 720, Options{})
	f := r.frame(L)
	f.Hover = HitTest(L, L.Nodes[r.topo.Endpoints[3]].X+2, L.Nodes[r.topo.Endpoints[3]].Y+2)
	var bl Builder
	bl.Scene(f)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		bl.Scene(f)
	}
	b.ReportMetric(float64(len(L.Topo.Links)), "links")
	b.ReportMetric(float64(len(bl.dl.Prims)), "prims")
}

func BenchmarkLayout128(b *testing.B) {
	tp := build(b, "ecmp-collisions")
	for b.Loop() {
		NewLayout(tp, 1280, 720, Options{})
	}
}

func BenchmarkPNG(b *testing.B) {
	r := play(b, "ecmp-collisions", nil, 250*unit.Microsecond, 20)
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	for b.Loop() {
		PNG(dl, 1280, 720, 1)
	}
}
