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

// TestCourseFabricsClaims pins what fabrics.*.md says to its scenarios.
func TestCourseFabricsClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	// nominal: 397.5 vs 392.1 Gb/s ceilings, about 1.4 % apart
	ib := stepRun(t, "fabrics", "nominal")
	roce := stepRun(t, "fabrics", "nominal", "topology.fabric=roce")
	assert.InDelta(t, 397.5, ib.Flows[0].Gbps, 2)
	assert.InDelta(t, 392.1, roce.Flows[0].Gbps, 2)
	assert.Greater(t, ib.Flows[0].Gbps, roce.Flows[0].Gbps)

	// incast: "About the same": both lossless, within the header difference
	ibIncast := stepRun(t, "fabrics", "incast")
	roceIncast := stepRun(t, "fabrics", "incast", "topology.fabric=roce")
	for _, r := range []*metrics.Result{ibIncast, roceIncast} {
		assert.Zero(t, r.Totals.Drops, "the incast is lossless")
		assert.Equal(t, 8, r.Totals.FlowsFinished)
	}
	assert.Zero(t, ibIncast.Totals.PauseFrames, "credits send no pause frames")
	assert.Positive(t, roceIncast.Totals.PauseFrames, "PFC does")
	assert.Less(t, ibIncast.Totals.MaxFctUs, roceIncast.Totals.MaxFctUs, "InfiniBand is ahead by its headers")
	assert.InDelta(t, 1, roceIncast.Totals.MaxFctUs/ibIncast.Totals.MaxFctUs, 0.03, "about the same")
	// The text names the fabric the knob chose (by its pause frames) and tells which way to switch.
	assert.Equal(t, []int{0, 0}, whenShown(t, "fabrics", "incast", ibIncast), "InfiniBand: switch to RoCE")
	assert.Equal(t, []int{1, 1}, whenShown(t, "fabrics", "incast", roceIncast), "RoCE: switch back to ib")
	// The senders knob: at every position, on both fabrics, lossless, the text names the fabric,
	// "the result is the same within the header difference" and the queue "peaks near X either way".
	for n := 2; n <= 8; n++ {
		set := fmt.Sprintf("traffic.senders=%d", n)
		ib, roce := stepRun(t, "fabrics", "incast", set), stepRun(t, "fabrics", "incast", set, "topology.fabric=roce")
		for _, r := range []*metrics.Result{ib, roce} {
			assert.Zero(t, r.Totals.Drops, "%d senders: lossless", n)
			assert.Equal(t, n, r.Totals.FlowsFinished, "%d senders", n)
		}
		assert.Positive(t, roce.Totals.PauseFrames, "%d senders: PFC pauses", n)
		assert.Equal(t, []int{0, 0}, whenShown(t, "fabrics", "incast", ib), "%d senders on ib", n)
		assert.Equal(t, []int{1, 1}, whenShown(t, "fabrics", "incast", roce), "%d senders on roce", n)
		assert.InDelta(t, 1, roce.Totals.MaxFctUs/ib.Totals.MaxFctUs, 0.03, "%d senders: the same within the headers", n)
		qib, qroce := courseLink(t, ib, "switch→host8").MaxQueueBytes, courseLink(t, roce, "switch→host8").MaxQueueBytes
		assert.InDelta(t, float64(qib)/(1<<20), float64(qroce)/(1<<20), 0.5, "%d senders: the queue peaks near the same size (MiB)", n)
	}
}

// TestCourseFabricsVictim: pauses and credits alike hold an innocent flow to
// a small share of line rate; ibcc and DCQCN free it, DCQCN at a cost to the incast.
func TestCourseFabricsVictim(t *testing.T) {
	const victim = 7
	pfc := stepRun(t, "fabrics", "victim")
	credit := stepRun(t, "fabrics", "victim-ib")
	ibcc := stepRun(t, "fabrics", "victim-ib", "network.cc=ibcc")
	dcqcn := stepRun(t, "fabrics", "dcqcn")
	require.Len(t, pfc.Flows, 8)

	assert.Less(t, pfc.Flows[victim].Gbps, 80.0, "PFC alone: the victim gets a small share")
	assert.Positive(t, pfc.Totals.PauseFrames)
	assert.Zero(t, credit.Totals.PauseFrames, "InfiniBand sends no pause frames")
	assert.Less(t, credit.Flows[victim].Gbps, 80.0, "credits trap the victim too (the quiz's answer)")
	assert.InDelta(t, pfc.Flows[victim].Gbps, credit.Flows[victim].Gbps, 0.2*pfc.Flows[victim].Gbps, "about the same as under PFC")

	assert.Greater(t, ibcc.Flows[victim].Gbps, 350.0, "ibcc: near line rate")
	assert.Greater(t, dcqcn.Flows[victim].Gbps, 350.0, "DCQCN: near line rate")
	assert.Zero(t, dcqcn.Totals.PauseFrames)
	assert.Greater(t, dcqcn.Totals.MaxFctUs, pfc.Totals.MaxFctUs, "DCQCN's incast takes longer than PFC alone's")
	assert.Less(t, ibcc.Totals.MaxFctUs, dcqcn.Totals.MaxFctUs, "ibcc pays less here")
	// the knob: the paper's rules rescue the victim too, but the incast takes several times as long
	paper := stepRun(t, "fabrics", "dcqcn", "network.dcqcn.profile=paper")
	assert.Greater(t, paper.Flows[victim].Gbps, 350.0)
	assert.Greater(t, paper.Totals.MaxFctUs, 3*dcqcn.Totals.MaxFctUs, "several times as long")
}

