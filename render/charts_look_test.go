package render

import (
	"fmt"
	"testing"

	"fabriclab/sim/unit"
)

// TestLookCharts writes PNGs of the charts' views at 1280×720 and 1024×768,
// light, dark and presenter, in English and Chinese, with the cursor on the
// first chart, to $RENDER_LOOK, for a person to look at.
func TestLookCharts(t *testing.T) {
	dir := lookDir(t, "the charts")
	for _, v := range []struct {
		file, scenario string
		sets           []string
		until          unit.Time
	}{
		{"incast", "incast", nil, 4 * unit.Millisecond},
		{"incast-dcqcn", "incast-dcqcn", nil, 1200 * unit.Microsecond},
		{"victim-dcqcn", "victim-flow", []string{"network.cc=dcqcn"}, 1500 * unit.Microsecond}, // the lesson's last step
		{"alltoall", "alltoall-moe", nil, 300 * unit.Microsecond},
		{"ring", "ring-allreduce-8", nil, 1500 * unit.Microsecond},
	} {
		r := play(t, v.scenario, v.sets, v.until, 60)
		for _, sz := range lookSizes {
			for _, o := range []struct {
				tag string
				opt Options
			}{{"", Options{}}, {"-dark", Options{Dark: true}}, {"-presenter", Options{Presenter: true, Dark: true}},
				{"-zh", Options{Lang: ZH}}, {"-zh-presenter", Options{Lang: ZH, Presenter: true}}} {
				o.opt.Title = r.name
				L := NewLayout(r.topo, sz.w, sz.h, o.opt)
				f := r.frame(L)
				c := L.Charts[0]
				f.Hover = HitTest(L, c.X+c.W*0.6, c.Y+c.H*0.5)
				writeLook(t, dir, fmt.Sprintf("charts-%s-%.0f%s.png", v.file, sz.w, o.tag), Scene(f))
			}
		}
	}
}
