package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim"
	"fabriclab/sim/golden"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// trainViews are the training scenes with a golden SVG each; until 0 plays
// the run to its end.
var trainViews = []struct {
	file, scenario string
	sets           []string
	until          unit.Time
}{
	// in the backward pass, the first buckets on the wire
	{"training-resnet50-backward", "dp-resnet50", nil, 14200 * unit.Microsecond},
	{"training-resnet50-end", "dp-resnet50", nil, 0},
	{"training-fsdp", "dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=fsdp", "training.iterations=2"}, 60 * unit.Millisecond},
	{"training-tp", "dp-resnet50", []string{"sim.fidelity=flow", "training.model=gpt2-1.5b", "training.tp=4", "training.batch=2048"}, 45 * unit.Millisecond},
	{"training-llama-1024", "dp-llama3-8b-1024", nil, 500 * unit.Millisecond},
	{"training-pp", "pp-gpt-1f1b", nil, 400 * unit.Millisecond}, // a stage per row, mid-iteration
}

// playTo plays a built-in up to until (0: its end) in steps steps, with the
// last snapshot marked done at the end as the player marks it.
func playTo(tb testing.TB, name string, sets []string, until unit.Time, steps int) (*run, *metrics.Result) {
	tb.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(tb, err)
	var res *metrics.Result
	if until == 0 {
		res, err = sim.Run(sc)
		require.NoError(tb, err)
		until = runEnd(res)
	}
	st, err := sim.Start(sc)
	require.NoError(tb, err)
	r := &run{name: sc.Name, topo: st.Model.Topology()}
	for i := 1; i <= steps; i++ {
		more := st.Model.Advance(until * unit.Time(i) / unit.Time(steps))
		s := st.Snapshot()
		s.Done = !more
		r.history = append(r.history, s)
	}
	return r, res
}

func trainingTexts(dl *DisplayList, L *Layout) []string {
	var out []string
	for _, p := range dl.Prims {
		if p.Kind == KindText && L.Timeline.Contains(float64(p.X), float64(p.Y)) {
			out = append(out, p.Str)
		}
	}
	return out
}

// only is the part of dl that starts inside r (rects, lines and texts).
func only(dl *DisplayList, r Rect) *DisplayList {
	out := &DisplayList{W: dl.W, H: dl.H}
	for _, p := range dl.Prims {
		if p.Kind != KindPolyline && r.Contains(float64(p.X), float64(p.Y)) {
			out.Prims = append(out.Prims, p)
		}
	}
	return out
}

func TestTrainingGolden(t *testing.T) {
	for i, v := range trainViews {
		t.Run(v.file, func(t *testing.T) {
			r, _ := playTo(t, v.scenario, v.sets, v.until, 12)
			opt := Options{Title: r.name, Training: true, Dark: i%2 == 1}
			L := NewLayout(r.topo, 1280, 720, opt)
			dl := Scene(r.frame(L))
			if len(r.topo.Endpoints) > 128 { // the timeline alone: a thousand GPUs' links would make megabytes
				dl = only(dl, L.Timeline)
			}
			var buf bytes.Buffer
			require.NoError(t, dl.SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", v.file+".svg"), buf.Bytes(),
				"the picture changed: look at it, then go test ./render -update")
		})
	}
}

// At the end the view shows the report's figures for the last iteration.
func TestTrainingFiguresMatchTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, sets := range [][]string{nil, {"sim.fidelity=flow", "training.iterations=2", "training.sharding=zero1"}} {
		r, res := playTo(t, "dp-resnet50", sets, 0, 8)
		require.True(t, r.cur().Done)
		L := NewLayout(r.topo, 1280, 720, Options{Training: true})
		s := strings.Join(trainingTexts(Scene(r.frame(L)), L), "\n")
		tr := res.Training
		want := fmt.Sprintf("iteration %d: %s · exposed communication %s · GPU utilisation %s%% (final)", len(r.cur().Training.Steps),
			fmtMicros(tr.IterationUs), fmtMicros(tr.ExposedCommUs), strconv.FormatFloat(tr.GPUUtil*100, 'f', 1, 64))
		assert.Contains(t, s, want)
		assert.Positive(t, tr.ExposedCommUs)
	}
	// before the first iteration ends there are no figures yet, only the plan
	r, _ := playTo(t, "dp-resnet50", nil, 20*unit.Millisecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{Training: true})
	s := strings.Join(trainingTexts(Scene(r.frame(L)), L), "\n")
	assert.Contains(t, s, "iteration 1 under way")
	assert.NotContains(t, s, "GPU utilisation 9")
	assert.Contains(t, s, "now: backward (bucket 3)")
}

