package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/playback/framewire"
	"fabriclab/protocol"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/unit"
)

// In the browser the canvas computes nothing: each run is computed by
// cmd/worker in a Web Worker (worker-client.js), which sends back the
// frames it records (playback/framewire), and the canvas plays them
// (playback.NewRemote). Worker 0 computes one run, or a comparison's left
// side; worker 1 the right side. A new run's begin makes the worker drop
// the run before it, and what still comes of that run is dropped here by
// its run_id.

// runner is a host whose runs are computed elsewhere.
type runner interface {
	// toWorker sends worker i a command.
	toWorker(i int, c protocol.WorkerCommand)
	// fromWorkers is what the workers sent since the last call, in order.
	fromWorkers() []arrival
}

// arrival is a message from worker i: an event with a frame's bytes beside
// it, or why the worker failed (msg nil).
type arrival struct {
	worker int
	msg    []byte
	frame  []byte
	failed string
	came   time.Time // when the canvas got it (fromWorkers)
}

// remoteRun is a run a worker computes for the canvas, with the fabric the
// canvas lays out (plan.Topology: the worker's is the same) and, once its
// first frame has come, the player.
type remoteRun struct {
	id    int
	side  string // "left" or "right" of a comparison, "" for one run
	label string
	sc    scenario.Scenario
	topo  *topo.Topology
	dec   framewire.Decoder
	p     *playback.Player
	play  bool      // play once it plays (the load or the page asked, or play, pause, Space since)
	seek  unit.Time // where to go once it plays (a seek since the load; 0: the start)
	got   protocol.WorkerStats
	// the progress and time left its worker last sent, and when that came
	share, eta float64
	etaCame    time.Time
}

// runsRemotely says whether the host computes runs elsewhere.
func (g *Game) runsRemotely() bool {
	_, ok := g.out.(runner)
	return ok
}

// loadRemote replaces what plays with src's run, computed by a worker;
// sc is src loaded (err its error). The loading picture shows until the
// first frame comes.
func (g *Game) loadRemote(sc scenario.Scenario, err error, src protocol.Begin, play bool) {
	if g.waiting != nil {
		g.skipped++ // dropped before it played
	}
	g.release()
	if err == nil {
		err = playback.FitsBrowser(&sc)
	}
	if err != nil {
		g.fail(err)
		return
	}
	g.failure = ""
	r := g.beginRemote(0, sc, src)
	r.play = play || g.params.Play
	g.waiting = []*remoteRun{r}
}

// beginRemote asks worker i for src's run.
func (g *Game) beginRemote(i int, sc scenario.Scenario, src protocol.Begin) *remoteRun {
	g.runID++
	src.RunID, src.HeapLimitMiB, src.Lang = g.runID, heapLimit>>20, g.params.Lang
	r := &remoteRun{id: g.runID, side: src.Side, sc: sc, topo: plan.Topology(&sc)}
	g.runs[i] = r
	g.out.(runner).toWorker(i, src)
	return r
}

// loadCompareRemote replaces what plays with a comparison whose sides two
// workers compute; it plays once both have sent their first frame.
func (g *Game) loadCompareRemote(sides [2]playback.Side) {
	g.release()
	var scs [2]scenario.Scenario
	for i, s := range sides {
		which := [2]string{"left", "right"}[i]
		sc, err := s.Load(which)
		if err == nil {
			err = playback.FitsBrowser(&sc)
		}
		if err != nil {
			g.fail(sideError(i18n.Lang(g.params.Lang), which, err))
			return
		}
		scs[i] = sc
	}
	g.failure = ""
	g.waiting = nil
	labels := playback.Labels(sides, [2]*scenario.Scenario{&scs[0], &scs[1]})
	for i, s := range sides {
		r := g.beginRemote(i, scs[i], s.Begin([2]string{"left", "right"}[i], g.params.Lang))
		r.label = labels[i]
		r.play = g.params.Play
		g.waiting = append(g.waiting, r)
	}
}

