package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/unit"
)

// While the run is computed ahead, the canvas shows how far, with the time
// left, or "estimating" while that is unknown; once computed, nothing.
func TestProgressOverlay(t *testing.T) {
	r := play(t, "incast", nil, 1*unit.Millisecond, 12)
	cases := []struct {
		file string
		c    *Computing
		want []string
	}{
		{"progress.svg", &Computing{Progress: 0.42, ETA: 12.4, Computed: unit.Millisecond}, []string{"computed to 1.000 ms · 42 % · about 12 s left"}},
		{"progress-seek.svg", &Computing{Progress: -1, ETA: -1, Computed: unit.Millisecond, Target: 3 * unit.Millisecond},
			[]string{"going to 3.000 ms · computed to 1.000 ms · estimating time left"}},
	}
	for _, c := range cases {
		for _, dark := range []bool{false, true} {
			L := NewLayout(r.topo, 1280, 720, Options{Title: "incast", Dark: dark})
			f := r.frame(L)
			f.Computing = c.c
			dl := Scene(f)
			var s []string
			for _, p := range dl.Prims {
				if p.Kind == KindText && p.Layer == LayerTooltip {
					s = append(s, p.Str)
				}
			}
			assert.Equal(t, c.want, s, c.file)
			if dir := os.Getenv("FABRICLAB_PNG"); dir != "" {
				var buf bytes.Buffer
				require.NoError(t, WritePNG(&buf, dl, 1))
				name := strings.TrimSuffix(c.file, ".svg")
				if dark {
					name += "-dark"
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), buf.Bytes(), 0o644))
			}
			if dark {
				continue
			}
			var buf bytes.Buffer
			require.NoError(t, dl.SVG(&buf))
			golden.Equal(t, filepath.Join("testdata", c.file), buf.Bytes(), "the picture changed: look at it, then go test ./render -update")
		}
	}
	L := NewLayout(r.topo, 1280, 720, Options{Title: "incast"})
	f := r.frame(L)
	for _, p := range Scene(f).Prims {
		assert.NotContains(t, p.Str, "computed to", "a computed run shows no progress")
	}
}

func TestETA(t *testing.T) {
	en := &Builder{layout: &Layout{}}
	zh := &Builder{layout: &Layout{Opt: Options{Lang: ZH}}}
	for s, want := range map[float64][2]string{0.2: {"under 1 s left", "不到 1 秒"}, 12.4: {"about 12 s left", "约剩 12 秒"}, 600: {"about 10 min left", "约剩 10 分钟"}} {
		assert.Equal(t, want[0], en.eta(s))
		assert.Equal(t, want[1], zh.eta(s))
	}
}

// The computing pop-up stays in the header where it has room (cut short),
// clear of the topology's nodes, at the floor size: presenting at 1024×768
// and on a lesson's stage.
func TestProgressClearOfTheTopology(t *testing.T) {
	r := play(t, "ecmp-collisions", nil, 100*unit.Microsecond, 6)
	for _, sz := range []struct {
		w, h      float64
		presenter bool
	}{{608, 652, true}, {1024, 720, true}, {768, 619, false}} {
		L := NewLayout(r.topo, sz.w, sz.h, Options{Title: r.name, Presenter: sz.presenter})
		f := r.frame(L)
		f.Computing = &Computing{Progress: 0.15, ETA: 1.2, Computed: 30 * unit.Microsecond}
		dl := Scene(f)
		var pop []Rect
		for _, p := range dl.Prims {
			if p.Layer == LayerTooltip && p.Kind == KindRect {
				pop = append(pop, Rect{float64(p.X), float64(p.Y), float64(p.W), float64(p.H)})
			}
			if p.Layer == LayerTooltip && p.Kind == KindText {
				assert.GreaterOrEqual(t, float64(p.Size), L.Type.Small-0.01, "%v: %q", sz, p.Str)
				assert.Contains(t, p.Str, "15 %", "%v: the share computed", sz)
			}
		}
		require.NotEmpty(t, pop, "%v", sz)
		for i, nb := range L.Nodes {
			if nb.Shown {
				assert.False(t, pop[0].Overlaps(nb.Rect), "%v: the pop-up covers node %d", sz, i)
			}
		}
	}
}
