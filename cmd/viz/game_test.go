package main

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/unit"
)

// pageHost is a browser page that records the events it gets, as the page
// reads them: the JSON protocol.EncodeEvent writes, parsed.
type pageHost struct {
	q      string
	queue  commandQueue
	events []map[string]any
}

func (h *pageHost) query() string           { return h.q }
func (h *pageHost) commands() *commandQueue { return &h.queue }
func (h *pageHost) browser() bool           { return true }
func (h *pageHost) send(cmd string)         { h.queue.push([]byte(cmd)) }

func (h *pageHost) event(ev protocol.Event) {
	data, err := protocol.EncodeEvent(ev)
	if err != nil {
		panic(err) // the test fails: the page would not get it
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	h.events = append(h.events, m)
}

// started is a game on a page with query q, 800×600, after its first Update.
func started(t *testing.T, q string) (*Game, *pageHost) {
	t.Helper()
	h := &pageHost{q: q}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	require.NoError(t, g.Update())
	return g, h
}

// Update prepares the layout and the frame; it rebuilds the layout only when
// the canvas size, the scenario or the options change.
func TestUpdatePreparesWhatDrawShows(t *testing.T) {
	h := &pageHost{q: "?scenario=incast&controls=0"}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 1280, 720 // as LayoutF sets them
	require.NoError(t, g.Update())
	L := g.layout
	require.NotNil(t, L)
	assert.Equal(t, 1280.0, L.W)
	assert.Same(t, L, g.frame.Layout)
	require.NotNil(t, g.frame.Cur)
	assert.Equal(t, "incast", L.Opt.Title)

	require.NoError(t, g.Update())
	assert.Same(t, L, g.layout, "same size and scenario: the layout is kept")

	g.w = 1000
	require.NoError(t, g.Update())
	assert.Equal(t, 1000.0, g.layout.W, "a new size: a new layout")

	h.send(`{"fabriclab":"presenter","on":true}`)
	require.NoError(t, g.Update())
	assert.True(t, g.layout.Opt.Presenter, "presenter mode lays out again")

	old := g.layout
	h.send(`{"fabriclab":"load","scenario":"permutation"}`)
	require.NoError(t, g.Update())
	assert.NotSame(t, old.Topo, g.layout.Topo, "another scenario: its own layout")
	assert.Equal(t, "permutation", g.layout.Opt.Title)
	assert.Same(t, g.layout, g.frame.Layout)
}

// A failure is pictured by Update too: Draw only draws the picture.
func TestUpdatePicturesAFailure(t *testing.T) {
	g, _ := started(t, "?scenario=incast&set=topology.hosts=0")
	require.NotNil(t, g.errorPic.pic)
	assert.Equal(t, float32(800), g.errorPic.pic.W)
	pic := g.errorPic.pic
	require.NoError(t, g.Update())
	assert.Same(t, pic, g.errorPic.pic, "pictured once per size")
}

// A second failure at the same size shows its own message, not the first's.
func TestUpdatePicturesTheNewFailure(t *testing.T) {
	g, h := started(t, "?scenario=incast&set=topology.hosts=0")
	require.NotNil(t, g.errorPic.pic)
	h.send(`{"fabriclab":"load","scenario":"another-missing-one"}`)
	for i := 0; i < 10 && !strings.Contains(g.failure, "another-missing-one"); i++ {
		require.NoError(t, g.Update())
	}
	require.Contains(t, g.failure, "another-missing-one")
	require.NoError(t, g.Update())
	var text strings.Builder
	for _, p := range g.errorPic.pic.Prims {
		text.WriteString(p.Str + " ")
	}
	assert.Contains(t, text.String(), "another-missing-one")
	assert.NotContains(t, text.String(), "no-such-scenario")
}

// A burst of loads builds only the last one: the others are dropped before
// anything is built, and so are playback commands meant for them.
// In a burst of loads, stats, presenter and quiz are not dropped: they are
// about the page, not a run (a lesson's step sends quiz, then load, and
// with the quiz dropped incast#cost's strip gave the answer away).
func TestBurstKeepsStatsPresenterAndQuiz(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.events = nil
	h.send(`{"fabriclab":"load","scenario":"permutation"}`)
	h.send(`{"fabriclab":"stats"}`)
	h.send(`{"fabriclab":"presenter","on":true}`)
	h.send(`{"fabriclab":"quiz","pending":true}`)
	h.send(`{"fabriclab":"load","scenario":"ecmp-collisions"}`)
	require.NoError(t, g.Update())
	assert.Equal(t, []string{"stats", "loaded"}, slices.DeleteFunc(kinds(h), func(k string) bool { return k != "stats" && k != "loaded" }))
	assert.True(t, g.params.Big, "presenter ran")
	assert.True(t, g.quizPending, "quiz ran")
}

func TestBurstOfLoadsBuildsTheLast(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.events = nil
	for i := range 20 {
		h.send(fmt.Sprintf(`{"fabriclab":"load","scenario":"permutation","set":["seed=%d"]}`, i+1))
		h.send(`{"fabriclab":"play"}`)
	}
	h.send(`{"fabriclab":"load","scenario":"ecmp-collisions"}`)
	require.NoError(t, g.Update())
	var loaded []map[string]any
	for _, ev := range h.events {
		if ev["fabriclab"] == "loaded" {
			loaded = append(loaded, ev)
		}
		assert.NotEqual(t, "error", ev["fabriclab"], ev)
	}
	require.Len(t, loaded, 1, "one build")
	assert.Equal(t, "ecmp-collisions", loaded[0]["name"])
	assert.Equal(t, 20.0, loaded[0]["skipped"])
	assert.False(t, g.p.Playing(), "the plays were for the dropped loads")
	assert.Equal(t, "ecmp-collisions", g.layout.Opt.Title)
}

// In the browser a scenario too big for the tab is refused before it is
// built, with the way out; what played before is let go.
func TestTooBigForTheBrowser(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.send(`{"fabriclab":"load","scenario":"perm-1024","set":["topology.k=32"]}`)
	require.NoError(t, g.Update())
	assert.True(t, g.p == nil, "no player")
	assert.True(t, g.layout == nil, "no layout of the old run")
	assert.Contains(t, g.failure, "too big for the browser canvas")
	assert.Contains(t, g.failure, "sim.fidelity: flow")
	require.NotNil(t, g.errorPic.pic, "the canvas pictures the message")
}

// lastTime is the latest "time" event the page got.
func lastTime(t *testing.T, h *pageHost) map[string]any {
	t.Helper()
	for i := len(h.events) - 1; i >= 0; i-- {
		if h.events[i]["fabriclab"] == "time" {
			return h.events[i]
		}
	}
	require.Fail(t, "no time event")
	return nil
}

// t= past what is computed: the canvas computes up to it (saying how far it
// has got) and then goes there; the time event carries the progress.
func TestStartTimeComputesUpToIt(t *testing.T) {
	h := &pageHost{q: "?scenario=incast&t=3000"}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	g.prepare(0, 0) // as Update does, before it computes anything
	ev := lastTime(t, h)
	assert.Contains(t, ev, "computed_us")
	assert.Contains(t, ev, "progress")
	assert.Contains(t, ev, "eta_s")
	require.Less(t, g.p.End(), 3*unit.Millisecond, "not computed yet")
	assert.Equal(t, 3000.0, ev["seek_us"], "the page hears where the canvas is going")
	require.NotNil(t, g.frame.Computing, "the canvas shows its progress")
	assert.Equal(t, 3*unit.Millisecond, g.frame.Computing.Target)
	for i := 0; g.p.End() < 3*unit.Millisecond; i++ {
		require.NoError(t, g.Update())
		require.Less(t, i, 10000)
	}
	require.NoError(t, g.Update())
	g.sendTime()
	ev = lastTime(t, h)
	assert.NotContains(t, ev, "seek_us")
	assert.InDelta(t, 3000, ev["t_us"], 10, "at 3 ms (the frame at or before it)")
	assert.LessOrEqual(t, ev["t_us"], 3000.0)
	assert.GreaterOrEqual(t, ev["computed_us"], 3000.0)
	assert.Greater(t, ev["progress"], 0.2, "3 of incast's 11 ms and more are computed")
}

// The time event's t_us is the time of the frame shown (what the header
// reads), and at the end it is the run's end.
func TestTimeEventIsTheFrameShown(t *testing.T) {
	g, h := started(t, "?scenario=incast&set=traffic.bytes%3D1MiB&speed=1000")
	for i := 0; !g.p.Done(); i++ {
		require.NoError(t, g.Update())
		require.Less(t, i, 10000)
	}
	g.p.Seek(g.p.End() / 3)
	require.NoError(t, g.Update())
	g.sendTime()
	ev := lastTime(t, h)
	assert.Equal(t, g.frame.Cur.Time.Micros(), ev["t_us"])
	assert.Nil(t, g.frame.Computing, "computed: no progress bar")
	assert.Equal(t, 1.0, ev["progress"])
	assert.Equal(t, 0.0, ev["eta_s"])

	h.send(`{"fabriclab":"seek","t_us":1e7}`)
	require.NoError(t, g.Update())
	ev = lastTime(t, h)
	assert.Equal(t, ev["end_us"], ev["t_us"], "past the end: the end")
	assert.True(t, g.frame.Cur.Done)
}

// Computing gets most of a tick while playback waits for it, and a small
// share while playback has frames ahead.
func TestBudgetGrowsWhileWaiting(t *testing.T) {
	g, err := newGame(&pageHost{q: "?scenario=incast"})
	require.NoError(t, err)
	p := g.p
	assert.Equal(t, waitBudget, budget(p, 0), "paused")
	p.Play()
	assert.Equal(t, waitBudget, budget(p, time.Second), "playing at the computed end")
	for !p.Done() {
		p.Compute(time.Second)
	}
	p.Reset()
	p.Play()
	assert.Equal(t, playBudget, budget(p, time.Millisecond), "playing with frames ahead, cheap frames")
	assert.Equal(t, 40*time.Millisecond, budget(p, 20*time.Millisecond), "playing with frames ahead: two thirds of the time")
	assert.Equal(t, waitBudget, budget(p, time.Second), "never more than waitBudget")
	assert.Less(t, waitBudget, 100*time.Millisecond, "a frame stays under 100 ms")
}

// A picture already drawn is not drawn again: while nothing moves, the
// time goes to computing.
func TestUnchangedPictureIsNotRedrawn(t *testing.T) {
	g, _ := started(t, "?scenario=incast&set=traffic.bytes%3D1MiB")
	for i := 0; !g.p.Done(); i++ {
		require.NoError(t, g.Update())
		require.Less(t, i, 10000)
	}
	require.NoError(t, g.Update())
	k := g.key
	require.NoError(t, g.Update())
	assert.Equal(t, k, g.key, "paused, computed: the same picture")
	g.p.Step()
	require.NoError(t, g.Update())
	assert.NotEqual(t, k, g.key, "a step: a new picture")
	k = g.key
	g.w = 900
	require.NoError(t, g.Update())
	assert.NotEqual(t, k, g.key, "a new size: a new picture")
}

// The canvas's error picture follows theme=: light on a light page, dark on
// a dark one, its text readable on either.
func TestErrorListTheme(t *testing.T) {
	lum := func(c color.RGBA) float64 { return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B) }
	for _, light := range []bool{false, true} {
		dl := errorList(640, 360, "scenario: no such thing", render.EN, light)
		require.NotEmpty(t, dl.Prims)
		bg := lum(dl.Prims[0].Fill)
		assert.Equal(t, light, bg > 128, "light=%v: background %v", light, dl.Prims[0].Fill)
		for _, p := range dl.Prims[1:] {
			assert.Greater(t, math.Abs(lum(p.Fill)-bg), 100.0, "light=%v: %q on its background", light, p.Str)
		}
	}
}