// fromWorkers takes what the workers sent, in order. A frame either draws
// a new picture or takes messages, not both: while messages wait, a frame
// that may draw takes one (and the halvings that follow it), at most every
// pictureGap (every g.take.lag once the page is behind, or its worker is
// done), and the frames between hold their picture (holdPicture) and take
// messages for g.take.hold. The rest waits for the next frame, which is
// asked for. On software WebGL a picture costs a frame ~20 ms of drawing
// and reading back (BENCHMARKS.md, issue 29); taken beside it, what came
// while it was drawn held the frame for as long again, decoding
// (ecmp-collisions: 150 ms frames at the median while computing), and a
// page that took less fell ever further behind its worker.
func (g *Game) fromWorkers() {
	h, ok := g.out.(runner)
	if !ok {
		return
	}
	in := h.fromWorkers()
	start := time.Now()
	if len(in) > 0 {
		g.grow() // the frames' memory, ahead (memory.go)
		for i := range in {
			in[i].came = start
		}
		g.arrivals = append(g.arrivals, in...)
	}
	g.firstFramesAhead()
	g.hold = false
	if k := len(g.arrivals); k > 0 && g.firstFrame {
		gap := pictureGap
		if start.Sub(g.arrivals[0].came) > g.take.lag || g.cmp == nil && workerDone(g.arrivals[k-1]) {
			gap = g.take.lag // the page's turn to catch up
		}
		g.hold = start.Sub(g.pictureFrame) < gap
	}
	budget := g.take.draw
	if g.hold {
		budget = g.take.hold
	} else {
		g.pictureFrame = start
	}
	// A message is taken if the longest taken so far would still end
	// within the budget: perm-1024's frames take 14 ms each to decode.
	n, longest := 0, time.Duration(0)
	for n < len(g.arrivals) && (n == 0 || time.Since(start)+longest < budget || halves(g.arrivals[n])) {
		a := g.arrivals[n]
		g.arrivals[n] = arrival{} // its frame's bytes are garbage once decoded
		n++
		t := time.Now()
		if err := g.arrived(a); err != nil {
			g.release()
			g.fail(err)
		}
		longest = max(longest, time.Since(t))
	}
	g.arrivals = g.arrivals[n:]
	if len(g.arrivals) == 0 {
		g.arrivals = nil
	}
	if n > 0 && len(g.arrivals) > 0 { // the page took what it could and some wait: how fast it takes them
		g.drain.add(n, start.Sub(g.drain.last))
	}
	g.drain.last = start
	g.timeLeft(start)
}

// firstFramesAhead takes, while a comparison waits for its sides' first
// frames, the messages of a side still waiting up to its first frame,
// ahead of the other side's: a side whose worker started sooner (a compare
// embed's left one, its worker made before the canvas asked for the right
// one's) had posted thousands of frames before the other's first came,
// and the loading picture showed while they were decoded (5-21 s). Each
// worker's messages stay in their order.
func (g *Game) firstFramesAhead() {
	if len(g.waiting) != 2 {
		return
	}
	rest := make([]arrival, 0, len(g.arrivals))
	for i, a := range g.arrivals {
		if r := g.runs[a.worker%2]; len(g.waiting) != 2 || r == nil || r.p != nil {
			rest = append(rest, a)
			continue
		}
		if err := g.arrived(a); err != nil {
			g.arrivals = append(rest, g.arrivals[i+1:]...)
			g.release()
			g.fail(err)
			return
		}
	}
	g.arrivals = rest
}

// drainRate is about how many of the workers' messages the page takes a
// second while they wait (fromWorkers), over about the last second.
type drainRate struct {
	n, secs float64
	last    time.Time // the frame before
}

func (d *drainRate) add(n int, took time.Duration) {
	if d.last.IsZero() || took <= 0 {
		return
	}
	keep := math.Exp(-took.Seconds())
	d.n, d.secs = d.n*keep+float64(n), d.secs*keep+took.Seconds()
}

// timeLeft sets each run's time left as the page will take it: what its
// worker said was left, less the time since, and the messages waiting at
// the page's drain rate. The worker cannot count the page's backlog: the
// 8,192-GPU all-reduce's canvas said done 0.8-0.9 s after its worker's
// report, with the worker's time left at 0 (BENCHMARKS.md, issue 29).
func (g *Game) timeLeft(now time.Time) {
	var waiting [2]int
	for _, a := range g.arrivals {
		waiting[a.worker%2]++
	}
	for i, r := range g.runs {
		if r == nil || r.p == nil || r.p.Done() || r.eta < 0 {
			continue
		}
		left := max(0, r.eta-now.Sub(r.etaCame).Seconds())
		if waiting[i] > 0 && g.drain.n > 0 {
			left += float64(waiting[i]) * g.drain.secs / g.drain.n
		}
		r.p.SetProgress(r.share, left)
	}
}

// holdPicture keeps the picture drawn in a frame that takes the workers'
// messages instead (fromWorkers); afterUpdate asks for the frame that draws it.
func (g *Game) holdPicture() {
	was := g.held
	g.held = false
	if g.hold && g.firstFrame && g.failure == "" && g.key != g.drawn {
		g.key, g.held = g.drawn, true
	}
	if was && !g.held {
		g.page.nextTime = time.Time{} // the time events said the picture held's time (sendTime): now the one drawn
	}
}

// halves reports whether a is a worker's halving: it goes with the frame
// before it, so that the frames kept never pass their budget between two
// frames (the page's stats read them).
func halves(a arrival) bool {
	if a.msg == nil {
		return false
	}
	e, err := protocol.DecodeWorkerEvent(a.msg)
	_, ok := e.(protocol.Halved)
	return err == nil && ok
}

// workerDone reports whether a is a run's report: its worker computes no
// more, and what came before it is all there is.
func workerDone(a arrival) bool {
	return bytes.HasPrefix(a.msg, []byte(`{"fabriclab":"result"`))
}

// takeLimits bound what a frame takes of the workers' messages
// (fromWorkers): draw in a frame that may draw (one message, and more
// within it), hold in a frame that holds its picture; lag is how long the
// oldest message may wait before the page counts as behind.
type takeLimits struct{ draw, hold, lag time.Duration }

