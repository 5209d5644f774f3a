package main

import (
	"slices"
	"strconv"
	"strings"
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
	"fabriclab/sim/unit"
)

// workerPage is a page whose runs two workers compute: what the canvas
// asked of them, and a run per worker that the test computes (work) as
// cmd/worker does, its messages queued for the canvas.
type workerPage struct {
	pageHost
	t     *testing.T
	asked [2][]protocol.WorkerCommand
	runs  [2]*fakeRun
	inbox []arrival
}

// fakeRun is a worker's run: its recorder sends through framewire.
type fakeRun struct {
	h      *workerPage
	worker int
	id     int
	rec    *playback.Recorder
	enc    framewire.Encoder
	first  []byte
	sent   int
}

func (h *workerPage) toWorker(i int, c protocol.WorkerCommand) {
	h.asked[i] = append(h.asked[i], c)
	b, ok := c.(protocol.Begin)
	if !ok {
		return
	}
	side := playback.Side{Scenario: b.Scenario, YAML: b.YAML, Sets: b.Sets}
	sc, err := side.Load("the")
	require.NoError(h.t, err)
	build, err := playback.Begin(sc)
	require.NoError(h.t, err)
	for !build.Build(time.Hour) {
	}
	r := &fakeRun{h: h, worker: i, id: b.RunID}
	r.rec, err = build.Recorder(r)
	require.NoError(h.t, err)
	r.post(protocol.Begun{RunID: r.id, Name: sc.Name}, nil)
	r.post(protocol.Recorded{RunID: r.id, Bytes: len(r.first), Progress: -1, EtaS: -1}, r.first)
	h.runs[i] = r
}

func (h *workerPage) fromWorkers() []arrival {
	in := h.inbox
	h.inbox = nil
	return in
}

// work computes worker i's run for a while; it reports whether it is over.
func (h *workerPage) work(i int) bool { return h.runs[i].rec.Compute(5 * time.Millisecond) }

func (r *fakeRun) post(e protocol.WorkerEvent, frame []byte) {
	msg, err := protocol.EncodeWorkerEvent(e)
	require.NoError(r.h.t, err)
	r.h.inbox = append(r.h.inbox, arrival{worker: r.worker, msg: msg, frame: frame})
}

func (r *fakeRun) Frame(s *snap.Snapshot) {
	b := r.enc.Encode(nil, s)
	if r.rec == nil {
		r.first = b
		return
	}
	r.sent++
	r.post(protocol.Recorded{RunID: r.id, Index: r.sent, Bytes: len(b), Progress: r.rec.Progress(), EtaS: r.rec.ETA()}, b)
}
func (r *fakeRun) Halve() { r.post(protocol.Halved{RunID: r.id}, nil) }
func (r *fakeRun) Finish(res *simmetrics.Result) {
	head, err := playback.ReportHead(res)
	require.NoError(r.h.t, err)
	rest, err := playback.ReportRest(res)
	require.NoError(r.h.t, err)
	r.post(protocol.RunResult{RunID: r.id, Result: string(head)}, nil)
	r.post(protocol.ResultRest{RunID: r.id, Bytes: len(rest)}, rest)
}
func (r *fakeRun) Fail(err error) {
	r.post(protocol.WorkerError{RunID: r.id, Message: err.Error()}, nil)
}

func workerGame(t *testing.T, q string) (*Game, *workerPage) {
	t.Helper()
	h := &workerPage{pageHost: pageHost{q: q}, t: t}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	g.take = takeLimits{draw: time.Hour, hold: time.Hour} // every message a frame, however slow the machine (TestWorkerMessagesTakenInSlices: a budget)
	return g, h
}

