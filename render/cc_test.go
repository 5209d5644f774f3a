package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// With DCQCN the canvas shows marked packets, each held-back sender's rate,
// and the marking thresholds on the queue chart.
func TestCongestionControlViews(t *testing.T) {
	r := play(t, "incast-dcqcn", []string{"traffic.bytes=8MiB"}, 400*unit.Microsecond, 40)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	var marks int64
	for _, l := range r.cur().Links {
		marks += l.ECNMarks
	}
	require.Positive(t, marks, "the switch marked packets")
	gauged := 0
	for _, f := range r.cur().Flows {
		if f.RateGbps > 0 {
			gauged++
			assert.Less(t, f.RateGbps, 400.0, "DCQCN slowed the sender")
		}
	}
	require.Positive(t, gauged)

	dl := Scene(r.frame(L))
	texts := map[string]bool{}
	gauges := 0
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			texts[p.Str] = true
			if (strings.HasSuffix(p.Str, " Gb/s") || strings.HasSuffix(p.Str, " Mb/s")) && p.Layer == LayerLabel {
				gauges++
			}
		}
	}
	assert.True(t, texts["ECN-marked"], "the legend explains the marked-packet ring")
	assert.True(t, texts["CNP / BECN"], "and the notification squares")
	assert.True(t, texts["Sender rates (congestion control, log scale)"], "the throughput chart becomes the senders' rates")
	assert.Positive(t, gauges, "rate gauges under the senders")
}

// The marking thresholds drawn across the queue chart are the ones the
// snapshot carries: the packet model's, not a copy beside it.
func TestMarkingThresholdsComeFromTheSnapshot(t *testing.T) {
	for _, c := range []struct {
		scenario string
		want     func(sc *scenario.Scenario) snap.Marking
		labels   []string
	}{
		{"incast-dcqcn", func(sc *scenario.Scenario) snap.Marking {
			kmin, kmax, _ := sc.ECNThresholds()
			return snap.Marking{ECNKmin: int64(kmin), ECNKmax: int64(kmax)}
		}, []string{"Kmin"}},
		{"incast-ibcc", func(sc *scenario.Scenario) snap.Marking {
			return snap.Marking{FECN: int64(sc.IBCCThreshold())}
		}, []string{"FECN"}},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			sc, err := scenario.Load(c.scenario, nil, []string{"traffic.bytes=8MiB"})
			require.NoError(t, err)
			r := play(t, c.scenario, []string{"traffic.bytes=8MiB"}, 400*unit.Microsecond, 40)
			require.Equal(t, c.want(&sc), r.cur().Marking)
			L := NewLayout(r.topo, 1280, 720, Options{})
			texts := func(f *Frame) map[string]bool {
				out := map[string]bool{}
				for _, p := range Scene(f).Prims {
					if p.Kind == KindText && p.Layer == LayerChart {
						out[p.Str] = true
						if name, _, ok := strings.Cut(p.Str, " "); ok { // "Kmin 40 KiB"
							out[name] = true
						}
					}
				}
				return out
			}
			f := r.frame(L)
			drawn := texts(f)
			for _, l := range c.labels {
				assert.True(t, drawn[l], "%s drawn across the queue chart", l)
			}
			bare := *f.Cur
			bare.Marking = snap.Marking{}
			f.Cur = &bare
			drawn = texts(f)
			for _, l := range []string{"Kmin", "Kmax", "FECN"} {
				assert.False(t, drawn[l], "no %s line without thresholds in the snapshot", l)
			}
		})
	}
}

// Without congestion control nothing marks, and the snapshot says so.
func TestNoMarkingWithoutCongestionControl(t *testing.T) {
	r := play(t, "incast", nil, 100*unit.Microsecond, 4)
	assert.Equal(t, snap.Marking{}, r.cur().Marking)
}

