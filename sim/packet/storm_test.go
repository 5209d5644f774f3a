package packet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stuck receiver's pause storm stops its own port, then spreads: the spine
// and leaf 0's uplinks get paused, and a flow to a healthy host on leaf 1 that
// shares those uplinks slows down, until the storm ends.
const stormYAML = `
name: storm
topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 1, oversubscription: 4, fabric: roce, link_gbps: 100, link_latency: 1us}
network:
  flow_control: pfc
  buffer: 512KiB
  pfc: {storms: [{endpoint: 4, start: 100us, end: 1100us}]}
traffic:
  pattern: flows
  flows:
    - {src: 0, dst: 4, bytes: 4MiB}   # into the storm
    - {src: 1, dst: 5, bytes: 4MiB}   # a healthy receiver on the same leaf
`

func TestPauseStormSpreads(t *testing.T) {
	_, calm := runYAML(t, stormYAML, "network.pfc.storms=[]")
	_, storm := runYAML(t, stormYAML)
	assert.Zero(t, storm.Totals.Drops, "still lossless")
	require.Equal(t, 2, storm.Totals.FlowsFinished)

	stuck := linkOf(t, storm, "leaf1→leaf1.host0")
	assert.Positive(t, stuck.PauseFrames, "the stuck host pauses its switch port")
	assert.InDelta(t, 1000, stuck.PauseUs, 50, "for the storm's 1 ms")
	assert.Positive(t, linkOf(t, storm, "spine0→leaf1").PauseFrames, "leaf 1 pauses the spine")
	assert.Positive(t, linkOf(t, storm, "leaf0→spine0").PauseFrames, "the spine pauses leaf 0")
	assert.Positive(t, linkOf(t, storm, "leaf0.host1→leaf0").PauseFrames, "and the healthy flow's sender")

	// The healthy flow finishes much later than without the storm.
	assert.Greater(t, storm.Flows[1].FctUs, 1.5*calm.Flows[1].FctUs, "the storm spreads to a flow that never crosses the stuck port")
	assert.Greater(t, storm.Totals.PauseFrames, calm.Totals.PauseFrames)
}
