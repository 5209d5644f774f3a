// Command worker computes fabriclab's runs in a Web Worker (issue 29): the
// page sends it protocol's worker commands, and it posts back the frames it
// records (playback.Recorder), each a recorded message with its binary form
// (playback/framewire) beside it, for the canvas to play. It links no
// Ebitengine and no renderer, so it is a fraction of viz.wasm's size.
// Built for GOOS=js GOARCH=wasm by the site's build (web.BuildSite);
// web/static/worker-client.js starts it.
package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/playback/framewire"
	"fabriclab/protocol"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/nccltests"
	"fabriclab/sim/nodefile"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// poster sends a message to the page, with a frame's binary form beside it
// (nil for none). The frame is the poster's only during the call: the
// worker writes the next one into the same bytes.
type poster func(msg []byte, frame []byte)

// Worker computes one run at a time, in slices (Work) between the page's
// messages (Handle).
type Worker struct {
	post poster
	run  *run // nil when idle
	// every is how long the page may wait for a word of a run's progress:
	// after that without a frame, Work posts a computing event (0: the
	// default, progressEvery).
	every    time.Duration
	lastPost time.Time
	// lookAhead is the wall budget of a run's look-ahead
	// (playback.Recorder.LookAhead; 0: playback.Builder.LookAheadBudget,
	// below 0: none).
	lookAhead time.Duration
	begun     bool // a begin has come: an early message comes too late
}

// progressEvery is how often the page hears how far a run has got when no
// frame comes (the progress and time left in its bar).
const progressEvery = 250 * time.Millisecond

// run is the run being built or computed.
type run struct {
	id    int
	build *playback.Builder
	rec   *playback.Recorder // once built
	enc   framewire.Encoder
	buf   []byte // the frame being posted, reused: grown anew for every frame (240 KB for the 8,192-GPU all-reduce) it was half of encoding
	sent  int    // frames posted
	over  bool
	rest  *simmetrics.Result // a report whose flows and links are still to post (Work)
	w     *Worker
	heap  int64     // the heap limit, bytes (0: none)
	first []byte    // the first frame, recorded before begun is posted
	at    unit.Time // its time
	lang  i18n.Lang // the page's, for errors
	// early is the begin an early run (protocol.Early) answers, until a
	// begin takes it over; held are its messages meanwhile. wasEarly stays.
	early    *protocol.Begin
	held     []heldEvent
	wasEarly bool
}

// heldEvent is a message of an early run, kept for the begin that takes it
// over (its run_id set then), with a copy of its frame.
type heldEvent struct {
	e     protocol.WorkerEvent
	frame []byte
}

// earlyHeapMiB is an early run's heap limit until a begin sets its own:
// the canvas's (cmd/viz's heapLimit).
const earlyHeapMiB = 1024

// An early run builds and records its first frame, all the canvas needs
// to start, then waits for the begin that takes it over (Work). Computing
// on, a warm lesson step's early run kept its whole run (1,721 messages
// for incast at 4 senders, posted at once when taken over); kept to 64
// messages it still looked ahead (up to a second of computing) and took
// the cores from the page's thread while that thread started the canvas,
// and the step loaded later than without it (BENCHMARKS.md, issue 29).

// Handle takes a message from the page.
func (w *Worker) Handle(data []byte) {
	c, err := protocol.DecodeWorkerCommand(data)
	if err != nil {
		w.event(protocol.WorkerError{Message: err.Error()}, nil)
		return
	}
	switch c := c.(type) {
	case protocol.Begin:
		w.begun = true
		w.begin(c)
	case protocol.Early:
		w.beginEarly(c)
	case protocol.Cancel:
		if w.run != nil && w.run.id == c.RunID {
			w.run = nil
		}
	case protocol.Explain:
		w.event(explain(c), nil)
	}
}

