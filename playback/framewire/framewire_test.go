package framewire_test

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/playback/framewire"
	"fabriclab/sim"
	goldenfile "fabriclab/sim/golden"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// recordFrames runs a built-in to its end and records its frames as the
// player does (compact, each against the one before): four between
// each doubling of the time, from 1 µs.
func recordFrames(t testing.TB, name string, sets ...string) []*snap.Snapshot {
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	frames := []*snap.Snapshot{st.Record(nil)}
	for from := unit.Microsecond; ; from *= 2 {
		for k := unit.Time(1); k <= 4; k++ {
			more := st.Model.Advance(from + from*k/4)
			s := st.Record(frames[len(frames)-1])
			s.Done = !more
			frames = append(frames, s)
			if !more {
				return frames
			}
		}
	}
}

// Every built-in's frames come back from the wire as they were: equal
// (floats bit for bit), compact with the same chunks shared, their routes
// answering as the run's.
func TestRoundTrip(t *testing.T) {
	for _, b := range scenario.Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			var sets []string
			switch {
			case b.Name == "perm-1024" && testing.Short():
				sets = []string{"topology.k=8"}
			case b.Name == "dp-llama3-8b-1024" && testing.Short():
				sets = []string{"topology.nodes=2", "training.iterations=1"}
			}
			frames := recordFrames(t, b.Name, sets...)
			var enc framewire.Encoder
			var dec framewire.Decoder
			var got []*snap.Snapshot
			bytes := 0
			for i, s := range frames {
				buf := enc.Encode(nil, s)
				bytes += len(buf)
				d, err := dec.Decode(buf)
				require.NoError(t, err, "frame %d", i)
				require.Equal(t, plain(s), plain(d), "frame %d at %v", i, s.Time)
				if i > 0 {
					assert.Equal(t, shared(frames[i-1], s), shared(got[i-1], d), "frame %d: the chunks it shares with the one before", i)
				}
				got = append(got, d)
			}
			for i, s := range frames { // the routes, once the run is over, for every frame
				sameRoutes(t, s, got[i])
			}
			t.Logf("%d frames, %d bytes, %.1f KiB a frame", len(frames), bytes, float64(bytes)/1024/float64(len(frames)))
		})
	}
}

// plain is s full, without its routes (sameRoutes compares those), for
// comparing frames whatever their form.
func plain(s *snap.Snapshot) snap.Snapshot {
	c := *s.Full()
	c.LinkChunks, c.FlowChunks, c.LinkCount, c.FlowCount = nil, nil, 0, 0
	if len(c.Links) == 0 {
		c.Links = nil
	}
	if len(c.Flows) == 0 {
		c.Flows = nil
	}
	if c.Routing != nil {
		g := *c.Routing
		g.Routes = nil
		c.Routing = &g
	}
	return c
}

// shared lists, by chunk, whether b's links and flows share a's.
func shared(a, b *snap.Snapshot) [][]bool {
	same := func(x, y int, p, q bool) bool { return p && q && x == y }
	var out [][]bool
	var links, flows []bool
	for k := range b.LinkChunks {
		links = append(links, k < len(a.LinkChunks) && same(len(a.LinkChunks[k]), len(b.LinkChunks[k]), true, &a.LinkChunks[k][0] == &b.LinkChunks[k][0]))
	}
	for k := range b.FlowChunks {
		flows = append(flows, k < len(a.FlowChunks) && same(len(a.FlowChunks[k]), len(b.FlowChunks[k]), true, &a.FlowChunks[k][0] == &b.FlowChunks[k][0]))
	}
	return append(out, links, flows)
}