// CNPs in flight are drawn as squares on the receiver's and sender's links.
func TestNotificationsTravelBack(t *testing.T) {
	r := play(t, "incast-dcqcn", []string{"traffic.bytes=8MiB", "network.cnp_interval=0"}, 60*unit.Microsecond, 60)
	seen := 0
	for _, s := range r.history {
		for _, c := range s.Controls {
			assert.Equal(t, "cnp", c.Kind)
			assert.True(t, c.Progress >= 0 && c.Progress < 1)
			seen++
		}
	}
	require.Positive(t, seen, "some snapshot caught a CNP on its way")
	L := NewLayout(r.topo, 1280, 720, Options{})
	for i := len(r.history) - 1; i >= 0; i-- {
		if len(r.history[i].Controls) == 0 {
			continue
		}
		f := &Frame{Layout: L, Cur: r.history[i], Prev: r.history[max(0, i-2)], History: r.history[:i+1]}
		squares := 0
		for _, p := range Scene(f).Prims {
			if p.Kind == KindRect && p.Layer == LayerPacket && p.W == p.H && p.W > 0 {
				squares++
			}
		}
		assert.Positive(t, squares)
		return
	}
}

// Kmin and Kmax close together on the chart's scale (a deep incast queue)
// get labels that do not overlap each other, and that sit on a backing drawn
// over the queue lines so that no line crosses their words. The paper's
// DCQCN rules leave the incast's first PFC-built queue (~15 MiB) on the chart.
func TestThresholdLabelsDoNotOverlap(t *testing.T) {
	r := play(t, "incast-dcqcn", []string{"network.dcqcn.profile=paper"}, 3400*unit.Microsecond, 40)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	dl := Scene(r.frame(L))
	var labels []Prim
	lastLine, firstLabel := -1, -1
	for i, p := range dl.Prims {
		if p.Kind == KindPolyline && p.Layer == LayerChart {
			lastLine = i
		}
		if p.Kind == KindText && p.Layer == LayerChart && (strings.HasPrefix(p.Str, "Kmin ") || strings.HasPrefix(p.Str, "Kmax ")) {
			labels = append(labels, p)
			if firstLabel < 0 {
				firstLabel = i
			}
		}
	}
	require.Len(t, labels, 2)
	box := func(p Prim) Rect {
		w := TextWidth(p.Str, float64(p.Size), p.Weight)
		return Rect{float64(p.X), float64(p.Y) - float64(p.Size)/2, w, float64(p.Size)}
	}
	a, b := labels[0], labels[1]
	ka, _ := strconv.ParseFloat(strings.Fields(a.Str)[1], 64)
	require.NotZero(t, ka, "the label gives the threshold: %q", a.Str)
	assert.False(t, box(a).Overlaps(box(b)), "%q at %+v and %q at %+v overlap", a.Str, box(a), b.Str, box(b))
	assert.Greater(t, firstLabel, lastLine, "the labels are drawn over the queue lines")

	// Thresholds crowded at the top of the scale still get three labels
	// apart from each other, inside the plot.
	cur := *r.cur()
	peak := int64(0)
	for _, s := range r.history {
		for _, l := range s.Links {
			peak = max(peak, l.QueueBytes)
		}
	}
	cur.Marking = snap.Marking{ECNKmin: peak * 97 / 100, ECNKmax: peak * 98 / 100, FECN: peak * 99 / 100}
	f := r.frame(L)
	f.Cur = &cur
	f.History = append(r.history[:len(r.history)-1:len(r.history)-1], &cur)
	labels = labels[:0]
	for _, p := range Scene(f).Prims {
		if p.Kind == KindText && p.Layer == LayerChart && (strings.HasPrefix(p.Str, "Kmin ") || strings.HasPrefix(p.Str, "Kmax ") || strings.HasPrefix(p.Str, "FECN ")) {
			labels = append(labels, p)
		}
	}
	require.Len(t, labels, 3)
	chart := L.Charts[1]
	for i, a := range labels {
		assert.True(t, chart.Contains(float64(a.X), float64(a.Y)), "%q inside the queue chart", a.Str)
		for _, b := range labels[i+1:] {
			assert.False(t, box(a).Overlaps(box(b)), "%q at %+v and %q at %+v overlap", a.Str, box(a), b.Str, box(b))
		}
	}
}
