package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// gpuFills is the fill of every GPU's box in dl, by endpoint.
func gpuFills(t *testing.T, L *Layout, dl *DisplayList) map[int]Prim {
	out := map[int]Prim{}
	for _, p := range dl.Prims {
		if p.Kind != KindRect || p.Layer != LayerNode {
			continue
		}
		for e, id := range L.Topo.Endpoints {
			nb := &L.Nodes[id]
			if L.Topo.Nodes[id].Role == topo.GPU && p.X == float32(nb.X) && p.Y == float32(nb.Y) && p.W == float32(nb.W) {
				out[e] = p
			}
		}
	}
	require.Len(t, out, len(L.Topo.Endpoints), "every GPU drawn")
	return out
}

func legendTexts(dl *DisplayList, L *Layout) map[string]bool {
	out := map[string]bool{}
	for _, p := range dl.Prims {
		if p.Kind == KindText && float64(p.Y) >= L.Legend.Y && float64(p.Y) <= L.Legend.Y+L.Legend.H {
			out[p.Str] = true
		}
	}
	return out
}

// dp-resnet50 10 ms in is in its backward pass (5.3 ms … 15.9 ms): every GPU
// is drawn computing, and the legend says what that colour means.
func TestGPUsShowComputingInTheBackwardPass(t *testing.T) {
	r := play(t, "dp-resnet50", nil, 10*unit.Millisecond, 20)
	require.Contains(t, r.cur().Activity, snap.Computing, "the snapshot says the GPUs compute")
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	for e, p := range gpuFills(t, L, dl) {
		assert.Equal(t, assets.Light.Compute, p.Fill, "GPU endpoint %d", e)
	}
	assert.True(t, legendTexts(dl, L)["computing"], "the legend explains the compute colour")
}

// Without compute in the snapshot, GPUs are coloured by their flows: a
// collective alone never shows "computing".
func TestGPUsShowCommunicatingInACollective(t *testing.T) {
	r := play(t, "ring-allreduce-8", nil, 300*unit.Microsecond, 12)
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	for e, p := range gpuFills(t, L, dl) {
		want := assets.Light.Node
		if r.cur().Activity[e] == snap.Communicating {
			want = assets.Light.Comm
		}
		assert.Equal(t, want, p.Fill, "GPU endpoint %d", e)
	}
	assert.Contains(t, r.cur().Activity, snap.Communicating)
	assert.False(t, legendTexts(dl, L)["computing"])
}
