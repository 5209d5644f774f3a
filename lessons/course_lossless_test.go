package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCourseLossless checks what the lossless-lossy lesson says at every
// knob position (REFERENCE.md, "Loss recovery" and "Lossless or lossy").
func TestCourseLossless(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	const slug = "lossless-lossy"

	// storm: flow 1 → 5 waits for the stuck NIC (about 3.2 ms), flow 2 → 6
	// does not; without the storm flow 1 → 5 takes about 0.35 ms.
	storm := stepRun(t, slug, "storm")
	calm := stepRun(t, slug, "storm", "network.pfc.storms=")
	require.Len(t, storm.Flows, 5)
	assert.InDelta(t, 3200, storm.Flows[1].FctUs, 100, "about 3.2 ms")
	assert.Less(t, storm.Flows[2].FctUs, 500.0, "flow 2 → 6 took the other spine")
	assert.InDelta(t, 350, calm.Flows[1].FctUs, 20, "about 0.35 ms without the stuck NIC")
	assert.Equal(t, []int{0}, whenShown(t, slug, "storm", storm))
	assert.Equal(t, []int{1}, whenShown(t, slug, "storm", calm))

	// victim: near line rate on the lossy fabric, many times slower under PFC;
	// the lossy side drops at host 8's port.
	pfc, lossy := compareRun(t, slug, "victim")
	require.Len(t, lossy.Flows, 8)
	assert.Greater(t, lossy.Flows[7].Gbps, 0.9*392.1*8/8.2, "almost line rate (8 MiB at 400G RoCE)")
	assert.Greater(t, pfc.Flows[7].FctUs, 5*lossy.Flows[7].FctUs)
	assert.Positive(t, lossy.Totals.Drops)
	assert.Zero(t, pfc.Totals.Drops)

	// go-back-n: nothing finishes at 256 KiB; the goal's answer (8 MiB) is
	// checked in TestCourseGoals.
	gbn := stepRun(t, slug, "go-back-n")
	assert.Zero(t, gbn.Totals.FlowsFinished)

	// selective: every flow finishes, a little later than PFC's 1.37 ms;
	// DCQCN: far fewer drops, but later.
	lossless := stepRun(t, slug, "selective", "network.flow_control=pfc", "network.buffer=2MiB", "network.recovery=gbn")
	assert.InDelta(t, 1370, lossless.Totals.MaxFctUs, 5, "1.37 ms under PFC")
	assert.Zero(t, lossless.Totals.Drops)
	sr := stepRun(t, slug, "selective")
	assert.Equal(t, 8, sr.Totals.FlowsFinished)
	assert.Greater(t, sr.Totals.MaxFctUs, lossless.Totals.MaxFctUs, "later than under PFC")
	assert.Less(t, sr.Totals.MaxFctUs, 1.5*lossless.Totals.MaxFctUs, "a little later")
	assert.GreaterOrEqual(t, sr.Totals.Drops, int64(10000))
	dcqcn := stepRun(t, slug, "selective", "network.cc=dcqcn")
	assert.Less(t, dcqcn.Totals.Drops, int64(10000), "far fewer drops")
	assert.Greater(t, dcqcn.Totals.MaxFctUs, sr.Totals.MaxFctUs, "but the last flow later")
	assert.Equal(t, []int{1}, whenShown(t, slug, "selective", sr))
	assert.Equal(t, []int{0}, whenShown(t, slug, "selective", dcqcn))

	// permutation: PFC finishes first; the lossy fabric drops.
	pl, ll := compareRun(t, slug, "permutation")
	assert.Less(t, pl.Totals.MaxFctUs, ll.Totals.MaxFctUs)
	assert.Positive(t, ll.Totals.Drops)

	// uec: spraying drops nothing and reorders; under PFC it pauses nothing.
	ecmp := stepRun(t, slug, "uec")
	spray := stepRun(t, slug, "uec", "network.routing=spray")
	assert.Positive(t, ecmp.Totals.Drops)
	assert.Zero(t, spray.Totals.Drops)
	assert.Positive(t, spray.Totals.OutOfOrder)
	assert.Less(t, spray.Totals.MaxFctUs, pl.Totals.MaxFctUs, "faster than PFC with ECMP")
	sprayPFC := stepRun(t, slug, "uec", "network.routing=spray", "network.flow_control=pfc")
	assert.Zero(t, sprayPFC.Totals.PauseFrames, "nothing for PFC to do")
	assert.Equal(t, []int{1}, whenShown(t, slug, "uec", ecmp))
	assert.Equal(t, []int{0}, whenShown(t, slug, "uec", spray))
}