// The canvas's first begin is what playback.FirstRun says it is, for every
// address and load the page sent before the canvas started: the worker's
// early run (protocol.Early) is then taken over, never begun again. With
// first=load and no load yet, no begin until the load comes.
func TestFirstBeginIsTheEarlyRun(t *testing.T) {
	step := protocol.Load{Scenario: "incast", Sets: []string{"traffic.senders=2"}, Step: "lossy", Figures: []string{"totals.drops | count"}}
	// A comparison's sides, by the address or by a lesson's first load:
	// worker 0 the left one, worker 1 the right one.
	two := protocol.Load{Left: &protocol.Side{Scenario: "incast", Sets: []string{"traffic.senders=2"}, Label: "two"},
		Right: &protocol.Side{Scenario: "ecmp-collisions", Label: "ecmp"}, Step: "cmp"}
	sides := []string{"left", "right"}
	for _, tc := range []struct {
		q     string
		load  *protocol.Load
		sides []string // by worker
	}{
		{"", nil, nil},
		{"?lang=zh", nil, nil},
		{"?scenario=ecmp-collisions&set=seed%3D2&play=1", nil, nil},
		{"?scenario=incast", &step, nil},
		{"?controls=1&lang=zh", &step, nil},
		{"?controls=1&lang=en&first=load", &step, nil},
		{"?controls=1&lang=zh&first=load", &protocol.Load{Scenario: "incast"}, nil},
		{"?compare=1&left=incast&right=ecmp-collisions&lang=zh", nil, sides},
		{"?controls=1&lang=en&first=load", &two, sides},
	} {
		h := &workerPage{pageHost: pageHost{q: tc.q}, t: t}
		if tc.load != nil {
			data, err := protocol.EncodeCommand(*tc.load)
			require.NoError(t, err)
			h.send(string(data))
		}
		g, err := newGame(h)
		require.NoError(t, err)
		g.w, g.h = 800, 600
		if len(h.asked[0]) == 0 {
			require.NoError(t, g.Update()) // a load that waited for ready is taken by the first Update
		}
		_, ok := playback.FirstRun(tc.q, tc.load, "")
		assert.Equal(t, tc.sides == nil, ok, "%s: one run, or a comparison", tc.q)
		workers := tc.sides
		if workers == nil {
			workers = []string{""}
		}
		for i, side := range workers {
			want, ok := playback.FirstRun(tc.q, tc.load, side)
			require.True(t, ok, "%s %q", tc.q, side)
			require.NotEmpty(t, h.asked[i], "%s %q", tc.q, side)
			got := h.asked[i][0].(protocol.Begin)
			assert.Equal(t, i+1, got.RunID)
			got.RunID, got.HeapLimitMiB = 0, 0
			assert.Equal(t, want, got, "%s %v %q", tc.q, tc.load, side)
		}
	}
	h := &workerPage{pageHost: pageHost{q: "?controls=1&first=load"}, t: t}
	_, err := newGame(h)
	require.NoError(t, err)
	assert.Empty(t, h.asked[0], "first=load without a load: no begin yet")
	_, ok := playback.FirstRun(h.q, nil, "")
	assert.False(t, ok)
}

// In the browser a worker computes the run and the canvas plays what it
// sends: loaded once the first frame comes, done with the report, the
// figures from the report as the worker wrote it.
func TestWorkerComputesTheRun(t *testing.T) {
	g, h := workerGame(t, "?scenario=incast&play=1")
	require.Len(t, h.asked[0], 1)
	begin := h.asked[0][0].(protocol.Begin)
	assert.Equal(t, protocol.Begin{RunID: 1, Scenario: "incast", HeapLimitMiB: heapLimit >> 20, Lang: "en"}, begin)
	assert.Nil(t, g.p, "nothing plays before the first frame")
	assert.Equal(t, "incast", g.waitingName(), "the loading picture says what comes")
	require.NoError(t, g.Update())
	require.NotNil(t, g.p)
	assert.True(t, slices.ContainsFunc(h.events, func(ev map[string]any) bool { return ev["fabriclab"] == "loaded" }))
	assert.True(t, g.p.Playing(), "play=1")
	h.send(`{"fabriclab":"pause"}`)
	for !h.work(0) {
		require.NoError(t, g.Update())
	}
	g.page.nextTime = time.Now().Add(time.Hour) // no time event due but for the end
	require.NoError(t, g.Update())
	require.True(t, g.p.Done())
	assert.Equal(t, true, lastTime(t, &h.pageHost)["done"], "paused, the page hears the run is done")
	sc, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	local, err := playback.New(sc)
	require.NoError(t, err)
	for !local.Compute(time.Hour) {
	}
	n, _ := local.Frames()
	m, _ := g.p.Frames()
	assert.Equal(t, n, m, "the frames the worker recorded")
	assert.Equal(t, local.Result(), g.p.Result(), "the report, through JSON")
	st := g.workerStats()
	require.Len(t, st, 1)
	assert.True(t, st[0].Done)
	assert.Equal(t, 1, st[0].RunID)
}

