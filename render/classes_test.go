package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim/unit"
)

// A run with traffic classes names them in the legend, in both languages;
// its packets' shapes tell the class (a dot for training, a square for
// storage) and the view gives each flow its class. One class: no entry.
func TestTrafficClassLegend(t *testing.T) {
	r := play(t, "noisy-neighbor", nil, 300*unit.Microsecond, 6)
	require.Equal(t, []string{"training", "storage"}, r.cur().Classes)
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name, Lang: lang})
		var b Builder
		dl := b.Scene(r.frame(L))
		drawn := strings.Split(texts(dl), "\n")
		for _, c := range r.cur().Classes {
			assert.Contains(t, drawn, i18n.Tf(lang, "legend.class", c), "%s: the legend names class %s", lang, c)
		}

		// Each packet drawn as a dot or a square, as its flow's class says.
		squares, wantSquares, dots, wantDots := 0, 0, 0, 0
		for i := range r.cur().Packets {
			p := &r.cur().Packets[i]
			if !L.Links[p.Link].Shown || b.pktCount[p.Link] > maxDots {
				continue
			}
			if r.cur().Flows[p.Flow].Class == 1 {
				wantSquares++
			} else {
				wantDots++
			}
		}
		require.Positive(t, wantSquares)
		require.Positive(t, wantDots)
		for _, p := range dl.Prims {
			switch {
			case p.Layer != LayerPacket || p.Fill.A == 0 || p.Fill == b.th.Text:
			case p.Kind == KindRect:
				squares++
			case p.Kind == KindCircle:
				dots++
			}
		}
		assert.Equal(t, wantSquares, squares, "storage packets are squares")
		assert.Equal(t, wantDots, dots, "training packets are dots")

		v := b.View()
		require.NotNil(t, v)
		for _, f := range v.Flows {
			assert.Contains(t, r.cur().Classes, f.Class, "%s: flow %s names its class", lang, f.Name)
		}
	}

	one := play(t, "incast", nil, 30*unit.Microsecond, 3)
	L := NewLayout(one.topo, 1280, 720, Options{Title: one.name})
	var b Builder
	b.Scene(one.frame(L))
	assert.Empty(t, b.classItems(), "one class: no class legend")
	v := b.View()
	require.NotNil(t, v)
	for _, f := range v.Flows {
		assert.Empty(t, f.Class)
	}
}
