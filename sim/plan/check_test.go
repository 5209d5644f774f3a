package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/golden"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
)

// TestErrorCases runs sim/scenario's error cases (testdata/errors there:
// NAME.yaml, which may start with "# --set key=value" lines, and NAME.err)
// through ParseWith: the checks that need an algorithm give their message
// word for word, located in the document as scenario.ParseWith's are; and
// Resolve makes them again on a scenario that skipped them.
func TestErrorCases(t *testing.T) {
	paths, err := filepath.Glob("../scenario/testdata/errors/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	resolved := 0 // cases whose error is plan's check
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		_, files := golden.Archive(string(data))
		for i := 0; i+1 < len(files); i += 2 {
			inName, in := files[i].Name, files[i].Text
			errName, want := files[i+1].Name, files[i+1].Text
			require.Equal(t, strings.TrimSuffix(inName, ".yaml")+".err", errName, path)
			var sets []string
			for line := range strings.Lines(in) {
				set, ok := strings.CutPrefix(line, "# --set ")
				if !ok {
					break
				}
				sets = append(sets, strings.TrimSpace(set))
			}
			_, err := plan.ParseWith([]byte(in), inName, sets)
			require.Error(t, err, "%s: %s", path, inName)
			assert.Equal(t, strings.TrimSuffix(want, "\n"), err.Error(), "%s: %s", path, inName)
			if sc, err := scenario.ParseWith([]byte(in), inName, sets); err == nil {
				resolved++ // plan's check
				_, err = plan.Resolve(&sc)
				assert.Error(t, err, "%s: %s: Resolve makes the check again", path, inName)
			}
		}
	}
	assert.GreaterOrEqual(t, resolved, 10, "the cases of the checks that need an algorithm")
}

// The names sim/scenario accepts without importing the algorithms are
// theirs.
func TestScenarioKnowsTheNames(t *testing.T) {
	assert.Equal(t, train.Presets(), scenario.TrainingModels)
	assert.Equal(t, train.Shardings, scenario.Shardings)
	assert.Equal(t, train.Checkpointings, scenario.Checkpointings)
	assert.Contains(t, coll.Ops, "broadcast")
	assert.Contains(t, coll.Ops, "alltoall")
	assert.Equal(t, coll.Ring, "ring", "training.algo's default, by name")
	assert.Equal(t, coll.Hierarchical, "hierarchical")
}

// A custom model's layers become the training job's model.
func TestCustomModel(t *testing.T) {
	sc, err := scenario.ParseWith([]byte("training: {model: custom, layers: [{name: fc, params: 1000000, flops: 2000000}]}\n"), "t.yaml",
		[]string{"training.layers[0].params=2000000"})
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	require.NotNil(t, p.Training)
	m := p.Training.Config.Model
	require.Len(t, m.Tensors, 1)
	assert.Equal(t, train.Tensor{Name: "fc", Params: 2_000_000, FwdFLOPs: 2e6}, m.Tensors[0])
}

// TestCollectiveTransfersRefusedUpFront: a collective whose step-by-step
// transfers (× channels × pieces) pass a run's flows is refused by
// validation, naming a chunk that fits, not after the network is built.
func TestCollectiveTransfersRefusedUpFront(t *testing.T) {
	data, ok := scenario.Builtin("ring-allreduce-8")
	require.True(t, ok)
	parse := func(chunk string) error {
		_, err := plan.ParseWith(data, "ring-allreduce-8.yaml", []string{"sim.fidelity=flow", "collective.execution=steps", "collective.bytes=1TiB", "collective.chunk=" + chunk})
		return err
	}
	err := parse("4KiB")
	require.Error(t, err)
	assert.Equal(t, "--set collective.chunk=4KiB: collective.chunk: allreduce/ring on 8 ranks makes 30064771072 transfers, more than the 2097152 a run may make: "+
		"use collective.execution: streamed (one transfer per pair per phase), or collective.chunk: 57359KiB or more", err.Error())
	assert.NoError(t, parse("57359KiB"), "the chunk named fits")
	assert.Error(t, parse("57358KiB"), "and no smaller whole KiB does")
}

// TestCollectiveRanges: collective.bytes at packet level is refused past the
// packets a run may hold, naming the key that was set (the rest of the
// key's range is sim/scenario's TestRanges).
func TestCollectiveRanges(t *testing.T) {
	doc := []byte("name: r\ncollective: {op: allreduce, algo: ring, bytes: 1MiB}\n")
	_, err := plan.ParseWith(doc, "r.yaml", []string{"collective.bytes=40GiB"})
	assert.NoError(t, err)
	_, err = plan.ParseWith(doc, "r.yaml", []string{"collective.bytes=1TiB"})
	var se *scenario.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "collective.bytes", se.Key)
	assert.Equal(t, "--set collective.bytes=1TiB", se.Source)
}
