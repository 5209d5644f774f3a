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

// 128 DGX nodes are drawn as blocks of 64 ("nodes 0–63", "512 GPUs") under
// their rails, the 128 spines as one box; each block reaches each rail by
// one bundle of its 64 NICs' links.
func TestDGXGroups(t *testing.T) {
	r := play(t, "hierarchical-allreduce", []string{"topology.nodes=128"}, 2*unit.Millisecond, 2)
	L := NewLayout(r.topo, 768, 619, Options{Title: r.name})
	require.Len(t, L.Pods, 3, "two blocks of nodes and the spines")
	var all []string
	for _, pr := range Scene(r.frame(L)).Prims {
		if pr.Kind == KindText {
			all = append(all, pr.Str)
		}
	}
	for _, s := range []string{"nodes 0–63", "nodes 64–127", "512 GPUs", "spine0–127 · 128 switches", "rail0", "rail7"} {
		assert.Contains(t, all, s)
	}
	for _, p := range L.Pods[:2] {
		assert.True(t, p.Hosts)
		assert.Len(t, p.Nodes, 64*(8+8+1), "its nodes' GPUs, NICs and NVSwitches")
	}
	perRail := 0
	for _, bd := range L.Bundles {
		if bd.Pod == 0 {
			perRail++
			assert.Len(t, bd.UpIDs, 64, "a block's NICs on one rail")
		}
	}
	assert.Equal(t, 8, perRail, "a bundle to each rail")
	f := r.frame(L)
	f.Hover = HitTest(L, L.Pods[0].X+4, L.Pods[0].Y+L.Pods[0].H-4)
	require.Equal(t, HoverPod, f.Hover.Kind)
	var tip []string
	for _, pr := range Scene(f).Prims {
		if pr.Kind == KindText && pr.Layer == LayerTooltip {
			tip = append(tip, pr.Str)
		}
	}
	require.NotEmpty(t, tip)
	assert.Equal(t, "nodes 0–63", tip[0])
	assert.Contains(t, tip[1], "512 GPUs")
	// four nodes keep a block each
	r = play(t, "hierarchical-allreduce", nil, 2*unit.Millisecond, 2)
	L = NewLayout(r.topo, 768, 619, Options{})
	assert.Len(t, L.Pods, 4)
	assert.False(t, L.Pods[0].Hosts)
}

// DGX nodes in a pane too short for spines, rails and a block per node (a
// comparison's half at 1024×768: the tori lesson) are one box under the
// two rows of switches, none of them over it, and the box says what it
// holds; they were a blank box under spines and rails drawn over each other.
func TestDGXGroupsInAShortPane(t *testing.T) {
	r := play(t, "hierarchical-allreduce", []string{"topology.nodes=8", "collective.op=alltoall", "collective.algo=auto", "collective.bytes=16MiB"}, 100*unit.Microsecond, 1)
	for _, size := range [][2]float64{{612, 300}, {560, 280}} {
		L := NewLayout(r.topo, size[0], size[1], Options{Lang: EN})
		require.Less(t, L.Area.H, L.minAreaH(), "%v: a short pane", size)
		var group *Pod
		for i := range L.Pods {
			if L.Pods[i].Hosts && len(L.Pods[i].Nodes) > 8 {
				group = &L.Pods[i]
			}
		}
		require.NotNil(t, group, "%v: the nodes in a box", size)
		assert.True(t, groupClear(L, group), "%v: no switch over the box", size)
		for i := range L.Nodes {
			for j := i + 1; j < len(L.Nodes); j++ {
				if a, b := &L.Nodes[i], &L.Nodes[j]; a.Shown && b.Shown {
					assert.False(t, a.Overlaps(b.Rect), "%v: %s and %s apart", size, r.topo.Nodes[i].Name, r.topo.Nodes[j].Name)
				}
			}
		}
		var texts []string
		for _, pr := range Scene(r.frame(L)).Prims {
			if pr.Kind == KindText {
				texts = append(texts, pr.Str)
			}
		}
		assert.Contains(t, texts, group.Label, "%v: the box says which nodes", size)
	}
}
