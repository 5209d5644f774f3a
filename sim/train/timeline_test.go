package train_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// played runs a built-in to its end, taking n snapshots on the way and one
// at the end, and the report of the same run.
func played(t *testing.T, name string, sets []string, n int) ([]*snap.Snapshot, *metrics.Result) {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	res, err := sim.Run(sc)
	require.NoError(t, err)
	require.NotNil(t, res.Training)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	end := unit.Time(res.Totals.SimTimeUs * float64(unit.Microsecond))
	var out []*snap.Snapshot
	for i := 1; i <= n; i++ {
		st.Model.Advance(end * unit.Time(i) / unit.Time(n+1))
		out = append(out, st.Snapshot())
	}
	for st.Model.Advance(2 * end) {
	}
	out = append(out, st.Snapshot())
	for _, s := range out {
		require.NotNil(t, s.Training, "a training run's snapshots carry its timeline")
	}
	return out, res
}

func us(t unit.Time) float64 { return metrics.Micros(t) }

// The last snapshot's timeline is the report's: the same figures for the last
// iteration, the same compute lane, the same collectives at the same times.
func TestTimelineMatchesTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	for _, c := range []struct {
		name string
		sets []string
	}{
		{"dp-resnet50", nil},
		{"dp-resnet50", []string{"topology.nodes=1"}}, // a row per GPU
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.iterations=3", "training.accumulation=2"}},
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=fsdp"}},
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.sharding=zero2", "training.overlap=false"}},
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.model=gpt2-1.5b", "training.tp=4", "training.batch=2048"}},
	} {
		t.Run(c.name+" "+joinSets(c.sets), func(t *testing.T) {
			snaps, res := played(t, c.name, c.sets, 4)
			tr := snaps[len(snaps)-1].Training
			r := res.Training
			require.Len(t, tr.Steps, max(sc(t, c.name, c.sets).Training.Iterations, 1))
			last := tr.Steps[len(tr.Steps)-1]
			assert.Equal(t, r.IterationUs, last.IterationUs)
			assert.Equal(t, r.ExposedCommUs, last.ExposedCommUs)
			assert.Equal(t, r.GPUUtil, last.GPUUtil)
			assert.Equal(t, r.IterationUs, us(last.End-last.Start))
			assert.Equal(t, r.ComputeUs, us(tr.Compute))
			assert.Equal(t, r.Ranks, tr.Ranks)
			assert.Empty(t, tr.Running[0].Label+tr.Running[1].Label, "nothing runs after the end")

			// the compute lane of the last iteration, idle gaps named by what the next task waited for
			var lane []metrics.Interval
			prev := last.Start
			rel := func(x unit.Time) float64 { return us(x - last.Start) }
			iter := len(tr.Steps) - 1
			for _, k := range tr.Tasks {
				if k.Iter != iter {
					continue
				}
				if k.Start > prev {
					require.NotEmpty(t, k.Waited, "a task that began late says what it waited for")
					lane = append(lane, metrics.Interval{Kind: "idle", Label: k.Waited, StartUs: rel(prev), EndUs: rel(k.Start)})
				} else {
					assert.Empty(t, k.Waited, "a task that did not wait")
				}
				if k.End > k.Start { // the report leaves out empty pieces
					lane = append(lane, metrics.Interval{Kind: "compute", Label: k.Phase.String(), StartUs: rel(k.Start), EndUs: rel(k.End)})
				}
				prev = k.End
			}
			var want []metrics.Interval
			var comms []metrics.Interval
			for _, iv := range r.Timeline[0].Intervals {
				if iv.Kind == "communicate" {
					comms = append(comms, iv)
				} else if iv.StartUs < rel(prev) {
					want = append(want, iv)
				}
			}
			assert.Equal(t, want, merged(lane), "the compute lane")

			// every collective of the last iteration; a row's part ends with
			// the last of its GPUs' (the report lists the first 16 GPUs)
			row := tr.Rows[0]
			require.LessOrEqual(t, row.Count, len(r.Timeline))
			var want0 []metrics.Interval
			for i, iv := range comms {
				for g := 1; g < row.Count; g++ {
					var k int
					for _, o := range r.Timeline[g].Intervals {
						if o.Kind == "communicate" {
							if k == i {
								iv.EndUs = max(iv.EndUs, o.EndUs)
							}
							k++
						}
					}
				}
				want0 = append(want0, iv)
			}
			var got []metrics.Interval
			for _, cm := range tr.Comms {
				if cm.Start >= last.Start {
					require.Len(t, cm.Ends, len(tr.Rows))
					got = append(got, metrics.Interval{Kind: "communicate", Label: cm.Label, StartUs: rel(cm.Start), EndUs: rel(cm.Ends[0])})
				}
			}
			assert.ElementsMatch(t, want0, got, "the collectives, and when row 0's part of each ended")
			// bucket collectives carry their bucket, and the backward piece that made it is marked with it
			for _, cm := range tr.Comms {
				if cm.Kind != "allgather" && !cm.TP {
					assert.GreaterOrEqual(t, cm.Group, 0, cm.Label)
				}
			}
		})
	}
}

