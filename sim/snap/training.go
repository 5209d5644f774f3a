package snap

import (
	"fmt"
	"sort"

	"fabriclab/sim/unit"
)

// Training is what a training run's GPUs have done up to the snapshot's Time.
// Tasks, Comms, Starts and Steps are prefixes of append-only logs that every
// snapshot of the run shares (never written below their length), so a
// snapshot costs a few slice headers, not a copy. Every rank runs the same
// compute, so Tasks is one lane for all of them; collectives end per Row.
type Training struct {
	Model      string
	Ranks      int
	Sharding   string // none, zero1, zero2 or fsdp
	TP         int    // tensor-parallel degree (1: none)
	PP         int    // pipeline stages (1: none): then each Row is a stage's first rank, each task and collective a stage's
	PPSchedule string // gpipe, 1f1b or interleaved (with PP above 1)
	PPVirtual  int    // model chunks per stage (interleaved)
	Iterations int    // optimizer steps the run makes
	Compute    unit.Time
	Rows       []TrainRow // the groups of ranks a timeline shows (at most MaxTrainRows)
	Tasks      []Task     // compute begun so far, in time order; a task may end after Time
	Comms      []Comm     // collectives that have ended, in the order they ended
	Running    [2]Comm    // under way now on the data-parallel and tensor-parallel streams (Label "" when none)
	Starts     []unit.Time
	Steps      []Step // iterations that have ended
	// Checkpoints begun and ended so far (training.checkpoint_every): the
	// i-th runs from SaveStarts[i] to SaveEnds[i], under way past SaveEnds.
	SaveStarts, SaveEnds []unit.Time
}

// MaxTrainRows bounds Training.Rows: with more groups the first
// MaxTrainRows−1 and the last are kept.
const MaxTrainRows = 8

// TrainRow is a group of consecutive ranks shown as one timeline row: one
// GPU, or every GPU of a node.
type TrainRow struct {
	First, Count int // ranks [First, First+Count)
	Node         int // the node it is, or -1 for a single GPU
	Stage        int // the pipeline stage its ranks run (0 without one)
}

// Label names the row: "GPU 3", "node 2".
func (r TrainRow) Label() string {
	if r.Node >= 0 {
		return fmt.Sprintf("node %d", r.Node)
	}
	return fmt.Sprintf("GPU %d", r.First)
}

// Phase is the compute a task runs.
type Phase uint8

// Compute phases.
const (
	NoPhase Phase = iota
	Forward
	Backward
	Optimizer
)

func (p Phase) String() string {
	return [...]string{"no compute", "forward", "backward", "optimizer"}[p]
}

// Task is a stretch of compute on every rank.
type Task struct {
	Start, End unit.Time
	Phase      Phase
	Iter       int    // the iteration (optimizer step) it belongs to, from 0
	Micro      int    // its micro-batch
	Group      int    // the bucket (or FSDP unit) whose gradients its backward completes, or -1
	Waited     string // what the ranks waited for before it, if it had to wait: "waiting for gradients"
	Stage      int    // the pipeline stage that runs it (0 without pipeline parallelism)
	Chunk      int    // its model chunk on that stage (interleaved pipeline), else 0
}

// Comm is one collective over every group it spans.
type Comm struct {
	Label string // "all-reduce bucket 3", "all-gather unit 2", "tensor-parallel all-reduce"
	Kind  string // allreduce, reducescatter, allgather
	TP    bool   // on the tensor-parallel stream
	Group int    // the bucket (or unit) whose gradients it carries, or -1
	Bytes int64  // per rank
	Stage int    // the pipeline stage whose ranks run it
	Start unit.Time
	Ends  []unit.Time // when each Row's part ended (nil while running)
}

// End is when the collective's last part ended (0 while running).
func (c *Comm) End() unit.Time {
	var e unit.Time
	for _, t := range c.Ends {
		e = max(e, t)
	}
	return e
}

// Step is an iteration that has ended, with the figures the run's report
// gives for it (metrics.Training's).
type Step struct {
	Start, End    unit.Time
	IterationUs   float64
	ExposedCommUs float64
	GPUUtil       float64
	Bubble        float64 // the pipeline's bubble fraction (0 without one)
	BubbleUs      float64 // and its time, averaged over the stages
}

