package render

import (
	"image/color"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim/unit"
)

// channelScene draws hierarchical-allreduce on 2 nodes with algo at the
// snapshot where share of the run's snapshots has passed.
func channelScene(t *testing.T, algo string, nodes string, steps int) (*run, *Layout, *DisplayList) {
	t.Helper()
	r := play(t, "hierarchical-allreduce", []string{"topology.nodes=" + nodes, "collective.algo=" + algo, "collective.bytes=64MiB", "sim.fidelity=flow"}, 60*unit.Microsecond, steps)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	return r, L, Scene(r.frame(L))
}

// badges are the marker texts on GPU boxes' corners: GPU endpoint → number.
func badges(r *run, L *Layout, dl *DisplayList) map[int]string {
	out := map[int]string{}
	for _, p := range dl.Prims {
		if p.Kind != KindText || p.Layer != LayerMarker {
			continue
		}
		for e, id := range r.topo.Endpoints {
			nb := L.Nodes[id]
			if abs(float64(p.X)-(nb.X+0.3*6.5*L.U)) < 0.5 && abs(float64(p.Y)-(nb.Y-0.3*6.5*L.U)) < 0.5 {
				out[e] = p.Str
			}
		}
	}
	return out
}

func abs(v float64) float64 { return max(v, -v) }

// strokes counts the polylines drawn in c on the links' layer (a hop each; its arrowhead is two lines).
func strokes(dl *DisplayList, c color.RGBA) int { return prims(dl, LayerLink, KindPolyline, c) }

// legendMarks counts the legend's lines in c (a channel's mark each).
func legendMarks(dl *DisplayList, c color.RGBA) int { return prims(dl, LayerLabel, KindLine, c) }

// prims counts the primitives of kind drawn in c on layer.
func prims(dl *DisplayList, layer Layer, kind Kind, c color.RGBA) int {
	n := 0
	for _, p := range dl.Prims {
		if p.Layer == layer && p.Kind == kind && p.Stroke == c {
			n++
		}
	}
	return n
}

// On 2 whole nodes the canvas shows NCCL's channel 0 ring as the
// simulation built it: node 0's GPUs numbered 1…8 in order, node 1's
// backwards, out of node 0 by GPU 7's NIC along rail 7; the legend names
// the channel. Later in the run another channel has its turn.
func TestChannelRing(t *testing.T) {
	r, L, dl := channelScene(t, "ring", "2", 1)
	texts := sceneTexts(dl)
	require.Contains(t, texts, "NCCL ring, channel 00/16: numbers are the GPU order")
	got := badges(r, L, dl)
	want := map[int]string{}
	for g := range 8 {
		want[g] = itoa(g + 1)
		want[8+g] = itoa(8 - g)
	}
	assert.Equal(t, want, got)
	pink := (&assets.Dark).Categorical(7)
	assert.Equal(t, 16, strokes(dl, pink), "a stroke per hop: 14 arcs and 2 paths through the network")
	// The path out of node 0 goes through GPU 7's NIC and rail 7.
	nic := L.Nodes[nodeNamed(t, r, "n0.nic7")]
	rail := L.Nodes[nodeNamed(t, r, "rail7")]
	through := func(nb NodeBox) bool {
		cx, cy := nb.Center()
		for _, p := range dl.Prims {
			if p.Kind == KindPolyline && p.Stroke == pink {
				pts := dl.Pts(&p)
				for i := 0; i+1 < len(pts); i += 2 {
					if abs(float64(pts[i])-cx) < 0.5 && abs(float64(pts[i+1])-cy) < 0.5 {
						return true
					}
				}
			}
		}
		return false
	}
	assert.True(t, through(nic), "out by n0.nic7")
	assert.True(t, through(rail), "along rail 7")
	assert.False(t, through(L.Nodes[nodeNamed(t, r, "n0.nic3")]), "not by n0.nic3")

	r2 := play(t, "hierarchical-allreduce", []string{"topology.nodes=2", "collective.algo=ring", "collective.bytes=64MiB", "sim.fidelity=flow"}, 2*unit.Millisecond, 1)
	require.True(t, r2.cur().Collective.Done > 0.5, "half way: %g", r2.cur().Collective.Done)
	late := sceneTexts(Scene(r2.frame(L)))
	assert.NotContains(t, late, "channel 00/16")
	assert.Contains(t, late, "NCCL ring, channel ")
}

