package render

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/assets"
	"fabriclab/i18n"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// Storage nodes are drawn in a block of their own right of the DGX nodes,
// named as storage, their leaf right of the rails at the rails' height; at
// 800 ms checkpoint-llama3-8b writes its checkpoint, so they communicate;
// the header counts them and the view's table lists them.
func TestStorageNodesDrawn(t *testing.T) {
	r := play(t, "checkpoint-llama3-8b", nil, 800*unit.Millisecond, 8)
	tp := r.topo
	require.Equal(t, 4, tp.Storage)
	storage := tp.Endpoints[len(tp.Endpoints)-4:]
	for _, lang := range []Lang{EN, ZH} {
		for _, size := range [][2]float64{{1280, 720}, {1024, 768}, {1280, 620}} { // 620: the embed page's canvas above its controls
			L := NewLayout(tp, size[0], size[1], Options{Title: r.name, Lang: lang, Training: true})
			var b Builder
			drawn := texts(b.Scene(r.frame(L)))
			sl := storageLeaf(tp)
			require.GreaterOrEqual(t, sl, 0)
			assert.True(t, L.Nodes[sl].Shown)
			for _, rail := range L.fabricLeaves() {
				assert.Greater(t, L.Nodes[sl].X, L.Nodes[rail].X+L.Nodes[rail].W, "the storage leaf is right of %s", tp.Nodes[rail].Name)
				assert.InDelta(t, L.Nodes[rail].Y, L.Nodes[sl].Y, 0.5, "level with the rails")
			}
			assert.NotEmpty(t, L.Nodes[sl].Label)
			for i, id := range storage {
				nb := L.Nodes[id]
				assert.True(t, nb.Shown)
				assert.True(t, L.StorageBlock.Contains(nb.X, nb.Y) && L.StorageBlock.Contains(nb.X+nb.W, nb.Y+nb.H), "storage %d in its block", i)
				assert.Contains(t, []string{i18n.Tf(lang, "node.storage", i), fmt.Sprintf("S%d", i)}, nb.Label, "a label in any room")
				assert.Contains(t, drawn, nb.Label)
				assert.Equal(t, snap.Communicating, r.cur().Activity[len(tp.Endpoints)-4+i], "the checkpoint is under way")
				for other := range tp.Nodes {
					if o := L.Nodes[other]; o.Shown && other != id && tp.Nodes[other].Role != topo.Storage {
						assert.False(t, nb.Overlaps(o.Rect), "storage %d and %s", i, tp.Nodes[other].Name)
					}
				}
			}
			assert.Contains(t, drawn, i18n.T(lang, "node.storage.block"))
			assert.Contains(t, drawn, i18n.Tf(lang, "head.storage", 4)[len(" · "):])
			v := b.View()
			require.NotNil(t, v)
			var listed []string
			for _, n := range v.Nodes {
				if n.Kind == i18n.T(lang, "role.storage") {
					listed = append(listed, n.Name)
				}
			}
			assert.Equal(t, []string{i18n.Tf(lang, "node.storage", 0), i18n.Tf(lang, "node.storage", 1), i18n.Tf(lang, "node.storage", 2), i18n.Tf(lang, "node.storage", 3)}, listed)
		}
	}
}

// The training timeline marks a checkpoint's span above its plot, in its
// colour with its name (and the legend's): under way at 800 ms, none yet
// at 100 ms.
func TestTimelineMarksTheCheckpoint(t *testing.T) {
	r := play(t, "checkpoint-llama3-8b", nil, 800*unit.Millisecond, 8)
	require.NotEmpty(t, r.cur().Training.SaveStarts)
	saveBars := func(dl *DisplayList) int {
		n := 0
		for _, p := range dl.Prims {
			if p.Kind == KindRect && p.Fill == assets.Light.Flows[len(assets.Light.Flows)-1] {
				n++
			}
		}
		return n
	}
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name, Lang: lang, Training: true})
		var b Builder
		dl := b.Scene(r.frame(L))
		assert.Positive(t, saveBars(dl), "%s: the span", lang)
		assert.Contains(t, texts(dl), i18n.T(lang, "train.save"), lang)
		f := r.frame(L)
		f.Cur = r.history[0] // 100 ms: no checkpoint yet
		var early Builder
		assert.Zero(t, saveBars(early.Scene(f)), lang)
	}
}