// sameRoutes checks that frame d's routes answer as s's.
func sameRoutes(t *testing.T, s, d *snap.Snapshot) {
	t.Helper()
	if s.Routing == nil || s.Routing.Routes == nil {
		return
	}
	live, data := s.Routing.Routes, d.Routing.Routes
	require.NotNil(t, data)
	require.Equal(t, [3]bool{live.PerPacket, live.Tracked(), live.Truncated}, [3]bool{data.PerPacket, data.Tracked(), data.Truncated})
	require.Equal(t, live.MTU, data.MTU)
	require.Equal(t, live.Names, data.Names)
	for f := range s.NumFlows() {
		if !assert.Equal(t, live.AppendPath(nil, f, s.Time), data.AppendPath(nil, f, s.Time), "flow %d at %v", f, s.Time) ||
			!assert.Equal(t, s.Reordered(f), d.Reordered(f), "flow %d at %v", f, s.Time) {
			return
		}
	}
}

// small are two frames of a made-up run with a bit of everything.
func small() []*snap.Snapshot {
	routes := snap.NewRoutes(false, 4096, 3, false, func(f int) []int32 { return []int32{int32(f), 2} })
	routes.Names = []string{"victim", ""}
	tr := &snap.Training{Model: "gpt", Ranks: 2, Sharding: "none", TP: 1, PP: 1, Iterations: 2, Compute: 5 * unit.Microsecond,
		Rows:  []snap.TrainRow{{First: 0, Count: 2, Node: 0}},
		Tasks: []snap.Task{{Start: 0, End: 3, Phase: snap.Forward, Group: -1}, {Start: 3, End: 5, Phase: snap.Backward, Waited: "waiting for gradients"}},
		Comms: []snap.Comm{{Label: "all-reduce bucket 0", Kind: "allreduce", Group: 0, Bytes: 1 << 20, Start: 4, Ends: []unit.Time{9}}}}
	first := &snap.Snapshot{
		Time:     unit.Microsecond,
		Links:    []snap.Link{{TxBytes: 4096, QueueBytes: 1024, BufferBytes: 1 << 20}, {Paused: true, PauseFrames: 3}, {ECNMarks: 7, Drops: 1}},
		Flows:    []snap.Flow{{Src: 0, Dst: 1, Bytes: 1 << 20, Delivered: 4096, Started: true, Tag: -1, Step: -1, RateGbps: 12.5}, {Src: 1, Dst: 0, Bytes: 9, Tag: 3, Step: 0}},
		Packets:  []snap.Packet{{Link: 0, Flow: 0, Progress: 0.25, Count: 2, Marked: true}},
		Controls: []snap.Control{{Flow: 0, Kind: "cnp", Progress: 0.5}},
		Activity: []snap.Activity{snap.Communicating, snap.Computing},
		Marking:  snap.Marking{ECNKmin: 5000, ECNKmax: 200000},
		Routing:  &snap.Routing{Routes: routes, LinkFlows: []int32{1, 0, 1}, Reordered: []snap.FlowCount{{Flow: 0, N: 2}}, ReorderedTotal: 2},
		Collective: &snap.Collective{Op: "allreduce", Algo: "ring", Ranks: 2, Phase: "reduce-scatter", PhaseNames: []string{"reduce-scatter", "all-gather"},
			Sends: []snap.Send{{Src: 0, Dst: 1, Net: true}}, Routes: []snap.Send{{Src: 0, Dst: 1, Net: true}, {Src: 1, Dst: 0, Lane: 0, Net: true}}, Rows: 2, Cols: 2, Cells: []uint8{255, 0, 0, 255}, Spans: []snap.Span{{First: 1, Last: 2, Done: 0.5}}, Bytes: 1 << 20, Done: 0.25},
		Training:  tr,
		Inference: &snap.Inference{Arrived: 3, Requests: 8, Decoding: 1, Tokens: 40, TTFTP50: 812.5, KVBytes: 256 << 20},
	}
	first = first.Compact(nil)
	second := *first
	second.Time, second.Done = 2*unit.Microsecond, true
	second.Flows = append(first.Full().Flows, snap.Flow{Src: 1, Dst: 1, Started: true})
	second.Links = first.Full().Links // as they were: Compact shares their chunk
	second.LinkChunks, second.FlowChunks, second.LinkCount, second.FlowCount = nil, nil, 0, 0
	t2 := *tr
	t2.Starts = []unit.Time{0, 6}
	t2.SaveStarts = []unit.Time{5} // a checkpoint under way
	second.Training = &t2
	routes.Reroute(0, []int32{1, 2}, 2*unit.Microsecond) // flow 0 moves off link 0 at the second frame
	return []*snap.Snapshot{first, second.Compact(first)}
}

