package train

import (
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// timeline records what a job does as it happens, for viewers: append-only
// logs that snapshots share by prefix (snap.Training), so recording a
// snapshot copies nothing. Every rank runs the same compute, so the compute
// lane is kept once; each collective keeps when each row's part ended.
type timeline struct {
	rows    []snap.TrainRow
	tasks   []snap.Task
	comms   []snap.Comm
	running [2]snap.Comm
	others  map[[2]int]snap.Comm // later stages' running collectives, by stage and stream
	starts  []unit.Time
	steps   []snap.Step
}

// trainRows groups n ranks into timeline rows: one per GPU up to
// snap.MaxTrainRows of them, else one per node of gpusPerNode (one per GPU
// when they are not in nodes), keeping the first MaxTrainRows−1 and the last.
func trainRows(n, gpusPerNode int) []snap.TrainRow {
	var rows []snap.TrainRow
	switch {
	case n > snap.MaxTrainRows && gpusPerNode >= 2 && n%gpusPerNode == 0:
		for d := 0; d < n/gpusPerNode; d++ {
			rows = append(rows, snap.TrainRow{First: d * gpusPerNode, Count: gpusPerNode, Node: d})
		}
	default:
		for r := range n {
			rows = append(rows, snap.TrainRow{First: r, Count: 1, Node: -1})
		}
	}
	if len(rows) > snap.MaxTrainRows {
		rows = append(rows[:snap.MaxTrainRows-1], rows[len(rows)-1])
	}
	return rows[:len(rows):len(rows)]
}

// trainRows are the job's timeline rows: trainRows' without pipeline
// stages, else one per stage (its first rank), the first MaxTrainRows−1
// and the last.
func (j *Job) trainRows() []snap.TrainRow {
	if j.cfg.PP == 1 {
		return trainRows(len(j.ranks), j.cfg.GPUsPerNode)
	}
	var rows []snap.TrainRow
	for s := range j.cfg.PP {
		rows = append(rows, snap.TrainRow{First: j.place.Rank(0, s, 0), Count: 1, Node: -1, Stage: s})
	}
	if len(rows) > snap.MaxTrainRows {
		rows = append(rows[:snap.MaxTrainRows-1], rows[len(rows)-1])
	}
	return rows[:len(rows):len(rows)]
}

func (tl *timeline) task(t *task, stage int, start unit.Time) {
	tl.tasks = append(tl.tasks, snap.Task{Start: start, End: start + t.dur, Phase: snap.Phase(t.phase),
		Iter: len(tl.starts) - 1, Micro: t.micro, Group: t.group, Stage: stage, Chunk: t.chunk})
}

// waited marks the task just begun as having waited for what t names.
func (tl *timeline) waited(t *task) { tl.tasks[len(tl.tasks)-1].Waited = t.idle }

// opStart records stream k's collective of stage as running (only the
// first stage's show as running; every stage's are logged when they end).
func (tl *timeline) opStart(stage, k int, o *op, start unit.Time) {
	c := snap.Comm{Label: o.label, Kind: o.kind, TP: o.tp, Group: o.group, Bytes: int64(o.bytes), Start: start, Stage: stage}
	if stage == 0 {
		tl.running[k] = c
		return
	}
	if tl.others == nil {
		tl.others = map[[2]int]snap.Comm{}
	}
	tl.others[[2]int{stage, k}] = c
}

// opEnd moves stream k's collective of stage to the log with each row's
// end: the last of its ranks' parts.
func (tl *timeline) opEnd(stage, k int, last []unit.Time) {
	c := tl.running[k]
	if stage > 0 {
		c = tl.others[[2]int{stage, k}]
	}
	c.Ends = make([]unit.Time, len(tl.rows))
	for i, r := range tl.rows {
		for _, t := range last[r.First : r.First+r.Count] {
			c.Ends[i] = max(c.Ends[i], t)
		}
	}
	tl.comms = append(tl.comms, c)
	if stage == 0 {
		tl.running[k] = snap.Comm{}
	}
}

// Timeline is what the job has done up to now, for a snapshot.
func (j *Job) Timeline() *snap.Training {
	tl := &j.tl
	var compute unit.Time
	for _, st := range j.stages {
		compute = max(compute, st.plan.compute)
	}
	return &snap.Training{Model: j.cfg.Model.Name, Ranks: len(j.ranks), Sharding: j.cfg.Sharding, TP: j.cfg.TP, PP: j.cfg.PP, PPSchedule: j.cfg.PPSchedule, PPVirtual: j.cfg.PPVirtual,
		Iterations: max(j.cfg.Iterations, 1), Compute: compute, Rows: tl.rows,
		Tasks: tl.tasks[:len(tl.tasks):len(tl.tasks)], Comms: tl.comms[:len(tl.comms):len(tl.comms)],
		Running: tl.running, Starts: tl.starts[:len(tl.starts):len(tl.starts)], Steps: tl.steps[:len(tl.steps):len(tl.steps)],
		SaveStarts: j.io.ckptStart[:len(j.io.ckptStart):len(j.io.ckptStart)], SaveEnds: j.io.ckptEnd[:len(j.io.ckptEnd):len(j.io.ckptEnd)]}
}
