// Package infer serves LLM inference disaggregated, as DistServe, Splitwise
// and NVIDIA Dynamo do: a pool of GPUs runs the prompts' prefill, another the
// decode, and each request's KV cache crosses the fabric from its prefill GPU
// to its decode GPU. Prefill is compute-bound (FLOPs at the GPU's peak × MFU);
// a decode step is memory-bound: it reads the weights and every running
// sequence's KV cache from HBM (at the peak × MBU) and gives each sequence
// one token.
package infer

import (
	"math"
	"slices"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/snap"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// BytesPerElement is the KV cache's and the weights' element size (bf16).
const BytesPerElement = 2

// KVBytesPerToken is what one token adds to the KV cache: a key and a value
// of kvHeads × headDim elements in every layer (vLLM, Kwon et al. SOSP'23:
// "2 × 5120 × 40 × 2 bytes" = 800 KB for OPT-13B).
func KVBytesPerToken(layers, kvHeads, headDim int) int64 {
	return 2 * int64(layers) * int64(kvHeads) * int64(headDim) * BytesPerElement
}

// Config is one inference service and the requests it serves.
type Config struct {
	Model *train.Model
	GPU   train.GPU
	MFU   float64 // prefill's share of the GPU's peak FLOP/s
	MBU   float64 // decode's share of the GPU's HBM bandwidth
	// Prompt and Output are each request's prompt tokens and output tokens
	// (the first comes from prefill, the rest from decode steps).
	Prompt, Output int
	Requests       int
	Interval       unit.Time // between two requests' arrivals
	Prefill        int       // the first Prefill ranks run prefill, the rest decode
	Batch          int       // sequences a decode GPU runs at once
	// Slow maps a rank (its index in ranks) to how many times as long its
	// compute takes (faults: slow_gpu); nil: none is slow.
	Slow map[int]float64
}

// slowed is compute time t on rank r.
func (c *Config) slowed(r int, t unit.Time) unit.Time {
	if f, ok := c.Slow[r]; ok && f > 1 {
		return unit.Time(float64(t) * f)
	}
	return t
}

// PrefillTime is one request's prefill on one GPU: 2 FLOPs per weight of the
// matrices per token (the output head for the last token only), and causal
// attention's 2 × prompt × d per layer per token.
func (c *Config) PrefillTime() unit.Time {
	m := c.Model
	p := float64(c.Prompt)
	flops := p*(m.MatmulFLOPs()-m.HeadFLOPs+2*p*float64(m.Hidden)*float64(m.Blocks)) + m.HeadFLOPs
	return seconds(flops / (c.GPU.PeakFLOPS * c.MFU))
}

// StepTime is one decode step of sequences holding ctx tokens of KV cache in
// all: the weights and that cache read from HBM, or the batch's matmuls at
// the peak × MFU when they take longer.
func (c *Config) StepTime(batch int, ctx int64) unit.Time {
	m := c.Model
	bytes := float64(m.Params())*BytesPerElement + float64(ctx)*float64(m.KVBytesPerToken)
	flops := float64(batch) * m.MatmulFLOPs()
	return seconds(max(bytes/(c.GPU.HBM*c.MBU), flops/(c.GPU.PeakFLOPS*c.MFU)))
}

func seconds(s float64) unit.Time { return unit.Time(math.Ceil(s * float64(unit.Second))) }

// request is one request's way through the service.
type request struct {
	arrive, start, prefilled, kvArrived, last unit.Time // prefilled is the first token's time too
	prefill, decode                           int       // rank indices
	arrived                                   bool
	ctx, made                                 int // KV tokens held, output tokens made
}

// decoder is one decode GPU: its running sequences and those waiting for a place.
type decoder struct {
	running, waiting []int
	busy             bool
	assigned         int
}

// Job is a running inference service.
type Job struct {
	f         fabric.Fabric
	cfg       Config
	ranks     []int
	reqs      []request
	free      []unit.Time // each prefill GPU's time it is next free
	dec       []decoder
	finished  int
	computing []unit.Time // each rank computes until this time
	done      func(metrics.Inference)
}

// Start sets the service going on the ranks' endpoints of f: the requests
// arrive one Interval apart from now; done gets the report when the last
// finishes.
func Start(f fabric.Fabric, cfg Config, ranks []int, done func(metrics.Inference)) *Job {
	j := &Job{f: f, cfg: cfg, ranks: ranks, reqs: make([]request, cfg.Requests), free: make([]unit.Time, cfg.Prefill),
		dec: make([]decoder, len(ranks)-cfg.Prefill), computing: make([]unit.Time, len(ranks)), done: done}
	t0 := f.Now()
	for i := range j.reqs {
		f.At(t0+unit.Time(i)*cfg.Interval, func() { j.arrive(i) })
	}
	return j
}

// arrive queues request i on the prefill GPU free first.
func (j *Job) arrive(i int) {
	now := j.f.Now()
	p := 0
	for k := range j.free {
		if j.free[k] < j.free[p] {
			p = k
		}
	}
	r := &j.reqs[i]
	r.arrive, r.prefill, r.arrived = now, p, true
	r.start = max(now, j.free[p])
	end := r.start + j.cfg.slowed(p, j.cfg.PrefillTime())
	j.free[p], j.computing[p] = end, end
	j.f.At(end, func() { j.prefilled(i) })
}

// prefilled has made request i's first token; its KV cache goes to the
// decode GPU with the fewest requests.
func (j *Job) prefilled(i int) {
	r := &j.reqs[i]
	r.prefilled = j.f.Now()
	r.ctx, r.made = j.cfg.Prompt, 1
	d := 0
	for k := range j.dec {
		if j.dec[k].assigned < j.dec[d].assigned {
			d = k
		}
	}
	r.decode = d
	j.dec[d].assigned++
	if j.cfg.Output == 1 {
		j.finish(i)
		return
	}
	kv := unit.Bytes(int64(r.ctx) * j.cfg.Model.KVBytesPerToken)
	j.f.Send(fabric.Transfer{Src: j.ranks[r.prefill], Dst: j.ranks[j.cfg.Prefill+d], Bytes: kv, Tag: -1, Step: -1}, func() {
		r.kvArrived = j.f.Now()
		j.dec[d].waiting = append(j.dec[d].waiting, i)
		j.step(d)
	})
}

// step starts decode GPU d's next step unless it is busy or has nothing to run.
func (j *Job) step(d int) {
	g := &j.dec[d]
	if g.busy {
		return
	}
	take := min(j.cfg.Batch-len(g.running), len(g.waiting))
	g.running = append(g.running, g.waiting[:take]...)
	g.waiting = g.waiting[take:]
	if len(g.running) == 0 {
		return
	}
	var ctx int64
	for _, i := range g.running {
		ctx += int64(j.reqs[i].ctx)
	}
	g.busy = true
	end := j.f.Now() + j.cfg.slowed(j.cfg.Prefill+d, j.cfg.StepTime(len(g.running), ctx))
	j.computing[j.cfg.Prefill+d] = end
	j.f.At(end, func() { j.stepped(d) })
}

// stepped gives every running sequence of d a token and retires the finished.
func (j *Job) stepped(d int) {
	g := &j.dec[d]
	g.busy = false
	g.running = slices.DeleteFunc(g.running, func(i int) bool {
		r := &j.reqs[i]
		r.ctx++
		r.made++
		if r.made == j.cfg.Output {
			j.finish(i)
			return true
		}
		return false
	})
	j.step(d)
}

func (j *Job) finish(i int) {
	j.reqs[i].last = j.f.Now()
	j.finished++
	if j.finished == len(j.reqs) {
		j.done(j.report())
	}
}

// Snapshot counts the requests by where they are now.
func (j *Job) Snapshot() *snap.Inference {
	now := j.f.Now()
	s := &snap.Inference{Requests: len(j.reqs), KVBytes: int64(j.cfg.Prompt) * j.cfg.Model.KVBytesPerToken}
	var ttft []float64
	for i := range j.reqs {
		r := &j.reqs[i]
		switch {
		case !r.arrived:
			continue
		case r.last > 0:
			s.Done++
		case r.kvArrived > 0:
			s.Decoding++
		case r.prefilled > 0:
			s.Sending++
		case now >= r.start:
			s.Prefilling++
		default:
			s.Queued++
		}
		s.Arrived++
		if r.made > 0 {
			s.Tokens += int64(r.made)
			ttft = append(ttft, (r.prefilled - r.arrive).Micros())
		}
	}
	if len(ttft) > 0 {
		s.TTFTP50 = quantile(ttft, 0.5)
	}
	return s
}

// Computing reports whether rank i is prefilling or in a decode step at t.
func (j *Job) Computing(i int, t unit.Time) bool { return t < j.computing[i] }

// Ranks are the endpoints the service runs on, prefill GPUs first.
func (j *Job) Ranks() []int { return j.ranks }

func (j *Job) report() metrics.Inference {
	c := &j.cfg
	n := len(j.reqs)
	ttft, e2e := make([]float64, n), make([]float64, n)
	var tpot, kv float64
	start, end := j.reqs[0].arrive, unit.Time(0)
	for i := range j.reqs {
		r := &j.reqs[i]
		ttft[i], e2e[i] = (r.prefilled - r.arrive).Micros(), (r.last - r.arrive).Micros()
		if c.Output > 1 {
			tpot += (r.last - r.prefilled).Micros() / float64(c.Output-1)
			kv += (r.kvArrived - r.prefilled).Micros()
		}
		end = max(end, r.last)
	}
	span := (end - start).Seconds()
	tokens := float64(n * c.Output)
	rep := metrics.Inference{
		Model: c.Model.Name, GPU: c.GPU.Name, PrefillGPUs: c.Prefill, DecodeGPUs: len(j.ranks) - c.Prefill,
		Requests: n, PromptTokens: c.Prompt, OutputTokens: c.Output, Batch: c.Batch,
		KVBytesPerToken: c.Model.KVBytesPerToken, KVBytesPerRequest: int64(c.Prompt) * c.Model.KVBytesPerToken,
		PrefillUs: metrics.Round(c.PrefillTime().Micros(), 3), DecodeStepUs: metrics.Round(c.StepTime(1, int64(c.Prompt)).Micros(), 3),
		KVTransferUs: metrics.Round(kv/float64(n), 3), TTFTP50Us: metrics.Round(quantile(ttft, 0.5), 3),
		TTFTP99Us: metrics.Round(quantile(ttft, 0.99), 3), TPOTUs: metrics.Round(tpot/float64(n), 3),
		LatencyP50Us: metrics.Round(quantile(e2e, 0.5), 3), LatencyP99Us: metrics.Round(quantile(e2e, 0.99), 3),
		MakespanUs: metrics.Round((end - start).Micros(), 3),
	}
	if span > 0 {
		rep.TokensPerSecond = metrics.Round(tokens/span, 1)
		rep.TokensPerSecondPerGPU = metrics.Round(tokens/span/float64(len(j.ranks)), 1)
	}
	return rep
}

// quantile is the q-quantile of v (nearest rank); it sorts v.
func quantile(v []float64, q float64) float64 {
	slices.Sort(v)
	k := int(math.Ceil(q*float64(len(v)))) - 1
	return v[max(min(k, len(v)-1), 0)]
}
