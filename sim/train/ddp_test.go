package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

func TestResNet50BucketsFollowDDP(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	bs := Buckets(m, unit.MiB, 25*unit.MiB, 4)
	// Every tensor once, in reverse definition order.
	next := len(m.Tensors) - 1
	var total int64
	for _, b := range bs {
		for _, i := range b.Tensors {
			require.Equal(t, next, i)
			next--
		}
		total += b.Params
	}
	assert.Equal(t, -1, next)
	assert.Equal(t, m.Params(), total)

	// The first bucket closes at 1 MiB: fc.bias alone is 4000 bytes, so it takes
	// fc.weight (8 MB) too, and stops.
	require.GreaterOrEqual(t, len(bs), 2)
	assert.Equal(t, []int{160, 159}, bs[0].Tensors)
	// Later buckets close at the first tensor that reaches 25 MiB; only the last may be smaller.
	for i, b := range bs[1:] {
		bytes := b.Params * 4
		last := m.Tensors[b.Tensors[len(b.Tensors)-1]].Params * 4
		if i < len(bs)-2 {
			assert.GreaterOrEqual(t, bytes, int64(25*unit.MiB), "bucket %d", i+1)
			assert.Less(t, bytes-last, int64(25*unit.MiB), "bucket %d closes at the tensor that reaches the cap", i+1)
		} else {
			assert.Less(t, bytes, int64(25*unit.MiB)+last)
		}
	}
	// ~97.5 MiB of fp32 gradients: five buckets (1 + 4 of about 25 MiB).
	assert.Len(t, bs, 5)
}

func TestSmallerGradientsMakeFewerBuckets(t *testing.T) {
	m, err := Preset("resnet50")
	require.NoError(t, err)
	assert.Less(t, len(Buckets(m, unit.MiB, 25*unit.MiB, 2)), len(Buckets(m, unit.MiB, 25*unit.MiB, 4)))
}
