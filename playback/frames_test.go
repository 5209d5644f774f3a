package playback

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	goldenfile "fabriclab/sim/golden"
	"fabriclab/sim/snap"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frameCases are the runs TestFramesAsRecorded plays: packet level with
// PFC and with DCQCN's notifications, ECMP routing, a flow-level
// collective and a training run.
var frameCases = []struct {
	name, scenario string
	sets           []string
	long           bool // skipped with -short
}{
	{"incast", "incast", nil, false},
	{"ecmp-collisions", "ecmp-collisions", nil, true},
	{"incast-dcqcn", "incast-dcqcn", []string{"traffic.bytes=4MiB"}, false},
	{"permutation", "permutation", nil, true},
	{"hierarchical-allreduce", "hierarchical-allreduce", nil, false},
	{"dp-llama3-8b", "dp-llama3-8b-1024", []string{"topology.nodes=2", "training.iterations=1"}, true},
}

// TestFramesAsRecorded plays each run from its recorded frames, as the
// canvas does (Seek to every frame's time, Frame, the charts' History, a
// walk of Steps), and checks what each shows against a digest per frame
// in testdata/frames/NAME.golden, written by the player that took a full
// snapshot per frame (go test ./playback -run TestFramesAsRecorded -update
// rewrites them: only for a change meant to move what the canvas plays).
func TestFramesAsRecorded(t *testing.T) {
	for _, c := range frameCases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long run: without -short")
			}
			p := newPlayer(t, c.scenario, c.sets...)
			computeAll(t, p)
			require.NoError(t, p.Err())
			goldenfile.Equal(t, filepath.Join("testdata", "frames", c.name+".golden"), playedFrames(p))
		})
	}
}

// playedFrames is one line per recorded frame (its index, time, step mark
// and a digest of the full snapshot Frame shows there, with the one before
// it and the times of the charts' history), then the stops of a walk of Steps.
func playedFrames(p *Player) []byte {
	var b bytes.Buffer
	n, dt := p.Frames()
	fmt.Fprintf(&b, "frames %d dt %v\n", n, dt)
	for i := range n {
		p.Seek(p.frames[i].Time)
		cur, prev := p.Frame()
		h := sha256.New()
		h.Write(frameDigest(cur))
		h.Write(frameDigest(prev))
		for _, s := range p.History(240) { // recorded frames (each digested at its own index), the last cur
			fmt.Fprint(h, s.Time, s.NumFlows(), s.NumLinks())
		}
		fmt.Fprintf(&b, "%d %d %d %t %x\n", i, cur.Time, p.marks[i].step, p.marks[i].changed, h.Sum(nil)[:8])
	}
	p.Reset()
	fmt.Fprint(&b, "steps")
	for k := 0; k < n && p.Pos() < p.End(); k++ {
		p.Step()
		fmt.Fprintf(&b, " %d", p.Pos())
	}
	b.WriteString("\n")
	return b.Bytes()
}

// frameDigest is a digest of all a snapshot shows, read as render reads a
// history frame (NumLinks, Link, NumFlows, Flow) and each flow's path at
// the snapshot's time.
func frameDigest(s *snap.Snapshot) []byte {
	var b []byte
	num := func(vs ...int64) {
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
	}
	flag := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	for i := range s.NumLinks() {
		l := s.Link(i)
		num(l.TxBytes, l.QueueBytes, l.BufferBytes, l.Drops, l.PauseFrames, flag(l.Paused), l.ECNMarks)
	}
	for i := range s.NumFlows() {
		f := s.Flow(i)
		num(int64(f.Src), int64(f.Dst), f.Bytes, f.Delivered, int64(f.Start), int64(f.Finish), flag(f.Done), flag(f.Started),
			int64(f.Tag), int64(f.Step), int64(math.Float64bits(f.RateGbps)))
	}
	for _, k := range s.Packets {
		num(int64(k.Link), int64(k.Flow), int64(math.Float64bits(k.Progress)), int64(k.Count), flag(k.Marked))
	}
	var routing any
	if g := s.Routing; g != nil {
		var paths [][]int32
		var names []string
		if g.Routes != nil {
			for f := range s.NumFlows() {
				paths = append(paths, g.Routes.AppendPath(nil, f, s.Time))
				names = append(names, g.Routes.Name(f))
			}
		}
		routing = []any{g.LinkFlows, g.Reordered, g.ReorderedTotal, paths, names}
	}
	var training any = s.Training
	if tr := s.Training; tr != nil && !s.Done { // its logs are shared and append-only: their lengths, and all of them at the end
		training = []any{len(tr.Tasks), len(tr.Comms), len(tr.Starts), len(tr.Steps), tr.Running}
	}
	j, err := json.Marshal([]any{int64(s.Time), s.Done, s.Controls, s.Activity, s.Marking, s.Collective, training, routing})
	if err != nil {
		panic(err)
	}
	h := sha256.Sum256(append(b, j...))
	return h[:]
}