// A worker's computing event moves the bar's progress and time left between
// two frames.
func TestWorkerProgressBetweenFrames(t *testing.T) {
	g, h := workerGame(t, "?scenario=incast")
	require.NoError(t, g.Update())
	require.NotNil(t, g.p)
	r := h.runs[0]
	r.post(protocol.Computing{RunID: r.id, Progress: 0.42, EtaS: 3}, nil)
	r.post(protocol.Computing{RunID: r.id + 1, Progress: 0.99, EtaS: 0.1}, nil) // of another run: not ours
	g.page.nextTime = time.Time{}
	require.NoError(t, g.Update())
	assert.InDelta(t, 0.42, g.p.Progress(), 1e-9)
	assert.InDelta(t, 3, g.p.ETA(), 1e-9)
	ev := lastTime(t, &h.pageHost)
	assert.InDelta(t, 0.42, ev["progress"], 1e-9, "the page hears it")
}

// A load drops the run before (its worker is told; what still comes of it
// is not played); a worker's error stops the run with its message.
func TestWorkerRunsReplaced(t *testing.T) {
	g, h := workerGame(t, "?scenario=incast")
	require.NoError(t, g.Update())
	h.send(`{"fabriclab":"load","scenario":"ecmp-collisions"}`)
	h.work(0) // frames of run 1 come after the load
	old := h.inbox
	require.NoError(t, g.Update())
	assert.Equal(t, protocol.Cancel{RunID: 1}, h.asked[0][1], "the old run is cancelled")
	assert.Equal(t, 2, h.asked[0][2].(protocol.Begin).RunID)
	h.inbox = append(old, h.inbox...)
	require.NoError(t, g.Update())
	require.NotNil(t, g.p)
	assert.Equal(t, "ecmp-collisions", g.p.Scenario().Name, "run 1's frames are dropped")

	h.runs[0].Fail(assert.AnError)
	require.NoError(t, g.Update())
	assert.Nil(t, g.p)
	assert.Equal(t, assert.AnError.Error(), g.failure)

	h.send(`{"fabriclab":"load","scenario":"incast"}`)
	require.NoError(t, g.Update())
	h.inbox = []arrival{{worker: 0, failed: "SecurityError"}}
	require.NoError(t, g.Update())
	assert.Contains(t, g.failure, "SecurityError")
	assert.Contains(t, g.failure, "worker could not run")
}

