package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/unit"
)

// markerStrokes counts the marker-layer prims of kind k stroked in c.
func markerStrokes(dl *DisplayList, k Kind, c any) int {
	n := 0
	for _, p := range dl.Prims {
		if p.Layer == LayerMarker && p.Kind == k && any(p.Stroke) == c {
			n++
		}
	}
	return n
}

// A down link is drawn dashed in the drop colour once it is down,
// and its tooltip says so (en, zh).
func TestDownLinkIsDrawnDown(t *testing.T) {
	r := play(t, "link-down", nil, 100*unit.Microsecond, 10) // down from 20 µs
	th := assets.Light
	before := r.history[0] // 10 µs
	require.Nil(t, before.Faults.Down)
	require.Len(t, r.cur().Faults.Down, 2, "both directions of the cable")
	id := r.cur().Faults.Down[0]
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Lang: lang})
		f := r.frame(L)
		assert.Greater(t, markerStrokes(Scene(f), KindLine, th.Drop), 4, "dashes")
		f.Cur = before
		assert.Zero(t, markerStrokes(Scene(f), KindLine, th.Drop), "up before 20 µs")
		f = r.frame(L)
		f.Hover = Hover{Kind: HoverLink, ID: id, X: (L.Links[id].X1 + L.Links[id].X2) / 2, Y: (L.Links[id].Y1 + L.Links[id].Y2) / 2}
		var b Builder
		b.Scene(f)
		tip, ok := b.Tooltip(f.Hover)
		require.True(t, ok)
		assert.Contains(t, tip, i18n.T(lang, "tip.link.down"), lang)
	}
}

// A slow GPU has a ring in the drop colour and says how slow in its tooltip.
func TestSlowGPUIsMarked(t *testing.T) {
	r := play(t, "straggler", []string{"training.iterations=1"}, 20*unit.Millisecond, 2)
	require.NotNil(t, r.cur().Faults)
	L := NewLayout(r.topo, 1280, 720, Options{Training: true})
	f := r.frame(L)
	assert.Equal(t, 1, markerStrokes(Scene(f), KindRect, assets.Light.Drop), "GPU 3's ring")
	gpu3 := r.topo.Endpoints[3]
	f.Hover = Hover{Kind: HoverNode, ID: gpu3, X: L.Nodes[gpu3].X, Y: L.Nodes[gpu3].Y}
	var b Builder
	b.Scene(f)
	tip, ok := b.Tooltip(f.Hover)
	require.True(t, ok)
	assert.Contains(t, tip, i18n.Tf(EN, "tip.slow", 1.5))
}
