package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// TestCourseSharing asserts the claims of the "Sharing a cluster" lesson on
// its steps' scenarios.
func TestCourseSharing(t *testing.T) {
	// Alone: no pauses; two hops of the ring cross the spines.
	alone := stepRun(t, "sharing", "alone")
	require.NotNil(t, alone.Collective)
	assert.Zero(t, alone.Totals.PauseFrames, "nothing else is on the fabric")

	// One class: the ring clearly slows down; the spine link it shares is paused;
	// it was not full; the ring has 14 steps.
	shared := stepRun(t, "sharing", "shared")
	assert.Greater(t, shared.Collective.TimeUs, 1.3*alone.Collective.TimeUs, "it clearly slows down")
	spine := sharingLink(t, shared, 59, "spine0→leaf1")
	assert.Greater(t, spine.PauseUs, 0.2*shared.Totals.SimTimeUs, "the spine link down to leaf 1 is paused")
	assert.Less(t, spine.Util, 0.9, "the link was not full")
	assert.Positive(t, sharingClass(t, sharingLink(t, stepRun(t, "sharing", "try"), 59, "spine0→leaf1"), "training").TxBytes,
		"that spine link carries the training job too")

	// A class per job: about as long as alone; pauses stay, in the storage class only;
	// the incast is just as slow.
	left, right := sharingCompare(t, "classes")
	assert.Equal(t, shared.Collective.TimeUs, left.Collective.TimeUs, "the left side is the shared-class step")
	assert.InEpsilon(t, alone.Collective.TimeUs, right.Collective.TimeUs, 0.05, "about as long as alone")
	assert.Positive(t, right.Totals.PauseFrames)
	rs := sharingLink(t, right, 59, "spine0→leaf1")
	assert.Positive(t, sharingClass(t, rs, "storage").PauseUs)
	assert.Zero(t, sharingClass(t, rs, "training").PauseUs)
	assert.InEpsilon(t, left.Totals.MaxFctUs, right.Totals.MaxFctUs, 0.01, "the incast is just as slow")

	// Try it: in its own class the ring hardly notices its neighbour; in the
	// shared class it pays; with the neighbour off it runs as alone.
	try := stepRun(t, "sharing", "try")
	assert.Equal(t, right.Collective.TimeUs, try.Collective.TimeUs, "the try step starts as the compare's right side")
	assert.InEpsilon(t, alone.Collective.TimeUs, try.Collective.TimeUs, 0.05, "in its own class the ring hardly notices")
	assert.Equal(t, shared.Collective.TimeUs, stepRun(t, "sharing", "try", "collective.class=storage").Collective.TimeUs)
	// The neighbour's toggle, off: its sets, as the page sends them.
	neighbourOff := sharingNeighbourOff(t)
	off := stepRun(t, "sharing", "try", neighbourOff...)
	assert.Equal(t, alone.Collective.TimeUs, off.Collective.TimeUs, "the neighbour switched off")
	assert.Zero(t, off.Totals.PauseFrames, "nothing else is on the fabric")
	assert.Equal(t, alone.Collective.TimeUs, stepRun(t, "sharing", "try", append([]string{"collective.class=storage"}, neighbourOff...)...).Collective.TimeUs)

	// The sentence the try step shows at each of the four positions: neighbour
	// off (either class), storage class, its own class.
	storage := stepRun(t, "sharing", "try", "collective.class=storage")
	assert.Equal(t, []int{2}, whenShown(t, "sharing", "try", try), "own class: hardly notices")
	assert.Equal(t, []int{1}, whenShown(t, "sharing", "try", storage), "storage class: waits behind the pauses")
	assert.Greater(t, storage.Collective.TimeUs, 1.3*alone.Collective.TimeUs, "storage class: it pays")
	assert.Equal(t, []int{0}, whenShown(t, "sharing", "try", off), "neighbour off, own class")
	offStorage := stepRun(t, "sharing", "try", append([]string{"collective.class=storage"}, neighbourOff...)...)
	assert.Equal(t, []int{0}, whenShown(t, "sharing", "try", offStorage), "neighbour off, storage class")
	assert.Zero(t, offStorage.Totals.PauseFrames)
}

// TestCourseSharingVictimKnob walks the victim step's write size: above
// 2.65 ms (10 % over alone) the text says the ring's packets sat in a paused
// queue, below it that the ring is barely slower than alone; pauses appear
// at every position.
func TestCourseSharingVictimKnob(t *testing.T) {
	alone := stepRun(t, "sharing", "alone").Collective.TimeUs
	require.InDelta(t, 1.1, 2650/alone, 0.02, "the text's 2.65 ms is 10 % over alone")
	for _, b := range []string{"256KiB", "512KiB", "1MiB", "2MiB", "4MiB", "8MiB"} {
		r := stepRun(t, "sharing", "shared", "traffic.bytes="+b)
		assert.Positive(t, r.Totals.PauseFrames, "%s: PFC pauses appear", b)
		assert.Positive(t, sharingLink(t, r, 59, "spine0→leaf1").PauseUs, "%s: on the spine link down to leaf 1", b)
		if r.Collective.TimeUs > 2650 {
			assert.Equal(t, []int{0}, whenShown(t, "sharing", "shared", r), b)
			continue
		}
		assert.Equal(t, []int{1}, whenShown(t, "sharing", "shared", r), b)
		assert.Less(t, r.Collective.TimeUs, 1.06*alone, "%s: barely slower than alone", b)
		assert.Less(t, r.Totals.SimTimeUs, 1.1*alone, "%s: the writes end soon", b)
	}
}

// sharingNeighbourOff is what the try step's neighbour toggle sets when it
// is off; it starts on, the scenario as it is, in both languages.
func sharingNeighbourOff(t *testing.T) []string {
	t.Helper()
	ls, err := courseLessons()
	require.NoError(t, err)
	var off []string
	for _, lang := range []string{"en", "zh"} {
		l := Find(ls, "sharing", lang)
		require.NotNil(t, l)
		var k *Knob
		for _, s := range l.Steps {
			for i := range s.Knobs {
				if s.ID == "try" && s.Knobs[i].Key == "neighbour" {
					k = &s.Knobs[i]
				}
			}
		}
		require.NotNil(t, k, "sharing.%s.md#try has the neighbour's toggle", lang)
		assert.Equal(t, "toggle", k.Control)
		assert.Equal(t, "true", k.Default, "%s: the neighbour starts on", lang)
		assert.Empty(t, k.SetsOf("true"), "%s: on is the step's scenario as it is", lang)
		assert.Equal(t, ChangesRun, k.Changes)
		off = k.SetsOf("false")
	}
	require.NotEmpty(t, off)
	return off
}

// sharingCompare runs both sides of the compare step id of the sharing lesson.
func sharingCompare(t *testing.T, id string) (left, right *metrics.Result) {
	t.Helper()
	return compareRun(t, "sharing", id)
}

// sharingLink is the run's link id, which the text calls name.
func sharingLink(t *testing.T, r *metrics.Result, id int, name string) metrics.Link {
	t.Helper()
	for _, l := range r.Links {
		if l.ID == id {
			require.Equal(t, name, l.Name)
			return l
		}
	}
	require.Failf(t, "no such link", "no link %d in the run", id)
	return metrics.Link{}
}

// sharingClass is link l's counters for class name.
func sharingClass(t *testing.T, l metrics.Link, name string) metrics.LinkClass {
	t.Helper()
	for _, c := range l.Classes {
		if c.Name == name {
			return c
		}
	}
	require.Failf(t, "no such class", "link %s has no class %q", l.Name, name)
	return metrics.LinkClass{}
}
