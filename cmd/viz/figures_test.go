package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons/figures"
	"fabriclab/sim"
	"fabriclab/sim/scenario"
)

// A load with figures gets them back once its run is done, with the step
// and settings it asked for, computed as the lesson build computes them from
// the run's JSON; a figure that does not resolve gets an error of its own.
func TestFiguresEvent(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	yaml := `name: small
topology: {kind: star, hosts: 5, link_gbps: 100}
traffic: {pattern: incast, senders: 2, bytes: 64KiB}
`
	cmd := map[string]any{"fabriclab": "load", "yaml": yaml, "step": "senders", "set": []string{"traffic.senders=3"},
		"figures": []string{"totals.max_fct_us | us 1", "flows[2].gbps | Gbps 2", "totals.nope"}}
	data, err := json.Marshal(cmd)
	require.NoError(t, err)
	h.events = nil
	h.send(string(data))
	for i := 0; i < 1_000_000 && (g.p == nil || !g.p.Done() || count(h, "figures") == 0); i++ { // each Update computes a slice of wall time: a loaded machine needs more
		require.NoError(t, g.Update())
	}
	require.Equal(t, 1, count(h, "figures"), "one figures event per run")
	var ev map[string]any
	for _, e := range h.events {
		if e["fabriclab"] == "figures" {
			ev = e
		}
	}
	assert.Equal(t, "senders", ev["step"])
	assert.Equal(t, []any{"traffic.senders=3"}, ev["set"])

	// What the build would show: the native run of the same setting.
	sc, err := scenario.ParseWith([]byte(yaml), "", []string{"traffic.senders=3"})
	require.NoError(t, err)
	res, err := sim.Run(sc)
	require.NoError(t, err)
	out, err := json.Marshal(res)
	require.NoError(t, err)
	src, err := figures.Decode(out)
	require.NoError(t, err)
	values := ev["values"].(map[string]any)
	for _, spec := range []string{"totals.max_fct_us | us 1", "flows[2].gbps | Gbps 2"} {
		p, err := figures.Parse(spec)
		require.NoError(t, err)
		want, err := p.Lookup(src)
		require.NoError(t, err)
		assert.Equal(t, want, values[spec], spec)
	}
	errs := ev["errors"].(map[string]any)
	assert.Contains(t, errs["totals.nope"], `totals has no key "nope"`)
	assert.NotContains(t, values, "totals.nope")

	// A load without figures asks for none.
	h.events = nil
	h.send(`{"fabriclab":"load","scenario":"incast","set":["until=20us"]}`)
	require.NoError(t, g.Update()) // the load taken: the run before is done
	for i := 0; i < 1_000_000 && (g.p == nil || !g.p.Done()); i++ {
		require.NoError(t, g.Update())
	}
	require.NoError(t, g.Update())
	assert.Contains(t, kinds(h), "done")
	assert.Zero(t, count(h, "figures"))
}
