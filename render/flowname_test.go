package render

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/sim/unit"
)

// TestNamedFlowInChinese: a flow name the catalogue knows (victim) is tagged
// in the canvas's language, on the topology and at its chart line.
func TestNamedFlowInChinese(t *testing.T) {
	r := play(t, "victim-flow", nil, 1200*unit.Microsecond, 4)
	var b Builder
	dl := b.Scene(r.frame(NewLayout(r.topo, 1280, 720, Options{Lang: ZH})))
	s := texts(dl)
	assert.NotContains(t, s, "\nvictim\n")
	n := 0
	for _, p := range dl.Prims {
		if p.Kind == KindText && p.Str == "受害流" {
			n++
		}
	}
	assert.Equal(t, 2, n, "the tag over the sender and the chart line's name")
}
