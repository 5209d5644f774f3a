package render

import (
	"bytes"
	"fmt"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/unit"
)

func TestSplitCanvas(t *testing.T) {
	s := SplitCanvas(1280, 672, false)
	assert.Equal(t, Rect{0, CompareStrip, 640, 672 - CompareStrip}, s.Panes[0])
	assert.Equal(t, Rect{640, CompareStrip, 640, 672 - CompareStrip}, s.Panes[1])
	s = SplitCanvas(400, 800, false) // tall: one above the other
	assert.Equal(t, 400.0, s.Panes[0].W)
	assert.Equal(t, s.Panes[0].Y+s.Panes[0].H, s.Panes[1].Y)
	assert.Equal(t, 800.0, s.Panes[1].Y+s.Panes[1].H)
	s = SplitCanvas(614, 652, false) // a lesson's stage at 1024×768: halves too narrow, stacked
	assert.Equal(t, 614.0, s.Panes[1].W)
	assert.Equal(t, 0.0, s.Panes[1].X)
	assert.Equal(t, Charts(AllCharts), PaneCharts(Rect{0, 0, 512, 690}, false), "a projector's pane keeps all three charts")
	assert.Equal(t, ChartThroughput|ChartQueues, PaneCharts(s.Panes[0], false), "a stacked pane's column has room for two")
}

// SideBySide moves each scene into its pane: points, line ends and
// polylines' point ranges included.
func TestSideBySideMoves(t *testing.T) {
	var a, b DisplayList
	a.Reset(100, 100)
	a.line(LayerLink, 1, 2, 3, 4, 1, color.RGBA{1, 0, 0, 255})
	b.Reset(100, 100)
	b.Points = append(b.Points, 10, 20, 30, 40)
	b.polyline(LayerLink, 0, 1, color.RGBA{2, 0, 0, 255})
	b.text(LayerLabel, 5, 6, "x", 10, Start, 0, color.RGBA{3, 0, 0, 255})
	s := Split{Strip: Rect{0, 0, 200, 30}, Panes: [2]Rect{{0, 30, 100, 100}, {100, 30, 100, 100}}}
	var dl DisplayList
	SideBySide(&dl, s, true, false, "t = 1 µs", "summary", [2]*DisplayList{&a, &b})
	require.GreaterOrEqual(t, len(dl.Prims), 4)
	assert.Equal(t, float32(200), dl.W)
	assert.Equal(t, float32(130), dl.H)
	line := dl.Prims[1]
	assert.Equal(t, [4]float32{1, 32, 3, 34}, [4]float32{line.X, line.Y, line.W, line.H})
	poly := dl.Prims[2]
	require.Equal(t, KindPolyline, poly.Kind)
	assert.Equal(t, []float32{110, 50, 130, 70}, dl.Pts(&poly))
	text := dl.Prims[3]
	assert.Equal(t, [2]float32{105, 36}, [2]float32{text.X, text.Y})
	var strs []string
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			strs = append(strs, p.Str)
		}
	}
	assert.Equal(t, []string{"x", "t = 1 µs", "summary"}, strs)
}

// compareViews are comparisons as the lessons show them (adaptive routing,
// sharing), mid-run; h is the canvas under the page's 48 px playback bar.
var compareViews = []struct {
	file, scenario string
	sets           [2][]string
	labels         [2]string
	until          unit.Time
}{
	{"compare-routing", "ecmp-collisions", [2][]string{nil, {"network.routing=adaptive"}}, [2]string{"ECMP", "Adaptive routing"}, 150 * unit.Microsecond},
	{"compare-incast", "incast", [2][]string{nil, {"network.cc=dcqcn"}}, [2]string{"PFC alone", "PFC + DCQCN"}, 2 * unit.Millisecond},
	{"compare-classes", "noisy-neighbor", [2][]string{{"collective.class=storage"}, nil}, [2]string{"One class for both jobs", "A class per job"}, 1500 * unit.Microsecond},
}

