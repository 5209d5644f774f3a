package train

import (
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// Stragglers (faults: slow_gpu). A synchronous job waits for its slowest
// rank: a bucket's all-reduce cannot end before the slowest rank has its
// gradients, and a pipeline message leaves a stage when its slowest replica
// sends it. So a stage's tasks take as long as its slowest rank's, and the
// others' timelines show them computing for their own time, then waiting.

// WaitsForSlowest is the idle label of a GPU that waits for a slow one.
const WaitsForSlowest = "waiting for the slowest GPU"

// factor is how many times as long rank r's compute takes.
func (j *Job) factor(r int) float64 {
	if x, ok := j.cfg.Slow[r]; ok {
		return max(x, 1)
	}
	return 1
}

// slowDown stretches st's tasks to its slowest rank's compute.
func (j *Job) slowDown(st *pipelineStage) {
	f := 1.0
	for _, r := range st.ranks {
		f = max(f, j.factor(r))
	}
	if f <= 1 {
		return
	}
	st.slow = f
	p := st.plan
	p.compute = 0
	for k := range p.tasks {
		p.tasks[k].dur = unit.Time(float64(p.tasks[k].dur) * f)
		p.compute += p.tasks[k].dur
	}
}

// fasterLane is a stage's compute lane as a rank sees it that computes at
// share of the slowest one's time (share < 1): each task's compute first,
// then waiting for the slowest GPU.
func fasterLane(lane []metrics.Interval, share float64) []metrics.Interval {
	out := make([]metrics.Interval, 0, 2*len(lane))
	for _, iv := range lane {
		if iv.Kind != "compute" {
			out = append(out, iv)
			continue
		}
		mid := iv.StartUs + (iv.EndUs-iv.StartUs)*share
		out = append(out, metrics.Interval{Kind: "compute", Label: iv.Label, StartUs: iv.StartUs, EndUs: mid},
			metrics.Interval{Kind: "idle", Label: WaitsForSlowest, StartUs: mid, EndUs: iv.EndUs})
	}
	return out
}
