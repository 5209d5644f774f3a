package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/playback"
	"fabriclab/playback/framewire"
	"fabriclab/protocol"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
)

// page is the page's end of a worker: what it was sent, frames decoded.
type page struct {
	events []protocol.WorkerEvent
	frames []*snap.Snapshot // as played: halved when told
	dec    framewire.Decoder
	t      *testing.T
}

func (p *page) post(msg, frame []byte) {
	e, err := protocol.DecodeWorkerEvent(msg)
	require.NoError(p.t, err, "%s", msg)
	p.events = append(p.events, e)
	switch e := e.(type) {
	case protocol.Recorded:
		require.Len(p.t, frame, e.Bytes)
		s, err := p.dec.Decode(frame)
		require.NoError(p.t, err)
		p.frames = append(p.frames, s)
	case protocol.Halved:
		var kept []*snap.Snapshot
		for i := 0; i < len(p.frames); i += 2 {
			kept = append(kept, p.frames[i])
		}
		p.frames = kept
	default:
		require.Nil(p.t, frame, "%T has no frame beside it", e)
	}
}

func work(w *Worker) {
	for w.Work(10 * time.Millisecond) {
	}
}

// A run computed in the worker reaches the page as the in-process player
// records it: built, the same frames, the same report.
func TestWorkerRecordsAsThePlayer(t *testing.T) {
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":7,"scenario":"incast"}`))
	work(w)

	sc, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	p, err := playback.New(sc)
	require.NoError(t, err)
	for !p.Compute(time.Hour) {
	}
	n, _ := p.Frames()

	require.IsType(t, protocol.Begun{}, pg.events[0])
	assert.Equal(t, protocol.Begun{RunID: 7, Name: "incast", Endpoints: 9, Links: 18}, pg.events[0])
	require.Len(t, pg.frames, n)
	for _, s := range pg.frames {
		want, got := *p.At(s.Time), *s.Full()
		want.Routing, got.Routing = nil, nil
		require.Equal(t, want, got, "frame at %v", s.Time)
	}
	last := pg.events[len(pg.events)-1]
	require.IsType(t, protocol.RunResult{}, last)
	var res simmetrics.Result
	require.NoError(t, json.Unmarshal([]byte(last.(protocol.RunResult).Result), &res))
	assert.Equal(t, p.Result().Totals, res.Totals)
	assert.False(t, w.Work(time.Millisecond), "nothing left to do")
}

// A bad command or scenario is a worker_error that names it; cancel stops a run.
func TestWorkerErrors(t *testing.T) {
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	w.Handle([]byte(`{"fabriclab":"begin","scenario":"incast"}`))
	w.Handle([]byte(`{"fabriclab":"begin","run_id":2,"scenario":"nope"}`))
	require.Len(t, pg.events, 2)
	assert.Contains(t, pg.events[0].(protocol.WorkerError).Message, "begin needs run_id")
	assert.Equal(t, 2, pg.events[1].(protocol.WorkerError).RunID)
	assert.Contains(t, pg.events[1].(protocol.WorkerError).Message, "nope")

	w.Handle([]byte(`{"fabriclab":"begin","run_id":3,"scenario":"incast"}`))
	assert.True(t, w.Work(time.Millisecond) || w.Work(time.Millisecond))
	w.Handle([]byte(`{"fabriclab":"cancel","run_id":3}`))
	assert.False(t, w.Work(time.Millisecond), "cancelled")
}

// A begin's heap_limit_mib stops a run short of it, with the way out.
func TestWorkerHeapLimit(t *testing.T) {
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":4,"scenario":"incast","heap_limit_mib":1}`))
	work(w)
	last := pg.events[len(pg.events)-1]
	require.IsType(t, protocol.WorkerError{}, last)
	assert.Contains(t, last.(protocol.WorkerError).Message, "ran out of memory in the browser canvas")
}

// While it computes without recording a frame for a while, the worker says
// how far it has got, so that the page's progress moves between frames; a
// frame posted resets the wait.
func TestWorkerSaysItsProgressBetweenFrames(t *testing.T) {
	count := func(evs []protocol.WorkerEvent) (n int, last protocol.Computing) {
		for _, e := range evs {
			if c, ok := e.(protocol.Computing); ok {
				n, last = n+1, c
			}
		}
		return n, last
	}
	pg := &page{t: t}
	w := &Worker{post: pg.post, every: time.Nanosecond} // every slice is "a while"
	w.Handle([]byte(`{"fabriclab":"begin","run_id":5,"scenario":"incast","set":["traffic.bytes=16MiB"]}`))
	work(w)
	n, last := count(pg.events)
	assert.Positive(t, n, "a computing event between frames")
	assert.Equal(t, 5, last.RunID)
	assert.Greater(t, last.Progress, 0.0)
	assert.LessOrEqual(t, last.Progress, 1.0)
	require.IsType(t, protocol.RunResult{}, pg.events[len(pg.events)-1], "none after the run is over")

	pg = &page{t: t}
	w = &Worker{post: pg.post, every: time.Hour}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":6,"scenario":"incast","set":["traffic.bytes=16MiB"]}`))
	work(w)
	n, _ = count(pg.events)
	assert.Zero(t, n, "frames came often enough: no computing event")
}