// A tree channel shows with its twin on the double binary tree's other
// tree: the chain through each node from GPU 0 numbered 1…8, a hop
// between the nodes' heads for each tree.
func TestChannelTree(t *testing.T) {
	r, L, dl := channelScene(t, "tree", "2", 1)
	require.Contains(t, sceneTexts(dl), "NCCL trees, channels 00 and 08/16: numbers are the chain order")
	want := map[int]string{}
	for g := range 8 {
		want[g], want[8+g] = itoa(g+1), itoa(g+1)
	}
	assert.Equal(t, want, badges(r, L, dl))
	th := &assets.Dark
	assert.Equal(t, 15, strokes(dl, th.Categorical(7)), "the shared chain's 14 hops and tree 0's hop between the heads")
	assert.Equal(t, 1, strokes(dl, th.Categorical(1)), "tree 1's hop between the heads")
}

// No channel view where the snapshot carries no routes: NCCL's rings over
// 64 nodes (beyond snap.MaxCollRoutes), or another algorithm; the step's
// transfers are drawn as before.
func TestChannelNotShown(t *testing.T) {
	for _, c := range []struct{ algo, nodes string }{{"ring", "64"}, {"hierarchical", "2"}} {
		_, _, dl := channelScene(t, c.algo, c.nodes, 1)
		assert.False(t, strings.Contains(sceneTexts(dl), "NCCL ring") || strings.Contains(sceneTexts(dl), "NCCL trees"), "%s on %s nodes", c.algo, c.nodes)
	}
}

func nodeNamed(t *testing.T, r *run, name string) int {
	t.Helper()
	for i, n := range r.topo.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %s", name)
	return -1
}

// Where the GPU boxes are too small for the badges, the legend does not
// speak of numbers.
func TestChannelLegendWithoutBadges(t *testing.T) {
	r := play(t, "hierarchical-allreduce", []string{"topology.nodes=2", "collective.algo=ring", "collective.bytes=64MiB", "sim.fidelity=flow"}, 60*unit.Microsecond, 1)
	L := NewLayout(r.topo, 768, 619, Options{Lang: ZH})
	dl := Scene(r.frame(L))
	assert.Empty(t, badges(r, L, dl))
	assert.Contains(t, sceneTexts(dl), "NCCL 环，通道 00/16\n")
}

// On one DGX node (ring-allreduce-8) the canvas shows the ring every
// channel runs through the node's GPUs: numbered 1…8 in order, a hop over
// NVSwitch from each to the next and from GPU 7 back to GPU 0, none
// through the network; the legend names the channel of 8 as NCCL prints
// it (Channel 00/08), and later in the run another channel has its turn.
func TestChannelOneNode(t *testing.T) {
	r := play(t, "ring-allreduce-8", []string{"collective.bytes=64MiB"}, 20*unit.Microsecond, 1)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	dl := Scene(r.frame(L))
	require.Contains(t, sceneTexts(dl), "NCCL ring, channel 00/08: numbers are the GPU order\n")
	want := map[int]string{}
	for g := range 8 {
		want[g] = itoa(g + 1)
	}
	assert.Equal(t, want, badges(r, L, dl))
	pink := (&assets.Dark).Categorical(7)
	assert.Equal(t, 8, strokes(dl, pink), "8 arcs over NVSwitch, the last back to GPU 0")
	assert.Equal(t, 1, legendMarks(dl, pink))

	r2 := play(t, "ring-allreduce-8", []string{"collective.bytes=64MiB"}, 150*unit.Microsecond, 1)
	require.Greater(t, r2.cur().Collective.Done, 0.3)
	late := sceneTexts(Scene(r2.frame(L)))
	assert.NotContains(t, late, "channel 00/08")
	assert.Contains(t, late, "NCCL ring, channel ")

	// The tree on one node is a chain: both trees of a channel run it, one
	// line, one mark in the legend.
	r3 := play(t, "ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.algo=tree"}, 20*unit.Microsecond, 1)
	dl3 := Scene(r3.frame(L))
	require.Contains(t, sceneTexts(dl3), "NCCL trees, channels ")
	assert.Equal(t, 1, legendMarks(dl3, pink))
	assert.Zero(t, legendMarks(dl3, (&assets.Dark).Categorical(1)), "no second mark for a twin not drawn")
	assert.Zero(t, strokes(dl3, (&assets.Dark).Categorical(1)))

	// On one channel (the ring lessons' channels: 1) the step's transfers
	// are the ring: drawn step by step, without badges.
	r4 := play(t, "ring-allreduce-8", []string{"collective.bytes=64MiB", "collective.channels=1", "collective.chunk=0"}, 20*unit.Microsecond, 1)
	dl4 := Scene(r4.frame(L))
	assert.NotContains(t, sceneTexts(dl4), "NCCL ring")
	assert.Empty(t, badges(r4, L, dl4))
	assert.Equal(t, 8, strokes(dl4, (&assets.Dark).Categorical(0)), "the step's 8 transfers in channel 0's colour")
}