// compareRuns are compareViews' sides, played once.
var compareRuns = map[string]*run{}

// compareScene draws view v on a w×h canvas as the canvas does.
func compareScene(t *testing.T, i int, w, h float64, opt Options) *DisplayList {
	v := compareViews[i]
	s := SplitCanvas(w, h, opt.Presenter)
	var scenes [2]*DisplayList
	for k := range scenes {
		key := fmt.Sprint(i, k)
		r := compareRuns[key]
		if r == nil {
			r = play(t, v.scenario, v.sets[k], v.until, 12)
			compareRuns[key] = r
		}
		o := opt
		o.Title, o.Charts = v.labels[k], PaneCharts(s.Panes[k], opt.Presenter)
		L := NewLayout(r.topo, s.Panes[k].W, s.Panes[k].H, o)
		scenes[k] = Scene(r.frame(L))
	}
	right := v.labels[0] + " finished 1.24 ms after " + v.labels[1] + " (max FCT 2.10 ms vs 861 µs; drops 0 vs 0)"
	if opt.Lang == ZH {
		right = v.labels[0] + " 比 " + v.labels[1] + " 晚 1.24 ms 完成（最大 FCT 2.10 ms 对 861 µs）"
	}
	var dl DisplayList
	SideBySide(&dl, s, opt.Dark, opt.Presenter, "t = 150 µs", right, scenes)
	return &dl
}

// TestCompareLook writes the comparisons at a laptop's and a projector's
// size, en and zh, light, dark and presenter, to $RENDER_LOOK.
func TestCompareLook(t *testing.T) {
	dir := lookDir(t, "the comparisons")
	sizes := append(lookSizes[:len(lookSizes):len(lookSizes)], struct{ w, h float64 }{614, 700}, struct{ w, h float64 }{800, 600}) // and a lesson's stage at 1024×768, a small frame
	for i, v := range compareViews {
		for _, sz := range sizes {
			for _, lang := range []Lang{EN, ZH} {
				for _, o := range lookThemes {
					o.opt.Lang = lang
					name := fmt.Sprintf("%s-%.0f-%s%s.png", v.file, sz.w, lang, o.tag)
					writeLook(t, dir, name, compareScene(t, i, sz.w, sz.h-48, o.opt))
				}
			}
		}
	}
}

// Every text of a comparison's panes stays inside its pane, header texts
// do not run into each other, and a chart's title stays in its chart: at a
// laptop's and a projector's size, on a lesson's stage, en and zh, with
// presenter text.
func TestComparePanesFit(t *testing.T) {
	sizes := [][2]float64{{1280, 672}, {1024, 720}, {800, 552}, {614, 652}, {520, 600}}
	for i, v := range compareViews {
		for _, sz := range sizes {
			for _, lang := range []Lang{EN, ZH} {
				for _, big := range []bool{false, true} {
					s := SplitCanvas(sz[0], sz[1], big)
					for k := range s.Panes {
						key := fmt.Sprint(i, k)
						r := compareRuns[key]
						if r == nil {
							r = play(t, v.scenario, v.sets[k], v.until, 12)
							compareRuns[key] = r
						}
						p := s.Panes[k]
						L := NewLayout(r.topo, p.W, p.H, Options{Title: v.labels[k], Lang: lang, Presenter: big, Charts: PaneCharts(p, big)})
						dl := Scene(r.frame(L))
						name := fmt.Sprintf("%s %v %s big=%v pane %d", v.file, sz, lang, big, k)
						var head []Rect
						for _, pr := range dl.Prims {
							if pr.Kind != KindText || pr.Str == "" {
								continue
							}
							w := TextWidth(pr.Str, float64(pr.Size), pr.Weight)
							x := float64(pr.X) - w*map[Anchor]float64{Start: 0, Middle: 0.5, End: 1}[pr.Anchor]
							assert.True(t, x >= -1 && x+w <= p.W+1, "%s: %q (%.0f…%.0f) runs out of the %.0f px pane", name, pr.Str, x, x+w, p.W)
							if L.Header.Contains(float64(pr.X), float64(pr.Y)) {
								tr := Rect{x, 0, w, 1}
								for _, o := range head {
									assert.False(t, tr.Overlaps(o), "%s: header text %q runs into another", name, pr.Str)
								}
								head = append(head, tr)
							}
							for _, c := range L.Charts {
								if c.Contains(float64(pr.X), float64(pr.Y)) && float64(pr.Y) < c.Y+20*L.U {
									assert.LessOrEqual(t, x+w, c.X+c.W+1, "%s: chart title %q runs out of its chart", name, pr.Str)
								}
							}
						}
					}
				}
			}
		}
	}
}

