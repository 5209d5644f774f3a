package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A load that changes only a setting it says changes only the report (the
// price knob's training.gpu_hour_price, in report) after a finished run
// prices that run again (figures at once, no new run, no "loaded"); one that
// changes anything else, or does not say so, or comes before the run is
// done, runs.
func TestPriceLoadRepricesTheRun(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	yaml := `name: small-training
topology: {kind: dgx, nodes: 1, fabric: ib, link_gbps: 400}
training: {model: resnet50, gpu: h100, iterations: 1}
sim: {fidelity: flow}
`
	spec := "training.cost.per_hour.cost | 2"
	load := func(sets ...string) {
		var report []string
		for _, s := range sets {
			if strings.HasPrefix(s, "training.gpu_hour_price=") {
				report = append(report, s)
			}
		}
		data, err := json.Marshal(map[string]any{"fabriclab": "load", "yaml": yaml, "step": "cost", "set": sets, "figures": []string{spec}, "report": report})
		require.NoError(t, err)
		h.events = nil
		h.send(string(data))
	}
	run := func() {
		for i := 0; i < 5000 && (g.p == nil || !g.p.Done() || count(h, "figures") == 0); i++ {
			require.NoError(t, g.Update())
		}
		require.Equal(t, 1, count(h, "figures"))
	}
	figure := func() string {
		for _, e := range h.events {
			if e["fabriclab"] == "figures" {
				return e["values"].(map[string]any)[spec].(string)
			}
		}
		return ""
	}

	load("training.gpu_hour_price=2")
	run()
	first, at2 := g.p, figure()
	require.Equal(t, 1, count(h, "loaded"))

	load("training.gpu_hour_price=4")
	require.NoError(t, g.Update())
	assert.Equal(t, 0, count(h, "loaded"), "no new run")
	assert.Same(t, first, g.p, "the same run on screen")
	require.Equal(t, 1, count(h, "figures"), "the figures at once")
	at4 := figure()
	assert.NotEqual(t, at2, at4)
	assert.Equal(t, 4.0, g.p.Scenario().Training.GPUHourPrice)
	assert.Equal(t, 4.0, g.p.Result().Training.Cost.GPUHourPrice)
	var c2, c4 float64
	require.NoError(t, json.Unmarshal([]byte(at2), &c2))
	require.NoError(t, json.Unmarshal([]byte(at4), &c4))
	assert.InDelta(t, 2*c2, c4, 0.011, "twice the price, twice the cost of an hour")

	load("training.gpu_hour_price=4", "topology.link_gbps=200")
	run()
	assert.Equal(t, 1, count(h, "loaded"), "another key runs again")
	assert.NotSame(t, first, g.p)

	second := g.p
	data, err := json.Marshal(map[string]any{"fabriclab": "load", "yaml": yaml, "step": "cost", "set": []string{"training.gpu_hour_price=2", "topology.link_gbps=200"}, "figures": []string{spec}})
	require.NoError(t, err)
	h.events = nil
	h.send(string(data))
	run()
	assert.Equal(t, 1, count(h, "loaded"), "a price the load does not say changes only the report runs again")
	assert.False(t, second == g.p, "a new run")
}