// The wire form of two small frames, in testdata/frames-v4.golden (go test
// -update rewrites it: only for a change of the format, with Version).
func TestGolden(t *testing.T) {
	var enc framewire.Encoder
	var out []byte
	for i, s := range small() {
		b := enc.Encode(nil, s)
		out = append(out, []byte(hex.Dump(b))...)
		if i == 0 {
			out = append(out, '\n')
		}
	}
	goldenfile.Equal(t, filepath.Join("testdata", "frames-v4.golden"), out)
}

func TestSmallRoundTrip(t *testing.T) {
	var enc framewire.Encoder
	var dec framewire.Decoder
	for i, s := range small() {
		d, err := dec.Decode(enc.Encode(nil, s))
		require.NoError(t, err, "frame %d", i)
		assert.Equal(t, plain(s), plain(d), "frame %d", i)
		sameRoutes(t, s, d)
	}
}

// A frame of another version, out of order, cut short or with bytes left
// over is an error that says what and where; the decoder is as before.
func TestDecodeErrors(t *testing.T) {
	frames := small()
	var enc framewire.Encoder
	first, second := enc.Encode(nil, frames[0]), enc.Encode(nil, frames[1])

	other := append([]byte(nil), first...)
	other[3] = framewire.Version + 1
	_, err := new(framewire.Decoder).Decode(other)
	require.Error(t, err)
	assert.True(t, errors.Is(err, framewire.ErrVersion))
	assert.Contains(t, err.Error(), "reload the page")
	old := append([]byte(nil), first...)
	old[3] = 2 // before reroutes were sent
	_, err = new(framewire.Decoder).Decode(old)
	assert.ErrorIs(t, err, framewire.ErrVersion)
	assert.ErrorContains(t, err, "a frame of version 2, this build reads 4")

	_, err = new(framewire.Decoder).Decode(second)
	assert.ErrorContains(t, err, "frame 1 came where frame 0 was due")

	_, err = new(framewire.Decoder).Decode(first[:len(first)-3])
	assert.ErrorContains(t, err, "section inference at byte")

	_, err = new(framewire.Decoder).Decode(append(first, 0))
	assert.ErrorContains(t, err, "1 bytes left over")

	_, err = new(framewire.Decoder).Decode([]byte("hello"))
	assert.ErrorContains(t, err, "not a frame")

	var dec framewire.Decoder
	_, err = dec.Decode(first[:20])
	require.Error(t, err)
	_, err = dec.Decode(first)
	require.NoError(t, err, "a failed frame leaves the decoder as it was")
	d, err := dec.Decode(second)
	require.NoError(t, err)
	assert.Equal(t, plain(frames[1]), plain(d))
}

// FuzzDecodeFrame: no input makes Decode panic, as the first frame of a
// run or after one; an error names the package and says what to do.
func FuzzDecodeFrame(f *testing.F) {
	frames := small()
	var enc framewire.Encoder
	first := enc.Encode(nil, frames[0])
	f.Add(first)
	f.Add(enc.Encode(nil, frames[1]))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := new(framewire.Decoder).Decode(b)
		if err != nil {
			assert.Contains(t, err.Error(), "framewire:")
		}
		var dec framewire.Decoder
		_, err = dec.Decode(first)
		require.NoError(t, err)
		_, _ = dec.Decode(b)
	})
}
