package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/playback"
	"fabriclab/playback/framewire"
	"fabriclab/protocol"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/nccltests"
	"fabriclab/sim/nodefile"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
)

// page is the page's end of a worker: what it was sent, frames decoded.
type page struct {
	events []protocol.WorkerEvent
	frames []*snap.Snapshot // as played: halved when told
	rest   []byte           // beside the report: its flows and links
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
	case protocol.ResultRest:
		p.rest = frame
	default:
		require.Nil(p.t, frame, "%T has no frame beside it", e)
	}
}

func work(w *Worker) {
	for w.Work(10 * time.Millisecond) {
	}
}

// A run computed in the worker reaches the page as the in-process player
// records it: built, the same frames, the same report; the report's head
// goes in the slice that ends the run, its flows and links in the next.
func TestWorkerRecordsAsThePlayer(t *testing.T) {
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":7,"scenario":"incast"}`))
	headAlone := false
	for w.Work(10 * time.Millisecond) {
		if _, ok := pg.events[len(pg.events)-1].(protocol.RunResult); ok {
			headAlone = true
		}
	}
	assert.True(t, headAlone, "a slice ended with the report's head")

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
	require.Equal(t, protocol.ResultRest{RunID: 7, Bytes: len(pg.rest)}, last)
	head := pg.events[len(pg.events)-2]
	require.IsType(t, protocol.RunResult{}, head)
	var res simmetrics.Result
	require.NoError(t, json.Unmarshal([]byte(head.(protocol.RunResult).Result), &res))
	assert.Equal(t, p.Result().Totals, res.Totals)
	assert.Nil(t, res.Links, "the links come after the report's head")
	var rest struct {
		Flows []simmetrics.Flow
		Links []simmetrics.Link
	}
	require.NoError(t, json.Unmarshal(pg.rest, &rest))
	assert.Equal(t, p.Result().Flows, rest.Flows)
	assert.Equal(t, p.Result().Links, rest.Links)
	require.NotEmpty(t, rest.Links)
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

// ncclOutput is an all_reduce_perf output of 2 nodes × 8 H100 with a row
// per size at the busbw given (GB/s), as nccl-tests prints it.
func ncclOutput(busbw map[int64]float64) string {
	var b strings.Builder
	b.WriteString("# Collective test starting: all_reduce_perf\n# nThread 1 nGpus 1 minBytes 65536 maxBytes 1073741824 step: 4(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	for r := range 16 {
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6d on node-%d device %2d [0x%02x] NVIDIA H100 80GB HBM3\n", r, 4000+r, r/8, r%8, 0x18+r%8)
	}
	b.WriteString("#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n")
	sizes := slices.Sorted(maps.Keys(busbw))
	for _, size := range sizes {
		alg := busbw[size] / 1.875
		t := float64(size) / alg / 1e3
		fmt.Fprintf(&b, "%12d  %12d     float     sum      -1  %7.2f  %6.2f  %6.2f      0  %7.2f  %6.2f  %6.2f      0\n", size, size/4, t, alg, busbw[size], t, alg, busbw[size])
	}
	b.WriteString("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 100\n#\n")
	return b.String()
}

// explain in the worker gives what fabriclab explain prints for the same
// text: here a run at half the expected busbw from 64 MiB gets the NICs'
// finding, and the curves part most at the largest size.
func TestWorkerExplain(t *testing.T) {
	text := ncclOutput(map[int64]float64{64 << 10: 3.5, 64 << 20: 220, 256 << 20: 227, 1 << 30: 229})
	cmd, err := protocol.EncodeWorkerCommand(protocol.Explain{ID: 5, Text: text})
	require.NoError(t, err)
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	w.Handle(cmd)
	require.Len(t, pg.events, 1)
	got, ok := pg.events[0].(protocol.Explained)
	require.True(t, ok, "%#v", pg.events[0])
	require.Empty(t, got.Error)
	assert.Equal(t, 5, got.ID)

	o, s, err := nccltests.Read([]byte(text), nccltests.Options{})
	require.NoError(t, err)
	rep, err := nccltests.Compare(o, s)
	require.NoError(t, err)
	require.Len(t, got.Rows, 4)
	for i, l := range rep.Lines {
		r := got.Rows[i]
		assert.Equal(t, int64(l.Size), r.Bytes)
		assert.Equal(t, l.Expected.BusBw, r.ExpectedBusBw, "at %d", r.Bytes)
		assert.Equal(t, l.Measured.BusBw, r.MeasuredBusBw, "at %d", r.Bytes)
		assert.Equal(t, rep.Pick(l), r.Algo+"/"+r.Proto, "at %d", r.Bytes)
	}
	assert.InDelta(t, 0.5, got.Rows[3].Ratio, 0.05, "the sample is at half the expected busbw")
	assert.Equal(t, []int64{64 << 10, 64 << 20, 256 << 20, 1 << 30}, []int64{got.Rows[0].Bytes, got.Rows[1].Bytes, got.Rows[2].Bytes, got.Rows[3].Bytes})
	assert.Equal(t, rep.Header(o), got.Header)
	assert.Contains(t, got.Header[0], "all_reduce_perf, 16 ranks on 2 host(s) × 8 NVIDIA H100 80GB HBM3")
	kinds := map[string]string{}
	for _, f := range got.Findings {
		kinds[f.Kind] = f.Text
	}
	require.Contains(t, kinds, "nics", "%v", got.Findings)
	assert.Contains(t, kinds["nics"], "as if 4 of the 8 NICs of each node carried the traffic")
	assert.Contains(t, got.YAML, "kind: dgx\n  nodes: 2\n  gpus_per_node: 8\n")
	assert.Greater(t, got.PartBytes, int64(64<<10), "the curves part where bandwidth decides, not at 64 KiB")
}

// A wrong or cut output comes back as the command's error, naming the
// line; options out of range name the flag the command would take.
func TestWorkerExplainErrors(t *testing.T) {
	text := ncclOutput(map[int64]float64{64 << 10: 3.5, 1 << 30: 229})
	cut := text[:strings.Index(text, "  1073741824 ")+40]
	for _, c := range []struct {
		cmd  protocol.Explain
		want string
	}{
		{protocol.Explain{ID: 1, Text: cut}, "line 25: a result row of 3 columns"},
		{protocol.Explain{ID: 2, Text: text, Fabric: "ethernet"}, `--fabric "ethernet": want ib or roce`},
		{protocol.Explain{ID: 3, Text: text, NICGbps: 1e6}, "--nic-gbps 1e+06"},
		{protocol.Explain{ID: 4, Text: "hello\n"}, "no result rows in 1 lines: paste the whole output"},
	} {
		pg := &page{t: t}
		w := &Worker{post: pg.post}
		data, err := protocol.EncodeWorkerCommand(c.cmd)
		require.NoError(t, err)
		w.Handle(data)
		require.Len(t, pg.events, 1)
		got := pg.events[0].(protocol.Explained)
		assert.Equal(t, c.cmd.ID, got.ID)
		assert.Contains(t, got.Error, c.want)
		assert.Empty(t, got.Rows)
		// the CLI's message for the same text
		_, _, err = nccltests.Read([]byte(c.cmd.Text), nccltests.Options{Fabric: c.cmd.Fabric, NICGbps: c.cmd.NICGbps})
		require.Error(t, err)
		assert.Equal(t, err.Error(), got.Error)
	}
}

// explain with a topology takes the user's node as fabriclab explain --topo
// does: the same header and expected column, the node said in parts the
// page words in its language, and the canvas's scenario writes the keys
// the file gave (the browser has no file for topology.from).
func TestWorkerExplainTopo(t *testing.T) {
	text := ncclOutput(map[int64]float64{64 << 10: 3.5, 64 << 20: 220, 1 << 30: 229})
	topo, err := os.ReadFile(filepath.Join("..", "..", "sim", "nodefile", "testdata", "h100-shared-nic.xml"))
	require.NoError(t, err)
	pg := &page{t: t}
	w := &Worker{post: pg.post}
	cmd, err := protocol.EncodeWorkerCommand(protocol.Explain{ID: 7, Text: text, Topo: string(topo)})
	require.NoError(t, err)
	w.Handle(cmd)
	require.Len(t, pg.events, 1)
	got := pg.events[0].(protocol.Explained)
	require.Empty(t, got.Error)

	o, s, err := nccltests.Read([]byte(text), nccltests.Options{})
	require.NoError(t, err)
	n, err := nodefile.Parse(topo)
	require.NoError(t, err)
	require.NoError(t, s.UseNode(n, 0))
	rep, err := nccltests.Compare(o, s)
	require.NoError(t, err)
	assert.Equal(t, rep.Header(o), got.Header)
	assert.Contains(t, got.Header[1], "node: NCCL topology (XML): 8 × H100")
	require.Len(t, got.Rows, len(rep.Lines))
	for i, l := range rep.Lines {
		assert.Equal(t, l.Expected.BusBw, got.Rows[i].ExpectedBusBw, "at %d", l.Size)
	}
	assert.Equal(t, &protocol.ExplainedNode{Format: "NCCL topology (XML)", GPUs: 8, GPU: "h100", NICs: 4, NICGbps: 400, RateGbps: 400, Path: "PIX", GDR: true}, got.Node)
	assert.Contains(t, got.YAML, "  gpus_per_node: 8\n  nics_per_node: 4\n  gpu: h100\n")
	assert.Contains(t, got.YAML, "  link_gbps: 400\n")
	assert.NotContains(t, got.YAML, "from:")
	_, err = scenario.Parse([]byte(got.YAML), "explain")
	require.NoError(t, err, "the canvas's scenario loads without a file system")

	// Without the topology, a NIC per GPU: the two expected columns differ.
	plain := explain(protocol.Explain{ID: 8, Text: text})
	assert.Nil(t, plain.Node)
	assert.NotContains(t, plain.YAML, "nics_per_node")
	assert.NotEqual(t, plain.Rows[len(plain.Rows)-1].ExpectedBusBw, got.Rows[len(got.Rows)-1].ExpectedBusBw, "4 shared NICs move less than 8")

	// nvidia-smi's matrix names no speed: 0, and the output's 400 Gb/s.
	smi, err := os.ReadFile(filepath.Join("..", "..", "sim", "nodefile", "testdata", "h100-hgx.txt"))
	require.NoError(t, err)
	got = explain(protocol.Explain{ID: 9, Text: text, Topo: string(smi)})
	require.Empty(t, got.Error)
	require.NotNil(t, got.Node)
	assert.Equal(t, "nvidia-smi topo -m", got.Node.Format)
	assert.Zero(t, got.Node.NICGbps)
	assert.Equal(t, 400.0, got.Node.RateGbps, "the default")
	assert.Contains(t, got.YAML, "  link_gbps: 400\n")
}

// A wrong topology is the command's error about the topology, naming the
// line, as fabriclab explain --topo gives it; the output's errors come
// first.
func TestWorkerExplainTopoErrors(t *testing.T) {
	text := ncclOutput(map[int64]float64{64 << 10: 3.5, 1 << 30: 229})
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", "sim", "nodefile", "testdata", name))
		require.NoError(t, err)
		return string(data)
	}
	smi := read("h100-hgx.txt")
	lines := strings.Split(smi, "\n")
	lines[3] = strings.Replace(lines[3], "NV18", "NV99", 1)
	for _, c := range []struct {
		cmd      protocol.Explain
		in, want string
	}{
		{protocol.Explain{ID: 1, Text: text, Topo: read("a100-dgx.txt")}, "topo", "your topology: the output's GPUs are NVIDIA H100 80GB HBM3 and the topology file's A100"},
		{protocol.Explain{ID: 2, Text: text, Topo: "<system version=\"1\">\n  <cpu>\n"}, "topo", "your topology: line "},
		{protocol.Explain{ID: 3, Text: text, Topo: strings.Join(lines, "\n")}, "topo", "your topology: line 4"},
		{protocol.Explain{ID: 4, Text: "hello\n", Topo: "x"}, "text", "no result rows in 1 lines"},
	} {
		got := explain(c.cmd)
		assert.Equal(t, c.cmd.ID, got.ID)
		assert.Contains(t, got.Error, c.want)
		assert.Equal(t, c.in, got.ErrorIn, c.want)
		assert.Empty(t, got.Rows)
		assert.Nil(t, got.Node)
	}
}

