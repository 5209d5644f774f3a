package lessons

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// rtQueue is the sampled queue of port name.
func rtQueue(t *testing.T, r *metrics.Result, name string) []int64 {
	t.Helper()
	require.NotNil(t, r.Series)
	for _, q := range r.Series.Queues {
		if q.Name == name {
			return q.Bytes
		}
	}
	t.Fatalf("no queue series for %s", name)
	return nil
}

// rtQueueAfterBurst is the queue of port name, sampled, from the moment it
// first falls below below after its peak: the queue once the first burst has
// drained.
func rtQueueAfterBurst(t *testing.T, r *metrics.Result, name string, below int64) []int64 {
	t.Helper()
	q := rtQueue(t, r, name)
	peak := 0
	for i, b := range q {
		if b > q[peak] {
			peak = i
		}
	}
	for i := peak; i < len(q); i++ {
		if q[i] < below {
			require.Less(t, i, len(q)/4, "the first burst drains early in the run")
			return q[i:]
		}
	}
	t.Fatalf("%s never drains below %d bytes", name, below)
	return nil
}

// rtSurges counts the times the queue q rises above level.
func rtSurges(q []int64, level int64) int {
	n := 0
	for i, b := range q {
		if b > level && (i == 0 || q[i-1] <= level) {
			n++
		}
	}
	return n
}