// Mid-backward: bars of compute, buckets on the wire under them, a cursor at
// the snapshot's time; GPUs filled in the phase's colour, and their tooltip
// says what they compute.
func TestTrainingTimelineDraws(t *testing.T) {
	r, _ := playTo(t, "dp-resnet50", nil, 14200*unit.Microsecond, 14)
	L := NewLayout(r.topo, 1280, 720, Options{Training: true})
	require.Positive(t, L.Timeline.W)
	assert.False(t, L.Timeline.Overlaps(L.Area), "the timeline is not on the topology")
	for _, ch := range L.Charts {
		assert.False(t, L.Timeline.Overlaps(ch), "the timeline is not on a chart")
	}
	dl := Scene(r.frame(L))
	bars := map[[4]uint8]int{}
	for _, p := range dl.Prims {
		if p.Kind == KindRect && p.Layer == LayerChart && L.Timeline.Contains(float64(p.X), float64(p.Y)) {
			bars[[4]uint8{p.Fill.R, p.Fill.G, p.Fill.B, p.Fill.A}]++
		}
	}
	key := func(c [4]uint8) int { return bars[c] }
	th := assets.Light
	assert.Positive(t, key([4]uint8{colForward.R, colForward.G, colForward.B, 255}), "forward bars")
	assert.Positive(t, key([4]uint8{th.Compute.R, th.Compute.G, th.Compute.B, 255}), "backward bars")
	assert.Positive(t, key([4]uint8{th.Comm.R, th.Comm.G, th.Comm.B, 255}), "bucket all-reduces")
	assert.Zero(t, key([4]uint8{colOptimizer.R, colOptimizer.G, colOptimizer.B, 255})-1, "only the legend's optimizer swatch: no step yet")
	texts := strings.Join(trainingTexts(dl, L), "\n")
	for _, s := range []string{"node 0", "node 3", "forward", "bwd 1", "10 ms", "now: backward (bucket 2) · on the wire: all-reduce bucket 1", "a row per node of 8"} {
		assert.Contains(t, texts, s)
	}
	// the cursor at the snapshot's time
	var cursor bool
	for _, p := range dl.Prims {
		if p.Kind == KindLine && p.Stroke == th.Highlight && L.Timeline.Contains(float64(p.X), float64(p.Y)) {
			cursor = true
		}
	}
	assert.True(t, cursor, "a cursor")
	for e, p := range gpuFills(t, L, dl) {
		assert.Equal(t, th.Compute, p.Fill, "GPU endpoint %d computes backward", e)
	}
	x, y := L.Nodes[r.topo.Endpoints[3]].Center()
	f := r.frame(L)
	f.Hover = Hover{Kind: HoverNode, ID: r.topo.Endpoints[3], X: x, Y: y}
	var tip string
	for _, p := range Scene(f).Prims {
		if p.Layer == LayerTooltip && p.Kind == KindText {
			tip += p.Str + "\n"
		}
	}
	assert.Contains(t, tip, "computing backward (bucket 2)")

	// in the forward pass the GPUs take the forward colour
	r, _ = playTo(t, "dp-resnet50", nil, 2*unit.Millisecond, 4)
	dl = Scene(r.frame(L))
	for e, p := range gpuFills(t, L, dl) {
		assert.Equal(t, colForward, p.Fill, "GPU endpoint %d computes forward", e)
	}
}

// TestTrainingLook writes PNGs of every training view at 1280×720 and
// 1024×768, light, dark and presenter, to $RENDER_LOOK, for a person to look at.
func TestTrainingLook(t *testing.T) {
	dir := lookDir(t, "the training views")
	for _, v := range trainViews {
		r, _ := playTo(t, v.scenario, v.sets, v.until, 30)
		for _, sz := range lookSizes {
			for _, o := range lookThemes {
				o.opt.Title, o.opt.Training = r.name, true
				L := NewLayout(r.topo, sz.w, sz.h, o.opt)
				writeLook(t, dir, fmt.Sprintf("%s-%.0f%s.png", v.file, sz.w, o.tag), Scene(r.frame(L)))
			}
		}
	}
}

