package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

// TestRoutingShots writes PNGs of the routing views to $FABRICLAB_RENDER_SHOTS,
// for a person to look at; it does nothing without it.
func TestRoutingShots(t *testing.T) {
	dir := os.Getenv("FABRICLAB_RENDER_SHOTS")
	if dir == "" {
		t.Skip("set FABRICLAB_RENDER_SHOTS=DIR to write PNGs of the routing views")
	}
	for _, c := range routingCases {
		for _, v := range []struct {
			suffix string
			w, h   float64
			opt    Options
		}{
			{"", 1280, 720, Options{}},
			{"-dark", 1280, 720, Options{Dark: true}},
			{"-1024", 1024, 768, Options{}},
			{"-presenter", 1280, 720, Options{Presenter: true, Dark: true}},
		} {
			r := play(t, c.scenario, c.sets, c.until, 12)
			opt := v.opt
			opt.Title = c.scenario
			L := NewLayout(r.topo, v.w, v.h, opt)
			f := r.frame(L)
			f.Selected = c.selected(r)
			out, err := os.Create(filepath.Join(dir, c.name+v.suffix+".png"))
			require.NoError(t, err)
			require.NoError(t, WritePNG(out, Scene(f), 1))
			require.NoError(t, out.Close())
		}
	}
	_ = unit.Microsecond
}
