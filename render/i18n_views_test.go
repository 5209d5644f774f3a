package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim/golden"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// zhViews are the collective, training and routing scenes on a Chinese
// canvas: the first of each kind has a golden SVG.
var zhViews = []struct {
	file, scenario string
	sets           []string
	until          unit.Time
	training       bool
	selected       int
}{
	{"collective-zh", "ring-allreduce-8", nil, 1500 * unit.Microsecond, false, 0},
	{"training-zh", "dp-resnet50", nil, 14200 * unit.Microsecond, true, 0},
	{"routing-zh", "ecmp-collisions", nil, 150 * unit.Microsecond, false, 1 + 5},
	{"zh-hierarchical", "hierarchical-allreduce", nil, 2500 * unit.Microsecond, false, 0},
	{"zh-hier-nvlstree", "hierarchical-allreduce", []string{"collective.algo=nvlstree", "collective.execution=steps"}, 1500 * unit.Microsecond, false, 0},
	{"zh-rabenseifner", "ring-allreduce-8", []string{"collective.algo=rabenseifner"}, 1500 * unit.Microsecond, false, 0},
	{"zh-tree", "ring-allreduce-8", []string{"collective.algo=tree"}, 1500 * unit.Microsecond, false, 0},
	{"zh-nvls", "ring-allreduce-8", []string{"collective.algo=innetwork"}, 1500 * unit.Microsecond, false, 0},
	{"zh-ring-end", "ring-allreduce-8", nil, 6 * unit.Millisecond, false, 0},
	{"zh-alltoall", "alltoall-moe", nil, 100 * unit.Microsecond, false, 0},
	{"zh-pairwise", "alltoall-moe", []string{"collective.algo=pairwise"}, 150 * unit.Microsecond, false, 0},
	{"zh-broadcast", "ring-allreduce-8", []string{"collective.op=broadcast"}, 1500 * unit.Microsecond, false, 0},
	{"zh-fsdp", "dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=fsdp", "training.iterations=2"}, 60 * unit.Millisecond, true, 0},
	{"zh-tp", "dp-resnet50", []string{"sim.fidelity=flow", "training.model=gpt2-1.5b", "training.tp=4", "training.batch=2048"}, 45 * unit.Millisecond, true, 0},
	{"zh-zero1", "dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=zero1", "training.iterations=2"}, 0, true, 0},
	{"zh-spray", "permutation", []string{"network.routing=spray"}, 120 * unit.Microsecond, false, 1 + 3},
	{"zh-perm-1024", "perm-1024", nil, 40 * unit.Microsecond, false, 0},
}

// zhFrame plays a zh view and frames it at w×h.
func zhFrame(t *testing.T, i int, w, h float64, steps int, presenter ...bool) (*Frame, *Layout) {
	v := zhViews[i]
	r, _ := playTo(t, v.scenario, v.sets, v.until, steps)
	L := NewLayout(r.topo, w, h, Options{Title: r.name, Lang: ZH, Training: v.training, Dark: i%2 == 1, Presenter: len(presenter) > 0 && presenter[0]})
	f := r.frame(L)
	f.Selected = v.selected
	return f, L
}

func TestViewsZhGolden(t *testing.T) {
	for i, v := range zhViews[:3] {
		t.Run(v.file, func(t *testing.T) {
			f, _ := zhFrame(t, i, 1280, 720, 12)
			var buf bytes.Buffer
			require.NoError(t, Scene(f).SVG(&buf))
			requireWellFormed(t, buf.Bytes())
			golden.Equal(t, filepath.Join("testdata", v.file+".svg"), buf.Bytes(),
				"the picture changed: look at it (RENDER_LOOK=/tmp go test ./render -run TestViewsZhLook), then go test ./render -update")
		})
	}
}

// englishWord is a run of Latin letters a Chinese canvas should not show,
// unless it is a name the Chinese lessons keep (zhKept) or a node's or
// scenario's name.
var englishWord = regexp.MustCompile(`[A-Za-z][A-Za-z-]*[A-Za-z]`)

var zhKept = map[string]bool{
	"all-reduce": true, "all-to-all": true, "NVLink": true, "NVLS": true, "NVSwitch": true, "GPU": true,
	"algbw": true, "busbw": true, "Rabenseifner": true, "fabriclab": true, "run": true, "TP": true,
	"DDP": true, "ZeRO": true, "FSDP": true, "ECMP": true, "Gb": true, "GB": true, "MiB": true, "KiB": true,
	"GiB": true, "ms": true, "ns": true, "Pod": true, "Spine": true, "Leaf": true, "PFC": true, "ECN": true,
	"RoCE": true, "ib": true, "roce": true, "MB": true, "KB": true, "µs": true, "p": true, "CNP": true,
	"BECN": true, "PXN": true, "NCCL": true, "µb": true, "Tb": true, "InfiniBand": true, "Ethernet": true, "Mb": true, "s": true, "gpt": true, "resnet": true, "ResNet": true, "llama": true,
}