func sc(t *testing.T, name string, sets []string) scenario.Scenario {
	s, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	return s
}

func joinSets(s []string) string {
	out := ""
	for _, x := range s {
		out += x + " "
	}
	return out
}

// merged joins runs of one kind and label, as the report's lane does.
func merged(in []metrics.Interval) []metrics.Interval {
	var out []metrics.Interval
	for _, iv := range in {
		if n := len(out); n > 0 && out[n-1].Kind == iv.Kind && out[n-1].Label == iv.Label && out[n-1].EndUs == iv.StartUs {
			out[n-1].EndUs = iv.EndUs
			continue
		}
		out = append(out, iv)
	}
	return out
}

// Snapshots share the logs: a later one extends an earlier one's prefix
// without copying it, and an earlier one never sees what came after it.
func TestTimelineSnapshotsShareOneLog(t *testing.T) {
	snaps, _ := played(t, "dp-resnet50", []string{"sim.fidelity=flow", "training.iterations=2"}, 6)
	for i := 1; i < len(snaps); i++ {
		a, b := snaps[i-1].Training, snaps[i].Training
		require.LessOrEqual(t, len(a.Tasks), len(b.Tasks))
		require.LessOrEqual(t, len(a.Comms), len(b.Comms))
		assert.Equal(t, a.Tasks, b.Tasks[:len(a.Tasks)], "an earlier snapshot's log is a prefix of a later one's")
		for _, k := range a.Tasks {
			assert.LessOrEqual(t, k.Start, snaps[i-1].Time, "no task from the future")
		}
		for _, c := range a.Comms {
			assert.LessOrEqual(t, c.End(), snaps[i-1].Time, "no collective ended in the future")
		}
		assert.Equal(t, cap(a.Tasks), len(a.Tasks), "a reader cannot append into the shared log")
	}
	first, last := snaps[len(snaps)-2].Training, snaps[len(snaps)-1].Training
	if len(first.Tasks) > 0 && cap(last.Tasks) >= len(first.Tasks) {
		same := &first.Tasks[0] == &last.Tasks[0]
		grown := len(last.Tasks) > len(first.Tasks)
		assert.True(t, same || grown, "the same backing array unless the log grew")
	}
	assert.Same(t, &first.Rows[0], &last.Rows[0], "rows are shared")
}