// A comparison's sides are two workers; it plays once both have sent a
// frame, and says it is done, with its summary, once both reports are
// whole (their flows and links come after the run is done).
func TestWorkerComparison(t *testing.T) {
	g, h := workerGame(t, "?compare=1&left=incast&right=incast&right.set=network.cc%3Ddcqcn")
	require.Empty(t, g.failure)
	require.Len(t, h.asked[0], 1)
	require.Len(t, h.asked[1], 1)
	assert.Equal(t, "left", h.asked[0][0].(protocol.Begin).Side)
	assert.Equal(t, []string{"network.cc=dcqcn"}, h.asked[1][0].(protocol.Begin).Sets)
	first := h.inbox
	h.inbox = first[:2] // the left's begun and first frame only
	require.NoError(t, g.Update())
	assert.Nil(t, g.cmp, "waits for the right side")
	require.NotNil(t, g.loadingPic, "the loading picture meanwhile")
	h.inbox = first[2:]
	require.NoError(t, g.Update())
	require.NotNil(t, g.cmp)
	assert.Nil(t, g.loadingPic, "not drawn over the comparison")
	for !h.work(0) || !h.work(1) {
		require.NoError(t, g.Update())
	}
	rest := h.inbox[len(h.inbox)-1]
	require.Equal(t, 1, rest.worker, "the right's flows and links")
	h.inbox = h.inbox[:len(h.inbox)-1]
	require.NoError(t, g.Update())
	assert.True(t, g.cmp.pair.Done())
	assert.Zero(t, count(&h.pageHost, "done"), "the right's report is not whole")
	h.inbox = append(h.inbox, rest)
	require.NoError(t, g.Update())
	require.Equal(t, 1, count(&h.pageHost, "done"))
	assert.NotEmpty(t, g.cmp.diff, "the summary")
	assert.Len(t, g.workerStats(), 2)
}

// Play, pause, Space, a seek and reset before a run's first frame has come
// are kept for when it comes: a learner who changes step and presses Space
// at once sees it play (Space was lost while the worker started the run),
// and a seek to the end right after a load gets there.
func TestWorkerPlayBeforeTheFirstFrame(t *testing.T) {
	for _, c := range []struct {
		q    string
		cmds []string
		want bool
	}{
		{"?scenario=incast", []string{"toggle"}, true},
		{"?scenario=incast", []string{"toggle", "toggle"}, false},
		{"?scenario=incast&play=1", []string{"toggle"}, false},
		{"?scenario=incast", []string{"play"}, true},
		{"?scenario=incast&play=1", []string{"pause"}, false},
		{"?scenario=incast", []string{`{"fabriclab":"seek","t_us":50}`}, false},
		{"?scenario=incast&play=1", []string{`{"fabriclab":"seek","t_us":50}`, "reset"}, false},
	} {
		g, h := workerGame(t, c.q)
		first := h.inbox
		h.inbox = nil
		for _, cmd := range c.cmds {
			if !strings.HasPrefix(cmd, "{") {
				cmd = `{"fabriclab":"` + cmd + `"}`
			}
			h.send(cmd)
		}
		require.NoError(t, g.Update())
		require.Nil(t, g.p, "the first frame has not come")
		h.inbox = first
		require.NoError(t, g.Update())
		require.NotNil(t, g.p)
		assert.Equal(t, c.want, g.p.Playing(), "%s then %v", c.q, c.cmds)
		want := unit.Time(0)
		if c.cmds[len(c.cmds)-1] != "reset" && strings.Contains(c.cmds[0], "seek") {
			want = 50 * unit.Microsecond
		}
		target, _ := g.p.Seeking()
		assert.Equal(t, want, max(g.p.Pos(), target), "%s then %v: where it goes", c.q, c.cmds)
	}
}

// workerFramePage is a workerPage whose frames run on demand (frames.go).
type workerFramePage struct {
	workerPage
	asked int
}

func (h *workerFramePage) framesOnDemand() {}
func (h *workerFramePage) scheduleFrame()  { h.asked++ }

