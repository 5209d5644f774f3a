package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// TestCourseMoE asserts the claims of the mixture-of-experts lesson on its
// steps' scenarios (stepRun is in course_scaling_test.go).
func TestCourseMoE(t *testing.T) {
	// One node: all NVLink, close to the ~370 GB/s NCCL reaches on H100.
	one := stepRun(t, "moe-alltoall", "one-node")
	require.NotNil(t, one.Collective)
	assert.InDelta(t, 370, one.Collective.BusBwGBps, 25)

	// Two nodes: a few times longer, the NICs nearly full; more nodes, lower busbw.
	two := stepRun(t, "moe-alltoall", "two-nodes")
	ratio := two.Collective.TimeUs / one.Collective.TimeUs
	assert.True(t, ratio > 2 && ratio < 8, "a few times longer than one node: %.1f×", ratio)
	assert.Greater(t, courseLink(t, two, "n0.gpu0→n0.nic0").Util, 0.9, "the NICs run nearly full")
	four := stepRun(t, "moe-alltoall", "two-nodes", "topology.nodes=4")
	assert.Less(t, four.Collective.BusBwGBps, two.Collective.BusBwGBps, "busbw falls with more nodes")
	// PXN (REFERENCE.md, "PXN and all-to-all"): no spine link carries any of
	// it; NVLink carries the detour and stays idle most of the run.
	for _, r := range []*metrics.Result{two, four} {
		for _, l := range r.Links {
			if strings.Contains(l.Name, "spine") {
				assert.Zero(t, l.Util, "%d ranks: %s carries PXN's traffic", r.Collective.Ranks, l.Name)
			}
		}
	}
	nvl := courseLink(t, two, "n0.gpu0→n0.nvswitch").Util
	assert.True(t, nvl > 0.05 && nvl < 0.5, "NVLink carries the detour, idle most of the run: %.2f", nvl)

	// A hot expert: several times longer, its NIC and PCIe link full, and the balanced part slowed too.
	hot := stepRun(t, "moe-alltoall", "hot")
	assert.Greater(t, hot.Totals.SimTimeUs, 3*two.Collective.TimeUs, "several times longer")
	assert.Greater(t, courseLink(t, hot, "rail7→n1.nic7").Util, 0.9)
	assert.Greater(t, courseLink(t, hot, "n1.nic7→n1.gpu7").Util, 0.9)
	assert.Greater(t, hot.Collective.TimeUs, two.Collective.TimeUs, "the balanced all-to-all shared the hot links")
	assert.Equal(t, int64(24<<20), hot.Flows[0].Bytes, "flows[0] is an extra flow to the hot expert")
	assert.Equal(t, 15, hot.Flows[0].Dst)
	hotter := stepRun(t, "moe-alltoall", "hot", "traffic.bytes=56MiB")
	assert.Greater(t, hotter.Totals.SimTimeUs, 1.7*hot.Totals.SimTimeUs, "the time grows in step with the extra data")

	// ECMP: slower than adaptive, and the busiest link is a spine link; spraying recovers.
	ecmp := stepRun(t, "moe-alltoall", "routing")
	assert.Greater(t, ecmp.Collective.TimeUs, 1.1*two.Collective.TimeUs, "ECMP is slower than adaptive routing")
	busiest := ecmp.Links[0]
	for _, l := range ecmp.Links {
		if l.Util > busiest.Util {
			busiest = l
		}
	}
	assert.Contains(t, busiest.Name, "spine", "the hottest links are spine links")
	spray := stepRun(t, "moe-alltoall", "routing", "network.routing=spray")
	assert.Less(t, spray.Collective.TimeUs, 0.9*ecmp.Collective.TimeUs)
	adaptive := stepRun(t, "moe-alltoall", "routing", "network.routing=adaptive")
	assert.InEpsilon(t, two.Collective.TimeUs, adaptive.Collective.TimeUs, 0.02, "adaptive routing without PXN: PXN's time")
	// With PXN the routing does not matter: ECMP gives adaptive's time.
	pxn := stepRun(t, "moe-alltoall", "routing", "collective.pxn=true")
	assert.InEpsilon(t, two.Collective.TimeUs, pxn.Collective.TimeUs, 0.01, "ECMP with PXN")

	// Routing cannot fix the hot expert; local replicas do.
	sprayHot := stepRun(t, "moe-alltoall", "hot-routing")
	assert.InEpsilon(t, hot.Totals.SimTimeUs, sprayHot.Totals.SimTimeUs, 0.01, "exactly as with adaptive routing")
	rep := stepRun(t, "moe-alltoall", "replicate")
	assert.InEpsilon(t, two.Collective.TimeUs, rep.Totals.SimTimeUs, 0.02, "as the balanced all-to-all did")
	for _, f := range rep.Flows {
		if f.Bytes == 24<<20 {
			assert.Equal(t, f.Src/8, f.Dst/8, "each extra flow stays in its node")
		}
	}
	busy := func(r *metrics.Result, name string) float64 { return courseLink(t, r, name).Util * r.Totals.SimTimeUs }
	assert.InEpsilon(t, busy(two, "rail7→n1.nic7"), busy(rep, "rail7→n1.nic7"), 0.05, "the NICs carry only the balanced share")
}

