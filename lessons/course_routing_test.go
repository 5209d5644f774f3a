package lessons

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// rtLesson loads the shipped lesson slug in English and checks what
// every lesson of the course needs: a Chinese twin with the same steps, 6–10
// steps, two quizzes or more, a knob, and a recap linking to next.
func rtLesson(t *testing.T, slug, next string) *Lesson {
	t.Helper()
	ls, err := courseLessons()
	require.NoError(t, err)
	en, zh := Find(ls, slug, "en"), Find(ls, slug, "zh")
	require.NotNil(t, en, slug+".en.md")
	require.NotNil(t, zh, slug+".zh.md")
	require.Len(t, zh.Steps, len(en.Steps))
	assert.GreaterOrEqual(t, taught(en), 6)
	assert.LessOrEqual(t, taught(en), 10, "a drill's step not counted")
	for _, l := range []*Lesson{en, zh} {
		quizzes := 0
		for _, s := range l.Steps {
			quizzes += strings.Count(string(s.HTML), `class="lesson-quiz"`)
		}
		assert.GreaterOrEqual(t, quizzes, 2, "%s: predict-then-watch quizzes", l.Source)
		src, err := fs.ReadFile(Content(), l.Source)
		require.NoError(t, err)
		assert.Contains(t, string(src), "\n```knob\n", "%s: a knob", l.Source)
		last := string(l.Steps[len(l.Steps)-1].HTML)
		assert.Contains(t, last, `href="`+next+"."+l.Lang+`.html"`, "%s: the recap links to the next lesson", l.Source)
		assert.Contains(t, last, "REFERENCE.md", "%s: where this comes from", l.Source)
	}
	return en
}

// rtUplinksUsed counts leaf0's uplinks that carried traffic (the run lists
// only those).
func rtUplinksUsed(r *metrics.Result) int {
	n := 0
	for _, l := range r.Links {
		if strings.HasPrefix(l.Name, "leaf0→spine") {
			n++
		}
	}
	return n
}

func rtFastest(r *metrics.Result) float64 {
	m := r.Flows[0].FctUs
	for _, f := range r.Flows {
		m = min(m, f.FctUs)
	}
	return m
}