// takeHold is what a frame that holds its picture takes of the messages:
// with the frame's own work (a few ms), within two 60 Hz frames, issue
// 29's 33 ms; less idles the page between frames while its worker gets
// ahead (at 12 and 20 ms, ecmp-collisions' page was 1.2-2.8 s behind its
// worker at load 12-26, against 0.3-0.4 s taking all at once). pictureGap
// is the least time between two frames that may draw while messages wait,
// and takeLag how long a message may wait: past it, or once the worker is
// done, a picture every takeLag, and the page catches up.
const (
	takeHold   = 28 * time.Millisecond
	takeLag    = 250 * time.Millisecond
	pictureGap = 50 * time.Millisecond
)

// arrived takes one message from a worker; an error stops what plays.
func (g *Game) arrived(a arrival) error {
	r := g.runs[a.worker%2]
	if a.msg == nil {
		if r == nil {
			return nil
		}
		return errors.New(i18n.Tf(i18n.Lang(g.params.Lang), "viz.worker.failed", a.failed))
	}
	e, err := protocol.DecodeWorkerEvent(a.msg)
	if err != nil {
		return fmt.Errorf("a message from the simulation's worker: %w", err)
	}
	if r == nil || protocol.RunOf(e) != r.id {
		return nil // of a run dropped since, or worker_ready
	}
	switch e := e.(type) {
	case protocol.Begun:
		r.got.Early = e.Early
	case protocol.Recorded:
		r.got.Frames++
		r.got.Bytes += int64(len(a.frame))
		s, err := r.dec.Decode(a.frame)
		if err != nil {
			return fmt.Errorf("frame %d of %s: %w", e.Index, r.sc.Name, err)
		}
		if r.p == nil {
			r.p = playback.NewRemote(r.sc, r.topo, s)
			r.p.SetHeapLimit(heapLimit)
			g.started()
		} else {
			r.p.Append(s)
		}
		r.share, r.eta, r.etaCame = e.Progress, e.EtaS, a.came
		r.p.SetProgress(e.Progress, e.EtaS)
	case protocol.Computing:
		r.share, r.eta, r.etaCame = e.Progress, e.EtaS, a.came
		if r.p != nil {
			r.p.SetProgress(e.Progress, e.EtaS)
		}
	case protocol.Halved:
		r.p.Halve()
	case protocol.RunResult:
		var res simmetrics.Result
		if err := json.Unmarshal([]byte(e.Result), &res); err != nil {
			return fmt.Errorf("the report of %s: %w", r.sc.Name, err)
		}
		r.got.Done = true
		r.p.FinishHead(&res)          // the flows and links come next (playback/report.go)
		g.page.nextTime = time.Time{} // the page hears at once that it is done
		if g.cmp != nil {
			g.cmp.nextTime = time.Time{}
		}
	case protocol.ResultRest:
		r.p.TakeRest(a.frame)
		if r.p == g.p && g.sentDone && g.figures.readsRest() {
			g.sendFigures() // they waited for the flows and links
		}
	case protocol.WorkerError:
		err := errors.New(e.Message) // in the page's language (Begin.Lang)
		if r.side != "" {
			err = sideError(i18n.Lang(g.params.Lang), r.side, err)
		}
		if r.p == nil {
			return err
		}
		r.p.Fail(err)
	}
	return nil
}

// started plays the waiting run, or comparison, once every side has its
// first frame.
func (g *Game) started() {
	for _, r := range g.waiting {
		if r.p == nil {
			return
		}
	}
	w := g.waiting
	g.waiting, g.loadingPic = nil, nil
	if len(w) == 2 {
		g.comparing([2]*playback.Player{w[0].p, w[1].p}, [2]string{w[0].label, w[1].label})
		if w[0].seek > 0 {
			g.cmp.pair.Seek(w[0].seek)
		}
		if w[0].play {
			g.cmp.pair.Play()
		} else {
			g.cmp.pair.Pause()
		}
		return
	}
	g.playing(w[0].p)
	if w[0].seek > 0 {
		w[0].p.Seek(w[0].seek)
	}
	if w[0].play {
		w[0].p.Play()
	} else {
		w[0].p.Pause()
	}
}

// waitingName is the name of the run the loading picture is for ("" for none).
func (g *Game) waitingName() string {
	if len(g.waiting) == 0 {
		return ""
	}
	if len(g.waiting) == 2 {
		return g.waiting[0].label + " vs " + g.waiting[1].label
	}
	return g.waiting[0].sc.Name
}

// workerStats is what the workers sent of the runs that play, for stats.
func (g *Game) workerStats() []protocol.WorkerStats {
	var out []protocol.WorkerStats
	for _, r := range g.runs {
		if r != nil {
			st := r.got
			st.RunID = r.id
			out = append(out, st)
		}
	}
	return out
}

// sideError is err of a comparison's side ("left" or "right"), said in lang
// after the side's name.
func sideError(lang i18n.Lang, side string, err error) error {
	if side == "right" {
		return errors.New(i18n.Tf(lang, "viz.side.right", i18n.Error(lang, err)))
	}
	return errors.New(i18n.Tf(lang, "viz.side.left", i18n.Error(lang, err)))
}
