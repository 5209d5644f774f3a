package playback

import (
	"fabriclab/playback/framewire"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/snap"
)

// pipe joins a Recorder to its Player in one process: every frame is
// encoded and decoded on the way (framewire), as it is when it crosses
// from a worker to the canvas, so that the canvas plays what the wire
// carries.
type pipe struct {
	p   *Player
	enc framewire.Encoder
	dec framewire.Decoder
	buf []byte
}

func (q *pipe) Frame(s *snap.Snapshot) {
	q.buf = q.enc.Encode(q.buf[:0], s)
	d, err := q.dec.Decode(q.buf)
	if err != nil {
		q.p.err = err
		return
	}
	q.p.append(d)
}

func (q *pipe) Halve()                      { q.p.halve() }
func (q *pipe) Finish(r *simmetrics.Result) { q.p.finish(r) }
func (q *pipe) Fail(err error)              { q.p.err = err }