// A frame takes the workers' messages for its budget only (and the
// halvings that follow the last): the rest waits, in order, for the next
// frame, which is asked for though nothing plays.
func TestWorkerMessagesTakenInSlices(t *testing.T) {
	g, h := workerFrameGame(t)
	g.take = takeLimits{lag: time.Hour} // one message a frame
	for !h.work(0) {
	}
	n := len(h.inbox)
	require.Greater(t, n, 10, "begun, the frames and the report")
	pending, halvings := slices.Clone(h.inbox), 0
	for len(pending) > 2 { // the last two are the report's head and rest
		took := 1
		for took < len(pending) && halves(pending[took]) {
			took++
		}
		halvings += took - 1
		asked := h.asked
		require.NoError(t, g.Update())
		g.drawn, g.firstFrame = g.key, true // as Draw does
		pending = pending[took:]
		require.Equal(t, len(pending), len(g.arrivals), "one message a frame, and the halvings after it")
		require.Greater(t, h.asked, asked, "%d messages left: a frame asked for the rest", len(pending))
	}
	require.Positive(t, halvings, "incast's frames halve")
	require.NotNil(t, g.p)
	assert.False(t, g.p.Done(), "the report is still to take")
	assert.False(t, g.p.Playing())
	require.NoError(t, g.Update())
	assert.True(t, g.p.Done(), "every frame and the report's head taken")
	assert.Nil(t, g.p.Result(), "its flows and links still to take")
	require.NoError(t, g.Update())
	assert.Zero(t, len(g.arrivals))
	assert.NotNil(t, g.p.Result(), "every message taken")
	if g.held { // the frame that draws the picture held
		require.NoError(t, g.Update())
	}
	// Its picture drawn, as Draw does: the last frame drew it, or held it
	// and the one above drew it (which of the two depends on the wall
	// time between Updates: past pictureGap a frame draws, so a loaded
	// machine skipped the branch above and the picture was never drawn;
	// the canvas rightly asked a frame for it, one run in 40 at load 3).
	g.drawn = g.key
	asked := h.asked
	require.NoError(t, g.Update())
	assert.Equal(t, asked, h.asked, "nothing left: no frame asked for (held %v, a picture due %v, the view due %v, playing %v)",
		g.held, g.drawDue(), g.viewDue(), g.p.Playing())
	sc, err := scenario.Load("incast", nil, nil)
	require.NoError(t, err)
	local, err := playback.New(sc)
	require.NoError(t, err)
	for !local.Compute(time.Hour) {
	}
	want, _ := local.Frames()
	got, _ := g.p.Frames()
	assert.Equal(t, want, got, "the frames, halved in order")
}