// TestCourseFabricsRouting: ECMP and static tables collide on a permutation
// (several times a lone flow's time); adaptive routing and spraying bring the
// tail to about a lone flow's time on either fabric, with reordering.
func TestCourseFabricsRouting(t *testing.T) {
	lone := stepRun(t, "fabrics", "routing", "traffic.pattern=flows", "traffic.flows=[{src: 0, dst: 63}]").Totals.MaxFctUs
	ecmp := stepRun(t, "fabrics", "routing")
	assert.Greater(t, ecmp.Totals.MaxFctUs, 2.5*lone, "ECMP's tail is several times a lone flow's")
	for _, sets := range [][]string{
		{"network.routing=static"},
		{"network.routing=static", "topology.fabric=ib"},
	} {
		r := stepRun(t, "fabrics", "routing", sets...)
		assert.Greater(t, r.Totals.MaxFctUs, 2.5*lone, "%v collides like ECMP", sets)
	}
	for _, sets := range [][]string{
		{"network.routing=adaptive"},
		{"network.routing=spray"},
		{"network.routing=adaptive", "topology.fabric=ib"},
	} {
		r := stepRun(t, "fabrics", "routing", sets...)
		assert.Less(t, r.Totals.MaxFctUs, 1.25*lone, "%v: about a lone flow's time", sets)
		assert.Positive(t, r.Totals.OutOfOrder, "%v reorders", sets)
	}
	sx := stepRun(t, "fabrics", "spectrum-x")
	assert.Less(t, sx.Totals.MaxFctUs, 1.25*lone)
	assert.Zero(t, sx.Totals.PauseFrames)
	assert.Positive(t, sx.Totals.OutOfOrder)
	assert.Greater(t, sx.Totals.GoodputGbps, 3*ecmp.Totals.GoodputGbps, "the knob's ecmp: far less goodput")
}

// TestCourseFabricsAllReduce: the rail-aligned all-reduce hardly depends on
// the fabric ("moves by about the header difference").
func TestCourseFabricsAllReduce(t *testing.T) {
	ib := stepRun(t, "fabrics", "allreduce").Collective
	roce := stepRun(t, "fabrics", "allreduce", "topology.fabric=roce").Collective
	require.NotNil(t, ib)
	assert.InDelta(t, 380, ib.BusBwGBps, 15, "8 × 400G rails: ≈ 370–390 GB/s")
	assert.Greater(t, ib.BusBwGBps, roce.BusBwGBps)
	assert.InDelta(t, 1, roce.BusBwGBps/ib.BusBwGBps, 0.03)
}

// TestCourseFabricsShape: both lessons have what issue 14 asks of every
// lesson, in both languages: 6–10 steps, two or more quizzes, a knob, and a
// recap that links to the next lesson's page in the same language.
func TestCourseFabricsShape(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	next := map[string]string{"nvlink-vs-ib": "fabrics", "fabrics": "lossless-lossy"}
	order := map[string]int{"nvlink-vs-ib": 6, "fabrics": 7}
	for slug, to := range next {
		for _, lang := range []string{"en", "zh"} {
			l := Find(ls, slug, lang)
			require.NotNil(t, l, "%s.%s", slug, lang)
			assert.Equal(t, order[slug], l.Order)
			assert.GreaterOrEqual(t, len(l.Steps), 6, l.Source)
			assert.LessOrEqual(t, len(l.Steps), 10, l.Source)
			src, err := fs.ReadFile(Content(), l.Source)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, strings.Count(string(src), "\n```quiz\n"), 2, l.Source)
			assert.GreaterOrEqual(t, strings.Count(string(src), "\n```knob\n"), 1, l.Source)
			recap := l.Steps[len(l.Steps)-1]
			assert.Equal(t, "recap", recap.ID)
			assert.Contains(t, string(recap.HTML), `href="`+to+`.`+lang+`.html"`, l.Source)
		}
	}
}