// TrailingWait is what an iteration waits for after its optimizer step:
// ZeRO's all-gather of the updated parameters.
const TrailingWait = "waiting for parameters"

// Iter is the iteration under way at t (from 0; the last one after the run).
func (tr *Training) Iter(t unit.Time) int {
	i := sort.Search(len(tr.Starts), func(i int) bool { return tr.Starts[i] > t }) - 1
	return max(i, 0)
}

// TaskAt is the compute task running at t, if one is (with pipeline
// stages, the first stage's).
func (tr *Training) TaskAt(t unit.Time) (Task, bool) {
	i := sort.Search(len(tr.Tasks), func(i int) bool { return tr.Tasks[i].Start > t }) - 1
	for i >= 0 && tr.Tasks[i].Stage != 0 {
		i--
	}
	if i < 0 || t >= tr.Tasks[i].End {
		return Task{}, false
	}
	return tr.Tasks[i], true
}

// Doing is what the ranks do at a moment, in parts a viewer can word
// in any language (its String is the English).
type Doing struct {
	Kind  DoingKind
	Phase Phase  // Busy: the compute
	Group int    // Busy: the bucket (or FSDP unit) its backward completes, or -1
	Unit  bool   // Group is an FSDP unit
	Wait  string // Waiting: Task.Waited or TrailingWait ("waiting for gradients"), or ""
	For   *Comm  // Waiting with no Wait: the running collective waited for, if any
}

// DoingKind is whether the ranks compute, wait, or stand idle.
type DoingKind uint8

// Doing kinds.
const (
	Outside DoingKind = iota // before or after the run
	Busy
	Waiting
)

// String says the activity in English: "backward (bucket 3)", "optimizer
// step", "waiting for gradients", "idle".
func (a Doing) String() string {
	switch a.Kind {
	case Busy:
		switch {
		case a.Phase == Optimizer:
			return "optimizer step"
		case a.Group >= 0 && a.Unit:
			return fmt.Sprintf("%s (unit %d)", a.Phase, a.Group)
		case a.Group >= 0:
			return fmt.Sprintf("%s (bucket %d)", a.Phase, a.Group)
		}
		return a.Phase.String()
	case Waiting:
		switch {
		case a.Wait != "":
			return a.Wait
		case a.For != nil:
			return "waiting for " + a.For.Label
		}
		return "waiting"
	}
	return "idle"
}

// Doing says in a few words what the ranks do at t (t at most the
// snapshot's Time): DoingAt's String.
func (tr *Training) Doing(t unit.Time) string { return tr.DoingAt(t).String() }

// DoingAt is what the ranks do at t (t at most the snapshot's Time): a
// task, a wait, or Outside before and after the run.
func (tr *Training) DoingAt(t unit.Time) Doing {
	if k, ok := tr.TaskAt(t); ok {
		return Doing{Kind: Busy, Phase: k.Phase, Group: k.Group, Unit: tr.Sharding == "fsdp"}
	}
	if len(tr.Starts) == 0 || t < tr.Starts[0] || len(tr.Steps) == tr.Iterations && t >= tr.Steps[len(tr.Steps)-1].End {
		return Doing{Group: -1}
	}
	w := Doing{Kind: Waiting, Group: -1}
	it := tr.Iter(t)
	i := sort.Search(len(tr.Tasks), func(i int) bool { return tr.Tasks[i].Start > t })
	for i < len(tr.Tasks) && tr.Tasks[i].Stage != 0 { // the first stage's next task
		i++
	}
	switch {
	case i < len(tr.Tasks) && tr.Tasks[i].Iter == it && tr.Tasks[i].Waited != "":
		w.Wait = tr.Tasks[i].Waited // the next task has begun: it waited for this
	case it < len(tr.Steps):
		w.Wait = TrailingWait // after the iteration's last task, before its end
	case tr.Running[0].Label != "":
		w.For = &tr.Running[0]
	case tr.Running[1].Label != "":
		w.For = &tr.Running[1]
	}
	return w
}
