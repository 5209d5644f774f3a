package playback

import (
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/snap"
)

// pipe joins a Recorder to its Player in one process. It hands frames over
// as they are: encoding and decoding each one (framewire, as a worker's
// frames will cross to the canvas) doubled the recording's CPU and memory
// (BENCHMARKS.md, "frame wire"), and framewire's round trip over every
// built-in (TestRoundTrip) already holds the wire to the frames.
type pipe struct{ p *Player }

func (q *pipe) Frame(s *snap.Snapshot)      { q.p.append(s) }
func (q *pipe) Halve()                      { q.p.halve() }
func (q *pipe) Finish(r *simmetrics.Result) { q.p.finish(r) }
func (q *pipe) Fail(err error)              { q.p.err = err }