// A comparison on a lesson's stage at 1024×768 (the panes one above the
// other, two charts each), in Chinese, as a golden SVG.
func TestCompareGolden(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, compareScene(t, 1, 614, 652, Options{Lang: ZH}).SVG(&buf))
	requireWellFormed(t, buf.Bytes())
	golden.Equal(t, filepath.Join("testdata", "compare-stage-zh.svg"), buf.Bytes(),
		"the picture changed: look at it (RENDER_LOOK=/tmp go test ./render -run TestCompareLook), then go test ./render -update")
}

// Each pane of a comparison is titled with its run's label, whole and at
// least the floor size (12 px; 18 px presenting), in its own header: side
// by side on a laptop and a narrow stage, stacked on a 1024×768 projector.
func TestComparePanesNamed(t *testing.T) {
	sizes := [][2]float64{{1280, 672}, {800, 552}, {614, 652}, {520, 600}}
	for i, v := range compareViews {
		for _, sz := range sizes {
			for _, big := range []bool{false, true} {
				for _, lang := range []Lang{EN, ZH} {
					dl := compareScene(t, i, sz[0], sz[1], Options{Lang: lang, Presenter: big})
					s := SplitCanvas(sz[0], sz[1], big)
					floor := map[bool]float64{false: 12, true: 18}[big]
					for k, p := range s.Panes {
						found := false
						for _, pr := range dl.Prims {
							if pr.Kind == KindText && pr.Str == v.labels[k] && float64(pr.Size) >= floor-0.01 &&
								p.Contains(float64(pr.X), float64(pr.Y)) && float64(pr.Y) < p.Y+p.H/4 {
								found = true
							}
						}
						assert.True(t, found, "%s %v big=%v %s: pane %d is titled %q", v.file, sz, big, lang, k, v.labels[k])
					}
				}
			}
		}
	}
}

// The strip's summary is never set under the floor (12 px; 18 presenting):
// a long one is cut short with "…" and stays clear of the time.
func TestCompareStripFloor(t *testing.T) {
	long := "PFC only finished 1.24 ms after PFC + DCQCN (max FCT 2.10 ms vs 861 µs; drops 0 vs 0; pause frames 4,398 vs 0)"
	for _, sz := range []struct {
		w, h  float64
		big   bool
		floor float32
	}{{768, 619, false, 12}, {608, 652, true, 18}, {1024, 720, true, 18}} {
		s := SplitCanvas(sz.w, sz.h, sz.big)
		var dl DisplayList
		SideBySide(&dl, s, true, sz.big, "t = 150 µs", long, [2]*DisplayList{})
		var texts []Prim
		for _, p := range dl.Prims {
			if p.Kind == KindText {
				texts = append(texts, p)
			}
		}
		require.Len(t, texts, 2)
		for _, p := range texts {
			assert.GreaterOrEqual(t, p.Size, sz.floor, "%v: %q", sz, p.Str)
		}
		assert.True(t, strings.HasSuffix(texts[1].Str, "…"), "%v: cut short: %q", sz, texts[1].Str)
		assert.False(t, textBox(&texts[0]).Overlaps(textBox(&texts[1])), "%v: the summary clear of the time", sz)
	}
}