// TestCourseMoEHotKnob walks the hot-expert step's knob: at every position
// the balanced all-to-all is slower than alone (it shares the hot links),
// the time grows with the extra data, and the knob's status line quotes when
// the last transfer arrived, not only the collective's time.
func TestCourseMoEHotKnob(t *testing.T) {
	balanced := stepRun(t, "moe-alltoall", "two-nodes").Collective.TimeUs
	last := 0.0
	for _, b := range []string{"1MiB", "2MiB", "4MiB", "8MiB", "16MiB", "24MiB", "56MiB"} {
		r := stepRun(t, "moe-alltoall", "hot", "traffic.bytes="+b)
		assert.Greater(t, r.Collective.TimeUs, balanced, "%s: slower than the balanced all-to-all", b)
		assert.Greater(t, r.Totals.SimTimeUs, last, "%s: the time grows with the extra data", b)
		last = r.Totals.SimTimeUs
		assert.Greater(t, courseLink(t, r, "n1.nic7→n1.gpu7").Util, 0.9, "%s: the hot GPU's PCIe link stays busy", b)
		assert.Greater(t, courseLink(t, r, "rail7→n1.nic7").Util, 0.9, "%s: the link into the hot NIC stays busy", b)
		// "once the rest of the exchange is through, only the path into node 1's GPU 7
		// stays lit" (every other NIC busy well under the hot one), or, with 1 MiB,
		// "the hot NIC finishes only a little after the others"; and "even the
		// balanced all-to-all ends only then".
		other := courseLink(t, r, "rail0→n1.nic0").Util
		if b == "1MiB" {
			assert.Equal(t, []int{1, 0}, whenShown(t, "moe-alltoall", "hot", r), b)
			assert.Less(t, r.Totals.SimTimeUs, 1.2*balanced, "%s: a little after the others", b)
		} else {
			assert.Equal(t, []int{0, 0}, whenShown(t, "moe-alltoall", "hot", r), b)
			assert.Less(t, other, 0.8, "%s: the other NICs idle after the balanced share", b)
		}
		for _, l := range r.Links {
			if strings.HasPrefix(l.Name, "rail") && strings.Contains(l.Name, "→n") && l.Name != "rail7→n1.nic7" {
				assert.InDelta(t, other, l.Util, 0.02, "%s: %s is busy as every other NIC", b, l.Name)
			}
		}
	}
	ls, err := courseLessons()
	require.NoError(t, err)
	for _, lang := range []string{"en", "zh"} {
		for _, s := range Find(ls, "moe-alltoall", lang).Steps {
			if s.ID == "hot" {
				assert.Contains(t, string(s.HTML), `&quot;last&quot;:&quot;totals.sim_time_us | time&quot;`, "%s: the status line quotes the last transfer", lang)
			}
		}
	}
}

// TestCourseMoEKnobs walks the knobs of the node-boundary and routing steps
// and checks the sentences each position shows.
func TestCourseMoEKnobs(t *testing.T) {
	t.Run("two-nodes", func(t *testing.T) {
		last := 0.0
		for _, nodes := range []string{"1", "2", "4", "8"} {
			r := stepRun(t, "moe-alltoall", "two-nodes", "topology.nodes="+nodes)
			require.NotNil(t, r.Collective)
			if nodes == "1" {
				// "On one node nothing crosses the network … all of it over NVLink"
				assert.Equal(t, []int{1, 1}, whenShown(t, "moe-alltoall", "two-nodes", r))
				for _, l := range r.Links {
					assert.NotContains(t, l.Name, "nic", "one node: %s carries traffic", l.Name)
				}
				continue
			}
			assert.Equal(t, []int{0, 0}, whenShown(t, "moe-alltoall", "two-nodes", r), "%s nodes", nodes)
			assert.Greater(t, courseLink(t, r, "n0.gpu0→n0.nic0").Util, 0.9, "%s nodes: the NICs run nearly full", nodes)
			assert.Less(t, courseLink(t, r, "n0.gpu0→n0.nvswitch").Util, 0.5, "%s nodes: the NVSwitch idle most of the time", nodes)
			for _, l := range r.Links {
				if strings.Contains(l.Name, "spine") {
					assert.Zero(t, l.Util, "%s nodes: PXN keeps %s idle", nodes, l.Name)
				}
			}
			if last > 0 {
				assert.Less(t, r.Collective.BusBwGBps, last, "%s nodes: busbw falls towards the NIC's", nodes)
			}
			last = r.Collective.BusBwGBps
		}
	})
	t.Run("routing", func(t *testing.T) {
		pxn := stepRun(t, "moe-alltoall", "two-nodes").Collective.TimeUs
		for _, routing := range []string{"ecmp", "adaptive", "spray"} {
			r := stepRun(t, "moe-alltoall", "routing", "network.routing="+routing)
			if routing == "ecmp" {
				// "slower than in the node-boundary step with PXN"
				assert.Equal(t, []int{0}, whenShown(t, "moe-alltoall", "routing", r))
				assert.Greater(t, r.Collective.TimeUs, 1.1*pxn)
				continue
			}
			// "the time is that of the node-boundary step"
			assert.Equal(t, []int{1}, whenShown(t, "moe-alltoall", "routing", r), routing)
			assert.InEpsilon(t, pxn, r.Collective.TimeUs, 0.02, routing)
		}
	})
}
