package train

import (
	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// A job with storage nodes writes checkpoints and reads its samples over the
// fabric, in the storage traffic class, each rank's bytes striped over every
// storage node as a parallel file system (Lustre, GPFS) stripes a file. A checkpoint is asynchronous, as
// PyTorch DCP's async_save and torchtitan run it: after the optimizer step of
// every CheckpointEvery-th iteration each rank writes its share of the
// training state to a storage node while the next iterations run; a new one
// waits for the one before (torchtitan waits on the previous save's future).
// The data loader reads the next step's samples while this step runs; the
// next step waits for them. The copy from GPU to host memory, and what the
// writes take from HBM, are left out.

// storageIO is what a job's checkpoints and reads have done so far.
type storageIO struct {
	starts, ends   []unit.Time // each iteration's start, and when the next could start
	ckptStart      []unit.Time // each checkpoint's start
	ckptEnd        []unit.Time // and end
	ckptLeft       int         // transfers of the checkpoint under way
	readsLeft      int         // the loader's reads of the iteration under way
	readStart      unit.Time
	readEnd        unit.Time
	waiting        bool // an iteration is over; the next waits for reads or a checkpoint
	finishing      bool // the last iteration is over; the report waits for the checkpoint
	completedIters int
}

// stripe splits b over the storage nodes as a parallel file system stripes a
// file over its targets: the first b mod nodes pieces are a byte longer.
func (j *Job) stripe(b unit.Bytes) []unit.Bytes {
	n := unit.Bytes(len(j.cfg.Storage))
	pieces := make([]unit.Bytes, n)
	for i := range pieces {
		pieces[i] = b / n
		if unit.Bytes(i) < b%n {
			pieces[i]++
		}
	}
	return pieces
}

// startReads starts the loader's reads for the next iteration.
func (j *Job) startReads() {
	j.io.starts = append(j.io.starts, j.f.Now())
	if j.cfg.ReadBytes <= 0 {
		return
	}
	j.io.readsLeft, j.io.readStart = len(j.ranks)*len(j.cfg.Storage), j.f.Now()
	pieces := j.stripe(j.cfg.ReadBytes)
	for _, ep := range j.ranks {
		for i, b := range pieces {
			j.f.Send(fabric.Transfer{Src: j.cfg.Storage[i], Dst: ep, Bytes: b, Tag: -1, Step: -1, Storage: true}, func() {
				if j.io.readsLeft--; j.io.readsLeft == 0 {
					j.io.readEnd = j.f.Now()
					j.next()
				}
			})
		}
	}
}

// iterationDone ends an iteration; the next starts once it may.
func (j *Job) iterationDone() {
	j.io.completedIters++
	j.io.waiting = true
	j.next()
}

// checkpointDue reports whether a checkpoint follows the iteration just done.
func (j *Job) checkpointDue() bool {
	return j.cfg.CheckpointEvery > 0 && j.left > 0 && j.io.completedIters%j.cfg.CheckpointEvery == 0
}

// next starts the next iteration (and a checkpoint that is due), or reports
// the job, once the reads are in and a due checkpoint's predecessor is written.
func (j *Job) next() {
	if !j.io.waiting || j.io.readsLeft > 0 || j.checkpointDue() && j.io.ckptLeft > 0 {
		return
	}
	j.io.waiting = false
	j.io.ends = append(j.io.ends, j.f.Now())
	if j.checkpointDue() {
		j.startCheckpoint()
	}
	if j.left > 0 {
		j.iteration(j.left)
		return
	}
	j.io.finishing = true
	j.finish()
}

// finish reports the job once the last checkpoint is written.
func (j *Job) finish() {
	if !j.io.finishing || j.io.ckptLeft > 0 {
		return
	}
	j.io.finishing = false
	j.res.Storage = j.storageReport()
	j.done(j.res)
}

// checkpointShare is what each rank writes of a checkpoint.
func (j *Job) checkpointShare() unit.Bytes {
	n := unit.Bytes(len(j.ranks))
	return (j.cfg.CheckpointBytes + n - 1) / n
}

// startCheckpoint has every rank write its share to its storage node.
func (j *Job) startCheckpoint() {
	j.io.ckptStart = append(j.io.ckptStart, j.f.Now())
	j.io.ckptLeft = len(j.ranks) * len(j.cfg.Storage)
	pieces := j.stripe(j.checkpointShare())
	for _, ep := range j.ranks {
		for i, b := range pieces {
			j.f.Send(fabric.Transfer{Src: ep, Dst: j.cfg.Storage[i], Bytes: b, Tag: -1, Step: -1, Storage: true}, func() {
				if j.io.ckptLeft--; j.io.ckptLeft == 0 {
					j.io.ckptEnd = append(j.io.ckptEnd, j.f.Now())
					j.next()
					j.finish()
				}
			})
		}
	}
}

// Writing reports whether a checkpoint is being written now.
func (j *Job) Writing() bool { return j.io.ckptLeft > 0 }

// storageReport is what the checkpoints and reads took and cost, or nil
// without storage.
func (j *Job) storageReport() *metrics.Storage {
	if len(j.cfg.Storage) == 0 {
		return nil
	}
	io := &j.io
	r := &metrics.Storage{Nodes: len(j.cfg.Storage)}
	period := func(i int) unit.Time { return io.ends[i] - io.starts[i] }
	r.IterationUs = metrics.Micros(period(0)) // the first overlaps no checkpoint
	if j.cfg.ReadBytes > 0 {
		r.ReadBytes = int64(j.cfg.ReadBytes) * int64(len(j.ranks))
		r.ReadUs = metrics.Micros(io.readEnd - io.readStart)
	}
	if len(io.ckptStart) == 0 {
		return r
	}
	r.Checkpoints = len(io.ckptStart)
	r.CheckpointBytes = int64(j.checkpointShare()) * int64(len(j.ranks))
	r.CheckpointUs = metrics.Micros(io.ckptEnd[0] - io.ckptStart[0])
	var during, extra unit.Time
	n := 0
	for i := range io.ends {
		for c := range io.ckptStart {
			if io.starts[i] < io.ckptEnd[c] && io.ends[i] > io.ckptStart[c] {
				during += period(i)
				extra += period(i) - period(0)
				n++
				break
			}
		}
	}
	if n > 0 {
		r.IterationCheckpointUs = metrics.Micros(during / unit.Time(n))
	}
	r.CheckpointExposedUs = metrics.Micros(max(extra, 0)) // an overlapped iteration a picosecond shorter is no gain
	return r
}