func rtMedian(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// The claims of incast.*.md, step by step.
func TestCourseIncast(t *testing.T) {
	l := rtLesson(t, "incast", "adaptive-routing")
	const line = 392.1      // REFERENCE.md, RoCEv2 packet: payload Gb/s at 400GbE
	const kmax = 1638 << 10 // derived for 400G with a 2 MiB buffer (README, network.ecn)

	base := lessonRun(t, l, "baseline")
	pfc := lessonRun(t, l, "pfc")
	t.Run("pfc", func(t *testing.T) {
		assert.InEpsilon(t, line, base.Flows[0].Gbps, 0.02, "a lone flow runs just under 400 Gb/s")
		assert.InEpsilon(t, 8*base.Totals.MaxFctUs, pfc.Totals.MaxFctUs, 0.05, "eight senders take about eight single transfers")
		assert.InEpsilon(t, pfc.Totals.MaxFctUs, pfc.Totals.MeanFctUs, 0.01, "they finish together")
		assert.Zero(t, pfc.Totals.Drops)
		assert.InEpsilon(t, line, pfc.Totals.GoodputGbps, 0.02, "the receiver's link runs full")
	})

	// lossy: every position of the buffer knob, the sentence it shows and the
	// claims of the "more" block: none finishes up to 4 MiB (goodput collapse),
	// all do from 16 MiB (mostly new data), drops until 64 MiB.
	t.Run("lossy", func(t *testing.T) {
		last := 0.0
		for _, buffer := range []string{"64KiB", "256KiB", "1MiB", "4MiB", "16MiB", "32MiB", "48MiB", "64MiB"} { // the knob's values
			r := lessonRun(t, l, "lossy", "network.buffer="+buffer)
			assert.Greater(t, r.Totals.GoodputGbps, last, "%s: a deeper buffer lets more through", buffer)
			last = r.Totals.GoodputGbps
			shown := whenShown(t, "incast", "lossy", r)
			switch buffer {
			case "64KiB", "256KiB", "1MiB", "4MiB":
				assert.Equal(t, []int{0, 0}, shown, "%s: goodput collapse", buffer)
				assert.Zero(t, r.Totals.FlowsFinished, "%s: no transfer finishes in 2 ms", buffer)
				assert.Positive(t, r.Totals.Drops, buffer)
				assert.Positive(t, r.Totals.Retransmits, buffer)
				assert.Less(t, r.Totals.GoodputGbps, 0.1*line, "%s: goodput collapses", buffer)
				assert.Greater(t, courseLink(t, r, "switch→host8").Util, 0.99, "%s: the receiver's link is busy all the same", buffer)
			case "64MiB":
				assert.Equal(t, []int{2, 1}, shown, "%s: nothing dropped", buffer)
				assert.Zero(t, r.Totals.Drops, buffer)
				assert.Equal(t, 8, r.Totals.FlowsFinished, buffer)
				assert.InEpsilon(t, pfc.Totals.MaxFctUs, r.Totals.MaxFctUs, 0.02, "%s: as with PFC", buffer)
			default:
				assert.Equal(t, []int{1, 1}, shown, "%s: all finish despite drops", buffer)
				assert.Positive(t, r.Totals.Drops, buffer)
				assert.Equal(t, 8, r.Totals.FlowsFinished, "%s: every transfer finishes", buffer)
				assert.Greater(t, r.Totals.GoodputGbps, 0.5*line, "%s: most of what reaches the receiver is new data", buffer)
			}
		}
	})

	t.Run("credit", func(t *testing.T) {
		r := lessonRun(t, l, "credit")
		assert.Zero(t, r.Totals.Drops)
		assert.Zero(t, r.Totals.PauseFrames)
		assert.Less(t, r.Totals.MaxFctUs, pfc.Totals.MaxFctUs, "slightly faster: smaller headers")
		assert.InEpsilon(t, pfc.Totals.MaxFctUs, r.Totals.MaxFctUs, 0.05)
	})

	// cost: PFC alone blocks the innocent flow; on this fabric DCQCN makes it
	// slower still: it is marked in the queues it shares with the incast and
	// gets CNPs of its own (the quiz's answer).
	t.Run("cost", func(t *testing.T) {
		pfcOnly, dcqcn := compareRun(t, "incast", "cost")
		assert.Less(t, pfcOnly.Flows[4].Gbps, 0.5*line, "the innocent flow gets well under half a lone flow's rate")
		assert.Positive(t, courseLink(t, pfcOnly, "leaf0.host3→leaf0").PauseFrames, "host 3's link is paused")
		require.Equal(t, 6, dcqcn.Flows[4].Dst, "flow 4 is host 3's innocent flow, to host 6")
		assert.Less(t, dcqcn.Totals.PauseFrames, pfcOnly.Totals.PauseFrames/10, "the pauses nearly vanish")
		assert.Positive(t, dcqcn.Flows[4].CNPs, "the innocent flow gets CNPs of its own")
		assert.Less(t, dcqcn.Flows[4].MinRateGbps, 0.05*line, "its NIC cuts its rate far down")
		assert.Less(t, dcqcn.Flows[4].Gbps, pfcOnly.Flows[4].Gbps, "it averages less than under PFC alone")
		// The quiz's explanation, in words: 8 CNPs, as low as 2.4 Gb/s, about 105 against 156 Gb/s.
		assert.EqualValues(t, 8, dcqcn.Flows[4].CNPs)
		assert.InDelta(t, 2.4, dcqcn.Flows[4].MinRateGbps, 0.05)
		assert.InDelta(t, 105, dcqcn.Flows[4].Gbps, 1)
		assert.InDelta(t, 156, pfcOnly.Flows[4].Gbps, 1)
		assert.Equal(t, []int{0}, whenShown(t, "incast", "cost", pfcOnly, dcqcn), "the text says it made it slower")
		uplinks := 0
		for _, up := range dcqcn.Links {
			if up.ID == 16 || up.ID == 18 {
				uplinks++
				assert.Equal(t, "leaf0→spine0", up.Name, "links 16 and 18 are leaf 0's uplinks")
				assert.Positive(t, up.ECNMarks, "leaf 0's uplink %d marks packets", up.ID)
			}
		}
		assert.Equal(t, 2, uplinks)
		assert.Greater(t, dcqcn.Totals.MaxFctUs, pfcOnly.Totals.MaxFctUs, "the incast takes longer")
	})

	t.Run("dcqcn", func(t *testing.T) {
		r := lessonRun(t, l, "dcqcn")
		alone := lessonRun(t, l, "dcqcn", "network.cc=none") // the knob's other setting
		require.Equal(t, 9, alone.Flows[7].Dst, "flow 7 is the victim, to host 9")
		assert.InDelta(t, 0.1*line, alone.Flows[7].Gbps, 0.05*line, "under PFC alone the victim gets about a tenth of line rate")
		assert.Positive(t, alone.Totals.PauseFrames)
		// The quiz: with DCQCN it runs close to line rate and is never cut.
		assert.Greater(t, r.Flows[7].Gbps, 0.9*line)
		assert.InEpsilon(t, 400, r.Flows[7].MinRateGbps, 0.01, "the victim's rate is never cut")
		assert.Zero(t, r.Totals.PauseFrames)
		assert.Less(t, r.Flows[0].MinRateGbps, 0.01, "incast senders fall to the NIC's minimum rate")
		assert.Greater(t, r.Totals.MaxFctUs, alone.Totals.MaxFctUs, "the incast takes longer than under PFC alone")
	})

	t.Run("ecn", func(t *testing.T) {
		r := lessonRun(t, l, "ecn")
		alone := lessonRun(t, l, "ecn", "network.cc=none")
		hot := courseLink(t, r, "switch→host8")
		assert.Zero(t, r.Totals.PauseFrames)
		assert.Positive(t, hot.ECNMarks)
		assert.Greater(t, hot.MaxQueueBytes, int64(kmax), "the first burst overshoots Kmax")
		// Synchronised recoveries: three surges above Kmax in the first
		// millisecond or so, then a sawtooth below it that now and then runs empty.
		q := rtQueue(t, r, "switch→host8")
		surges, last := rtSurges(q, kmax), 0
		for i, b := range q {
			if b > kmax {
				last = i
			}
		}
		assert.Equal(t, 3, surges, "the first burst and two synchronised surges")
		assert.Less(t, r.Series.TimeUs[last], 1500.0, "the senders drift apart after about a millisecond")
		assert.Zero(t, slices.Min(q[last:]), "then the queue now and then runs empty")
		assert.InEpsilon(t, r.Flows[0].Gbps, r.Flows[1].Gbps, 0.1, "the senders share fairly")
		assert.Less(t, hot.Util, 0.95, "the hot link idles part of the time")
		assert.Greater(t, courseLink(t, alone, "switch→host8").Util, 0.99, "under PFC alone it runs full")
		assert.InEpsilon(t, line, alone.Totals.GoodputGbps, 0.01)
		// The quiz: somewhat later than PFC alone.
		assert.Greater(t, r.Totals.MaxFctUs, alone.Totals.MaxFctUs)
		assert.Less(t, r.Totals.MaxFctUs, 1.25*alone.Totals.MaxFctUs)
		// The knob: at every setting the burst overshoots Kmax, the senders
		// share fairly, no pause is sent and the link idles part of the time;
		// fewer senders, a smaller burst and fewer surges.
		// The quiz at every setting: PFC alone keeps the link full, DCQCN
		// finishes somewhat later.
		for _, n := range []string{"4", "5", "6", "7"} {
			k := lessonRun(t, l, "ecn", "traffic.senders="+n)
			kalone := lessonRun(t, l, "ecn", "traffic.senders="+n, "network.cc=none")
			khot := courseLink(t, k, "switch→host8")
			assert.Greater(t, khot.MaxQueueBytes, int64(kmax), "%s senders", n)
			assert.Less(t, khot.MaxQueueBytes, hot.MaxQueueBytes, "%s senders: a smaller first burst", n)
			assert.InEpsilon(t, k.Flows[0].Gbps, k.Flows[1].Gbps, 0.1, "%s senders share fairly", n)
			assert.Zero(t, k.Totals.PauseFrames, "%s senders", n)
			assert.Less(t, khot.Util, 0.95, "%s senders", n)
			assert.Greater(t, courseLink(t, kalone, "switch→host8").Util, 0.99, "%s senders: PFC alone keeps the link full", n)
			assert.Greater(t, k.Totals.MaxFctUs, kalone.Totals.MaxFctUs, "%s senders: later than PFC alone", n)
			assert.Less(t, k.Totals.MaxFctUs, 1.25*kalone.Totals.MaxFctUs, "%s senders: somewhat later", n)
			if n == "4" {
				assert.Equal(t, 1, rtSurges(rtQueue(t, k, "switch→host8"), kmax), "four senders: the first burst and no surge after it")
			}
		}
	})

	t.Run("ibcc", func(t *testing.T) {
		// Credits stall the victim as PFC does; InfiniBand CC frees it.
		onIB := []string{"topology.fabric=ib", "network.flow_control=credit", "network.cc=none"}
		stalled := lessonRun(t, l, "dcqcn", onIB...)
		assert.InDelta(t, 0.1*line, stalled.Flows[7].Gbps, 0.05*line, "on InfiniBand credits the victim gets about a tenth of line rate")
		freed := lessonRun(t, l, "dcqcn", append(onIB, "network.cc=ibcc")...)
		assert.Greater(t, freed.Flows[7].Gbps, 0.9*line, "with InfiniBand CC it runs close to line rate")

		r := lessonRun(t, l, "ibcc")
		hot := courseLink(t, r, "switch→host8")
		const threshold = 512 << 10
		assert.Zero(t, r.Totals.PauseFrames)
		assert.Zero(t, r.Totals.Drops)
		assert.Positive(t, r.Totals.FECNMarks)
		assert.Equal(t, r.Totals.FECNMarks, r.Totals.BECNs, "one BECN per marked packet")
		assert.Equal(t, 127, r.Flows[0].MaxCCTI, "the last entry of the table")
		assert.InEpsilon(t, 400/(1+127.0/8), r.Flows[0].MinRateGbps, 0.01, "CCT[127] holds the flow to line/(1 + 127/8)")
		assert.Greater(t, hot.MaxQueueBytes, int64(threshold), "the first burst overshoots the threshold")
		after := rtQueueAfterBurst(t, r, "switch→host8", threshold/4)
		assert.Less(t, rtMedian(after), int64(64<<10), "mostly a few packets")
		assert.Greater(t, slices.Max(after), int64(threshold/2), "with spikes towards the threshold")
		assert.InEpsilon(t, r.Totals.MaxFctUs, r.Totals.MeanFctUs, 0.01, "the flows end together")
		assert.Less(t, hot.Util, 0.95)
	})
}
