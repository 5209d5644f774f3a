package lessons

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

// The course tests run each step's scenario (as the page loads it, through
// the same loader) and assert the claims the lesson's text makes, so a model
// change that makes the text wrong fails here.

func TestCourseScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	one := stepRun(t, "scaling", "one-node").Training
	require.NotNil(t, one)
	// "only … is exposed communication", "the GPUs compute 99 % of the time"
	assert.Less(t, one.ExposedCommUs, 0.02*one.IterationUs)
	assert.Greater(t, one.GPUUtil, 0.98)
	// "torchtitan measures 5,762–6,667 tokens/s per GPU … calibrated to that": within 10 % of the range
	perGPU := one.SamplesPerSecond / float64(one.Ranks)
	assert.InDelta(t, (5762+6667)/2.0, perGPU, (6667-5762)/2.0+600)

	// Weak scaling: 1,024 GPUs take about one node's iteration time and make close to 128× its tokens/s.
	weak := stepRun(t, "scaling", "weak").Training
	assert.Equal(t, 1024, weak.Ranks)
	assert.InEpsilon(t, one.IterationUs, weak.IterationUs, 0.03, "the iteration barely changes")
	assert.Greater(t, weak.SamplesPerSecond, 0.95*128*one.SamplesPerSecond, "close to 128 times one node")
	mid := stepRun(t, "scaling", "weak", "topology.nodes=16").Training
	assert.InEpsilon(t, one.IterationUs, mid.IterationUs, 0.03, "the knob: from 1 to 128 nodes the iteration barely changes")

	// Strong scaling: the same 524,288-token global batch on 256 and on 512 GPUs.
	before := stepRun(t, "scaling", "predict-strong").Training
	after := stepRun(t, "scaling", "strong").Training
	assert.Equal(t, 524288, before.Ranks*before.Batch)
	assert.Equal(t, 524288, after.Ranks*after.Batch)
	assert.Equal(t, 2*before.Ranks, after.Ranks, "double the GPUs")
	assert.Greater(t, before.GPUUtil, 0.9)
	assert.LessOrEqual(t, after.SamplesPerSecond, before.SamplesPerSecond, "adding GPUs made it slower (the quiz's answer)")
	assert.Greater(t, after.ExposedCommUs, after.ComputeUs, "exposed communication is more than the compute")

	// The link-speed step: "Much less than half" of the exposed time goes at 800G; 100G hurts a lot.
	fast := stepRun(t, "scaling", "link-speed").Training
	assert.Greater(t, fast.ExposedCommUs, 0.7*after.ExposedCommUs, "twice the bandwidth removes much less than half")
	assert.Less(t, fast.ExposedCommUs, after.ExposedCommUs, "but some")
	slow := stepRun(t, "scaling", "link-speed", "topology.link_gbps=100").Training
	assert.Greater(t, slow.ExposedCommUs, 2*after.ExposedCommUs, "100 Gb/s hurts a lot")
}