// TestCourseFabricsKnobs walks the knobs of every fabrics step not walked
// above, and checks the sentence each position shows.
func TestCourseFabricsKnobs(t *testing.T) {
	t.Run("nominal", func(t *testing.T) {
		// "On InfiniBand (NDR)…" at ib, "On RoCE…" at roce.
		assert.Equal(t, []int{0}, whenShown(t, "fabrics", "nominal", stepRun(t, "fabrics", "nominal")))
		assert.Equal(t, []int{1}, whenShown(t, "fabrics", "nominal", stepRun(t, "fabrics", "nominal", "topology.fabric=roce")))
	})
	t.Run("victim-ib", func(t *testing.T) {
		none := stepRun(t, "fabrics", "victim-ib")
		ibcc := stepRun(t, "fabrics", "victim-ib", "network.cc=ibcc")
		assert.Equal(t, []int{0}, whenShown(t, "fabrics", "victim-ib", none), "the victim still trapped")
		assert.Equal(t, []int{1}, whenShown(t, "fabrics", "victim-ib", ibcc), "the victim freed")
		assert.Zero(t, ibcc.Totals.PauseFrames)
		assert.Greater(t, ibcc.Totals.MaxFctUs, none.Totals.MaxFctUs, "the incast's senders slow down at the source")
	})
	t.Run("dcqcn", func(t *testing.T) {
		pfc := stepRun(t, "fabrics", "victim")
		for i, profile := range []string{"nic", "paper"} {
			r := stepRun(t, "fabrics", "dcqcn", "network.dcqcn.profile="+profile)
			// "no pause frame" (nic) or "only N pause frames" (paper), no tree, the victim free
			assert.Equal(t, []int{i}, whenShown(t, "fabrics", "dcqcn", r), profile)
			assert.Less(t, r.Totals.PauseFrames, pfc.Totals.PauseFrames/20, "%s: too few pauses for a tree", profile)
			assert.Greater(t, r.Flows[7].Gbps, 350.0, profile)
			assert.Greater(t, r.Totals.MaxFctUs, pfc.Totals.MaxFctUs, "%s: the incast takes longer than under PFC alone", profile)
			assert.Less(t, courseLink(t, r, "leaf1→leaf1.host0").Util, 0.9, "%s: the hot port idles part of the time", profile)
		}
	})
	t.Run("routing", func(t *testing.T) {
		lone := stepRun(t, "fabrics", "routing", "traffic.pattern=flows", "traffic.flows=[{src: 0, dst: 63}]").Totals.MaxFctUs
		for _, fabric := range []string{"roce", "ib"} {
			for _, routing := range []string{"static", "ecmp", "adaptive", "spray"} {
				r := stepRun(t, "fabrics", "routing", "network.routing="+routing, "topology.fabric="+fabric)
				perPacket := routing == "adaptive" || routing == "spray"
				if perPacket {
					assert.Equal(t, []int{1}, whenShown(t, "fabrics", "routing", r), "%s on %s: the per-packet sentence", routing, fabric)
					assert.Less(t, r.Totals.MaxFctUs, 1.25*lone, "%s on %s: about a lone flow's time", routing, fabric)
					assert.Less(t, r.Totals.MaxFctUs, 1.1*r.Totals.MeanFctUs, "%s on %s: close to the average", routing, fabric)
				} else {
					assert.Equal(t, []int{0}, whenShown(t, "fabrics", "routing", r), "%s on %s: the hashing sentence", routing, fabric)
					assert.Greater(t, r.Totals.MaxFctUs, 2.5*lone, "%s on %s collides", routing, fabric)
				}
			}
		}
	})
	t.Run("spectrum-x", func(t *testing.T) {
		ar := stepRun(t, "fabrics", "spectrum-x")
		ecmp := stepRun(t, "fabrics", "spectrum-x", "network.routing=ecmp")
		assert.Equal(t, []int{0}, whenShown(t, "fabrics", "spectrum-x", ar))
		assert.Equal(t, []int{1}, whenShown(t, "fabrics", "spectrum-x", ecmp))
		assert.Less(t, ar.Totals.ECNMarks, ecmp.Totals.ECNMarks/10, "congestion control has little to do under adaptive routing")
		assert.Positive(t, ecmp.Totals.CNPs, "DCQCN cuts the collided senders")
		assert.Greater(t, ecmp.Totals.MaxFctUs, 3*ar.Totals.MaxFctUs)
	})
	t.Run("allreduce", func(t *testing.T) {
		assert.Equal(t, []int{0}, whenShown(t, "fabrics", "allreduce", stepRun(t, "fabrics", "allreduce")))
		assert.Equal(t, []int{1}, whenShown(t, "fabrics", "allreduce", stepRun(t, "fabrics", "allreduce", "topology.fabric=roce")))
	})
}