// FuzzWorkerExplainTopo: whatever topology text comes with an output, the
// worker answers the explain with its id, an error or a node, and no panic.
func FuzzWorkerExplainTopo(f *testing.F) {
	for _, name := range []string{"h100-shared-nic.xml", "sys-nic.txt", "a100-dgx.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "sim", "nodefile", "testdata", name))
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Add("\tGPU0\tGPU1\nGPU0\t X \tNV18\n")
	text := ncclOutput(map[int64]float64{1 << 30: 229})
	f.Fuzz(func(t *testing.T, topo string) {
		got := explain(protocol.Explain{ID: 3, Text: text, Topo: topo})
		assert.Equal(t, 3, got.ID)
		assert.True(t, (got.Error == "") == (got.Node != nil || strings.TrimSpace(topo) == ""), "%q: error %q", topo, got.Error)
		if got.Error != "" {
			assert.Equal(t, "topo", got.ErrorIn)
		}
	})
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
	require.IsType(t, protocol.ResultRest{}, pg.events[len(pg.events)-1], "none after the run is over")
	require.IsType(t, protocol.RunResult{}, pg.events[len(pg.events)-2])

	pg = &page{t: t}
	w = &Worker{post: pg.post, every: time.Hour}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":6,"scenario":"incast","set":["traffic.bytes=16MiB"]}`))
	work(w)
	n, _ = count(pg.events)
	assert.Zero(t, n, "frames came often enough: no computing event")
}

// An early run (the page's early message, before the canvas has started)
// posts nothing until a begin asks for the same run; then every message it
// kept goes under that begin's run_id, and the page gets what a begin alone
// would have sent: the same frames, the same report. A begin for another
// run drops it unseen; an early message after a begin, or one that names
// no run yet (first=load without its load), begins nothing.
func TestWorkerEarlyRun(t *testing.T) {
	const step = `{"scenario":"incast","set":["traffic.senders=4"],"step":"lossy","figures":["totals.drops | count"]}`
	alone := &page{t: t}
	w := &Worker{post: alone.post}
	w.Handle([]byte(`{"fabriclab":"begin","run_id":1,"scenario":"incast","set":["traffic.senders=4"],"heap_limit_mib":1024,"lang":"zh"}`))
	work(w)

	early := &page{t: t}
	w = &Worker{post: early.post}
	w.Handle([]byte(`{"fabriclab":"early","query":"?controls=1&lang=zh&first=load","load":` + step + `}`))
	for w.Work(10 * time.Millisecond) { // it stops once built
	}
	assert.Zero(t, len(early.events), "nothing posted before the begin")
	require.Len(t, w.run.held, 2, "it builds and records its first frame, then waits")
	assert.IsType(t, protocol.Begun{}, w.run.held[0].e)
	assert.IsType(t, protocol.Recorded{}, w.run.held[1].e)
	w.Handle([]byte(`{"fabriclab":"begin","run_id":1,"scenario":"incast","set":["traffic.senders=4"],"heap_limit_mib":1024,"lang":"zh"}`))
	require.NotEmpty(t, early.events, "what it kept, posted")
	work(w)
	require.IsType(t, protocol.Begun{}, early.events[0])
	assert.True(t, early.events[0].(protocol.Begun).Early, "begun says it was early")
	begun := early.events[0].(protocol.Begun)
	begun.Early = false
	assert.Equal(t, alone.events[0], begun)
	var got, want []protocol.WorkerEvent
	for _, e := range early.events[1:] {
		if _, ok := e.(protocol.Computing); !ok {
			got = append(got, e)
		}
	}
	for _, e := range alone.events[1:] {
		if _, ok := e.(protocol.Computing); !ok {
			want = append(want, e)
		}
	}
	require.Equal(t, len(want), len(got), "the same messages")
	for i := range want {
		w, g := want[i], got[i]
		if r, ok := w.(protocol.Recorded); ok { // its progress and time left are the wall clock's
			gr := g.(protocol.Recorded)
			r.Progress, r.EtaS, gr.Progress, gr.EtaS = 0, 0, 0, 0
			w, g = r, gr
		}
		assert.Equal(t, w, g, "message %d", i)
	}
	require.Equal(t, len(alone.frames), len(early.frames))
	for i := range alone.frames {
		require.Equal(t, alone.frames[i].Full(), early.frames[i].Full(), "frame %d", i)
	}

	// Another run's begin drops the early one: nothing of it is posted.
	other := &page{t: t}
	w = &Worker{post: other.post}
	w.Handle([]byte(`{"fabriclab":"early","query":"?controls=1&lang=en&first=load","load":` + step + `}`))
	w.Work(10 * time.Millisecond)
	w.Handle([]byte(`{"fabriclab":"begin","run_id":1,"scenario":"ecmp-collisions","lang":"en"}`))
	work(w)
	require.NotEmpty(t, other.events)
	for _, e := range other.events {
		if b, ok := e.(protocol.Begun); ok {
			assert.Equal(t, "ecmp-collisions", b.Name)
			assert.False(t, b.Early)
		}
	}

	// A comparison's right side, in its own worker: the canvas's begin for
	// that side takes it over.
	right := &page{t: t}
	w = &Worker{post: right.post}
	w.Handle([]byte(`{"fabriclab":"early","query":"?compare=1&left=incast&right=ecmp-collisions&lang=zh","side":"right"}`))
	for w.Work(10 * time.Millisecond) {
	}
	require.NotNil(t, w.run)
	assert.Zero(t, len(right.events), "nothing posted before the begin")
	require.NotEmpty(t, w.run.held)
	assert.Equal(t, "ecmp-collisions", w.run.held[0].e.(protocol.Begun).Name)
	w.Handle([]byte(`{"fabriclab":"begin","run_id":3,"scenario":"ecmp-collisions","side":"right","heap_limit_mib":1024,"lang":"zh"}`))
	require.NotEmpty(t, right.events)
	b := right.events[0].(protocol.Begun)
	assert.True(t, b.Early, "taken over")
	assert.Equal(t, 3, b.RunID)

	// Too late, no run named yet, or no side of a comparison: nothing begins.
	for _, msgs := range [][]string{
		{`{"fabriclab":"begin","run_id":1,"scenario":"incast"}`, `{"fabriclab":"cancel","run_id":1}`, `{"fabriclab":"early","query":"?scenario=incast"}`},
		{`{"fabriclab":"early","query":"?controls=1&first=load"}`},
		{`{"fabriclab":"early","query":"?compare=1&left=incast&right=incast"}`},
		{`{"fabriclab":"early","query":"?scenario=incast","side":"left"}`},
	} {
		w = &Worker{post: (&page{t: t}).post}
		for _, m := range msgs {
			w.Handle([]byte(m))
		}
		assert.False(t, w.Work(time.Millisecond), "nothing to compute after %v", msgs)
	}
}
