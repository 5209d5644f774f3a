package playback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/playback/framewire"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// wire is a worker's end of a remote player: it sends what its recorder
// records through framewire, as cmd/worker does, to the player.
type wire struct {
	t     *testing.T
	sc    scenario.Scenario
	enc   framewire.Encoder
	dec   framewire.Decoder
	p     *Player
	first *snap.Snapshot
	sent  int // frames sent
}

func (w *wire) Frame(s *snap.Snapshot) {
	w.sent++
	got, err := w.dec.Decode(w.enc.Encode(nil, s))
	require.NoError(w.t, err)
	if w.p == nil {
		w.first = got
		return
	}
	w.p.Append(got)
}
func (w *wire) Halve()                      { w.p.Halve() }
func (w *wire) Finish(r *simmetrics.Result) { w.p.Finish(r) }
func (w *wire) Fail(err error)              { w.p.Fail(err) }

// remote is a recorder of name and the remote player it feeds.
func remote(t *testing.T, name string, sets ...string) (*Recorder, *Player) {
	rec, w := remoteWire(t, name, sets...)
	return rec, w.p
}

// remoteWire is remote, with the wire between them.
func remoteWire(t *testing.T, name string, sets ...string) (*Recorder, *wire) {
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	b, err := Begin(sc)
	require.NoError(t, err)
	for !b.Build(time.Hour) {
	}
	w := &wire{t: t, sc: sc}
	rec, err := b.Recorder(w)
	require.NoError(t, err)
	w.p = NewRemote(sc, plan.Topology(&sc), w.first)
	return rec, w
}

// A remote player plays what a player in this process plays: the same
// frames, the same stops, the same fabric; a Seek past what has come waits
// for it.
func TestRemotePlaysAsLocal(t *testing.T) {
	rec, p := remote(t, "incast")
	local := newPlayer(t, "incast")
	assert.Equal(t, local.Topology(), p.Topology(), "the fabric laid out is the one computed")
	assert.Equal(t, -1.0, p.Progress(), "unknown until the recorder says")

	p.Seek(20 * unit.Microsecond)
	_, waiting := p.Seeking()
	require.True(t, waiting, "nothing past the first frame has come")
	for !rec.Compute(time.Millisecond) {
		p.SetProgress(rec.Progress(), rec.ETA())
	}
	computeAll(t, local)
	_, waiting = p.Seeking()
	assert.False(t, waiting, "taken once the frames came")
	assert.Equal(t, 1.0, p.Progress())
	assert.Equal(t, 0.0, p.ETA())
	require.True(t, p.Done())
	n, dt := local.Frames()
	m, dt2 := p.Frames()
	require.Equal(t, n, m)
	assert.Equal(t, dt, dt2)
	assert.Equal(t, local.FrameBytes(), p.FrameBytes())
	assert.Equal(t, local.Result().Totals, p.Result().Totals)
	p.Reset()
	local.Reset()
	for i := 0; i < 40; i++ {
		local.Step()
		p.Step()
		require.Equal(t, local.Pos(), p.Pos(), "step %d", i)
		want, got := *local.At(local.Pos()), *p.At(p.Pos())
		want.Routing, got.Routing = nil, nil
		require.Equal(t, want, got)
	}
}

// A remote player's error is its Err.
func TestRemoteFails(t *testing.T) {
	_, p := remote(t, "incast")
	assert.False(t, p.Compute(time.Millisecond), "a remote player computes nothing itself")
	p.Fail(assert.AnError)
	assert.Equal(t, assert.AnError, p.Err())
	assert.True(t, p.Compute(time.Millisecond))
}

// The canvas lays out, for every built-in, the fabric the run computes on.
func TestTopologyIsTheRunsForEveryBuiltin(t *testing.T) {
	for _, b := range scenario.Builtins() {
		sc, err := scenario.Load(b.Name, nil, nil)
		require.NoError(t, err)
		if FitsBrowser(&sc) != nil {
			continue
		}
		p, err := plan.Resolve(&sc)
		require.NoError(t, err, b.Name)
		assert.Equal(t, p.Topology, plan.Topology(&sc), b.Name)
	}
}