// The claims of adaptive-routing.*.md, step by step.
func TestCourseAdaptiveRouting(t *testing.T) {
	l := rtLesson(t, "adaptive-routing", "nvlink-vs-ib")
	const lineGbps = 392.1 // REFERENCE.md, RoCEv2 packet: a lone flow's payload rate at 400GbE

	t.Run("collisions", func(t *testing.T) {
		r := lessonRun(t, l, "collisions")
		require.Len(t, r.Flows, 8)
		// The quiz: about five of eight uplinks carry a flow.
		assert.Equal(t, 5, rtUplinksUsed(r), "seed 1 uses five of the eight spines")
		alone := r.Flows[1].FctUs
		assert.InDelta(t, rtFastest(r), alone, 0.5, "host 1's flow runs alone")
		assert.Greater(t, r.Flows[1].Gbps, 0.9*lineGbps, "a lone flow runs near line rate")
		for i, share := range []float64{2, 1, 3, 1, 2, 3, 1, 3} { // hosts 1, 3, 6 alone; 0, 4 together; 2, 5, 7 together
			assert.InEpsilon(t, share*alone, r.Flows[i].FctUs, 0.05, "host %d's flow shares its spine %v ways", i, share)
		}
		// Moving the seed: the counts change, a perfect spread is rare, the mean is balls into bins'.
		var mean float64
		counts := map[int]bool{}
		for seed := 1; seed <= 20; seed++ {
			n := rtUplinksUsed(lessonRun(t, l, "collisions", fmt.Sprintf("seed=%d", seed)))
			assert.Less(t, n, 8, "seed %d spreads the eight flows perfectly", seed)
			counts[n] = true
			mean += float64(n) / 20
		}
		assert.Greater(t, len(counts), 1, "the seed changes the counts")
		assert.InDelta(t, 8*0.656, mean, 0.5, "REFERENCE.md Routing: 1 − (7/8)^8 of the paths used on average")
	})

	ecmp := lessonRun(t, l, "scale")
	t.Run("scale", func(t *testing.T) {
		require.Len(t, ecmp.Flows, 64)
		assert.InDelta(t, 64*0.635, float64(rtUplinksUsed(ecmp)), 5, "about 0.635 of the 64 uplinks carry a flow")
		assert.InDelta(t, rtFastest(ecmp), ecmp.Flows[3].FctUs, 0.5, "host 3's flow is uncollided")
		ratio := ecmp.Totals.MaxFctUs / rtFastest(ecmp)
		assert.InDelta(t, 4, ratio, 0.3, "the last flow takes about four times a lone flow's time")
		assert.Less(t, ecmp.Totals.MeanFctUs, ecmp.Totals.MaxFctUs/2)
		// "Over the whole run it moves less" than the 0.635 of its busiest time.
		assert.Less(t, ecmp.Totals.GoodputGbps/(64*392), 0.635, "the run's goodput counts the idle tail")
		assert.Zero(t, ecmp.Totals.Drops)
		assert.Positive(t, ecmp.Totals.PauseFrames, "collided uplinks queue until PFC pauses their senders")
		assert.Less(t, ecmp.Totals.GoodputGbps, 0.4*64*lineGbps)
	})

	adaptive := lessonRun(t, l, "adaptive")
	t.Run("adaptive", func(t *testing.T) {
		// The quiz: about as long as a flow that had a spine to itself under ECMP.
		assert.InEpsilon(t, rtFastest(ecmp), adaptive.Totals.MaxFctUs, 0.05)
		assert.InEpsilon(t, adaptive.Totals.MaxFctUs, adaptive.Totals.MeanFctUs, 0.01, "all flows finish together")
		assert.Greater(t, adaptive.Totals.GoodputGbps, 0.9*64*lineGbps)
		assert.Positive(t, adaptive.Totals.OutOfOrder)
		assert.Positive(t, adaptive.Flows[0].OutOfOrder)
		assert.Less(t, adaptive.Flows[0].OutOfOrder, int64(1024/4), "a small share of host 0's packets")
	})

	t.Run("spray", func(t *testing.T) {
		spray := lessonRun(t, l, "spray")
		assert.InEpsilon(t, adaptive.Totals.MaxFctUs, spray.Totals.MaxFctUs, 0.1, "as even as adaptive on average")
		// The quiz: many more packets out of order.
		assert.Greater(t, spray.Totals.OutOfOrder, 10*adaptive.Totals.OutOfOrder)
		assert.Greater(t, spray.Flows[0].OutOfOrder, int64(1024/2), "most of host 0's 1,024 packets")
		q, qa := courseLink(t, spray, "leaf0→spine0").MaxQueueBytes, courseLink(t, adaptive, "leaf0→spine0").MaxQueueBytes
		assert.LessOrEqual(t, qa, int64(2*(4096+82)), "adaptive keeps the uplink queue to a packet or two")
		assert.Greater(t, q, 10*qa, "spraying builds deeper queues")
		assert.Zero(t, spray.Totals.Retransmits, "receivers keep out-of-order packets")
		assert.Zero(t, adaptive.Totals.Retransmits)
	})

	t.Run("fabrics", func(t *testing.T) {
		r := lessonRun(t, l, "fabrics")
		alone := lessonRun(t, l, "permutation")
		assert.Positive(t, r.Totals.ECNMarks)
		assert.Positive(t, r.Totals.CNPs)
		assert.Greater(t, r.Totals.MaxFctUs, 1.5*alone.Totals.MaxFctUs, "ECMP with DCQCN is worse than ECMP alone")
		assert.Greater(t, r.Totals.MeanFctUs, 1.5*alone.Totals.MeanFctUs)
		cut := 0
		for _, f := range r.Flows {
			if f.MinRateGbps < 200 {
				cut++
			}
		}
		assert.Greater(t, cut, len(r.Flows)/4, "collided senders cut far below a fair share")
		a := lessonRun(t, l, "fabrics", "network.routing=adaptive")
		b := lessonRun(t, l, "permutation", "network.routing=adaptive")
		assert.Zero(t, a.Totals.ECNMarks, "adaptive routing keeps the queues below Kmin")
		assert.Equal(t, b.Totals.MaxFctUs, a.Totals.MaxFctUs, "the same run as without DCQCN")
	})

	t.Run("permutation", func(t *testing.T) {
		r := lessonRun(t, l, "permutation")
		assert.Greater(t, r.Totals.MaxFctUs, 1.8*r.Totals.MeanFctUs, "ECMP's tail is far from its mean")
		assert.Zero(t, r.Totals.OutOfOrder)
		for _, routing := range []string{"adaptive", "spray"} {
			p := lessonRun(t, l, "permutation", "network.routing="+routing)
			assert.Less(t, p.Totals.MaxFctUs, 1.1*p.Totals.MeanFctUs, "%s brings the tail close to the mean", routing)
			assert.Positive(t, p.Totals.OutOfOrder, routing)
		}
	})
}

