package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

// dpInterval finds the first interval with label on GPU 0's timeline.
func dpInterval(t *testing.T, tr *metrics.Training, label string) metrics.Interval {
	t.Helper()
	require.NotEmpty(t, tr.Timeline)
	for _, iv := range tr.Timeline[0].Intervals {
		if iv.Label == label {
			return iv
		}
	}
	require.Failf(t, "no such interval", "%s", label)
	return metrics.Interval{}
}

// TestCourseDataParallel checks what "Data parallelism" says about its
// scenarios.
func TestCourseDataParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	l := arCourse(t, "data-parallel", "incast")
	t.Run("knobs", func(t *testing.T) { arKnobsRun(t, l) })

	// iteration: 8 GPUs; the first bucket is ready just after the backward
	// pass starts and hides; only the last bucket is exposed.
	it := lessonRun(t, l, "iteration").Training
	require.NotNil(t, it)
	assert.Equal(t, 8, it.Ranks)
	require.Len(t, it.Buckets, 5, "ResNet-50's five DDP buckets (REFERENCE.md)")
	assert.EqualValues(t, 102228128, it.GradBytes, "97.5 MiB of fp32 gradients, as the quiz says")
	fwd, bwd := dpInterval(t, it, "forward"), dpInterval(t, it, "backward")
	assert.InDelta(t, 2, (bwd.EndUs-bwd.StartUs)/(fwd.EndUs-fwd.StartUs), 0.05, "backward is twice the forward")
	first, last := it.Buckets[0], it.Buckets[len(it.Buckets)-1]
	// "A bucket closes once a tensor takes it past its cap, so the first bucket is the whole
	// classifier layer": fc's 1,000 biases and 2,048 × 1,000 weights in fp32, past the 1 MiB cap.
	assert.EqualValues(t, 4*(1000+2048*1000), first.Bytes, "the first bucket is the classifier layer")
	assert.Greater(t, first.Bytes, int64(1<<20), "past its 1 MiB cap")
	assert.Less(t, first.ReadyUs-bwd.StartUs, 0.01*(bwd.EndUs-bwd.StartUs), "the first bucket is ready a moment after backward starts")
	assert.Less(t, first.FinishUs, bwd.EndUs, "and is done long before it ends")
	assert.InDelta(t, bwd.EndUs, last.ReadyUs, 1, "the last bucket is ready when backward ends")
	assert.InDelta(t, last.FinishUs-last.StartUs, it.ExposedCommUs, 0.05*it.ExposedCommUs, "only the last bucket is exposed")

	// overlap: off, all buckets wait for the end of backward; several times
	// the exposed time, still small on NVLink.
	off := lessonRun(t, l, "overlap").Training
	assert.InDelta(t, bwd.EndUs, off.Buckets[0].StartUs, 1, "without overlap the first all-reduce starts after backward")
	assert.Greater(t, off.ExposedCommUs, 3*it.ExposedCommUs, "several times longer")
	assert.Less(t, off.ExposedCommUs, 0.05*off.IterationUs, "still small on one server")
	on := lessonRun(t, l, "overlap", "training.overlap=true").Training
	assert.InDelta(t, it.ExposedCommUs, on.ExposedCommUs, 0.01, "the toggle gives back the first step")

	// scale: 1,024 GPUs, latency-bound: a 4× bigger bucket takes about as
	// long; about a tenth of the iteration waits; a few servers hide it.
	sc := lessonRun(t, l, "scale").Training
	assert.Equal(t, 1024, sc.Ranks)
	assert.InDelta(t, bwd.EndUs, dpInterval(t, sc, "backward").EndUs, 1, "the same compute")
	b0, b1 := sc.Buckets[0], sc.Buckets[1]
	assert.Greater(t, float64(b1.Bytes)/float64(b0.Bytes), 3.5, "the second bucket is nearly four times the first")
	assert.InDelta(t, 1, (b1.FinishUs-b1.StartUs)/(b0.FinishUs-b0.StartUs), 0.1, "but takes about as long")
	assert.Greater(t, b0.FinishUs-b0.StartUs, 1000.0, "milliseconds per bucket")
	assert.Greater(t, sc.ScalingEfficiency, 0.85)
	assert.Less(t, sc.ScalingEfficiency, 0.95, "about a tenth waits")
	few := lessonRun(t, l, "scale", "topology.nodes=4").Training
	assert.Greater(t, few.ScalingEfficiency, 0.99, "at a few servers nearly everything hides")

	// compression: bf16 halves the bytes but not the wait.
	bf := lessonRun(t, l, "compression").Training
	assert.EqualValues(t, sc.GradBytes/2, bf.GradBytes, "bf16 halves the bytes")
	assert.InDelta(t, sc.ExposedCommUs, bf.ExposedCommUs, 0.02*sc.ExposedCommUs, "and leaves the wait almost unchanged")
	_, err := dpParse(l, "compression", "training.compression=int8")
	assert.Error(t, err, "int8 is refused")

	// tree: far less waiting; auto (NCCL's choice) as good; a flat ring waits
	// longer than the backward pass computes.
	tree := lessonRun(t, l, "tree").Training
	assert.Less(t, tree.ExposedCommUs, 0.2*sc.ExposedCommUs, "the tree cuts the wait")
	assert.Greater(t, tree.ScalingEfficiency, 0.98)
	assert.Less(t, tree.Buckets[0].FinishUs-tree.Buckets[0].StartUs, 1000.0, "a few hundred µs per bucket")
	auto := lessonRun(t, l, "tree", "training.algo=auto").Training
	assert.Greater(t, auto.ScalingEfficiency, 0.98, "NCCL's own choice does as well")
	// scale's "the textbook hierarchical one, not what NCCL would pick"
	assert.Less(t, auto.ExposedCommUs, 0.2*sc.ExposedCommUs, "NCCL's choice is not the scale step's all-reduce")
	ring := lessonRun(t, l, "tree", "training.algo=ring").Training
	assert.Greater(t, ring.ExposedCommUs, bwd.EndUs-bwd.StartUs, "a flat ring waits longer than backward computes")

	// fsdp: Llama 3 8B on the same 1,024 GPUs waits a smaller share than
	// ResNet-50, with messages of hundreds of MB; overlap off multiplies it.
	ll := lessonRun(t, l, "fsdp").Training
	assert.Equal(t, 1024, ll.Ranks)
	assert.Equal(t, "fsdp", ll.Sharding)
	assert.InDelta(t, 314, float64(ll.Params)/float64(it.Params), 1, "314 times ResNet-50's parameters")
	assert.Greater(t, float64(ll.Params)*16, 80e9, "16 bytes per parameter pass an H100's 80 GB")
	assert.Greater(t, ll.ComputeUs, 1e6, "over a second of compute")
	assert.Greater(t, ll.ScalingEfficiency, sc.ScalingEfficiency, "better than ResNet-50 on the same cluster")
	assert.Greater(t, ll.GradBytes, 100*sc.GradBytes, "although each iteration sends far more")
	for _, b := range ll.Buckets {
		assert.Greater(t, b.Bytes, int64(100e6), "every unit's message is hundreds of MB")
	}
	wait := dpInterval(t, ll, "waiting for parameters")
	assert.Greater(t, 2*(wait.EndUs-wait.StartUs), 0.5*ll.ExposedCommUs, "the first all-gather is much of the wait")
	llOff := lessonRun(t, l, "fsdp", "training.overlap=false").Training
	assert.Greater(t, llOff.ExposedCommUs, 3*ll.ExposedCommUs, "overlap off multiplies the wait")
}

