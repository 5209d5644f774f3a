package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim/unit"
)

// TestInNetworkDrawsTheSwitch checks that NVLS is drawn as it runs: each
// GPU's write goes up to the NVSwitch and the sum comes back down, with no
// GPU-to-GPU arcs and no "GPU 0→GPU 1" in the flows' key.
func TestInNetworkDrawsTheSwitch(t *testing.T) {
	for _, tc := range []struct {
		sets    []string
		through bool
	}{{[]string{"collective.algo=innetwork", "sim.fidelity=flow"}, true}, {[]string{"sim.fidelity=flow"}, false}} {
		r := play(t, "ring-allreduce-8", tc.sets, 1500*unit.Microsecond, 12)
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name})
		dl := Scene(r.frame(L))
		texts := sceneTexts(dl)
		var sw *NodeBox
		for i := range L.Nodes {
			if L.Topo.Nodes[i].Name == "n0.nvswitch" || L.Topo.Nodes[i].Name == "nvswitch" {
				sw = &L.Nodes[i]
			}
		}
		require.NotNil(t, sw, "the node's NVSwitch")
		// The transfers' curves: polylines in the first categorical colours.
		vertical, toSwitch, fromSwitch := 0, 0, 0
		for _, p := range dl.Prims {
			if p.Kind != KindPolyline || p.Layer != LayerLink || p.P1-p.P0 < 4 {
				continue
			}
			if p.Stroke != assets.Light.Categorical(0) && p.Stroke != assets.Light.Categorical(2) {
				continue
			}
			pts := dl.Points[p.P0:p.P1]
			x0, y0, x1, y1 := pts[0], pts[1], pts[len(pts)-2], pts[len(pts)-1]
			if x0 == x1 {
				vertical++
			}
			if y1 == float32(sw.Y) {
				toSwitch++
			}
			if y0 == float32(sw.Y) {
				fromSwitch++
			}
		}
		if tc.through {
			assert.NotContains(t, texts, "GPU 0→GPU 1", "the key names no GPU-to-GPU transfer")
			assert.Contains(t, texts, "to the switch and back:")
			assert.Equal(t, 8, toSwitch, "each GPU writes to the switch")
			assert.Equal(t, 8, fromSwitch, "the switch multicasts the sum to each GPU")
			assert.Equal(t, 16, vertical, "straight up and down, no arcs between GPUs")
		} else {
			assert.Zero(t, toSwitch+fromSwitch, "a ring's transfers go GPU to GPU")
			assert.NotContains(t, texts, "to the switch and back:")
		}
	}
}