// With room for the timeline every shape still fits: nodes in the topology
// area, the timeline apart from it, the charts and the legend.
func TestTrainingLayoutFits(t *testing.T) {
	for _, s := range shapes {
		tp := build(t, s.scenario, s.sets...)
		for _, c := range canvases {
			opt := c.opt
			opt.Training = true
			L := NewLayout(tp, c.w, c.h, opt)
			name := fmt.Sprintf("%s/%.0fx%.0f/%v", s.name, c.w, c.h, c.opt.Presenter)
			tl := L.Timeline
			require.Greater(t, tl.H, 100*L.U, name)
			assert.True(t, tl.X >= 0 && tl.Y >= 0 && tl.X+tl.W <= c.w && tl.Y+tl.H <= c.h, "%s: timeline %+v off the canvas", name, tl)
			assert.False(t, tl.Overlaps(L.Area), "%s: timeline on the topology", name)
			assert.False(t, tl.Overlaps(L.Legend), "%s: timeline on the legend", name)
			for _, ch := range L.Charts {
				assert.False(t, tl.Overlaps(ch), "%s: timeline on a chart", name)
			}
			for id, nb := range L.Nodes {
				r := nb.Rect
				assert.True(t, r.Y+r.H <= L.Area.Y+L.Area.H+0.5, "%s: node %s below the topology area", name, tp.Nodes[id].Name)
			}
		}
	}
	assert.Zero(t, NewLayout(build(t, "incast"), 1280, 720, Options{}).Timeline, "no timeline unless asked")
}

// A builder that keeps its storage draws the training view as a fresh one does.
func TestTrainingReusedBuilderMatchesFresh(t *testing.T) {
	r, _ := playTo(t, "dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=fsdp", "training.iterations=2"}, 70*unit.Millisecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{Training: true})
	var b Builder
	for i := 2; i < len(r.history); i++ {
		f := &Frame{Layout: L, Cur: r.history[i], Prev: r.history[i-2], History: r.history[:i+1]}
		got := b.Scene(f)
		want := Scene(f)
		require.Equal(t, len(want.Prims), len(got.Prims))
		assert.Equal(t, want.Prims, got.Prims)
	}
}

// Any canvas size draws the view without a panic, the text inside its panel.
func TestTrainingAnySize(t *testing.T) {
	r, _ := playTo(t, "dp-llama3-8b-1024", nil, 200*unit.Millisecond, 3)
	for _, sz := range [][2]float64{{320, 240}, {400, 900}, {640, 360}, {2560, 1440}} {
		for _, presenter := range []bool{false, true} {
			L := NewLayout(r.topo, sz[0], sz[1], Options{Training: true, Presenter: presenter})
			dl := Scene(r.frame(L))
			tl := L.Timeline
			for _, p := range dl.Prims {
				if p.Kind == KindText && tl.Contains(float64(p.X), float64(p.Y)) && p.Anchor == Start {
					assert.LessOrEqual(t, float64(p.X)+TextWidth(p.Str, float64(p.Size), p.Weight), tl.X+tl.W+1,
						"%v presenter %v: %q runs out of the panel", sz, presenter, p.Str)
				}
			}
		}
	}
}

// Presenting at 1024×768 (the canvas pane 608×652), a training run keeps its
// GPU timelines, with the first and last rows, the charts and the topology's
// detail giving way first: the lessons point at the timelines.
func TestTrainingTimelinesPresenting(t *testing.T) {
	for _, v := range []struct {
		name       string
		until      unit.Time
		first, end string
	}{
		{"dp-resnet50", 14200 * unit.Microsecond, "node 0", "node 3"},
		{"pp-gpt-1f1b", 400 * unit.Millisecond, "stage 0", "stage 3"},
	} {
		t.Run(v.name, func(t *testing.T) {
			r, _ := playTo(t, v.name, nil, v.until, 6)
			L := NewLayout(r.topo, 608, 652, Options{Title: r.name, Training: true, Presenter: true, Dark: true})
			require.Positive(t, L.Timeline.H, "the timelines have a panel")
			texts := trainingTexts(Scene(r.frame(L)), L)
			assert.Contains(t, texts, "GPU timelines")
			assert.Contains(t, texts, v.first)
			assert.Contains(t, texts, v.end)
		})
	}
}