// TestLookAheadKeepsTheFrames records the runs of TestFramesAsRecorded
// with a look-ahead that always ends (Recorder.LookAhead): it records
// fewer frames but plays the same, by the same goldens.
func TestLookAheadKeepsTheFrames(t *testing.T) {
	for _, c := range frameCases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long run: without -short")
			}
			p := newPlayer(t, c.scenario, c.sets...)
			p.LookAhead(time.Hour)
			computeAll(t, p)
			require.NoError(t, p.Err())
			require.Positive(t, p.rec.end, "the look-ahead ended")
			goldenfile.Equal(t, filepath.Join("testdata", "frames", c.name+".golden"), playedFrames(p))
		})
	}
}

// TestLookAheadAsideKeepsTheFrames records the runs of
// TestFramesAsRecorded with a look-ahead set aside that ends a third of the
// way through the recording (Recorder.LookAhead): the halvings its end
// calls for are made then, and the run plays the same, by the same goldens;
// progress goes on from where it was, to 1 at the end, and never back.
func TestLookAheadAsideKeepsTheFrames(t *testing.T) {
	for _, c := range frameCases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a long run: without -short")
			}
			whole := newPlayer(t, c.scenario, c.sets...)
			computeAll(t, whole)

			p := newPlayer(t, c.scenario, c.sets...)
			rec := p.rec
			p.LookAhead(time.Nanosecond)
			require.False(t, p.Compute(time.Hour))
			a := rec.ahead
			require.True(t, a != nil && a.aside, "set aside")
			rec.ahead = nil // recording alone for a third of the run, to an even number of frames (a halving drops the last)
			for rec.End() < whole.End()/3 || len(rec.frames)%2 == 1 {
				require.False(t, p.Compute(time.Millisecond), "not at the end yet")
			}
			before := p.Progress()
			rec.ahead = a
			rec.lookAhead(time.Hour) // on to its end
			require.Nil(t, rec.ahead, "it ended")
			if !rec.snapDue { // taken up as Compute does, after an even number of frames
				rec.endFound()
				require.GreaterOrEqual(t, rec.progressNow(), before, "from where progress was, after the halvings")
			}
			last, switched := before, false
			for i := 0; !p.Compute(time.Millisecond); i++ {
				if rec.end > 0 && !switched { // the halvings its end calls for, made at once
					switched = true
					assert.LessOrEqual(t, int64((rec.end+rec.dt-1)/rec.dt), int64(framesFor(rec.foundPicture)), "frames left to the end at spacing %v", rec.dt)
				}
				require.Less(t, i, 10000000, "the run ends")
				f := p.Progress()
				require.GreaterOrEqual(t, f, last, "never back")
				require.Less(t, f, 1.0)
				last = f
			}
			require.NoError(t, p.Err())
			require.Equal(t, whole.End(), rec.end, "the end it found")
			assert.Positive(t, rec.from.t, "taken up a third of the way")
			assert.GreaterOrEqual(t, rec.from.f, before, "from where progress was")
			assert.Equal(t, 1.0, p.Progress())
			goldenfile.Equal(t, filepath.Join("testdata", "frames", c.name+".golden"), playedFrames(p))
		})
	}
}
