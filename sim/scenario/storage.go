package scenario

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// MaxSampleBytes bounds training.sample_bytes: a 4K video clip's worth.
const MaxSampleBytes = unit.GiB

// MaxCheckpointEvery bounds training.checkpoint_every (iterations are at most 100).
const MaxCheckpointEvery = 100

// trainingStorage checks the training keys that use topology.storage_nodes.
func (c *checker) trainingStorage() {
	tr, nodes := &c.s.Training, c.s.Topology.StorageNodes
	if !c.between("training.checkpoint_every", tr.CheckpointEvery, 0, MaxCheckpointEvery, 2, msg.F("checkpoint_every (0: no checkpoint)")) {
		return
	}
	if tr.SampleBytes < 0 || tr.SampleBytes > MaxSampleBytes {
		c.fail("training.sample_bytes", "%s is not allowed: bytes the data loader reads per sample, 0 (no reads) to 1GiB (e.g. sample_bytes: 110KB, an ImageNet JPEG)", c.text("training.sample_bytes", tr.SampleBytes))
		return
	}
	uses := ""
	switch {
	case tr.CheckpointEvery > 0:
		uses = "training.checkpoint_every"
	case tr.SampleBytes > 0:
		uses = "training.sample_bytes"
	}
	if uses != "" && nodes == 0 {
		c.fail(c.blame(uses, "topology.storage_nodes"), "%s needs storage nodes to write to and read from: set topology.storage_nodes (e.g. storage_nodes: 2), or remove %s",
			c.text(uses, fieldOf(tr, uses)), leaf(uses))
	}
	if every, iters := tr.CheckpointEvery, tr.Iterations; every > 0 && every >= iters {
		c.fail(c.blame("training.checkpoint_every", "training.iterations"), "%s with %d iterations: no iteration runs while the checkpoint is written, so nothing shows what it cost; set training.iterations to %d or more",
			c.text("training.checkpoint_every", every), iters, every+1)
	}
	if tr.StorageClass != "" {
		c.classRef("training.storage_class", tr.StorageClass)
	}
}

// fieldOf is the value of one of the keys trainingStorage names.
func fieldOf(tr *Training, key string) any {
	if key == "training.sample_bytes" {
		return tr.SampleBytes
	}
	return tr.CheckpointEvery
}
