package render

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

func TestNiceScales(t *testing.T) {
	for _, c := range []struct {
		v, max, step float64
	}{
		{11e9, 15e9, 5e9},    // DCQCN's low rates: a 15 Gb/s axis
		{52e12, 60e12, 2e13}, // an all-to-all's NVLink burst
		{6.4e12, 8e12, 2e12},
		{400e9, 400e9, 100e9},
		{1, 1, 0.25},
	} {
		s := niceScale(c.v)
		assert.InDelta(t, c.max, s.Max, c.max*1e-9, "max for %g", c.v)
		assert.InDelta(t, c.step, s.Step, c.step*1e-9, "step for %g", c.v)
		assert.GreaterOrEqual(t, s.Max, c.v)
	}
	s := bytesScale(4.5 * (1 << 20))
	assert.Equal(t, scale{6 << 20, 2 << 20}, s, "MiB ticks")
	assert.Equal(t, "6 MiB", axisBytes(s.Max))
	assert.Equal(t, "40 KiB", axisBytes(bytesScale(37<<10).Max))
	assert.Equal(t, "15 Gb/s", axisRate(15e9))
	assert.Equal(t, "4000", trim(4000), "counts in full")
	assert.Equal(t, "0.125", trim(0.125))
	assert.Equal(t, "1.5 Tb/s", axisRate(1.5e12))
	assert.Equal(t, "4.20 MiB", fmtBytes(4.2*(1<<20)))
	first, step := timeScale(56*unit.Microsecond, 3400*unit.Microsecond)
	assert.Equal(t, 1*unit.Millisecond, step)
	assert.Equal(t, 1*unit.Millisecond, first)
	assert.Equal(t, "1 ms", axisTime(first, step))
	assert.Equal(t, "1.25 ms", axisTime(1250*unit.Microsecond, 250*unit.Microsecond))
	assert.Equal(t, "750 µs", axisTime(750*unit.Microsecond, 250*unit.Microsecond))
	assert.Equal(t, "200 µs", axisTime(200*unit.Microsecond, 200*unit.Microsecond))
}

// chartTexts is the text the charts draw.
func chartTexts(dl *DisplayList) string {
	var b strings.Builder
	for _, p := range dl.Prims {
		if p.Kind == KindText && (p.Layer == LayerChart || p.Layer == LayerTooltip) {
			b.WriteString(p.Str + "\n")
		}
	}
	return b.String()
}

// The axes fit the data: DCQCN's sender rates and an all-to-all's phases
// are not drawn flat on a line-rate or NVLink-sized axis.
func TestAxesFitTheData(t *testing.T) {
	r := play(t, "incast-dcqcn", nil, 400*unit.Microsecond, 40)
	s := chartTexts(Scene(r.frame(NewLayout(r.topo, 1280, 720, Options{}))))
	assert.Contains(t, s, "Sender rates")
	assert.NotContains(t, s, "500 Gb/s", "the senders never ran at more than line rate")
	assert.Contains(t, s, "Kmin ", "the marking threshold is on the queue chart")

	a := play(t, "alltoall-moe", nil, 300*unit.Microsecond, 60)
	s = chartTexts(Scene(a.frame(NewLayout(a.topo, 1280, 720, Options{}))))
	assert.Contains(t, s, "60 Tb/s", "the NVLink burst's 48 Tb/s on a 60 Tb/s axis")
	assert.NotContains(t, s, "100 Tb/s")
	assert.Contains(t, s, "between nodes (network)", "the network's share has its own line")
	assert.Contains(t, s, "within nodes (NVLink)")
}

// While playing forward the axes only grow, even though the history the
// player passes is resampled every frame; going back starts them again.
func TestAxesOnlyGrowWhilePlaying(t *testing.T) {
	r := play(t, "incast-dcqcn", nil, 1500*unit.Microsecond, 150)
	L := NewLayout(r.topo, 1280, 720, Options{})
	resample := func(i, n int) []*snap.Snapshot {
		if i+1 <= n {
			return r.history[:i+1]
		}
		out := make([]*snap.Snapshot, 0, n)
		for k := range n {
			out = append(out, r.history[k*i/(n-1)])
		}
		return out
	}
	var b Builder
	last := [numPeaks]float64{}
	for i := 1; i < len(r.history); i++ {
		b.Scene(&Frame{Layout: L, Cur: r.history[i], Prev: r.history[i-1], History: resample(i, 40)})
		for k := range numPeaks {
			require.GreaterOrEqual(t, b.ch.peak[k], last[k], "peak %d shrank at frame %d", k, i)
		}
		last = b.ch.peak
	}
	require.Positive(t, last[peakRates])
	b.Scene(&Frame{Layout: L, Cur: r.history[5], Prev: r.history[4], History: r.history[:6]})
	var fresh Builder
	fresh.Scene(&Frame{Layout: L, Cur: r.history[5], Prev: r.history[4], History: r.history[:6]})
	assert.Equal(t, fresh.ch.peak, b.ch.peak, "back in time: the axes are those of the history shown")
}

