package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

// With DCQCN the canvas shows marked packets, each held-back sender's rate,
// and the marking thresholds on the queue chart.
func TestCongestionControlViews(t *testing.T) {
	r := play(t, "incast-dcqcn", []string{"traffic.bytes=8MiB"}, 400*unit.Microsecond, 40)
	L := NewLayout(r.topo, 1280, 720, Options{Dark: true, ECNKmin: 419 << 10, ECNKmax: 1677 << 10})
	var marks int64
	for _, l := range r.cur().Links {
		marks += l.ECNMarks
	}
	require.Positive(t, marks, "the switch marked packets")
	gauged := 0
	for _, f := range r.cur().Flows {
		if f.RateGbps > 0 {
			gauged++
			assert.Less(t, f.RateGbps, 400.0, "DCQCN slowed the sender")
		}
	}
	require.Positive(t, gauged)

	dl := Scene(r.frame(L))
	texts := map[string]bool{}
	gauges := 0
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			texts[p.Str] = true
			if strings.HasSuffix(p.Str, "Gb/s") && p.Layer == LayerLabel {
				gauges++
			}
		}
	}
	assert.True(t, texts["ECN-marked"], "the legend explains the marked-packet ring")
	assert.Positive(t, gauges, "rate gauges under the senders")
	if texts["Kmax"] || texts["Kmin"] {
		return // thresholds drawn when they fall within the chart's scale
	}
	t.Log("queue chart scale is above both thresholds: lines not drawn")
}
