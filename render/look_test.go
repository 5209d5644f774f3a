package render

import (
	"fmt"
	"testing"

	"fabriclab/sim/unit"
)

// views are the scenes worth looking at, mid-run.
var views = []struct {
	file, scenario string
	sets           []string
	until          unit.Time
}{
	{"incast", "incast", nil, 4 * unit.Millisecond},
	{"ecmp", "ecmp-collisions", nil, 250 * unit.Microsecond},
	{"permutation", "permutation", nil, 200 * unit.Microsecond},
	{"dgx-ring", "ring-allreduce-8", nil, 1500 * unit.Microsecond},
	{"perm1024", "perm-1024", nil, 80 * unit.Microsecond},
	{"dgx2-alltoall", "alltoall-moe", nil, 100 * unit.Microsecond},
	{"dp-resnet50", "dp-resnet50", nil, 10 * unit.Millisecond}, // in the backward pass
	{"incast-dcqcn", "incast-dcqcn", nil, 3400 * unit.Microsecond},
}

// TestLook writes PNGs of every view at 1280×720 and 1920×1080, light,
// dark and presenter, to $RENDER_LOOK (e.g. /tmp), for a person to look at.
func TestLook(t *testing.T) {
	dir := lookDir(t, "every view")
	for _, v := range views {
		r := play(t, v.scenario, v.sets, v.until, 60)
		for _, sz := range []struct{ w, h float64 }{{1280, 720}, {1920, 1080}} {
			for _, o := range lookThemes {
				o.opt.Title = r.name
				L := NewLayout(r.topo, sz.w, sz.h, o.opt)
				writeLook(t, dir, fmt.Sprintf("render-%s-%.0f%s.png", v.file, sz.w, o.tag), Scene(r.frame(L)))
			}
		}
	}
}