// 1,024 GPUs keep one compute lane and at most 8 rows of collective ends.
func TestTimelineStaysSmallOn1024GPUs(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	snaps, res := played(t, "dp-llama3-8b-1024", nil, 2)
	tr := snaps[len(snaps)-1].Training
	require.Len(t, tr.Rows, snap.MaxTrainRows)
	assert.Equal(t, snap.TrainRow{First: 0, Count: 8, Node: 0}, tr.Rows[0])
	assert.Equal(t, snap.TrainRow{First: 1016, Count: 8, Node: 127}, tr.Rows[7], "the last node stays")
	assert.Equal(t, "node 127", tr.Rows[7].Label())
	n := 0
	for _, k := range tr.Tasks {
		if k.Iter == 0 {
			n++
		}
	}
	units := 0
	for _, c := range tr.Comms {
		require.Len(t, c.Ends, snap.MaxTrainRows)
		if c.Kind == "reducescatter" {
			units++
		}
	}
	assert.Equal(t, 2*units+1, n, "a forward and a backward per FSDP unit and the optimizer, once for all GPUs")
	assert.Equal(t, res.Training.IterationUs, tr.Steps[0].IterationUs)
}

func TestTrainRows(t *testing.T) {
	snaps, _ := played(t, "dp-resnet50", []string{"sim.fidelity=flow", "topology.nodes=1"}, 1)
	rows := snaps[0].Training.Rows
	require.Len(t, rows, 8, "8 GPUs: one row each")
	assert.Equal(t, snap.TrainRow{First: 7, Count: 1, Node: -1}, rows[7])
	assert.Equal(t, "GPU 7", rows[7].Label())
	snaps, _ = played(t, "dp-resnet50", []string{"sim.fidelity=flow"}, 1)
	assert.Equal(t, []snap.TrainRow{{First: 0, Count: 8, Node: 0}, {First: 8, Count: 8, Node: 1}, {First: 16, Count: 8, Node: 2}, {First: 24, Count: 8, Node: 3}}, snaps[0].Training.Rows, "32 GPUs: a row per node")
}

// Doing names what the GPUs do at each moment, never "idle" inside the run.
func TestTimelineSaysWhatGPUsDo(t *testing.T) {
	doing := func(sets []string) (map[string]bool, *snap.Training, *snap.Snapshot) {
		snaps, res := played(t, "dp-resnet50", sets, 1)
		last := snaps[len(snaps)-1]
		tr := last.Training
		from := tr.Steps[len(tr.Steps)-1].Start // the report's timeline is the last iteration's
		seen := map[string]bool{}
		for _, iv := range res.Training.Timeline[0].Intervals {
			if iv.Kind == "communicate" {
				continue
			}
			at := from + unit.Time((iv.StartUs+iv.EndUs)/2*float64(unit.Microsecond))
			d := tr.Doing(at)
			seen[d] = true
			switch iv.Kind {
			case "compute":
				assert.Contains(t, d, iv.Label, "at %v", at)
			case "idle":
				assert.Equal(t, iv.Label, d, "at %v", at)
			}
		}
		return seen, tr, last
	}
	seen, _, _ := doing([]string{"sim.fidelity=flow", "training.sharding=zero1", "training.iterations=2"})
	assert.True(t, seen["waiting for parameters"], "ZeRO waits for its all-gather after the step: %v", seen)
	seen, tr, last := doing(nil)
	snaps := []*snap.Snapshot{last}
	assert.True(t, seen["backward (bucket 4)"], "the middle of the backward pass is bucket 4's: %v", seen)
	assert.True(t, seen["optimizer step"], "%v", seen)
	assert.Equal(t, "idle", tr.Doing(snaps[len(snaps)-1].Time+unit.Millisecond), "after the run")
	k, ok := tr.TaskAt(tr.Tasks[0].Start)
	require.True(t, ok)
	assert.Equal(t, snap.Forward, k.Phase)
	assert.Equal(t, 0, tr.Iter(tr.Tasks[0].Start))
}

// The timeline's phases are the job's, value for value (the record converts by value).
func TestTimelinePhasesAreTheJobs(t *testing.T) {
	for _, p := range []train.Phase{train.NoCompute, train.Forward, train.Backward, train.Optimizer} {
		assert.Equal(t, p.String(), snap.Phase(p).String())
	}
}