// Where nodes are drawn in groups (32 nodes at 1280×720: 4 groups of 8),
// the ring's channel shows as the rails its hops between nodes take:
// channel 0 alternates rails 7 and 0 from node to node, so each group's
// bundles up to rail 0 and rail 7 and down from them, and no other rail's;
// the legend says so. The trees on 16 nodes in 2 groups: each tree's hops
// between heads on rail 0, the twin beside the first.
func TestChannelGroups(t *testing.T) {
	r := play(t, "hierarchical-allreduce", []string{"topology.nodes=32", "collective.algo=ring", "collective.bytes=64MiB", "sim.fidelity=flow"}, 60*unit.Microsecond, 1)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true})
	require.Len(t, L.Pods, 4)
	dl := Scene(r.frame(L))
	require.Contains(t, sceneTexts(dl), "NCCL ring, channel 00/16: the rails it takes between nodes\n")
	assert.Empty(t, badges(r, L, dl))
	pink := (&assets.Dark).Categorical(7)
	perRail := map[string]int{}
	for _, p := range dl.Prims {
		if p.Layer != LayerLink || p.Kind != KindPolyline || p.Stroke != pink {
			continue
		}
		pts := dl.Pts(&p)
		require.Len(t, pts, 4)
		x, y, dir := float64(pts[0]), float64(pts[1]), " down" // the end at the rail: the higher
		if pts[3] < pts[1] {
			x, y, dir = float64(pts[2]), float64(pts[3]), " up"
		}
		for _, rail := range []string{"rail0", "rail1", "rail6", "rail7"} {
			nb := L.Nodes[nodeNamed(t, r, rail)]
			if cx, _ := nb.Center(); abs(x-cx) < 3*L.U && abs(y-(nb.Y+nb.H)) < 3*L.U {
				perRail[rail+dir]++
			}
		}
	}
	assert.Equal(t, map[string]int{"rail0 up": 4, "rail0 down": 4, "rail7 up": 4, "rail7 down": 4}, perRail, "each of 4 groups up to and down from rails 0 and 7")

	r2 := play(t, "hierarchical-allreduce", []string{"topology.nodes=16", "collective.algo=tree", "collective.bytes=64MiB", "sim.fidelity=flow"}, 60*unit.Microsecond, 1)
	L2 := NewLayout(r2.topo, 900, 620, Options{Dark: true})
	require.Len(t, L2.Pods, 2)
	dl2 := Scene(r2.frame(L2))
	require.Contains(t, sceneTexts(dl2), "NCCL trees, channels 00 and 08/16: the rails they take between nodes\n")
	blue := (&assets.Dark).Categorical(1)
	assert.Positive(t, strokes(dl2, pink))
	assert.Positive(t, strokes(dl2, blue))
	assert.Equal(t, 1, legendMarks(dl2, blue))
}

// The grouped views' legends (the longest channel texts) are there and fit
// at every size TestTextFits checks, in both languages: where a legend row
// is too narrow for the explanation, the channel's name alone.
func TestChannelGroupsFit(t *testing.T) {
	for _, c := range []struct{ algo, nodes string }{{"ring", "32"}, {"tree", "16"}} {
		r := play(t, "hierarchical-allreduce", []string{"topology.nodes=" + c.nodes, "collective.algo=" + c.algo, "collective.bytes=64MiB", "sim.fidelity=flow"}, 60*unit.Microsecond, 2)
		for _, sz := range fitSizes {
			for _, lang := range []Lang{EN, ZH} {
				L := NewLayout(r.topo, sz.w, sz.h, Options{Lang: lang, Presenter: sz.presenter, Dark: true})
				dl := Scene(r.frame(L))
				floor := 12.0
				if sz.presenter {
					floor = 18
				}
				assert.Contains(t, sceneTexts(dl), "NCCL", "%s on %s nodes, %s %s: the legend names the channel, if only by its name", c.algo, c.nodes, sz.name, langTag(lang))
				for _, p := range fitProblems(dl, floor) {
					assert.NotContains(t, p, "NCCL", "%s on %s nodes, %s %s", c.algo, c.nodes, sz.name, langTag(lang))
				}
			}
		}
	}
}