// While the workers' messages wait, a frame either draws or takes them: in
// the pictureGap after a frame that could draw, a frame holds the picture
// drawn and takes messages for its hold budget, and asks for the frame
// that draws, and its time events say the time of the picture held; a
// playback command is drawn at once. After the gap, a frame takes one
// message and draws. Once the page is behind (a message waited past the
// lag) or the report has come, it holds the picture for the lag.
func TestWorkerFramesHoldThePicture(t *testing.T) {
	g, h := workerFrameGame(t) // paused: only the held picture asks for a frame
	g.take = takeLimits{hold: time.Hour, lag: time.Hour}
	for !h.work(0) {
	}
	inbox := slices.Clone(h.inbox)
	require.Greater(t, len(inbox), 40)
	report := inbox[len(inbox)-2] // and its flows and links after it
	require.True(t, workerDone(report))
	h.inbox = inbox[:2] // begun and the first frame
	for g.p == nil {
		require.NoError(t, g.Update())
	}
	require.Empty(t, g.arrivals)
	other := drawKey{scale: 3, cur: &snap.Snapshot{Time: unit.Second}} // a picture drawn that no frame prepares
	drawn := func() { g.drawn, g.firstFrame = other, true }
	drawn()

	h.inbox = slices.Clone(inbox[2:16])
	g.pictureFrame, g.page.nextTime = time.Now(), time.Time{}
	asked := h.asked
	require.NoError(t, g.Update())
	assert.True(t, g.hold, "within the gap after a frame that could draw")
	assert.Empty(t, g.arrivals, "a frame that holds takes messages for its budget")
	assert.Equal(t, other, g.key, "the picture drawn is held")
	assert.Greater(t, h.asked, asked, "the frame that draws it is asked for")
	assert.Equal(t, other.cur.Time.Micros(), lastTime(t, &h.pageHost)["t_us"], "the page hears the time of the picture shown")

	h.inbox = slices.Clone(inbox[16:20])
	h.send(`{"fabriclab":"step"}`)
	g.pictureFrame = time.Now()
	require.NoError(t, g.Update())
	assert.NotEqual(t, other, g.key, "a command the learner gave is drawn at once")
	assert.Equal(t, g.p.At(g.p.Pos()).Time.Micros(), lastTime(t, &h.pageHost)["t_us"])
	drawn()

	h.inbox = slices.Clone(inbox[20:24])
	g.pictureFrame, g.page.nextTime = time.Now(), time.Time{}
	require.NoError(t, g.Update())
	require.True(t, g.held)
	require.Equal(t, other.cur.Time.Micros(), lastTime(t, &h.pageHost)["t_us"])
	next, took := slices.Clone(inbox[24:32]), 1
	for took < len(next) && halves(next[took]) {
		took++
	}
	h.inbox = next
	g.pictureFrame = time.Now().Add(-pictureGap)
	g.page.nextTime = time.Now().Add(time.Hour) // no time event due but for the picture no longer held
	require.NoError(t, g.Update())
	assert.False(t, g.hold, "past the gap")
	assert.Len(t, g.arrivals, len(next)-took, "a frame that draws takes one message (and the halvings after it)")
	assert.NotEqual(t, other, g.key, "and draws")
	assert.Equal(t, g.p.At(g.p.Pos()).Time.Micros(), lastTime(t, &h.pageHost)["t_us"], "the page hears the time of the picture drawn")

	drawn()
	g.take.lag = time.Second
	g.arrivals[0].came = time.Now().Add(-2 * time.Second)
	g.pictureFrame = time.Now().Add(-2 * pictureGap)
	require.NoError(t, g.Update())
	assert.True(t, g.hold, "behind: the picture is held for the lag")
	assert.Equal(t, other, g.key)

	drawn()
	g.take.lag = time.Hour
	h.inbox = []arrival{report}
	g.pictureFrame = time.Now().Add(-2 * pictureGap)
	require.NoError(t, g.Update())
	assert.True(t, g.hold, "the report has come: the page catches up")
	assert.True(t, g.p.Done())
}

// The time left the canvas shows is the page's: what its worker said, less
// the time since, and the messages waiting at the rate the page takes
// them. A worker that has computed its whole run says 0 while the page
// still has its frames to take.
func TestWorkerTimeLeftCountsTheBacklog(t *testing.T) {
	g, h := workerFrameGame(t)
	for !h.work(0) {
	}
	all := slices.Clone(h.inbox)
	require.Greater(t, len(all), 400)
	h.inbox = all[:len(all)/2] // taken at once: the worker's time left is known by then
	g.take = takeLimits{draw: time.Hour, hold: time.Hour}
	require.NoError(t, g.Update())
	g.drawn, g.firstFrame = g.key, true
	h.inbox = all[len(all)/2:]
	g.take = takeLimits{lag: time.Hour} // one message a frame

	// frames at least 10 ms apart, a message each
	for range 20 {
		require.NoError(t, g.Update())
		g.drawn, g.firstFrame = g.key, true
		time.Sleep(10 * time.Millisecond)
	}
	require.NotNil(t, g.p)
	waiting := len(g.arrivals)
	require.Greater(t, waiting, 100)
	assert.Greater(t, g.p.ETA(), 0.9*float64(waiting)*0.010, "%d messages waiting, taken one each 10 ms or more", waiting)

	r := g.runs[0]
	g.arrivals = nil
	r.eta, r.etaCame = 5, time.Now().Add(-2*time.Second)
	g.timeLeft(time.Now())
	assert.InDelta(t, 3, g.p.ETA(), 0.1, "the worker said 5 s two seconds ago")
}

