package render

import (
	"fabriclab/sim/snap"
)

// stageLanes builds each pipeline stage's compute lane: a bar per forward
// or backward of a micro-batch (its tensor-parallel pieces and the short
// waits between them drawn as one), and the waits between them.
func (v *trainView) stageLanes() {
	b, th, tr, now, w0, w1 := v.b, v.b.th, v.tr, v.now, v.w0, v.w1
	lang := b.layout.Opt.Lang
	v.stages = make([][]bar, tr.PP)
	prev := make([]*snap.Task, tr.PP) // each stage's task before, in its iteration
	for i := range tr.Tasks {
		k := &tr.Tasks[i]
		if k.Start >= w1 || k.Start > now {
			break
		}
		p := prev[k.Stage]
		if p != nil && p.Iter != k.Iter {
			p = nil
		}
		prev[k.Stage] = k
		if k.End <= w0 {
			continue
		}
		lane := v.stages[k.Stage]
		end := min(k.End, now)
		if n := len(lane); p != nil && n > 0 && lane[n-1].task != nil && samePass(lane[n-1].task, k) {
			lane[n-1].x1 = v.px(end)
			continue
		}
		prevEnd := tr.Starts[k.Iter]
		if p != nil {
			prevEnd = p.End
		}
		if k.Start > prevEnd && k.Waited != "" {
			lane = append(lane, bar{x0: v.px(prevEnd), x1: v.px(k.Start), fill: th.Idle, idle: true, wait: waitWords(lang, k.Waited)})
		}
		c := b.phaseColor(k.Phase)
		if k.Phase != snap.Optimizer {
			c = b.shade(c, k.Chunk) // an interleaved stage's chunks
		}
		v.stages[k.Stage] = append(lane, bar{x0: v.px(k.Start), x1: v.px(end), fill: c, task: k, gap: true})
	}
}

// samePass says whether two tasks of a stage are pieces of one forward or
// backward of one micro-batch through one chunk.
func samePass(a, k *snap.Task) bool {
	return a.Phase == k.Phase && a.Micro == k.Micro && a.Chunk == k.Chunk && a.Iter == k.Iter && k.Phase != snap.Optimizer
}

// ppLabels are a pipeline compute bar's labels: the micro-batch it runs.
func (b *Builder) ppLabels(k *snap.Task) []string {
	switch k.Phase {
	case snap.Forward:
		return []string{b.tf("train.pp.fwd", k.Micro), b.t("train.fwd.letter")}
	case snap.Backward:
		return []string{b.tf("train.pp.bwd", k.Micro), b.t("train.bwd.letter")}
	}
	return b.taskLabels(k, "")
}

// ppContext says how the pipeline runs, for the header: " · pipeline 4
// stages, 1F1B".
func (b *Builder) ppContext(tr *snap.Training) string {
	sched := map[string]string{"gpipe": "GPipe", "1f1b": "1F1B"}[tr.PPSchedule]
	if tr.PPSchedule == "interleaved" {
		sched = b.tf("train.pp.interleaved", tr.PPVirtual)
	}
	return b.tf("train.ctx.pp", tr.PP, sched)
}

// skips says whether the timeline leaves out rows between rows a and z:
// GPUs or nodes, or with pipeline stages, stages.
func skips(tr *snap.Training, a, z snap.TrainRow) bool {
	if tr.PP > 1 {
		return z.Stage != a.Stage+1
	}
	return z.First != a.First+a.Count
}