// A Chinese canvas of each view shows no English words but the names the
// lessons keep, the nodes' and the scenario's.
func TestViewsZhHaveNoEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for i, v := range zhViews {
		t.Run(v.file, func(t *testing.T) {
			f, L := zhFrame(t, i, 1280, 720, 12)
			kept := map[string]bool{}
			for _, n := range L.Topo.Nodes {
				for _, w := range englishWord.FindAllString(n.Name, -1) {
					kept[w] = true
				}
			}
			for _, w := range englishWord.FindAllString(v.scenario, -1) {
				kept[w] = true
			}
			if f.Cur.Routing != nil && f.Cur.Routing.Routes != nil {
				for _, n := range f.Cur.Routing.Routes.Names {
					for _, w := range englishWord.FindAllString(n, -1) {
						kept[w] = true
					}
				}
			}
			for _, s := range strings.Split(sceneTexts(Scene(f)), "\n") {
				for _, w := range englishWord.FindAllString(s, -1) {
					assert.True(t, zhKept[w] || kept[w], "%q in %q is English on a Chinese canvas", w, s)
				}
			}
		})
	}
}

// The words the training view builds from the simulation's parts say in
// English what snap's own strings say, and in Chinese no English but kept
// names: every wait and collective of the runs has its words.
func TestTrainingWordsFromParts(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, sets := range [][]string{
		{"sim.fidelity=flow", "training.iterations=2"},
		{"sim.fidelity=flow", "training.sharding=zero1", "training.iterations=2"},
		{"sim.fidelity=flow", "training.sharding=fsdp", "training.iterations=2"},
		{"sim.fidelity=flow", "training.model=gpt2-1.5b", "training.tp=4", "training.batch=2048", "training.iterations=1"},
	} {
		r, _ := playTo(t, "dp-resnet50", sets, 0, 40)
		zh := func(s string) {
			for _, w := range englishWord.FindAllString(s, -1) {
				assert.True(t, zhKept[w], "%v: %q in %q is English", sets, w, s)
			}
		}
		seen := map[snap.DoingKind]bool{}
		for _, s := range r.history {
			tr := s.Training
			require.NotNil(t, tr)
			for k := range 50 {
				at := s.Time - unit.Time(k)*s.Time/200
				d := tr.DoingAt(at)
				seen[d.Kind] = true
				assert.Equal(t, tr.Doing(at), doingWords(EN, d, tr.Sharding), "%v at %v", sets, at)
				zh(doingWords(ZH, d, tr.Sharding))
			}
			for _, c := range append(tr.Comms, tr.Running[:]...) {
				if c.Label != "" {
					assert.Equal(t, c.Label, commWords(EN, &c, tr.Sharding), "%v", sets)
					zh(commWords(ZH, &c, tr.Sharding))
				}
			}
			for _, k := range tr.Tasks {
				if k.Waited != "" {
					zh(waitWords(ZH, k.Waited))
				}
			}
		}
		assert.True(t, seen[snap.Busy] && seen[snap.Waiting], "%v: the times looked at compute and wait: %v", sets, seen)
	}
	assert.Equal(t, "等待 all-reduce（桶 3）", spaced(i18n.Tf(ZH, "train.wait.for", commWords(ZH, &snap.Comm{Kind: "allreduce", Group: 3}, "none"))))
	assert.Equal(t, "等待规约散射（单元 2）", spaced(i18n.Tf(ZH, "train.wait.for", commWords(ZH, &snap.Comm{Kind: "reducescatter", Group: 2}, "fsdp"))))
}

// TestViewsZhLook writes PNGs of the zh views at 1280×720 and 1024×768 to
// $RENDER_LOOK, for a person to look at.
func TestViewsZhLook(t *testing.T) {
	dir := lookDir(t, "the zh views")
	for i, v := range zhViews {
		for _, sz := range lookSizes {
			f, _ := zhFrame(t, i, sz.w, sz.h, 40)
			writeLook(t, dir, fmt.Sprintf("%s-%.0f.png", v.file, sz.w), Scene(f))
		}
		if i < 3 { // presenter mode: larger text
			f, _ := zhFrame(t, i, 1280, 720, 40, true)
			writeLook(t, dir, v.file+"-presenter.png", Scene(f))
		}
	}
}
