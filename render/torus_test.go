package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim/unit"
)

// A torus's endpoints are chips, not GPUs: in their tooltips (name and
// kind), the view's nodes and the ICI routers' kind, in both languages.
func TestTorusChipsAreChips(t *testing.T) {
	r := play(t, "tpu-torus-allreduce", []string{"topology.dims=[4,4]", "collective.bytes=1MiB"}, 5*unit.Microsecond, 1)
	chip5 := r.topo.Endpoints[5]
	router := r.topo.Torus.Router[5]
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Lang: lang})
		tipOf := func(id int) string {
			f := r.frame(L)
			f.Hover = Hover{Kind: HoverNode, ID: id, X: L.Nodes[id].X, Y: L.Nodes[id].Y}
			var b Builder
			b.Scene(f)
			tip, ok := b.Tooltip(f.Hover)
			require.True(t, ok)
			return tip
		}
		tip := tipOf(chip5)
		assert.Contains(t, tip, i18n.Tf(lang, "node.chip", 5), lang)
		assert.Contains(t, tip, i18n.Tf(lang, "tip.endpoint", i18n.T(lang, "role.chip"), 5, ""), lang)
		assert.NotContains(t, tip, "GPU", lang)
		assert.Contains(t, tipOf(router), i18n.T(lang, "role.ici"), lang)
		var b Builder
		b.Scene(r.frame(L))
		v := b.View()
		require.NotNil(t, v)
		assert.Equal(t, i18n.T(lang, "role.chip"), v.Nodes[chip5].Kind, lang)
		assert.Equal(t, i18n.Tf(lang, "node.chip", 5), v.Nodes[chip5].Name, lang)
	}
}