// A worker's report comes in two parts (playback/report.go): figures of
// the totals go once the run is done, and leave its flows and links as
// they came; a figure of a flow waits for them, decodes them, and reads
// what the run whole would say.
func TestWorkerFiguresOfFlowsAndTotals(t *testing.T) {
	for _, c := range []struct {
		spec    string
		decoded bool
	}{{"totals.max_fct_us | us 1", false}, {"flows[2].gbps | Gbps 2", true}} {
		g, h := workerGame(t, "?scenario=incast")
		require.NoError(t, g.Update())
		h.send(`{"fabriclab":"load","scenario":"incast","figures":[` + strconv.Quote(c.spec) + `]}`)
		require.NoError(t, g.Update())
		for !h.work(0) {
			require.NoError(t, g.Update())
		}
		rest := h.inbox[len(h.inbox)-1]
		h.inbox = h.inbox[:len(h.inbox)-1]
		for i := 0; i < 10 && count(&h.pageHost, "done") == 0; i++ {
			require.NoError(t, g.Update())
		}
		require.Equal(t, 1, count(&h.pageHost, "done"))
		assert.Equal(t, !c.decoded, count(&h.pageHost, "figures") == 1, "%s: the figures before the flows and links", c.spec)
		h.inbox = append(h.inbox, rest)
		for i := 0; i < 10; i++ {
			require.NoError(t, g.Update())
		}
		require.Equal(t, 1, count(&h.pageHost, "figures"), c.spec)
		assert.Equal(t, c.decoded, g.p.Report().Flows != nil, "%s: the flows decoded", c.spec)
		var ev map[string]any
		for _, e := range h.events {
			if e["fabriclab"] == "figures" {
				ev = e
			}
		}
		sc, err := scenario.Load("incast", nil, nil)
		require.NoError(t, err)
		local, err := playback.New(sc)
		require.NoError(t, err)
		for !local.Compute(time.Hour) {
		}
		values, _ := computeFigures(local.Result(), []string{c.spec})
		require.NotEmpty(t, values[c.spec])
		assert.Equal(t, values[c.spec], ev["values"].(map[string]any)[c.spec], c.spec)
	}
}

// workerFrameGame is a paused incast on a workerFramePage, frames on demand.
func workerFrameGame(t *testing.T) (*Game, *workerFramePage) {
	t.Helper()
	h := &workerFramePage{workerPage: workerPage{pageHost: pageHost{q: "?scenario=incast"}, t: t}}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	g.framesOnDemand()
	return g, h
}

// A comparison plays once both sides' first frames have come. A side whose
// worker started first (the left one, its worker made before the canvas
// asked for the right one's) has posted its whole run by the time the other
// side's first frame comes: that frame is taken ahead of the backlog, not
// after it (a compare embed showed its loading picture 5-21 s, decoding the
// left side's frames), and the backlog is taken in its order after.
func TestComparisonFirstFramesTakenAhead(t *testing.T) {
	g, h := workerGame(t, "?compare=1&left=incast&right=ecmp-collisions")
	g.take = takeLimits{lag: time.Hour} // one message a frame
	require.Len(t, h.inbox, 4, "begun and the first frame of each side")
	right := slices.Clone(h.inbox[2:])
	h.inbox = h.inbox[:2]
	for !h.work(0) {
	}
	backlog := len(h.inbox)
	require.Greater(t, backlog, 100, "the left side's run, all of it")
	h.inbox = append(h.inbox, right...)
	require.NoError(t, g.Update())
	require.NotNil(t, g.cmp, "playing after one frame: both first frames taken")
	assert.Empty(t, g.waiting)
	// Taken: the begun and first frame of each side, then one message of
	// the left side's backlog (a frame's budget); the rest waits.
	assert.Equal(t, backlog-3, len(g.arrivals), "the first frames taken ahead, the rest waits")
	for range backlog {
		require.NoError(t, g.Update())
		g.drawn, g.firstFrame = g.key, true // as Draw does
		if len(g.arrivals) == 0 {
			break
		}
	}
	assert.Empty(t, g.arrivals)
	assert.True(t, g.cmp.pair.Sides[0].Done(), "the left side's backlog taken, in order, to its report")
}