// A frame with history but no current snapshot draws empty charts.
func TestChartsWithoutCurrent(t *testing.T) {
	r := play(t, "incast", nil, 100*unit.Microsecond, 4)
	L := NewLayout(r.topo, 1280, 720, Options{})
	var b Builder
	b.Scene(r.frame(L))
	assert.NotPanics(t, func() { b.Scene(&Frame{Layout: L, History: r.history}) })
	assert.Contains(t, chartTexts(b.Scene(&Frame{Layout: L, History: r.history})), "waiting for data")
}

// The cursor over a chart reads out the time and value of the nearest line.
func TestChartReadout(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 20)
	L := NewLayout(r.topo, 1280, 720, Options{})
	c := L.Charts[0]
	h := HitTest(L, c.X+c.W*0.5, c.Y+c.H*0.5)
	require.Equal(t, HoverChart, h.Kind)
	require.Equal(t, 0, h.ID)
	f := r.frame(L)
	f.Hover = h
	var tip []string
	for _, p := range Scene(f).Prims {
		if p.Kind == KindText && p.Layer == LayerTooltip {
			tip = append(tip, p.Str)
		}
	}
	require.Len(t, tip, 2, "a time and a value")
	assert.True(t, strings.HasPrefix(tip[0], "t = ") && strings.HasSuffix(tip[0], "µs"), tip[0])
	assert.Regexp(t, `^h[0-7]: \d+\.\d Gb/s$`, tip[1], "a sender's throughput, an eighth of the link")
	f.Hover = HitTest(L, L.Area.X+2, L.Area.Y+2)
	assert.NotContains(t, chartTexts(Scene(f)), "t = ", "no readout off the charts")
}

// Every text the canvas draws in Chinese comes from the catalogue: with
// lang zh no English word of the chart titles, legend or header is left.
func TestChineseCanvas(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{Lang: ZH})
	f := r.frame(L)
	x, y := L.Nodes[r.topo.Endpoints[0]].Center()
	f.Hover = HitTest(L, x, y)
	var all []string
	for _, p := range Scene(f).Prims {
		if p.Kind == KindText {
			all = append(all, p.Str)
		}
	}
	s := strings.Join(all, "\n")
	for _, zh := range []string{"9 台主机", "每条流的吞吐量", "队列深度（最忙的端口）", "链路负载", "0号", "通信中"} {
		assert.Contains(t, s, zh)
	}
	for _, en := range []string{"hosts", "Throughput", "Queue depth", "link load", "communicating", "endpoint", "finished"} {
		assert.NotContains(t, s, en)
	}
}

func TestChartGoldens(t *testing.T) {
	cases := []struct {
		file, scenario string
		until          unit.Time
		opt            Options
	}{
		{"charts-dcqcn.svg", "incast-dcqcn", 1200 * unit.Microsecond, Options{Title: "incast-dcqcn"}},
		{"charts-alltoall.svg", "alltoall-moe", 300 * unit.Microsecond, Options{Title: "alltoall-moe", Dark: true}},
		{"charts-zh.svg", "incast", 1 * unit.Millisecond, Options{Title: "incast", Lang: ZH}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := play(t, c.scenario, nil, c.until, 40)
			L := NewLayout(r.topo, 1280, 720, c.opt)
			f := r.frame(L)
			ch := L.Charts[0]
			f.Hover = HitTest(L, ch.X+ch.W*0.6, ch.Y+ch.H*0.5)
			var buf bytes.Buffer
			require.NoError(t, Scene(f).SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", c.file), buf.Bytes(),
				"the picture changed: look at it, then go test ./render -update")
		})
	}
}

// The completion-time chart with nothing finished: a run with no flows yet
// (a training step still computing) says so, not "0 of 0".
func TestFCTChartNothingFinished(t *testing.T) {
	for _, c := range []struct {
		name  string
		until unit.Time
		want  string
	}{
		{"dp-resnet50", 2 * unit.Millisecond, "\nno flows yet\n"},
		{"incast", 20 * unit.Microsecond, "\nnone of 8 flows finished yet\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := play(t, c.name, nil, c.until, 2)
			L := NewLayout(r.topo, 1280, 720, Options{})
			s := texts(Scene(r.frame(L)))
			assert.Contains(t, s, c.want)
			assert.NotContains(t, s, "0 of 0")
		})
	}
}

// Frame.Axes raises the charts' axes (a comparison's other pane) without
// counting as this scene's own peak.
func TestChartAxesShared(t *testing.T) {
	r := play(t, "incast", nil, 100*unit.Microsecond, 10)
	L := NewLayout(r.topo, 1280, 720, Options{})
	var own Builder
	alone := texts(own.Scene(r.frame(L)))
	peaks := own.Peaks()
	require.Positive(t, peaks[peakThroughput])
	require.Positive(t, peaks[peakQueues])
	assert.NotContains(t, alone, "\n400 Gb/s\n")
	assert.NotContains(t, alone, "\n80 MiB\n")
	var b Builder
	f := r.frame(L)
	f.Axes = &Axes{peakThroughput: 4e11, peakQueues: 64 << 20}
	shared := texts(b.Scene(f))
	assert.Contains(t, shared, "\n400 Gb/s\n", "the throughput axis reaches the other pane's 400 Gb/s")
	assert.Contains(t, shared, "\n80 MiB\n", "the queue axis its 64 MiB (ticks to 80)")
	assert.Equal(t, peaks, b.Peaks(), "its own peaks are its own")
}
