package render

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/sim/golden"
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

// collAlgos are the other algorithms, looked at but without golden files.
var collAlgos = []struct {
	file, scenario string
	sets           []string
	until          unit.Time
}{
	{"tree", "ring-allreduce-8", []string{"collective.algo=tree"}, 1500 * unit.Microsecond},
	{"rabenseifner", "ring-allreduce-8", []string{"collective.algo=rabenseifner"}, 1500 * unit.Microsecond},
	{"nvls", "ring-allreduce-8", []string{"collective.algo=innetwork"}, 1500 * unit.Microsecond},
	{"broadcast", "ring-allreduce-8", []string{"collective.op=broadcast"}, 1500 * unit.Microsecond},
	{"pairwise", "alltoall-moe", []string{"collective.algo=pairwise"}, 150 * unit.Microsecond},
	{"hier-steps", "hierarchical-allreduce", []string{"collective.execution=steps"}, 2500 * unit.Microsecond},
	{"hier-ring", "hierarchical-allreduce", []string{"collective.algo=ring", "collective.execution=steps", "collective.chunk=64MiB"}, 2500 * unit.Microsecond},
	{"hier-nvlstree", "hierarchical-allreduce", []string{"collective.algo=nvlstree", "collective.execution=steps"}, 1500 * unit.Microsecond},
	{"hier-tree", "hierarchical-allreduce", []string{"collective.algo=tree"}, 1500 * unit.Microsecond},
	{"hier-256", "hierarchical-allreduce", []string{"topology.nodes=32"}, 1500 * unit.Microsecond},
}

// TestCollectiveLook writes PNGs of the collective views at 1280×720 and
// 1024×768, light, dark and presenter, to $RENDER_LOOK, for a person to look at.
func TestCollectiveLook(t *testing.T) {
	dir := lookDir(t, "the collective views")
	for _, v := range collViews {
		r := play(t, v.scenario, v.sets, v.until, 40)
		for _, sz := range lookSizes {
			for _, o := range lookThemes {
				o.opt.Title = r.name
				L := NewLayout(r.topo, sz.w, sz.h, o.opt)
				writeLook(t, dir, fmt.Sprintf("coll-%s-%.0f%s.png", v.file, sz.w, o.tag), Scene(r.frame(L)))
			}
		}
	}
	for _, v := range collAlgos {
		r := play(t, v.scenario, v.sets, v.until, 40)
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name})
		f, err := os.Create(filepath.Join(dir, "coll-algo-"+v.file+".png"))
		require.NoError(t, err)
		require.NoError(t, WritePNG(f, Scene(r.frame(L)), 1))
		require.NoError(t, f.Close())
	}
}