// A wrong parameter is a notice, and the rest of the address plays.
func TestWrongParameterIsANotice(t *testing.T) {
	g, h := started(t, "?scenario=ecmp-collisions&speed=-5")
	ev := h.last("error")
	require.NotNil(t, ev)
	assert.Contains(t, ev["message"], `parameter speed="-5"`)
	assert.Equal(t, true, ev["notice"])
	for i := 0; i < 50 && h.last("loaded") == nil; i++ {
		require.NoError(t, g.Update())
	}
	require.NotNil(t, h.last("loaded"), "the rest of the address plays")
	assert.Equal(t, "ecmp-collisions", h.last("loaded")["name"])
	assert.Empty(t, g.failure)
}

// A load the page sent before the canvas was ready (a lesson's step) is the
// first run when the address names none: incast is not built first. An
// address that names a run plays it, and the load replaces it after; other
// commands sent before ready (a lesson's quiz, play) ask for no run.
func TestLoadSentBeforeReadyIsTheFirstRun(t *testing.T) {
	const load = `{"fabriclab":"load","scenario":"ecmp-collisions"}`
	for _, tc := range []struct {
		q      string
		sent   []string
		loaded []string
	}{
		{"?controls=1&lang=en", []string{`{"fabriclab":"quiz","pending":true}`, load}, []string{"ecmp-collisions"}},
		{"", []string{load}, []string{"ecmp-collisions"}},
		{"?scenario=incast&controls=1", []string{load}, []string{"incast", "ecmp-collisions"}},
		{"?controls=1", []string{`{"fabriclab":"quiz","pending":true}`, `{"fabriclab":"play"}`}, []string{"incast"}},
		// first=load: the page will send the first run; until it does, nothing is built
		{"?controls=1&first=load", []string{`{"fabriclab":"quiz","pending":true}`}, nil},
		{"?controls=1&first=load", []string{load}, []string{"ecmp-collisions"}},
	} {
		h := &pageHost{q: tc.q}
		for _, c := range tc.sent {
			h.send(c)
		}
		g, err := newGame(h)
		require.NoError(t, err)
		g.w, g.h = 800, 600
		require.NoError(t, g.Update())
		var loaded []string
		for _, ev := range h.events {
			if ev["fabriclab"] == "loaded" {
				loaded = append(loaded, ev["name"].(string))
			}
		}
		assert.Equal(t, tc.loaded, loaded, "%q %v", tc.q, tc.sent)
	}
	// A load that comes after ready, with first=load, is the first run all the same.
	h := &pageHost{q: "?controls=1&first=load"}
	g, err := newGame(h)
	require.NoError(t, err)
	g.w, g.h = 800, 600
	require.NoError(t, g.Update())
	require.Nil(t, g.p, "nothing built before the load")
	h.send(load)
	require.NoError(t, g.Update())
	var loaded []string
	for _, ev := range h.events {
		if ev["fabriclab"] == "loaded" {
			loaded = append(loaded, ev["name"].(string))
		}
	}
	assert.Equal(t, []string{"ecmp-collisions"}, loaded)
}