// TestCourseAdaptiveRoutingKnobs walks the routing knob of every step that
// has one and checks the sentence the page shows at each position.
func TestCourseAdaptiveRoutingKnobs(t *testing.T) {
	l := rtLesson(t, "adaptive-routing", "nvlink-vs-ib")
	t.Run("adaptive", func(t *testing.T) {
		scale := lessonRun(t, l, "scale")
		ecmp := lessonRun(t, l, "adaptive", "network.routing=ecmp")
		adaptive := lessonRun(t, l, "adaptive", "network.routing=adaptive")
		// ecmp: "the ragged tail of the last step is back, with nothing out of order"
		assert.Equal(t, []int{0}, whenShown(t, "adaptive-routing", "adaptive", ecmp))
		assert.Zero(t, ecmp.Totals.OutOfOrder)
		assert.Equal(t, scale.Totals.MaxFctUs, ecmp.Totals.MaxFctUs, "the last step's run")
		// adaptive: "all flows finish together, at the time an uncollided flow took under ECMP"
		assert.Equal(t, []int{1}, whenShown(t, "adaptive-routing", "adaptive", adaptive))
		assert.InEpsilon(t, adaptive.Totals.MaxFctUs, adaptive.Totals.MeanFctUs, 0.01)
		assert.InEpsilon(t, rtFastest(scale), adaptive.Totals.MaxFctUs, 0.05)
		assert.Less(t, adaptive.Flows[0].OutOfOrder, int64(1024/4), "a small share")
	})
	t.Run("permutation", func(t *testing.T) {
		for _, routing := range []string{"ecmp", "adaptive", "spray"} {
			r := lessonRun(t, l, "permutation", "network.routing="+routing)
			if routing == "ecmp" {
				assert.Equal(t, []int{0}, whenShown(t, "adaptive-routing", "permutation", r))
				assert.Greater(t, r.Totals.MaxFctUs, 1.8*r.Totals.MeanFctUs, "about twice the mean")
				assert.Positive(t, r.Totals.PauseFrames, "PFC pauses the colliding senders")
				continue
			}
			assert.Equal(t, []int{1}, whenShown(t, "adaptive-routing", "permutation", r), routing)
			assert.Less(t, r.Totals.MaxFctUs, 1.1*r.Totals.MeanFctUs, "%s: the tail close to the mean", routing)
			assert.Positive(t, r.Totals.OutOfOrder, routing)
		}
	})
	t.Run("fabrics", func(t *testing.T) {
		for _, routing := range []string{"ecmp", "adaptive", "spray"} {
			r := lessonRun(t, l, "fabrics", "network.routing="+routing)
			alone := lessonRun(t, l, "permutation", "network.routing="+routing)
			if routing == "ecmp" {
				assert.Equal(t, []int{0}, whenShown(t, "adaptive-routing", "fabrics", r))
				assert.Greater(t, r.Totals.MaxFctUs, alone.Totals.MaxFctUs, "worse than ECMP alone: the tail")
				assert.Greater(t, r.Totals.MeanFctUs, alone.Totals.MeanFctUs, "and the mean")
				continue
			}
			assert.Equal(t, []int{1}, whenShown(t, "adaptive-routing", "fabrics", r), routing)
			assert.Zero(t, r.Totals.ECNMarks, "%s: no packet is marked", routing)
			assert.Equal(t, alone.Totals.MaxFctUs, r.Totals.MaxFctUs, "%s: the same run as without DCQCN", routing)
		}
	})
}
