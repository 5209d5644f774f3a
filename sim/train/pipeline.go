package train

import (
	"fmt"
	"strings"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Pipeline schedules (training.pp_schedule).
const (
	GPipe       = "gpipe"       // every forward, then every backward (Huang et al. 2019; PyTorch's ScheduleGPipe)
	OneFOneB    = "1f1b"        // PipeDream-Flush as Megatron-LM runs it: warm-up forwards, then one forward one backward
	Interleaved = "interleaved" // Megatron-LM's interleaved 1F1B: several model chunks per stage
)

// Slot is one forward or backward of a micro-batch through one of a
// stage's model chunks.
type Slot struct {
	Micro, Chunk int
	Backward     bool
}

func (s Slot) String() string {
	fb := "F"
	if s.Backward {
		fb = "B"
	}
	return fmt.Sprintf("%s%d.%d", fb, s.Micro, s.Chunk)
}

// PipelineOrder is the order in which stage (of p) runs the forwards and
// backwards of m micro-batches through its v model chunks, as Megatron-LM's
// schedules.py runs them (1f1b: forward_backward_pipelining_without_interleaving;
// interleaved: ..._with_interleaving, microbatch_group_size_per_vp_stage = p,
// which needs m a multiple of p). Chunk c of stage s is virtual stage c·p+s.
func PipelineOrder(schedule string, p, m, v, stage int) []Slot {
	var out []Slot
	switch schedule {
	case GPipe:
		for mb := range m {
			out = append(out, Slot{Micro: mb})
		}
		for mb := range m {
			out = append(out, Slot{Micro: mb, Backward: true})
		}
		return out
	case Interleaved:
		return interleavedOrder(p, m, v, stage)
	}
	warmup := min(p-stage-1, m)
	for mb := range warmup {
		out = append(out, Slot{Micro: mb})
	}
	for i := range m - warmup {
		out = append(out, Slot{Micro: i + warmup}, Slot{Micro: i, Backward: true})
	}
	for i := m - warmup; i < m; i++ {
		out = append(out, Slot{Micro: i, Backward: true})
	}
	return out
}

// interleavedOrder is Megatron's interleaved 1F1B: virtual micro-batch k
// runs micro-batch table[k] on chunk chunkOf[k] forward (v−1−chunkOf[k]
// backward), groups of p micro-batches going through every chunk in turn.
func interleavedOrder(p, m, v, stage int) []Slot {
	var micro, chunk []int
	for lo := 0; lo < m; lo += p {
		for c := range v {
			for mb := lo; mb < min(lo+p, m); mb++ {
				micro, chunk = append(micro, mb), append(chunk, c)
			}
		}
	}
	total := m * v
	warmup := min((p-stage-1)*2+(v-1)*p, total)
	fwd := func(k int) Slot { return Slot{Micro: micro[k], Chunk: chunk[k]} }
	bwd := func(k int) Slot { return Slot{Micro: micro[k], Chunk: v - 1 - chunk[k], Backward: true} }
	var out []Slot
	for k := range warmup {
		out = append(out, fwd(k))
	}
	for k := range total - warmup {
		out = append(out, fwd(k+warmup), bwd(k))
	}
	for k := total - warmup; k < total; k++ {
		out = append(out, bwd(k))
	}
	return out
}

// Placement orders the parallel dimensions over the ranks, the
// fastest-varying first: "tp-pp-dp" puts a tensor-parallel group on
// consecutive ranks, then the stages, then the data-parallel replicas.
type Placement struct {
	TP, PP, DP int
	order      [3]byte // 't', 'p', 'd', fastest first
}

// NewPlacement places tp × pp × dp ranks in order (e.g. "tp-pp-dp"; ""
// is that default).
func NewPlacement(order string, tp, pp, dp int) (Placement, error) {
	if order == "" {
		order = "tp-pp-dp"
	}
	pl := Placement{TP: tp, PP: pp, DP: dp}
	parts := strings.Split(order, "-")
	seen := map[string]bool{}
	for i, s := range parts {
		if i >= 3 || seen[s] || s != "tp" && s != "pp" && s != "dp" {
			return Placement{}, msg.Errorf("placement %q is not an order of tp, pp and dp (e.g. tp-pp-dp)", order)
		}
		seen[s] = true
		pl.order[i] = s[0]
	}
	if len(seen) != 3 {
		return Placement{}, msg.Errorf("placement %q is not an order of tp, pp and dp (e.g. tp-pp-dp)", order)
	}
	return pl, nil
}

// Rank is the rank of tensor-parallel rank t of stage s in replica d.
func (pl Placement) Rank(d, s, t int) int {
	r, stride := 0, 1
	for _, dim := range pl.order {
		switch dim {
		case 't':
			r += t * stride
			stride *= pl.TP
		case 'p':
			r += s * stride
			stride *= pl.PP
		default:
			r += d * stride
			stride *= pl.DP
		}
	}
	return r
}

// PipelineLayers is how many layers m splits into pipeline stages: a
// transformer's blocks or a custom model's layers (0: m cannot be split).
func (m *Model) PipelineLayers() int {
	if m.Blocks > 0 {
		return m.Blocks
	}
	if m.Name == "custom" {
		return len(m.Tensors)
	}
	return 0
}

// StageBounds splits m's layers into k equal virtual stages: the tensor
// index each begins at, and len(m.Tensors) last. A transformer's
// embeddings go with the first, its final norm and head with the last.
// It panics unless PipelineLayers is a multiple of k.
func (m *Model) StageBounds(k int) []int {
	l := m.PipelineLayers()
	if l == 0 || l%k != 0 {
		panic(fmt.Sprintf("train: %d layers of %s do not split into %d stages", l, m.Name, k))
	}
	b := make([]int, k+1)
	for i := 1; i < k; i++ {
		if m.Blocks > 0 {
			b[i] = m.Units[1+i*l/k] // Units[0] is the embeddings, Units[1+j] block j
		} else {
			b[i] = i * l / k
		}
	}
	b[k] = len(m.Tensors)
	return b
}

// BubbleFraction is the published share of an iteration's forward-backward
// time that each stage idles when stages are equal and communication is
// free: (p−1)/(m+p−1) for GPipe and 1F1B; interleaving v chunks per stage
// divides the bubble by v, giving (p−1)/(v·m+p−1) (Narayanan et al., SC'21).
func BubbleFraction(schedule string, p, m, v int) float64 {
	if schedule != Interleaved {
		v = 1
	}
	return float64(p-1) / float64(v*m+p-1)
}

// message is a pipeline send: a micro-batch's activations from a virtual
// stage to the next, or their gradients back, between each pair of ranks
// that hold the same tensor-parallel slice in the same replica.
type message struct {
	from, to int // stages
	bytes    unit.Bytes
}

// messageID numbers the send across virtual-stage boundary k (from k to
// k+1 forward, back from k+1 to k backward) of micro-batch mb.
func messageID(k, mb, m int, backward bool) int {
	id := (k*m + mb) * 2
	if backward {
		id++
	}
	return id
}

// pipelineMessages lists the sends of one iteration by messageID: p stages
// of v chunks, m micro-batches of the given activation bytes per rank.
func pipelineMessages(p, m, v int, bytes unit.Bytes) []message {
	k := p * v
	out := make([]message, 2*(k-1)*m)
	for b := range k - 1 {
		for mb := range m {
			s, t := b%p, (b+1)%p
			out[messageID(b, mb, m, false)] = message{from: s, to: t, bytes: bytes}
			out[messageID(b, mb, m, true)] = message{from: t, to: s, bytes: bytes}
		}
	}
	return out
}

// pipelineModel is m as pipeline stages hold it: with a tied head, the
// first stage looks up the embedding and the last computes the head with
// its copy of it (Megatron-LM keeps the two copies in step), so the head's
// FLOPs move to the last tensor.
func pipelineModel(m *Model) *Model {
	if !m.TiedHead {
		return m
	}
	c := *m
	c.Tensors = append([]Tensor(nil), m.Tensors...)
	c.Tensors[len(c.Tensors)-1].FwdFLOPs += c.Tensors[0].FwdFLOPs
	c.Tensors[0].FwdFLOPs = 0
	return &c
}

// stagePlan lays out one optimizer step of stage s: its forward and
// backward slots in the schedule's order, each waiting for the message it
// needs and sending the one the next stage needs; each chunk's
// data-parallel buckets go out during its last backward; then the optimizer.
func stagePlan(cfg *Config, s, dp int) *plan {
	staged := *cfg
	staged.Model = pipelineModel(cfg.Model)
	cfg = &staged
	m, tp, pp, v := cfg.Model, cfg.TP, cfg.PP, max(cfg.PPVirtual, 1)
	tm := timing{rate: cfg.GPU.PeakFLOPS * cfg.MFU, batch: float64(cfg.Batch) / float64(tp), checkpointing: cfg.Checkpointing}
	accum := max(cfg.Accumulation, 1)
	k := pp * v
	bounds := m.StageBounds(k)
	buckets := make([][]Bucket, v)
	var params int64
	for c := range v {
		lo, hi := bounds[c*pp+s], bounds[c*pp+s+1]
		buckets[c] = bucketsOf(m, lo, hi, cfg.FirstBucket*unit.Bytes(tp), cfg.BucketCap*unit.Bytes(tp), GradBytesPerParam)
		params += paramsOf(m, lo, hi)
	}
	p := &plan{}
	for _, sl := range PipelineOrder(cfg.PPSchedule, pp, accum, v, s) {
		vs := sl.Chunk*pp + s
		lo, hi := bounds[vs], bounds[vs+1]
		from := len(p.tasks)
		if sl.Backward {
			p.backward(cfg, tm, tp, dp, buckets[sl.Chunk], sl.Micro == accum-1, lo, hi)
		} else {
			p.forward(m, tm, tp, lo, hi)
		}
		for i := from; i < len(p.tasks); i++ {
			p.tasks[i].micro, p.tasks[i].chunk = sl.Micro, sl.Chunk
		}
		first, last := &p.tasks[from], &p.tasks[len(p.tasks)-1]
		switch {
		case !sl.Backward && vs > 0:
			first.recv, first.idle = messageID(vs-1, sl.Micro, accum, false), "waiting for activations"
		case sl.Backward && vs < k-1:
			first.recv, first.idle = messageID(vs, sl.Micro, accum, true), "waiting for gradients from the next stage"
		}
		switch {
		case !sl.Backward && vs < k-1:
			last.send = messageID(vs, sl.Micro, accum, false)
		case sl.Backward && vs > 0:
			last.send = messageID(vs-1, sl.Micro, accum, true)
		}
	}
	p.step(cfg, ceilDiv(params, int64(tp)), dp, accum)
	return p
}