// TestCourseScalingPCIe checks the link-speed step at every position of its
// knob: above 400 Gb/s the GPU→NIC PCIe link, not the port, caps the path
// (400 → 800 gains about 30 %, 1,600 nothing more), at or below 400 the
// NIC does; and the sentence the page shows says which.
func TestCourseScalingPCIe(t *testing.T) {
	if testing.Short() {
		t.Skip("long: five 512-GPU runs")
	}
	path := map[string]float64{}
	exposed := map[string]float64{}
	for _, g := range []string{"100", "200", "400", "800", "1600"} {
		r := stepRun(t, "scaling", "link-speed", "topology.link_gbps="+g)
		port := courseLink(t, r, "n0.nic0→rail0").Gbps
		path[g] = courseLink(t, r, "n0.gpu0→n0.nic0").Gbps
		exposed[g] = r.Training.ExposedCommUs
		pcie := g == "800" || g == "1600"
		if pcie {
			assert.Less(t, path[g], 0.7*port, "%s G: the PCIe link is narrower than the port", g)
		} else {
			assert.InDelta(t, 0.966*port, path[g], 1, "%s G: the NIC's payload rate (about 97 %% of the port)", g)
		}
		assert.Equal(t, []int{map[bool]int{true: 0, false: 1}[pcie]}, whenShown(t, "scaling", "link-speed", r), "%s G: the text names the narrowest part", g)
	}
	assert.InDelta(t, 1.3, path["800"]/path["400"], 0.05, "from 400 to 800 the path gains about 30 %")
	assert.Equal(t, path["800"], path["1600"], "1,600 adds nothing more")
	assert.InDelta(t, 63, path["800"]/8, 0.1, "the cap: PCIe Gen5 x16's raw 63 GB/s")
	// "below 400 every halving adds a lot of waiting; above 400 … from 400 to 800 the waiting falls by
	// only about a sixth, and past 800 not at all"
	assert.Greater(t, exposed["100"]-exposed["200"], 0.2*exposed["200"])
	assert.Greater(t, exposed["200"]-exposed["400"], 0.2*exposed["400"])
	assert.InDelta(t, 1/6.0, (exposed["400"]-exposed["800"])/exposed["400"], 0.05, "about a sixth")
	assert.InEpsilon(t, exposed["800"], exposed["1600"], 0.01)

	// The quiz's explanation: a ring through all 512 GPUs, 511 steps, 63 across the network at 14 µs
	// and 448 over NVLink at 3.4 µs, about 2.4 ms per all-gather before any byte counts.
	ag, err := scenario.ParseWith([]byte(`name: ag
topology: {kind: dgx, nodes: 64, fabric: ib, link_gbps: 800}
collective: {op: allgather, algo: ring, protocol: simple, bytes: 1KiB}
sim: {fidelity: flow}
`), "scaling#link-speed ring", nil)
	require.NoError(t, err)
	agRes, err := sim.Run(ag)
	require.NoError(t, err)
	assert.Equal(t, 512, agRes.Collective.Ranks)
	assert.InDelta(t, 8.4+448*3.4+63*14, agRes.Collective.TimeUs, 20, "a ring's latency across 512 GPUs")
	assert.InDelta(t, 2400, agRes.Collective.TimeUs, 100, "about 2.4 ms per collective")

	// The latency-share step: without the per-step latency about half of the exposed time remains.
	left, right := compareRun(t, "scaling", "latency-share")
	assert.InEpsilon(t, exposed["800"], left.Training.ExposedCommUs, 1e-9, "the left side is the link-speed step's run")
	share := right.Training.ExposedCommUs / left.Training.ExposedCommUs
	assert.Equal(t, []int{1}, whenShown(t, "scaling", "latency-share", left, right), "about half (share %.2f)", share)
	assert.InDelta(t, 0.5, share, 0.1)
}

// TestCourseScalingUtil checks the cost step's utilisation claims.
func TestCourseScalingUtil(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	// Cost: one node loses a few percent, 64 nodes more than half.
	cost := stepRun(t, "scaling", "cost").Training
	assert.Less(t, cost.GPUUtil, 0.5, "at 64 nodes more than half is lost")
	small := stepRun(t, "scaling", "cost", "topology.nodes=1").Training
	assert.InDelta(t, 0.95, small.GPUUtil, 0.04, "with one node a few percent is lost")
	assert.InDelta(t, 0.40, cost.MFU, 0.005, "the text's MFU")
}