// explain answers an explain command with what fabriclab explain prints
// for the same text and topology file (sim/nccltests and sim/nodefile do
// the work for both): the header, the node read, the rows, the findings,
// the healthy cluster's scenario and the size where the curves part; or
// the command's error, and which text it is about.
func explain(c protocol.Explain) protocol.Explained {
	out := protocol.Explained{ID: c.ID}
	fail := func(in string, err error) protocol.Explained {
		out.Error, out.ErrorIn = err.Error(), in
		return out
	}
	o, s, err := nccltests.Read([]byte(c.Text), nccltests.Options{Op: c.Op, NICGbps: c.NICGbps, Fabric: c.Fabric})
	if err != nil {
		return fail("text", err)
	}
	if strings.TrimSpace(c.Topo) != "" {
		n, err := nodefile.Parse([]byte(c.Topo))
		if err != nil {
			return fail("topo", fmt.Errorf("your topology: %w", err))
		}
		named := s.GPU != "" // the output names a GPU fabriclab knows: the file's guess is not needed
		if err := s.UseNode(n, c.NICGbps); err != nil {
			return fail("topo", fmt.Errorf("your topology: %w", err))
		}
		out.Node = &protocol.ExplainedNode{Format: n.Format, GPUs: n.GPUs, GPU: s.GPU, GPUGuess: n.GPUGuess && !named,
			NICs: n.NICsPerNode(), NICGbps: n.NICGbps, RateGbps: s.NICGbps, Path: n.Path.String(), GDR: n.Path.GDR()}
	}
	rep, err := nccltests.Compare(o, s)
	if err != nil {
		return fail("text", err)
	}
	part, parted := rep.Parting()
	out.Header, out.YAML, out.PartBytes, out.Parted = rep.Header(o), s.YAML(""), int64(part), parted
	for _, l := range rep.Lines {
		algo, proto, _ := strings.Cut(rep.Pick(l), "/")
		out.Rows = append(out.Rows, protocol.ExplainedRow{Bytes: int64(l.Size), MeasuredTimeUs: l.Measured.TimeUs, ExpectedTimeUs: l.Expected.TimeUs,
			MeasuredBusBw: l.Measured.BusBw, ExpectedBusBw: l.Expected.BusBw, Ratio: l.Ratio, Algo: algo, Proto: proto})
	}
	for _, f := range rep.Causes {
		out.Findings = append(out.Findings, protocol.Finding{Kind: f.Kind, Text: f.Text})
	}
	return out
}

// beginEarly begins the run the canvas will ask for first, from the page's
// address and early load (protocol.Early), keeping its messages; unless a
// begin came first. A run that cannot start is left to the canvas's begin,
// which says why (the canvas refuses it before it asks: the same loading).
func (w *Worker) beginEarly(c protocol.Early) {
	b, ok := playback.FirstRun(c.Query, c.Load, c.Side)
	if w.begun || w.run != nil || !ok {
		return
	}
	b.HeapLimitMiB = earlyHeapMiB
	if r := w.start(b); r != nil {
		r.early, r.wasEarly = &b, true
	}
}

// begin starts building a run, or takes over the early run that computes
// the same; a run before is dropped.
func (w *Worker) begin(c protocol.Begin) {
	if r := w.run; r != nil && r.early != nil && sameRun(*r.early, c) {
		r.takeOver(c)
		return
	}
	w.run = nil
	w.start(c)
}

// sameRun says begins a and b ask for the same run (their run_id and heap
// limit aside).
func sameRun(a, b protocol.Begin) bool {
	return a.YAML == b.YAML && a.Scenario == b.Scenario && slices.Equal(a.Sets, b.Sets) && a.Side == b.Side && a.Lang == b.Lang
}

// takeOver gives an early run c's run_id and heap limit, and posts what it
// kept under that run_id.
func (r *run) takeOver(c protocol.Begin) {
	r.id, r.early, r.heap = c.RunID, nil, int64(c.HeapLimitMiB)<<20
	if r.rec != nil {
		r.rec.SetHeapLimit(r.heap)
	}
	held := r.held
	r.held = nil
	for _, h := range held {
		r.w.event(protocol.WithRunID(h.e, r.id), h.frame)
	}
}

// say posts e, with frame beside it; an early run keeps it (its frame
// copied) for the begin that takes it over, but for a computing event (a
// recorded one after it says as much).
func (r *run) say(e protocol.WorkerEvent, frame []byte) {
	if r.early == nil {
		r.w.event(e, frame)
		return
	}
	if _, ok := e.(protocol.Computing); !ok {
		r.held = append(r.held, heldEvent{e, slices.Clone(frame)})
	}
}

