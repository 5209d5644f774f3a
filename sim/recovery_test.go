package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// REFERENCE.md, "Loss recovery (issue 30)", "go-back-N against selective
// repeat": on the lossy incast (no flow control, shallow buffer) go-back-N
// resends everything after each drop and collapses (nothing finishes in the
// 20 ms run); selective repeat resends only what was lost and finishes the
// 8 × 64 MiB within a few per cent of the same incast under PFC.
func TestSelectiveRepeatRecovers(t *testing.T) {
	gbn := builtin(t, "incast-lossy", "network.recovery=gbn").Totals
	sr := builtin(t, "incast-lossy", "network.recovery=sr").Totals
	pfc := builtin(t, "incast-lossy", "network.flow_control=pfc").Totals
	require.Equal(t, 8, sr.Flows)
	assert.Equal(t, 0, gbn.FlowsFinished, "go-back-N collapses")
	assert.Greater(t, gbn.Retransmits, gbn.Drops, "go-back-N resends what arrived too")
	assert.Equal(t, 8, sr.FlowsFinished)
	assert.LessOrEqual(t, float64(sr.Retransmits), 1.01*float64(sr.Drops), "selective repeat resends the lost packets only")
	assert.InEpsilon(t, pfc.MaxFctUs, sr.MaxFctUs, 0.05, "SR %.0f µs, PFC %.0f µs", sr.MaxFctUs, pfc.MaxFctUs)
	assert.Greater(t, sr.GoodputGbps, 300*gbn.GoodputGbps)
}

// REFERENCE.md, "Loss recovery (issue 30)", "IRN against RoCE with PFC":
// without PFC nothing pauses an innocent flow. On victim-flow, PFC's pauses
// from the incast stall flow 1→9, which only shares uplinks with it; on a
// lossy fabric with selective repeat it runs near line rate, and the
// incast's own flows finish about as late as under PFC (they lose packets
// instead of waiting).
func TestLossySRFreesTheVictim(t *testing.T) {
	pfc := builtin(t, "victim-flow")
	sr := builtin(t, "victim-flow", "network.flow_control=none", "network.recovery=sr")
	var pv, sv float64
	for _, f := range pfc.Flows {
		if f.Src == 1 && f.Dst == 9 {
			pv = f.FctUs
		}
	}
	for _, f := range sr.Flows {
		if f.Src == 1 && f.Dst == 9 {
			sv = f.FctUs
		}
	}
	require.Positive(t, pv)
	require.Positive(t, sv)
	assert.Less(t, sv, 0.2*pv, "the victim: %.0f µs lossy with SR, %.0f µs under PFC", sv, pv)
	assert.InEpsilon(t, pfc.Totals.MaxFctUs, sr.Totals.MaxFctUs, 0.1, "the incast's last flow")
	assert.Positive(t, sr.Totals.Drops)
}