// dpParse parses a step's scenario with sets, for checking what is refused.
func dpParse(l *Lesson, id string, sets ...string) (any, error) {
	for _, s := range l.Steps {
		if s.ID == id {
			return scenario.ParseWith([]byte(s.Scenario), l.Source+"#"+id, sets)
		}
	}
	return nil, nil
}

// TestCourseDataParallelProse runs every knob step of "Data parallelism" at
// every position and checks the sentence the page shows there ({{ if }}
// text) and the claim it makes.
func TestCourseDataParallelProse(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 1,024-GPU runs at every knob position")
	}
	// overlap: the text says which way the all-reduces ran.
	for _, on := range []string{"false", "true"} {
		r := stepRun(t, "data-parallel", "overlap", "training.overlap="+on)
		bwd := dpInterval(t, r.Training, "backward")
		under := r.Training.Buckets[0].StartUs < bwd.EndUs
		assert.Equal(t, on == "true", under, "overlap=%s: the first all-reduce starts under the backward pass", on)
		assert.Equal(t, []int{map[bool]int{true: 0, false: 1}[under]}, whenShown(t, "data-parallel", "overlap", r), "overlap=%s", on)
	}

	// scale: at 256 GPUs and more, a bucket nearly four times bigger takes
	// about as long (latency-bound); below, longer but far from four times.
	prev := 1.0
	for _, n := range []string{"1", "2", "4", "8", "16", "32", "64", "128"} {
		res := stepRun(t, "data-parallel", "scale", "topology.nodes="+n)
		r := res.Training
		b0, b1 := r.Buckets[0], r.Buckets[1]
		ratio := (b1.FinishUs - b1.StartUs) / (b0.FinishUs - b0.StartUs)
		big := r.Ranks >= 256
		assert.Equal(t, []int{map[bool]int{true: 0, false: 1}[big]}, whenShown(t, "data-parallel", "scale", res), "%s servers", n)
		if big {
			assert.InDelta(t, 1, ratio, 0.07, "%s servers: about as long", n)
		} else {
			assert.Greater(t, ratio, 1.05, "%s servers: longer", n)
			assert.Less(t, ratio, 2.5, "%s servers: far from four times as long", n)
		}
		assert.LessOrEqual(t, r.ScalingEfficiency, prev, "%s servers: efficiency falls as the job grows", n)
		prev = r.ScalingEfficiency
	}

	// compression: fp32 and both 16-bit formats wait almost the same.
	fp32 := stepRun(t, "data-parallel", "compression", "training.compression=fp32")
	assert.Equal(t, []int{1}, whenShown(t, "data-parallel", "compression", fp32), "fp32")
	for _, c := range []string{"bf16", "fp16"} {
		r := stepRun(t, "data-parallel", "compression", "training.compression="+c)
		assert.Equal(t, []int{0}, whenShown(t, "data-parallel", "compression", r), c)
		assert.Equal(t, fp32.Training.GradBytes/2, r.Training.GradBytes, "%s: half the bytes on the wire", c)
		assert.InEpsilon(t, fp32.Training.ExposedCommUs, r.Training.ExposedCommUs, 0.02, "%s: almost exactly the same wait", c)
	}

	// tree: each algorithm gets its own sentence, and each is true.
	bwd := dpInterval(t, fp32.Training, "backward")
	for algo, want := range map[string]int{"tree": 0, "nvlstree": 0, "auto": 0, "ring": 1, "hierarchical": 2} {
		r := stepRun(t, "data-parallel", "tree", "training.algo="+algo)
		assert.Equal(t, []int{want}, whenShown(t, "data-parallel", "tree", r), algo)
		tr := r.Training
		switch want {
		case 0: // a few hundred µs per bucket, all but the last hidden
			for _, b := range tr.Buckets {
				assert.InDelta(t, 350, b.FinishUs-b.StartUs, 150, "%s: a few hundred µs per bucket", algo)
			}
			last := tr.Buckets[len(tr.Buckets)-1]
			assert.InDelta(t, last.FinishUs-last.StartUs, tr.ExposedCommUs, 0.05*tr.ExposedCommUs, "%s: only the last bucket shows", algo)
		case 1:
			assert.Greater(t, tr.ExposedCommUs, bwd.EndUs-bwd.StartUs, "ring: longer than the backward pass computes")
		case 2:
			assert.Greater(t, tr.Buckets[0].FinishUs-tr.Buckets[0].StartUs, 1000.0, "hierarchical: milliseconds per bucket")
		}
	}

	// fsdp: overlap on beats ResNet-50's hierarchical efficiency; off falls
	// below it, and the reduce-scatters queue after the backward pass.
	res := stepRun(t, "data-parallel", "scale").Training
	for _, on := range []string{"true", "false"} {
		r := stepRun(t, "data-parallel", "fsdp", "training.overlap="+on)
		tr := r.Training
		lb := dpInterval(t, tr, "backward")
		under := tr.Buckets[0].StartUs < lb.EndUs
		assert.Equal(t, on == "true", under, "fsdp overlap=%s", on)
		assert.Equal(t, []int{map[bool]int{true: 0, false: 1}[under]}, whenShown(t, "data-parallel", "fsdp", r), "fsdp overlap=%s", on)
		if under {
			assert.Greater(t, tr.ScalingEfficiency, res.ScalingEfficiency, "better than ResNet-50's")
		} else {
			assert.Less(t, tr.ScalingEfficiency, res.ScalingEfficiency, "now below ResNet-50's")
			for _, b := range tr.Buckets {
				assert.GreaterOrEqual(t, b.StartUs, lb.EndUs-1, "every reduce-scatter queues after the backward pass")
			}
		}
	}
}
