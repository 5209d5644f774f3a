package sim_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/link"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// checkpointing is Llama 3 8B on two DGX H100 over NDR InfiniBand with two
// storage nodes of 50 GB/s, a checkpoint after each of the first three
// iterations.
const checkpointing = `
name: checkpointing
topology: {kind: dgx, nodes: 2, fabric: ib, storage_nodes: 2, storage_gbps: 400}
training: {model: llama3-8b, iterations: 4, checkpoint_every: 1}
sim: {fidelity: flow}
`

// storageBound is what bounds a checkpoint's write or a read, in bytes per
// second: the storage nodes' payload rate in all, or the GPUs' NICs'
// (REFERENCE.md, "Storage on the fabric (issue 30)": "checkpoint write time").
func storageBound(t *testing.T, yaml string, sets ...string) (storage, nics float64) {
	t.Helper()
	sc, err := scenario.ParseWith([]byte(yaml), t.Name(), sets)
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	require.NotNil(t, p.Training)
	perNode := p.Wiring.Storage.GBps() * 1e9 * link.Efficiency(p.Wiring.Fabric, sc.Network.MTU)
	return float64(sc.Topology.StorageNodes) * perNode, float64(p.Training.Ranks) * p.Wiring.NIC.GBps() * 1e9
}

func storageOf(t *testing.T, r *metrics.Result) *metrics.Storage {
	t.Helper()
	require.NotNil(t, r.Training)
	require.NotNil(t, r.Training.Storage)
	return r.Training.Storage
}

// A checkpoint takes its bytes over the narrower of the storage nodes and
// the GPUs' NICs: at the storage nodes' rate when they are the bound (the
// gradients' collectives never reach them), a little longer than the NICs'
// bound when the NICs are, for FSDP's collectives share them.
func TestCheckpointWriteTime(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sets  []string
		slack float64 // above the bound
	}{
		{"storage-bound", nil, 0.001},
		{"nic-bound", []string{"topology.storage_nodes=8", "topology.storage_gbps=3200"}, 0.10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			storage, nics := storageBound(t, checkpointing, tc.sets...)
			st := storageOf(t, run(t, checkpointing, tc.sets...))
			assert.Equal(t, int64(12*8_030_261_248), st.CheckpointBytes, "fp32 weights and two Adam moments")
			assert.Equal(t, 3, st.Checkpoints)
			ideal := float64(st.CheckpointBytes) / min(storage, nics) * 1e6
			assert.GreaterOrEqual(t, st.CheckpointUs, ideal*0.999, "never faster than the bound")
			assert.LessOrEqual(t, st.CheckpointUs, ideal*(1+tc.slack))
		})
	}
}

// What a checkpoint costs: the iterations it overlaps run longer than one
// without, by the NIC time FSDP's collectives lose to it; the first
// iteration's period is the run's without a checkpoint.
func TestCheckpointCost(t *testing.T) {
	sets := []string{"topology.storage_nodes=8", "topology.storage_gbps=3200"}
	without := run(t, checkpointing, append(sets, "training.checkpoint_every=0")...)
	st := storageOf(t, run(t, checkpointing, sets...))
	assert.InDelta(t, without.Training.IterationUs, st.IterationUs, 0.01)
	assert.Zero(t, storageOf(t, without).Checkpoints)
	assert.Greater(t, st.IterationCheckpointUs, st.IterationUs*1.005, "the checkpoint slows the iterations it overlaps")
	assert.InDelta(t, 3*(st.IterationCheckpointUs-st.IterationUs), st.CheckpointExposedUs, 0.01, "three checkpoints, each overlapping one iteration")
	// the storage-bound one barely touches the NICs
	slow := storageOf(t, run(t, checkpointing))
	assert.Less(t, slow.CheckpointExposedUs, st.CheckpointExposedUs/10)
}

// The data loader's reads: batch × accumulation × sample_bytes per rank an
// iteration, at the storage nodes' rate when they are the bound; the next
// step waits for them when they take longer than a step.
func TestLoaderReads(t *testing.T) {
	const reading = `
name: reading
topology: {kind: dgx, nodes: 2, fabric: ib, storage_nodes: 1, storage_gbps: 100}
training: {model: resnet50, iterations: 3, sample_bytes: 110KB}
sim: {fidelity: flow}
`
	storage, nics := storageBound(t, reading)
	r := run(t, reading)
	st := storageOf(t, r)
	tr := r.Training
	assert.Equal(t, int64(110_000*tr.Batch*tr.Accumulation*tr.Ranks), st.ReadBytes)
	ideal := float64(st.ReadBytes) / min(storage, nics) * 1e6
	assert.InEpsilon(t, ideal, st.ReadUs, 0.01)
	if st.ReadUs > tr.IterationUs {
		assert.InDelta(t, st.ReadUs, st.IterationUs, st.ReadUs*0.01, "a step waits for its samples")
	}
}

// training.storage_class puts checkpoint writes and loader reads in their
// own class at packet level: the storage nodes' links carry nothing else,
// and the gradients' class never reaches them.
func TestStorageClass(t *testing.T) {
	const classes = `
name: classes
topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2, storage_nodes: 1}
network: {classes: [{name: gradients}, {name: storage, weight: 0.25}]}
collective: {class: gradients}
training: {model: custom, layers: [{name: fc, params: 1000000, flops: 2000000}], iterations: 2, checkpoint_every: 1, sample_bytes: 1KiB, storage_class: storage}
`
	r := run(t, classes)
	st := storageOf(t, r)
	assert.Equal(t, 1, st.Checkpoints)
	seen := 0
	for _, l := range r.Links {
		if !strings.HasPrefix(l.Name, "storage0") && !strings.HasSuffix(l.Name, "storage0") {
			continue
		}
		require.Len(t, l.Classes, 2)
		assert.Zero(t, l.Classes[0].TxBytes, "%s: no gradients", l.Name)
		assert.Positive(t, l.Classes[1].TxBytes, "%s: storage", l.Name)
		seen++
	}
	assert.Equal(t, 2, seen, "both directions of storage0's link")
}
