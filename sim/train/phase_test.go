package train_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/fluid"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// Phase answers what the timeline says, in every mode: forward, backward and
// optimizer on the compute lane, nothing while a rank waits.
func TestPhaseFollowsTheTimeline(t *testing.T) {
	for _, sets := range [][]string{
		{"training.sharding=none"},
		{"training.sharding=zero2", "training.accumulation=3"},
		{"training.sharding=fsdp", "training.compression=bf16"},
		{"training.model=gpt2-1.5b", "training.accumulation=2", "training.tp=4", "training.batch=2048"},
	} {
		sc, err := scenario.Load("dp-resnet50", nil, append([]string{"sim.fidelity=flow", "topology.nodes=2", "training.iterations=2"}, sets...))
		require.NoError(t, err)
		p, err := plan.Resolve(&sc)
		require.NoError(t, err)
		f := fluid.New(p)
		cfg := p.Training.Config
		cfg.Coll.Channels, cfg.Coll.Streamed = 8, true
		var res *metrics.Training
		var end unit.Time
		job, err := train.Start(f, cfg, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, func(r metrics.Training) { res, end = &r, f.Now() })
		require.NoError(t, err)
		f.Run()
		require.NotNil(t, res, "%v", sets)
		begin := end - unit.Time(res.IterationUs*float64(unit.Microsecond))
		want := map[string]train.Phase{"forward": train.Forward, "backward": train.Backward, "optimizer": train.Optimizer}
		seen := 0
		for _, iv := range res.Timeline[0].Intervals {
			if iv.Kind == "communicate" {
				continue
			}
			mid := begin + unit.Time((iv.StartUs+iv.EndUs)/2*float64(unit.Microsecond))
			p, ok := want[iv.Label]
			if !ok {
				p = train.NoCompute
			}
			assert.Equal(t, p, job.Phase(mid), "%v: %s", sets, iv.Label)
			seen++
		}
		assert.Greater(t, seen, 3)
		assert.Equal(t, train.NoCompute, job.Phase(end+1))
	}
}
