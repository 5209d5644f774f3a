package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

// Hosts too many for a labelled box each (64 per leaf in ecmp-collisions)
// are drawn as one box per leaf that says what it holds; its links to the
// leaf as one bundle with the links' mean load; hovering the box or the
// bundle says what it holds, and a host's cell is still a host.
func TestHostGroups(t *testing.T) {
	r := play(t, "ecmp-collisions", nil, 150*unit.Microsecond, 2)
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Lang: lang})
		require.Len(t, L.Pods, 2, "a group per leaf")
		p := &L.Pods[0]
		assert.True(t, p.Hosts)
		assert.Len(t, p.Nodes, 64)
		want := map[Lang]string{EN: "h0–h63 · 64 hosts", ZH: "0–63号 · 64 台主机"}[lang]
		texts := func(h Hover) (all, tip []string) {
			f := r.frame(L)
			f.Hover = h
			for _, pr := range Scene(f).Prims {
				if pr.Kind == KindText {
					all = append(all, pr.Str)
					if pr.Layer == LayerTooltip {
						tip = append(tip, pr.Str)
					}
				}
			}
			return all, tip
		}
		all, _ := texts(Hover{})
		assert.Contains(t, all, want, "the box says its hosts and their count")
		for _, id := range p.Nodes {
			assert.False(t, L.Nodes[id].Shown, "a grouped host is a cell")
			assert.True(t, p.Contains(L.Nodes[id].Center()), "its cell is in the box")
		}
		// the box, between its cells and its label
		h := HitTest(L, p.X+2*L.U, p.Y+2*L.U)
		require.Equal(t, HoverPod, h.Kind)
		_, tip := texts(h)
		assert.Contains(t, tip, map[Lang]string{EN: "h0–h63", ZH: "0–63号"}[lang])
		assert.Contains(t, tip[1], "64")
		// a cell is its host
		x, y := L.Nodes[p.Nodes[5]].Center()
		h = HitTest(L, x, y)
		assert.Equal(t, Hover{Kind: HoverNode, ID: p.Nodes[5], X: x, Y: y}, h)
		// the bundle to the leaf
		require.NotEmpty(t, L.Bundles)
		bd := &L.Bundles[0]
		assert.Len(t, bd.UpIDs, 64)
		h = HitTest(L, (bd.Up.X1+bd.Up.X2)/2, (bd.Up.Y1+bd.Up.Y2)/2)
		require.Equal(t, HoverBundle, h.Kind)
		_, tip = texts(h)
		assert.Equal(t, map[Lang]string{EN: "h0–h63 ⇄ leaf0", ZH: "0–63号 ⇄ leaf0"}[lang], tip[0])
	}
	// few hosts keep a box and a name each
	r = play(t, "incast", nil, 100*unit.Microsecond, 2)
	L := NewLayout(r.topo, 1280, 720, Options{})
	assert.Empty(t, L.Pods)
	assert.True(t, L.Nodes[r.topo.Endpoints[0]].Shown)
}