// sceneTexts is every text of a scene, one a line.
func sceneTexts(dl *DisplayList) string {
	var sb strings.Builder
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			sb.WriteString(p.Str)
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

func TestCollectiveGolden(t *testing.T) {
	for i, v := range collViews {
		t.Run(v.file, func(t *testing.T) {
			r := play(t, v.scenario, v.sets, v.until, 12)
			opt := Options{Title: r.name, Dark: i%2 == 1}
			L := NewLayout(r.topo, 1280, 720, opt)
			var buf bytes.Buffer
			require.NoError(t, Scene(r.frame(L)).SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", "collective-"+v.file+".svg"), buf.Bytes(),
				"the picture changed: look at it (RENDER_LOOK=/tmp go test ./render -run TestCollectiveLook), then go test ./render -update")
		})
	}
}

func TestCollectiveViewSays(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	scene := func(r *run) string {
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name})
		return sceneTexts(Scene(r.frame(L)))
	}
	rs := play(t, "ring-allreduce-8", nil, 1500*unit.Microsecond, 12)
	s := scene(rs)
	assert.Contains(t, s, "ring all-reduce · reduce-scatter · step 5 of 7")
	assert.Contains(t, s, "Chunks on each GPU, how far reduced")
	assert.Contains(t, s, "Steps over time")
	assert.NotContains(t, s, "Queue depth", "the chunk matrix takes the queue chart's place")
	assert.NotContains(t, s, "Flow completion times", "the steps chart takes the completion-time chart's place")
	c := rs.cur().Collective
	assert.Contains(t, s, fmt.Sprintf("algbw %s · busbw %s", fmtGBps(c.AlgBwGBps), fmtGBps(c.BusBwGBps)))

	assert.Contains(t, scene(play(t, "ring-allreduce-8", nil, 3500*unit.Microsecond, 12)), "ring all-reduce · all-gather · step 3 of 7")

	end := play(t, "ring-allreduce-8", nil, 6*unit.Millisecond, 12)
	s = scene(end)
	c = end.cur().Collective
	require.True(t, c.Finished)
	assert.Contains(t, s, "ring all-reduce · finished in 5.080 ms")
	assert.Contains(t, s, "final algbw 211.4 GB/s · busbw 369.9 GB/s", "the figures fabriclab run prints")

	h := scene(play(t, "hierarchical-allreduce", nil, 2500*unit.Microsecond, 12))
	assert.Contains(t, h, "hierarchical all-reduce · 4 phases at once, pipelined")
	assert.Contains(t, h, "on rails 0–7")
	assert.Contains(t, h, "all-gather across nodes (rail) · ")
	shared := scene(play(t, "hierarchical-allreduce", []string{"topology.nics_per_node=4"}, 2500*unit.Microsecond, 12))
	assert.Contains(t, shared, "on rails 0–3", "two GPUs a NIC: four rails")

	a := scene(play(t, "alltoall-moe", []string{"collective.pxn=false"}, 100*unit.Microsecond, 12))
	assert.Contains(t, a, "direct all-to-all · every one sends to every other at once")
	assert.Contains(t, a, "What each GPU has received")
	assert.Contains(t, a, "Bytes moved over time", "one step: the bytes moved, not a one-bar steps chart")
	pxn := scene(play(t, "alltoall-moe", nil, 100*unit.Microsecond, 12))
	assert.Contains(t, pxn, "What each GPU has received")
	assert.Contains(t, pxn, "direct all-to-all · to the destination's rail (NVLink)\n", "PXN's first step, in the header")
	assert.Contains(t, pxn, "to the destination's rail (NVLink)", "PXN's two steps, charted")
	rail := scene(play(t, "alltoall-moe", nil, 1200*unit.Microsecond, 12))
	assert.Contains(t, rail, "direct all-to-all · across nodes on the rail (PXN) · on rails 0–7")
	assert.Contains(t, pxn, "across nodes on the rail (PXN)")

	// other scenarios keep their charts
	in := scene(play(t, "incast", nil, 1*unit.Millisecond, 4))
	assert.Contains(t, in, "Queue depth")
	assert.Contains(t, in, "Flow completion times")
	assert.NotContains(t, in, "Chunks on each GPU")
}

// The ring's current step is drawn as one arrow per GPU, each from a GPU to
// the next (the ring's direction), under the GPUs.
func TestCollectiveArrowsFollowTheRing(t *testing.T) {
	r := play(t, "ring-allreduce-8", nil, 1500*unit.Microsecond, 12)
	L := NewLayout(r.topo, 1280, 720, Options{})
	dl := Scene(r.frame(L))
	var ends [][2]float32 // first and last x of each arrow's curve
	for i := range dl.Prims {
		p := &dl.Prims[i]
		if p.Kind == KindPolyline && p.Layer == LayerLink && p.Stroke != (&assets.Light).Background {
			pts := dl.Pts(p)
			ends = append(ends, [2]float32{pts[0], pts[len(pts)-2]})
		}
	}
	require.Len(t, ends, 8, "one arrow per GPU")
	gpu := func(x float32) int {
		for e, id := range r.topo.Endpoints {
			if nb := L.Nodes[id]; float64(x) >= nb.X && float64(x) <= nb.X+nb.W {
				return e
			}
		}
		return -1
	}
	for _, e := range ends {
		assert.Equal(t, (gpu(e[0])+1)%8, gpu(e[1]), "an arrow from GPU %d goes to the next", gpu(e[0]))
	}
}

// The all-to-all matrix names every row: a GPU per row where a row is as
// tall as its text, else each group of rows by its range of ranks.
func TestChunkMatrixLabelsEveryRow(t *testing.T) {
	r := play(t, "alltoall-moe", nil, 100*unit.Microsecond, 12)
	for _, sz := range []struct {
		w, h      float64
		presenter bool
	}{{1280, 720, false}, {1024, 768, false}, {1024, 720, true}} {
		L := NewLayout(r.topo, sz.w, sz.h, Options{Presenter: sz.presenter})
		dl := Scene(r.frame(L))
		require.Contains(t, sceneTexts(dl), "What each GPU has received")
		covered := map[int]bool{}
		for _, p := range dl.Prims {
			var lo, hi int
			if p.Kind != KindText || p.Layer != LayerChart {
				continue
			}
			if n, _ := fmt.Sscanf(p.Str, "GPU %d", &lo); n == 1 && !strings.Contains(p.Str, "·") {
				hi = lo
			} else if n, _ := fmt.Sscanf(p.Str, "%d–%d", &lo, &hi); n != 2 {
				continue
			}
			for k := lo; k <= hi; k++ {
				covered[k] = true
			}
		}
		for k := range 16 {
			assert.True(t, covered[k], "%v×%v: GPU %d's row is labelled", sz.w, sz.h, k)
		}
	}
}
