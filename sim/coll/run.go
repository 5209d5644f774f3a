package coll

import (
	"fmt"
	"math"
	"slices"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

// Options say how a schedule is run.
type Options struct {
	Bytes    unit.Bytes // the message: nccl-tests' S (for all-to-all, count · n · size)
	Channels int        // parallel copies of the schedule, each with Bytes/Channels
	Chunk    unit.Bytes // pipeline piece: a channel's buffer is cut into pieces of at most this
	Alpha    unit.Time  // software latency before each step a rank takes
	// Latency, when not zero, is NCCL's latency model in place of Alpha and
	// the fabric's path latency: see Latency.
	Latency Latency
	// Protocol names NCCL's protocol in the result; Wire is the bytes it
	// puts on the wire per byte of payload (WireFactor), 0 or 1 for Simple.
	Protocol string
	Wire     float64
	// Floor is the least time the run takes: it finishes at start+Floor if
	// its transfers are done sooner (nccl-tests' per-call floor).
	Floor unit.Time
	// Streamed runs each phase as one long transfer per (src, dst) pair carrying
	// all its steps' bytes, with the phase's step latencies added up front: the
	// steady state of a pipelined schedule, and what keeps 16,384-GPU runs cheap.
	Streamed bool
	// Track keeps a Progress of the run for a viewer (sim.Started.Snapshot).
	Track bool
}

// Latency is NCCL's latency model (tuning.cc, ncclTopoTuneModel): Base
// once per collective, then every step a rank takes costs NVLink inside a
// node or Net when it crosses the network. NCCL's figures include the wire,
// so a step pays the larger of its figure and the fabric's own latency.
type Latency struct{ Base, NVLink, Net unit.Time }

// NCCLLatency is NCCL's latency for algo with proto on p, from tuning.cc's
// ncclTunerConstantsDefaults (baseLatencies, hwLatencies for NVLINK and NET;
// see tuning.go). Ring (and what NCCL runs as rings here: hierarchical,
// Rabenseifner), Simple: 8.4 µs, 3.4 µs per NVLink step, 14 µs per network
// step; LL: 6.6, 0.6, 2.7; LL128: 14, 1.9, 4.0. Tree, Simple: 8.4, 4.0, 14.
// NVLS (innetwork on NVSwitch): 25 µs once per collective, as
// tuning.cc:424–425 charges hwLat[NVLINK][NVLS] in place of the base and
// per-step figures (a latency per pipeline piece would cost a 1 GiB run 32
// × 25 µs). NVLSTree: 0, 25, 20.9. Algorithms other than ring and tree run
// Simple.
func NCCLLatency(algo, proto string, p Params) Latency {
	const ns = unit.Nanosecond
	pr := protoIndex(proto)
	switch algo {
	case Tree:
		return Latency{Base: micros(baseLat[tTree][pr]), NVLink: micros(hwLat[hwNVLink][tTree][pr]), Net: micros(hwLat[hwNet][tTree][pr])}
	case Ring:
		return ringLatency(pr, shapeOf(p))
	case InNetwork:
		return Latency{Base: 25000*ns + NVLSRoundLatency(p)}
	case NVLSTree:
		// tuning.cc: intraLat + 2·log2(nodes)·interLat, 25 and 20.9 µs.
		// The schedule's two NVLS phases share the 25 µs; its phases across
		// nodes count log2(nodes) network steps each (nvlsTree).
		return Latency{NVLink: 12500 * ns, Net: 20900 * ns}
	}
	return Latency{Base: 8400 * ns, NVLink: 3400 * ns, Net: 14000 * ns}
}

// NVLSRoundLatency is what the rounds of NVLS chunks cost an all-reduce of
// p.Bytes on one node's NVSwitch: 16 channels × 8 heads = 128 chunks run at
// once on 8 H100s (16 per GPU), each round 7.04 µs, with NCCL's NVLS chunk of
// 16, 32, 64 or 128 KiB below 8 MiB, 64 MiB, 1 GiB and from 1 GiB
// (enqueue.cc:2258–2275). A fit to ../shared/nccl-outputs/10 (memo §7.4),
// with nvlsRunRatio: it makes the step at 1 GiB where the chunk doubles.
func NVLSRoundLatency(p Params) unit.Time {
	if !p.NVSwitch || p.GPUsPerNode < 2 || p.Bytes <= 0 {
		return 0
	}
	chunk := int64(128 << 10)
	switch {
	case p.Bytes < 8<<20:
		chunk = 16 << 10
	case p.Bytes < 64<<20:
		chunk = 32 << 10
	case p.Bytes < 1<<30:
		chunk = 64 << 10
	}
	rounds := ceilDiv(p.Bytes, 16*int64(p.Ranks)*chunk)
	return unit.Time(rounds) * 7040 * unit.Nanosecond
}

// BusFactor is busbw/algbw for op on n ranks (nccl-tests doc/PERFORMANCE.md).
func BusFactor(op string, n int) float64 {
	switch op {
	case AllReduce:
		return 2 * float64(n-1) / float64(n)
	case ReduceScatter, AllGather, AllToAll:
		return float64(n-1) / float64(n)
	}
	return 1
}

// Bandwidths returns algbw = S/t and busbw in GB/s (1 GB = 1e9 bytes).
func Bandwidths(op string, n int, s unit.Bytes, t unit.Time) (algbw, busbw float64) {
	if t <= 0 {
		return 0, 0
	}
	algbw = float64(s) / t.Seconds() / 1e9
	return algbw, algbw * BusFactor(op, n)
}

// Run starts the schedule on f now, with rank r on endpoint ranks[r]; done
// runs with the result when the last transfer has arrived. With o.Track it
// returns the run's Progress for a viewer, else nil.
func Run(f fabric.Fabric, s *Schedule, ranks []int, o Options, done func(metrics.Collective, []unit.Time)) *Progress {
	if len(ranks) != s.Ranks {
		panic(fmt.Sprintf("coll: %d endpoints for %d ranks", len(ranks), s.Ranks))
	}
	s = s.onWire()
	x := &runner{f: f, s: s, ranks: ranks, o: o, start: f.Now(), done: done, last: make([]unit.Time, s.Ranks)}
	for i := range x.last {
		x.last[i] = x.start
	}
	x.res = metrics.Collective{Op: s.Op, Algo: s.Algo, Protocol: o.Protocol, Ranks: s.Ranks, Bytes: int64(o.Bytes), Steps: s.StepCount()}
	if o.Track {
		x.prog = newProgress(s, ranks, o, x.start)
	}
	if o.Streamed {
		if x.prog != nil {
			x.prog.setupStreamed(ceilDiv(int64(o.Bytes), int64(s.Chunks)))
		}
		x.streamPhase(0)
		return x.prog
	}
	if s.Steps == nil && len(s.Summary) > 0 {
		panic(fmt.Sprintf("coll: %s/%s on %d ranks is too large to run step by step", s.Op, s.Algo, s.Ranks))
	}
	x.stepwise()
	return x.prog
}

type runner struct {
	f     fabric.Fabric
	s     *Schedule
	ranks []int
	o     Options
	start unit.Time
	done  func(metrics.Collective, []unit.Time)
	last  []unit.Time // per rank: when its last transfer in or out arrived
	res   metrics.Collective
	prog  *Progress // nil unless Options.Track

	// stepwise state
	part      [][]unit.Bytes // [channel][piece] bytes of one chunk part
	sends     [][][]Transfer // [step][rank] transfers rank sends
	recvs     [][]int32      // [step][rank] transfers rank receives
	inst      []instance     // channel-major: channel c piece k is inst[c*pieces+k]
	pieces    int
	remaining int // transfers not yet arrived, plus issues not yet made
}

// instance is one channel's one pipeline piece running through the schedule.
type instance struct {
	issued   []int32 // [rank] next step to issue
	got      []int32 // [step*ranks+rank] transfers received
	recvDone []int32 // [rank] leading steps fully received
	sendLeft []int32 // [step*ranks+rank] transfers still in flight
	sentDone []int32 // [rank] leading steps whose sends have all arrived
}

func (x *runner) stepwise() {
	s, o := x.s, x.o
	n, steps := s.Ranks, len(s.Steps)
	channels := max(o.Channels, 1)
	if s.Lanes > 0 {
		channels = 1 // the schedule's own lanes are its channels
	}
	perChannel := ceilDiv(int64(o.Bytes), int64(channels))
	chunk := int64(o.Chunk)
	if s.Lanes > 0 {
		chunk *= int64(s.Lanes) // a piece per lane
	}
	if chunk <= 0 {
		chunk = perChannel
	}
	x.pieces = int(max(ceilDiv(perChannel, chunk), 1))
	x.res.Channels, x.res.Pieces = channels*max(s.Lanes, 1), x.pieces

	x.sends = make([][][]Transfer, steps)
	x.recvs = make([][]int32, steps)
	for i, st := range s.Steps {
		x.sends[i] = make([][]Transfer, n)
		x.recvs[i] = make([]int32, n)
		for _, t := range st.Transfers {
			x.sends[i][t.Src] = append(x.sends[i][t.Src], t)
			x.recvs[i][t.Dst]++
		}
	}
	// Split the message over channels and pieces exactly: the first ones take the remainder.
	x.part = make([][]unit.Bytes, channels)
	left := int64(o.Bytes)
	for c := range channels {
		chBytes := min(perChannel, left)
		left -= chBytes
		x.part[c] = make([]unit.Bytes, x.pieces)
		pl := chBytes
		for k := range x.pieces {
			pb := min(chunk, pl)
			pl -= pb
			x.part[c][k] = unit.Bytes(ceilDiv(pb, int64(s.Chunks)))
		}
	}
	if x.prog != nil {
		x.prog.setupStepwise(x.part)
	}
	x.inst = make([]instance, channels*x.pieces)
	for i := range x.inst {
		x.inst[i] = instance{
			issued: make([]int32, n), got: make([]int32, steps*n), recvDone: make([]int32, n),
			sendLeft: make([]int32, steps*n), sentDone: make([]int32, n),
		}
		x.remaining += n * steps
		for st := range steps {
			for r := range n {
				x.inst[i].sendLeft[st*n+r] = int32(len(x.sends[st][r]))
				x.remaining += len(x.sends[st][r])
			}
		}
	}
	if x.remaining == 0 {
		x.finish()
		return
	}
	begin := func() {
		for i := range x.inst {
			for r := range n {
				x.advance(i, r)
			}
		}
	}
	if b := o.Latency.Base; b > 0 {
		x.f.At(x.f.Now()+b, begin)
		return
	}
	begin()
}

// advance issues every step rank r of instance i is ready for: all earlier
// steps received, and (for a later piece) the previous piece's same step sent.
func (x *runner) advance(i, r int) {
	n, steps := x.s.Ranks, len(x.s.Steps)
	in := &x.inst[i]
	for int(in.issued[r]) < steps {
		st := int(in.issued[r])
		for int(in.recvDone[r]) < st && in.got[int(in.recvDone[r])*n+r] == x.recvs[in.recvDone[r]][r] {
			in.recvDone[r]++
		}
		if int(in.recvDone[r]) < st {
			return
		}
		if k := i % x.pieces; k > 0 && int(x.inst[i-1].sentDone[r]) <= st {
			return
		}
		in.issued[r]++
		x.remaining--
		if len(x.sends[st][r]) == 0 {
			x.sent(i, r)
			continue
		}
		if d := x.delay(st, r); d > 0 {
			x.f.At(x.f.Now()+d, func() { x.issue(i, r, st) })
		} else {
			x.issue(i, r, st)
		}
	}
	x.checkDone()
}

// delay is the software latency before rank r issues step st: Alpha, or
// under NCCL's model the step's NVLink or network figure less the fabric's
// own latency to the farthest peer (which the transfer pays anyway).
func (x *runner) delay(st, r int) unit.Time {
	l := x.o.Latency
	if l == (Latency{}) {
		return x.o.Alpha
	}
	d, wire := l.NVLink, unit.Time(0)
	for _, t := range x.sends[st][r] {
		if !x.s.SameNode(t.Src, t.Dst) {
			d = l.Net
		}
		if t.Src >= 0 && t.Dst >= 0 {
			wire = max(wire, x.f.Latency(x.ranks[t.Src], x.ranks[t.Dst]))
		}
	}
	return max(d-wire, 0)
}

func (x *runner) issue(i, r, st int) {
	c := i / x.pieces
	part := x.part[c][i%x.pieces]
	x.prog.issued(st, x.f.Now())
	for j, t := range x.sends[st][r] {
		x.res.Transfers++
		// One ordered stream per channel and peer, as NCCL keeps one connection each.
		stream := c*max(x.s.Lanes, 1) + t.Lane + 1
		tr := fabric.Transfer{Src: x.ranks[t.Src], Dst: x.ranks[t.Dst], Bytes: x.wire(int64(part) * int64(t.Parts)), Stream: stream,
			Tag: t.Chunk, Step: st}
		src, dst := t.Src, t.Dst
		x.f.Send(tr, func() {
			if x.prog != nil { // not even the call: a Transfer is copied in, memory.copy in WebAssembly
				x.prog.arrivedStep(st, r, j, x.sends[st][r][j], part, x.f.Now())
			}
			x.arrived(i, st, src, dst)
		})
	}
}

func (x *runner) arrived(i, st, src, dst int) {
	n := x.s.Ranks
	x.touch(src, dst)
	in := &x.inst[i]
	x.remaining--
	in.got[st*n+dst]++
	in.sendLeft[st*n+src]--
	if in.sendLeft[st*n+src] == 0 {
		x.sent(i, src)
	}
	x.advance(i, dst)
}

// sent records that rank r's sends of its next unsent step have arrived, and
// lets the next piece of the channel move.
func (x *runner) sent(i, r int) {
	n, steps := x.s.Ranks, len(x.s.Steps)
	in := &x.inst[i]
	for int(in.sentDone[r]) < int(in.issued[r]) && in.sendLeft[int(in.sentDone[r])*n+r] == 0 {
		in.sentDone[r]++
	}
	_ = steps
	if (i+1)%x.pieces != 0 {
		x.advance(i+1, r)
	}
}

func (x *runner) checkDone() {
	if x.remaining == 0 && x.done != nil {
		x.finish()
	}
}

func (x *runner) finish() {
	if end := x.start + x.o.Floor; x.f.Now() < end {
		x.f.At(end, x.finish)
		return
	}
	d := x.done
	x.done = nil
	t := x.f.Now() - x.start
	x.res.TimeUs = float64(t) / float64(unit.Microsecond)
	x.res.AlgBwGBps, x.res.BusBwGBps = Bandwidths(x.s.Op, x.s.Ranks, x.o.Bytes, t)
	x.prog.finished(x.f.Now(), x.res.AlgBwGBps, x.res.BusBwGBps)
	if d != nil {
		d(x.res, x.last)
	}
}

// touch records that ranks a and b were busy until now.
func (x *runner) touch(a, b int) {
	now := x.f.Now()
	if a >= 0 && x.last[a] < now {
		x.last[a] = now
	}
	if b >= 0 && x.last[b] < now {
		x.last[b] = now
	}
}

// streamPhase runs phase p of the schedule as aggregated transfers, after
// its latency. In a pipelined schedule every phase from p on runs at once, the
// steady state in which each works on its own piece of the message: phase i
// starts once the latencies of the phases up to it have passed (its first
// piece has come through them), and the run ends when all are done.
func (x *runner) streamPhase(p int) {
	s := x.s
	if p == len(s.Summary) {
		x.finish()
		return
	}
	q := p + 1
	if s.Pipelined {
		q = len(s.Summary)
	}
	x.res.Channels, x.res.Pieces = max(s.Lanes, 1), 1
	part := ceilDiv(int64(x.o.Bytes), int64(s.Chunks))
	left := 0
	for _, ph := range s.Summary[p:q] {
		left += len(ph.Pairs)
	}
	if left == 0 {
		x.streamPhase(q)
		return
	}
	var wait unit.Time
	for i := p; i < q; i++ {
		wait += x.phaseWait(i)
		ph := &s.Summary[i]
		x.f.At(x.f.Now()+wait, func() {
			x.prog.issued(i, x.f.Now())
			for j, k := range ph.Pairs {
				x.res.Transfers++
				src, dst := k.Src, k.Dst
				x.f.Send(fabric.Transfer{Src: x.ranks[k.Src], Dst: x.ranks[k.Dst], Bytes: x.wire(part * int64(k.Parts)), Tag: -1, Step: -1}, func() {
					if x.prog != nil { // not even the call: a Pair is copied in, memory.copy in WebAssembly
						x.prog.arrivedPair(i, j, ph.Pairs[j], part, x.f.Now())
					}
					x.touch(src, dst)
					left--
					if left == 0 {
						x.streamPhase(q)
					}
				})
			}
		})
	}
}

// phaseWait is the latency streamed phase p pays before its bytes move: its
// steps under NCCL's model (and the collective's base latency in phase 0),
// or each step's alpha and, after the first, the path latency of the
// phase's slowest pair (a sample of pairs bounds the cost at scale).
func (x *runner) phaseWait(p int) unit.Time {
	ph := &x.s.Summary[p]
	var lat unit.Time
	var seen [64][2]int // the first 64 distinct pairs: a scan, not a map (cheaper in WebAssembly)
	n := 0
	for _, k := range ph.Pairs {
		if n == len(seen) {
			break
		}
		if k.Src < 0 || k.Dst < 0 {
			continue
		}
		ab := [2]int{x.ranks[k.Src], x.ranks[k.Dst]}
		if !slices.Contains(seen[:n], ab) {
			seen[n] = ab
			n++
			lat = max(lat, x.f.Latency(ab[0], ab[1]))
		}
	}
	l := x.o.Latency
	if l == (Latency{}) {
		return unit.Time(ph.Steps)*x.o.Alpha + unit.Time(max(ph.Steps-1, 0))*lat
	}
	wait := unit.Time(ph.NetSteps)*max(l.Net, lat) + unit.Time(ph.Steps-ph.NetSteps)*l.NVLink
	if p == 0 {
		wait += l.Base
	}
	return wait
}

// wire is what payload bytes take on the wire under the run's protocol.
func (x *runner) wire(b int64) unit.Bytes {
	if f := x.o.Wire; f > 1 {
		return unit.Bytes(math.Ceil(float64(b) * f))
	}
	return unit.Bytes(b)
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