// TestCourseScalingCost checks the cost step's figures and claims: the costs
// are the run's GPU-hours at the price knob's value, the price moves only
// the money, and per billion tokens one node is cheaper but much slower.
func TestCourseScalingCost(t *testing.T) {
	run := stepRun(t, "scaling", "cost").Training
	require.NotNil(t, run.Cost)
	c := run.Cost
	assert.Equal(t, 2.0, c.GPUHourPrice, "the text: the 2 USD it starts at")
	for name, s := range map[string]metrics.CostShare{"per hour": c.PerHour, "per 1,000 iterations": c.Per1kIters, "per billion tokens": c.Per1BSamples} {
		require.NotNil(t, s.Cost, name)
		require.NotNil(t, s.WaitingCost, name)
		assert.InEpsilon(t, c.GPUHourPrice*s.WaitingGPUHours, *s.WaitingCost, 1e-5, "%s: waiting cost = price × waiting GPU-hours", name)
		assert.InEpsilon(t, c.GPUHourPrice*s.GPUHours, *s.Cost, 1e-5, "%s: cost = price × GPU-hours", name)
		assert.InEpsilon(t, s.GPUHours*(1-run.GPUUtil), s.WaitingGPUHours, 1e-5, "%s: waiting GPU-hours = GPU-hours × (1 − utilisation)", name)
	}
	// "an hour of the job is {ranks} GPU-hours"; 1,000 iterations and a billion tokens from the run's own times
	assert.Equal(t, float64(run.Ranks), c.PerHour.GPUHours)
	assert.InEpsilon(t, float64(run.Ranks)*1000*run.IterationUs/3.6e9, c.Per1kIters.GPUHours, 1e-5)
	assert.InEpsilon(t, float64(run.Ranks)*1e9/run.SamplesPerSecond/3600, c.Per1BSamples.GPUHours, 1e-5)

	// "Move the price slider: every cost follows it, the GPU-hours do not": doubling the price doubles the costs.
	double := stepRun(t, "scaling", "cost", "training.gpu_hour_price=4").Training
	assert.InEpsilon(t, 2**c.PerHour.WaitingCost, *double.Cost.PerHour.WaitingCost, 1e-5)
	assert.InEpsilon(t, 2**c.Per1kIters.Cost, *double.Cost.Per1kIters.Cost, 1e-5)
	assert.InEpsilon(t, 2**c.Per1BSamples.WaitingCost, *double.Cost.Per1BSamples.WaitingCost, 1e-5)
	assert.Equal(t, c.Per1BSamples.GPUHours, double.Cost.Per1BSamples.GPUHours)
	assert.Equal(t, run.IterationUs, double.IterationUs, "the price does not change the run")

	// Every position of the price knob has a price, so every cost figure exists (none shows "—").
	ls, err := courseLessons()
	require.NoError(t, err)
	for _, lang := range []string{"en", "zh"} {
		var prices []string
		for _, s := range Find(ls, "scaling", lang).Steps {
			for _, k := range s.Knobs {
				if s.ID == "cost" && k.Key == "training.gpu_hour_price" {
					prices = k.Values
				}
			}
		}
		require.NotEmpty(t, prices, "%s: the cost step has a price knob", lang)
		for _, p := range prices {
			v, err := strconv.ParseFloat(p, 64)
			require.NoError(t, err)
			assert.Positive(t, v, "%s: price %s", lang, p)
		}
	}

	// "Move the nodes slider to 1: … a billion tokens take about half the GPU-hours they take on 64
	// nodes. But one node makes about a thirtieth of the tokens per second (64 times the GPUs give about
	// 30 times the speed)"
	one := stepRun(t, "scaling", "cost", "topology.nodes=1").Training
	assert.InDelta(t, 0.5, one.Cost.Per1BSamples.GPUHours/c.Per1BSamples.GPUHours, 0.07, "about half the GPU-hours")
	assert.InDelta(t, 30, run.SamplesPerSecond/one.SamplesPerSecond, 4, "about a thirtieth of the tokens per second")
	assert.Less(t, *one.Cost.Per1BSamples.WaitingCost, 0.1**c.Per1BSamples.WaitingCost, "one node hardly pays for waiting")
}

// TestCourseScalingResNet16K checks the recap's terminal exercise: ResNet-50
// scales well to a thousand GPUs, and at 16,384 the GPUs mostly wait.
func TestCourseScalingResNet16K(t *testing.T) {
	if testing.Short() {
		t.Skip("16,384 GPUs: a few seconds")
	}
	run := func(nodes string) *metrics.Training {
		sc, err := scenario.Load("dp-resnet50", nil, []string{"sim.fidelity=flow", "topology.nodes=" + nodes})
		require.NoError(t, err)
		res, err := sim.Run(sc)
		require.NoError(t, err)
		return res.Training
	}
	assert.Greater(t, run("128").GPUUtil, 0.9)
	big := run("2048")
	assert.Equal(t, 16384, big.Ranks)
	assert.Less(t, big.GPUUtil, 0.5)
}

// TestCourseScalingWeakProse runs the weak-scaling step at every position of
// its knob: the iteration barely changes, the job makes close to one node's
// rate times the nodes, and the sentence the page shows says so (or, at one
// node, that it is the first step's node).
func TestCourseScalingWeakProse(t *testing.T) {
	if testing.Short() {
		t.Skip("long: eight runs up to 1,024 GPUs")
	}
	one := stepRun(t, "scaling", "one-node").Training
	for _, n := range []int{1, 2, 4, 8, 16, 32, 64, 128} {
		r := stepRun(t, "scaling", "weak", "topology.nodes="+strconv.Itoa(n))
		tr := r.Training
		assert.InEpsilon(t, one.IterationUs, tr.IterationUs, 0.03, "%d nodes: the iteration barely changes", n)
		assert.InEpsilon(t, float64(n)*one.SamplesPerSecond, tr.SamplesPerSecond, 0.05, "%d nodes: close to one node's rate times the nodes", n)
		want := 0
		if n == 1 {
			want = 1
			assert.InEpsilon(t, one.SamplesPerSecond, tr.SamplesPerSecond, 1e-9, "one node: the first step's node")
		}
		assert.Equal(t, []int{want}, whenShown(t, "scaling", "weak", r), "%d nodes", n)
	}
}
