package render

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
	"fabriclab/sim"
	"fabriclab/sim/golden"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// fitSizes are the canvases the fit test checks: a lesson's canvas pane at
// 1280×720 (768×667, less the playback bar), presenter mode's pane at
// 1024×768 (608×700, less the bar), and presenter mode full screen at 1024×768.
var fitSizes = []struct {
	name      string
	w, h      float64
	presenter bool
}{
	{"lesson-1280x720", 768, 619, false},
	{"presenter-1024x768", 608, 652, true},
	{"fullscreen-1024x768", 1024, 720, true},
}

// fitCase is a scenario the fit test draws: a built-in, or a lesson step's
// scenario (or both sides of its comparison).
type fitCase struct {
	name  string
	yaml  [2]string // the scenario; both sides of a comparison
	label [2]string // a comparison's pane titles
}

// fitCases are every built-in and every distinct lesson-step scenario.
func fitCases(t *testing.T) []fitCase {
	var out []fitCase
	seen := map[string]bool{}
	for _, bi := range scenario.Builtins() {
		data, ok := scenario.Builtin(bi.Name)
		require.True(t, ok, bi.Name)
		out = append(out, fitCase{name: bi.Name, yaml: [2]string{string(data)}})
		seen[string(data)] = true
	}
	ls, err := lessons.Load(lessons.Content())
	require.NoError(t, err)
	for _, l := range ls {
		if l.Lang != "en" { // a translation shows the same scenarios
			continue
		}
		for _, s := range l.Steps {
			c := fitCase{name: l.Slug + "#" + s.ID, yaml: [2]string{s.Scenario}}
			if s.Compare != nil {
				c.yaml = [2]string{s.Compare.Left.Scenario, s.Compare.Right.Scenario}
				c.label = [2]string{s.Compare.Left.Label, s.Compare.Right.Label}
			}
			key := c.yaml[0] + "\x00" + c.yaml[1]
			if c.yaml[0] == "" || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

// fitRun plays a scenario to its end in fitSteps snapshots.
const fitSteps = 16

func fitRun(t *testing.T, yaml string) *run {
	sc, err := scenario.Parse([]byte(yaml), "fit")
	require.NoError(t, err)
	res, err := sim.Run(sc)
	require.NoError(t, err)
	until := runEnd(res)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	r := &run{name: sc.Name, topo: st.Model.Topology()}
	for i := 1; i <= fitSteps; i++ {
		more := st.Model.Advance(until * unit.Time(i) / fitSteps)
		s := st.Snapshot()
		s.Done = !more
		r.history = append(r.history, s)
	}
	r.training = sc.Training.Model != ""
	require.True(t, r.history[fitSteps-1].Done, "the last view is the run's end")
	return r
}

// fitScene draws case c's runs at snapshot k (of fitSteps) on a canvas.
func fitScene(runs [2]*run, c fitCase, k int, w, h float64, presenter bool, lang Lang) *DisplayList {
	frame := func(r *run, w, h float64, title string, charts Charts) *DisplayList {
		L := NewLayout(r.topo, w, h, Options{Title: title, Lang: lang, Presenter: presenter, Dark: true, Training: r.training, Charts: charts})
		hist := r.history[:k]
		return Scene(&Frame{Layout: L, Cur: hist[k-1], Prev: hist[max(0, k-3)], History: hist})
	}
	if runs[1] == nil {
		return frame(runs[0], w, h, runs[0].name, 0)
	}
	if presenter && w < 900 {
		// presenting on a narrow screen, a comparison takes the lesson's
		// whole width (presenter.js: wide), the step's text a drawer over it
		w = 1024
	}
	s := SplitCanvas(w, h, presenter)
	var scenes [2]*DisplayList
	for i, r := range runs {
		p := s.Panes[i]
		scenes[i] = frame(r, p.W, p.H, c.label[i], PaneCharts(p, presenter))
	}
	var dl DisplayList
	SideBySide(&dl, s, true, presenter, "t = 100 µs", "", scenes)
	return &dl
}

// Every built-in and every lesson step, half-way and at the end, at each of
// fitSizes and in both languages: no text under the floor (12 px; 18 px in
// presenter mode), no two texts over each other, none out of its panel or
// the canvas. testdata/fit-known.txt lists the views that still fail (what
// is left to do); a view that fails and is not listed fails the test, and
// -update rewrites the list. -short checks the built-ins only; RENDER_LOOK=DIR
// writes each view's end as a PNG.
func TestTextFits(t *testing.T) {
	cases := fitCases(t)
	if testing.Short() {
		cases = slices.DeleteFunc(cases, func(c fitCase) bool { return strings.Contains(c.name, "#") })
	}
	var mu sync.Mutex
	failing := map[string][]string{}
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				var runs [2]*run
				for i, y := range c.yaml {
					if y != "" {
						runs[i] = fitRun(t, y)
					}
				}
				for _, k := range []int{fitSteps / 2, fitSteps} {
					for _, sz := range fitSizes {
						for _, lang := range []Lang{EN, ZH} {
							dl := fitScene(runs, c, k, sz.w, sz.h, sz.presenter, lang)
							if dir := os.Getenv("RENDER_LOOK"); dir != "" && k == fitSteps { // for a person to look at
								writeLook(t, dir, fmt.Sprintf("fit-%s-%s-%s.png", strings.ReplaceAll(c.name, "#", "-"), sz.name, langTag(lang)), dl)
							}
							floor := 12.0
							if sz.presenter {
								floor = 18
							}
							if probs := fitProblems(dl, floor); len(probs) > 0 {
								key := fmt.Sprintf("%s %s %s %d/%d", c.name, sz.name, langTag(lang), k, fitSteps)
								mu.Lock()
								failing[key] = probs
								mu.Unlock()
							}
						}
					}
				}
			})
		}
	})
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range failing {
			if !yield(k) {
				return
			}
		}
	})
	var list strings.Builder
	for _, k := range keys {
		list.WriteString(k + "\n")
	}
	known := filepath.Join("testdata", "fit-known.txt")
	if testing.Short() {
		data, err := os.ReadFile(known)
		require.NoError(t, err)
		for _, k := range keys {
			assert.Contains(t, strings.Split(string(data), "\n"), k, "a view that did not fail before: %s\n%s", k, strings.Join(failing[k], "\n"))
		}
		return
	}
	for _, k := range keys {
		t.Logf("%s:\n  %s", k, strings.Join(failing[k][:min(8, len(failing[k]))], "\n  "))
	}
	golden.Equal(t, known, []byte(list.String()),
		"the views whose text does not fit changed: a new one is a regression (fix it); one gone is progress (go test ./render -run TestTextFits -update)")
}

