package render

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

// collViews are the collective scenes with golden SVGs: ring mid
// reduce-scatter, mid all-gather and at its end; hierarchical mid inter-node
// step; all-to-all mid-run.
var collViews = []struct {
	file, scenario string
	sets           []string
	until          unit.Time
}{
	{"ring-reduce-scatter", "ring-allreduce-8", nil, 1500 * unit.Microsecond},
	{"ring-all-gather", "ring-allreduce-8", nil, 3500 * unit.Microsecond},
	{"ring-end", "ring-allreduce-8", nil, 6 * unit.Millisecond},
	{"hierarchical", "hierarchical-allreduce", nil, 2500 * unit.Microsecond},
	{"alltoall", "alltoall-moe", nil, 100 * unit.Microsecond},
}

// TestCollectiveLook writes PNGs of the collective views at 1280×720 and
// 1024×768, light, dark and presenter, to $RENDER_LOOK, for a person to look at.
func TestCollectiveLook(t *testing.T) {
	dir := os.Getenv("RENDER_LOOK")
	if dir == "" {
		t.Skip("set RENDER_LOOK=/tmp to write the PNGs of the collective views")
	}
	for _, v := range collViews {
		r := play(t, v.scenario, v.sets, v.until, 40)
		for _, sz := range []struct{ w, h float64 }{{1280, 720}, {1024, 768}} {
			for _, o := range []struct {
				tag string
				opt Options
			}{{"", Options{}}, {"-dark", Options{Dark: true}}, {"-presenter", Options{Presenter: true, Dark: true}}} {
				o.opt.Title = r.name
				L := NewLayout(r.topo, sz.w, sz.h, o.opt)
				dl := Scene(r.frame(L))
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("coll-%s-%.0f%s.png", v.file, sz.w, o.tag)))
				require.NoError(t, err)
				require.NoError(t, WritePNG(f, dl, 1))
				require.NoError(t, f.Close())
			}
		}
	}
}
