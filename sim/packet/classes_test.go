package packet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

func classOf(t *testing.T, l metrics.Link, name string) metrics.LinkClass {
	t.Helper()
	for _, c := range l.Classes {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("link %s has no class %q", l.Name, name)
	return metrics.LinkClass{}
}

// Two senders per class into one port, all still sending at 1 ms: deficit
// round robin splits the congested port 3:1 by the weights.
func TestDRRSharesByWeight(t *testing.T) {
	_, r := runYAML(t, `
name: drr
topology: {kind: star, hosts: 5, link_gbps: 100}
network: {flow_control: pfc, buffer: 512KiB, classes: [{name: gold, weight: 3}, {name: bronze, weight: 1}]}
traffic:
  pattern: flows
  bytes: 64MiB
  flows: [{src: 0, dst: 4, class: gold}, {src: 1, dst: 4, class: gold}, {src: 2, dst: 4, class: bronze}, {src: 3, dst: 4, class: bronze}]
until: 1ms
`)
	hot := linkOf(t, r, "switch→host4")
	require.Len(t, hot.Classes, 2)
	gold, bronze := classOf(t, hot, "gold"), classOf(t, hot, "bronze")
	share := float64(gold.TxBytes) / float64(gold.TxBytes+bronze.TxBytes)
	assert.InDelta(t, 0.75, share, 0.05, "gold's share of the congested port")
	assert.Greater(t, hot.Util, 0.99, "the port stays busy")
	assert.Positive(t, gold.MaxQueueBytes)
	assert.Positive(t, bronze.MaxQueueBytes)
	assert.Zero(t, r.Totals.Drops)
}

// Host 0 sends bronze into a 4→1 incast and gold to an idle host. Per-class
// PFC pauses only bronze on host 0's link, so gold keeps most of it; with
// one class the pauses stop gold as well.
func TestPerClassPFCPausesOnlyTheCongestedClass(t *testing.T) {
	const doc = `
name: per-class-pfc
topology: {kind: star, hosts: 6, link_gbps: 100}
network: {flow_control: pfc, buffer: 512KiB, classes: [{name: gold}, {name: bronze}]}
traffic:
  pattern: flows
  bytes: 16MiB
  class: bronze
  flows: [{src: 0, dst: 4}, {src: 1, dst: 4}, {src: 2, dst: 4}, {src: 3, dst: 4}, {src: 0, dst: 5, class: gold}]
`
	_, r := runYAML(t, doc)
	nic := linkOf(t, r, "host0→switch")
	assert.Positive(t, classOf(t, nic, "bronze").PauseFrames, "the incast's class is paused")
	assert.Positive(t, classOf(t, nic, "bronze").PauseUs)
	assert.Zero(t, classOf(t, nic, "gold").PauseFrames, "gold is never paused")
	assert.Zero(t, classOf(t, nic, "gold").PauseUs)
	assert.Equal(t, classOf(t, nic, "bronze").PauseFrames, nic.PauseFrames, "the port counts every class's frames")
	gold := r.Flows[4]
	require.True(t, gold.Finished)
	assert.Greater(t, gold.Gbps, 60.0, "gold takes what paused bronze leaves of host 0's 100G link")
	assert.Zero(t, r.Totals.Drops)

	_, one := runYAML(t, doc, "traffic.flows[4].class=bronze")
	require.True(t, one.Flows[4].Finished)
	assert.Less(t, one.Flows[4].Gbps, 30.0, "in one class the flow to the idle host is paused with the incast")
	assert.Equal(t, classOf(t, linkOf(t, one, "host0→switch"), "bronze").PauseFrames, linkOf(t, one, "host0→switch").PauseFrames)
}

// One class reports no per-class figures, so single-class JSON is unchanged.
func TestOneClassHasNoClassFigures(t *testing.T) {
	_, r := runYAML(t, crossLeafIncast)
	for _, l := range r.Links {
		assert.Nil(t, l.Classes, l.Name)
	}
}

// A lossy 8→1 incast: a shared pool with dynamic thresholds lets the hot
// port borrow the idle ports' buffer, so it drops less than the same total
// split statically per port.
func TestSharedBufferDropsLess(t *testing.T) {
	const doc = `
name: shared-buffer
topology: {kind: star, hosts: 9, fabric: ethernet, link_gbps: 100}
network: {flow_control: none, buffer: 128KiB}
traffic: {pattern: incast, senders: 8, bytes: 512KiB}
`
	_, static := runYAML(t, doc)
	_, shared := runYAML(t, doc, "network.buffer_model=shared")
	require.Equal(t, static.Totals.Flows, static.Totals.FlowsFinished)
	require.Equal(t, shared.Totals.Flows, shared.Totals.FlowsFinished)
	require.Positive(t, static.Totals.Drops)
	assert.Less(t, float64(shared.Totals.Drops), 0.5*float64(static.Totals.Drops), "shared drops at most half as much")
	hot := "switch→host8"
	assert.LessOrEqual(t, linkOf(t, static, hot).MaxQueueBytes, int64(128<<10), "static: the port's own buffer")
	// With α = 1 one queue settles at half the pool: q = α(B − q).
	assert.Greater(t, linkOf(t, shared, hot).MaxQueueBytes, int64(3*128<<10), "shared: borrowed from the pool")
	assert.LessOrEqual(t, linkOf(t, shared, hot).MaxQueueBytes, int64(9*128<<10/2+9000))

	_, small := runYAML(t, doc, "network.buffer_model=shared", "network.dt_alpha=0.125")
	assert.Less(t, linkOf(t, small, hot).MaxQueueBytes, linkOf(t, shared, hot).MaxQueueBytes, "a smaller α keeps more of the pool free")
}

// Under PFC the dynamic threshold replaces xoff: lossless, paused, no drops.
func TestSharedBufferPFC(t *testing.T) {
	_, r := runYAML(t, crossLeafIncast, "network.buffer_model=shared")
	assert.Zero(t, r.Totals.Drops)
	assert.Equal(t, r.Totals.Flows, r.Totals.FlowsFinished)
	assert.Positive(t, r.Totals.PauseFrames)
}