func langTag(l Lang) string {
	if l == ZH {
		return "zh"
	}
	return "en"
}

// textBox is where a text is drawn: its advance box, from the middle of its
// capitals up and down by a little more than half the em.
func textBox(p *Prim) Rect {
	w := TextWidth(p.Str, float64(p.Size), p.Weight)
	x := float64(p.X)
	switch p.Anchor {
	case Middle:
		x -= w / 2
	case End:
		x -= w
	}
	hh := 0.42 * float64(p.Size)
	return Rect{x, float64(p.Y) - hh, w, 2 * hh}
}

// fitProblems lists the texts of dl that are under floor px, that overlap
// another, that cross the edge of a panel they are in, that overlap a node
// box they do not belong to (a count on a badge over a node is the badge's),
// or leave the canvas.
func fitProblems(dl *DisplayList, floor float64) []string {
	var texts []Prim
	var panels, nodes, badges []Rect // badges: a count on a node's corner
	for _, p := range dl.Prims {
		r := Rect{float64(p.X), float64(p.Y), float64(p.W), float64(p.H)}
		switch {
		case p.Kind == KindText:
			texts = append(texts, p)
		case p.Kind == KindRect && p.Layer == LayerPanel:
			panels = append(panels, r)
		case p.Kind == KindRect && p.Layer == LayerNode:
			nodes = append(nodes, r)
		case p.Kind == KindRect && p.Layer == LayerMarker:
			badges = append(badges, r)
		}
	}
	const slop = 1.0 // px two boxes may share
	var out []string
	canvas := Rect{-slop, -slop, float64(dl.W) + 2*slop, float64(dl.H) + 2*slop}
	boxes := make([]Rect, len(texts))
	for i := range texts {
		p := &texts[i]
		r := textBox(p)
		boxes[i] = r
		if float64(p.Size) < floor-0.01 {
			out = append(out, fmt.Sprintf("%q is %.1f px, under %.0f", p.Str, p.Size, floor))
		}
		if !inside(r, canvas) {
			out = append(out, fmt.Sprintf("%q at (%.0f, %.0f) leaves the canvas", p.Str, p.X, p.Y))
		}
		for _, pn := range panels {
			if shrink(r, slop).Overlaps(pn) && !inside(r, grow(pn, slop)) {
				out = append(out, fmt.Sprintf("%q at (%.0f, %.0f) crosses the edge of the panel at (%.0f, %.0f)", p.Str, p.X, p.Y, pn.X, pn.Y))
				break
			}
		}
		cx, cy := r.Center()
		onBadge := slices.ContainsFunc(badges, func(bd Rect) bool { return bd.Contains(cx, cy) })
		if nb, ok := textOverNode(r, nodes, slop); ok && !onBadge {
			out = append(out, fmt.Sprintf("%q at (%.0f, %.0f) overlaps the node box at (%.0f, %.0f)", p.Str, p.X, p.Y, nb.X, nb.Y))
		}
	}
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(boxes[a].X - boxes[b].X) })
	for n, i := range order { // a sweep along x
		a := shrink(boxes[i], slop)
		for _, j := range order[n+1:] {
			if boxes[j].X > a.X+a.W {
				break
			}
			if a.Overlaps(shrink(boxes[j], slop)) {
				out = append(out, fmt.Sprintf("%q at (%.0f, %.0f) overlaps %q at (%.0f, %.0f)",
					texts[i].Str, texts[i].X, texts[i].Y, texts[j].Str, texts[j].X, texts[j].Y))
			}
		}
	}
	return out
}

// textOverNode finds a node box that text box r overlaps without belonging to
// it: r lies inside no box that holds it (a node's label inside its box, a
// group's over its cells).
func textOverNode(r Rect, nodes []Rect, slop float64) (Rect, bool) {
	var owners []Rect
	for _, nb := range nodes {
		if inside(r, grow(nb, slop)) {
			owners = append(owners, nb)
		}
	}
	for _, nb := range nodes {
		if !shrink(r, slop).Overlaps(nb) || slices.ContainsFunc(owners, func(o Rect) bool { return inside(nb, grow(o, slop)) || inside(o, nb) }) {
			continue
		}
		return nb, true
	}
	return Rect{}, false
}

func inside(r, o Rect) bool {
	return r.X >= o.X && r.Y >= o.Y && r.X+r.W <= o.X+o.W && r.Y+r.H <= o.Y+o.H
}

func shrink(r Rect, d float64) Rect { return Rect{r.X + d, r.Y + d, r.W - 2*d, r.H - 2*d} }

func grow(r Rect, d float64) Rect { return shrink(r, -d) }