// start begins building c's run, which becomes the worker's; nil (its
// error posted, unless the run is early) if it cannot start.
func (w *Worker) start(c protocol.Begin) *run {
	side := playback.Side{Scenario: c.Scenario, YAML: c.YAML, Sets: c.Sets}
	which := c.Side
	if which == "" {
		which = "the"
	}
	sc, err := side.Load(which)
	if err == nil {
		err = playback.FitsBrowser(&sc)
	}
	var b *playback.Builder
	if err == nil {
		b, err = playback.Begin(sc)
	}
	if err != nil {
		if c.RunID > 0 {
			w.event(protocol.WorkerError{RunID: c.RunID, Message: i18n.Error(i18n.Lang(c.Lang), err)}, nil)
		}
		return nil
	}
	w.run = &run{id: c.RunID, build: b, w: w, heap: int64(c.HeapLimitMiB) << 20, lang: i18n.Lang(c.Lang)}
	return w.run
}

// Work builds or computes the run for about slice of wall time and
// reports whether there is more to do.
func (w *Worker) Work(slice time.Duration) bool {
	r := w.run
	switch {
	case r != nil && r.rest != nil:
		r.postRest()
		return false
	case r == nil || r.over:
		return false
	case r.early != nil && r.rec != nil:
		return false // built, its first frame kept: the rest once a begin takes it over
	case r.rec == nil:
		if !r.build.Build(slice) {
			return true
		}
		rec, err := r.build.Recorder(r)
		if err != nil {
			r.Fail(err)
			return false
		}
		r.rec = rec
		rec.SetHeapLimit(r.heap)
		if w.lookAhead == 0 {
			rec.LookAhead(r.build.LookAheadBudget())
		} else {
			rec.LookAhead(w.lookAhead)
		}
		sc := r.build.Scenario()
		topo := rec.Topology()
		r.say(protocol.Begun{RunID: r.id, Name: sc.Name, Endpoints: len(topo.Endpoints), Links: len(topo.Links), UntilUs: sc.Until.Micros(), Early: r.wasEarly}, nil)
		r.posted(r.first, r.at)
		return true
	}
	more := !r.rec.Compute(slice) && w.run == r
	every := w.every
	if every == 0 {
		every = progressEvery
	}
	if more && time.Since(w.lastPost) >= every {
		r.say(protocol.Computing{RunID: r.id, Progress: r.rec.Progress(), EtaS: r.rec.ETA()}, nil)
	}
	return more || r.rest != nil && w.run == r
}

func (w *Worker) event(e protocol.WorkerEvent, frame []byte) {
	msg, err := protocol.EncodeWorkerEvent(e)
	if err != nil { // a NaN: say so rather than nothing
		msg, _ = protocol.EncodeWorkerEvent(protocol.WorkerError{Message: err.Error()})
	}
	w.post(msg, frame)
	w.lastPost = time.Now()
}

// Frame, Halve, Finish and Fail make a run the recorder's Sink.
func (r *run) Frame(s *snap.Snapshot) {
	r.buf = r.enc.Encode(r.buf[:0], s)
	if r.rec == nil { // the first frame, recorded as the recorder is made: after begun
		r.first, r.at = slices.Clone(r.buf), s.Time
		return
	}
	r.posted(r.buf, s.Time)
}

// posted posts a frame encoded, at time at.
func (r *run) posted(buf []byte, at unit.Time) {
	r.say(protocol.Recorded{RunID: r.id, Index: r.sent, TUs: at.Micros(), Bytes: len(buf), Progress: r.rec.Progress(), EtaS: r.rec.ETA()}, buf)
	r.sent++
}

func (r *run) Halve() { r.say(protocol.Halved{RunID: r.id}, nil) }

func (r *run) Finish(res *simmetrics.Result) {
	r.over = true
	head, err := playback.ReportHead(res)
	if err != nil {
		r.Fail(errors.New("the run's report cannot be written as JSON: " + err.Error()))
		return
	}
	r.say(protocol.RunResult{RunID: r.id, Result: string(head)}, nil)
	r.rest = res // posted in the next slice: the canvas hears it is done first
}

// postRest posts the report's flows and links (ResultRest). Written as
// JSON they took the 8,192-GPU all-reduce's worker 0.3-0.6 s under Node
// after its last frame, which no time left counted.
func (r *run) postRest() {
	res := r.rest
	r.rest = nil
	rest, err := playback.ReportRest(res)
	if err != nil {
		r.Fail(errors.New("the run's report cannot be written as JSON: " + err.Error()))
		return
	}
	r.say(protocol.ResultRest{RunID: r.id, Bytes: len(rest)}, rest)
}

func (r *run) Fail(err error) {
	r.over = true
	r.say(protocol.WorkerError{RunID: r.id, Message: i18n.Error(r.lang, err)}, nil)
}
