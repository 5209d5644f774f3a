package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The presets' parameter counts are built from their architectures and must
// land on the published figures.
func TestPresetParameterCounts(t *testing.T) {
	for _, name := range Presets() {
		m, err := Preset(name)
		require.NoError(t, err)
		assert.Equal(t, m.Published, m.Params(), name)
	}
}

func TestResNet50FLOPs(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	assert.Len(t, m.Tensors, 161, "torchvision resnet50 has 161 parameter tensors")
	// 4.09 G multiply-adds forward per 224×224 image (convolutions and fc).
	assert.InEpsilon(t, 2*4.09e9, m.FwdFLOPs(), 0.02)
}

func TestTransformerFLOPsAreAboutTwicePerParameter(t *testing.T) {
	m, err := Preset("gpt2-1.5b")
	require.NoError(t, err)
	// 2·N per token plus attention, within a few tens of percent at seq 1024.
	ratio := m.FwdFLOPs() / (2 * float64(m.Params()))
	assert.Greater(t, ratio, 1.0)
	assert.Less(t, ratio, 1.3)
}

func TestUnknownPresets(t *testing.T) {
	_, err := Preset("bert")
	assert.ErrorContains(t, err, "use one of gpt2-1.5b, llama3-8b, resnet50")
	_, err = GPUPreset("v100")
	assert.ErrorContains(t, err, "use one of a100, b200, h100, h200")
}

func TestComputeSeconds(t *testing.T) {
	m := &Model{Tensors: []Tensor{{Params: 600_000, FwdFLOPs: 1e9}, {Params: 400_000}}}
	gpu := GPU{PeakFLOPS: 1e12, HBM: 1e12}
	// Forward and backward: 3 × 1e9 FLOPs × 2 samples × 3 micro-batches at half of 1e12 FLOP/s;
	// the optimizer: 28 bytes per parameter at 1e12 bytes/s.
	assert.InDelta(t, 3*1e9*2*3/5e11+1e6*28/1e12, ComputeSeconds(m, gpu, 0.5, NoCheckpointing, 2, 3), 1e-12)
}
