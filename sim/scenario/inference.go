package scenario

import (
	"fabriclab/sim/msg"
)

// Inference serves LLM requests disaggregated (sim/infer): the first
// PrefillGPUs ranks run prefill, the rest decode, and each request's KV cache
// crosses the fabric between the two.
type Inference struct {
	Model        string  `yaml:"model"`          // gpt2-1.5b | llama3-8b
	PromptTokens int     `yaml:"prompt_tokens"`  // per request
	OutputTokens int     `yaml:"output_tokens"`  // per request, the first from prefill
	RequestsPerS float64 `yaml:"requests_per_s"` // arrivals, evenly spaced
	Requests     int     `yaml:"requests"`       // how many arrive
	PrefillGPUs  int     `yaml:"prefill_gpus"`   // 0: half the ranks
	Batch        int     `yaml:"batch"`          // sequences per decode GPU at once; 0: what fits, at most DefaultInferenceBatch
	MFU          float64 `yaml:"mfu"`            // prefill's share of peak FLOP/s; 0: the model's calibrated one
	MBU          float64 `yaml:"mbu"`            // decode's share of HBM bandwidth
	Ranks        int     `yaml:"ranks"`          // 0: every endpoint
	// GPUHourPrice is what one GPU-hour costs, for the report's cost per
	// million tokens (0: GPU-hours only); the run never reads it.
	GPUHourPrice float64 `yaml:"gpu_hour_price"`
}

// Limits and defaults of inference.
const (
	MaxInferenceRequests  = 10_000
	MaxInferenceTokens    = 1 << 22 // requests × output tokens: decode steps bound the run's events
	DefaultInferenceBatch = 256     // vLLM's max_num_seqs
	DefaultMBU            = 0.7
)

// InferenceModels are the models inference.model takes (the transformer presets).
var InferenceModels = []string{"gpt2-1.5b", "llama3-8b"}

func inference(s *Scenario) bool { return s.Inference.Model != "" }

// inference checks the inference keys when a model is set; sim/plan checks
// what needs the model (its context, HBM).
func (c *checker) inference(endpoints int, topoOK bool) {
	s := c.s
	in := &s.Inference
	if in.Model == "" {
		return
	}
	if s.Collective.Op != "" || s.Training.Model != "" {
		c.fail("inference.model", "a scenario runs one workload: remove collective or training, or inference")
	}
	if s.Traffic.Pattern != PatternNone {
		c.fail("traffic.pattern", "%s cannot run beside inference: remove the traffic keys or set pattern: none", c.text("traffic.pattern", s.Traffic.Pattern))
	}
	c.oneOf("inference.model", in.Model, msg.F("a transformer model"), InferenceModels...)
	c.between("inference.prompt_tokens", in.PromptTokens, 1, 1<<20, 1024, msg.F("prompt_tokens"))
	c.between("inference.output_tokens", in.OutputTokens, 1, 1<<20, 256, msg.F("output_tokens"))
	c.between("inference.requests", in.Requests, 1, MaxInferenceRequests, 64, msg.F("requests"))
	if in.Requests > 0 && in.OutputTokens > 0 && in.Requests*in.OutputTokens > MaxInferenceTokens {
		c.fail(c.blame("inference.requests", "inference.output_tokens"), "%d requests × %d output tokens are %d tokens to decode; a run decodes at most %d (e.g. requests: %d)",
			in.Requests, in.OutputTokens, in.Requests*in.OutputTokens, MaxInferenceTokens, max(MaxInferenceTokens/in.OutputTokens, 1))
	}
	if !(in.RequestsPerS > 0 && in.RequestsPerS <= 1e6) {
		c.fail("inference.requests_per_s", "%s is not allowed: requests arriving per second, above 0 and at most 1000000 (e.g. requests_per_s: 20)", c.text("inference.requests_per_s", in.RequestsPerS))
	}
	c.between("inference.batch", in.Batch, 0, 4096, DefaultInferenceBatch, msg.F("batch (0 picks what fits in HBM, at most 256)"))
	if in.MFU != 0 {
		c.share("inference.mfu", in.MFU, MinMFU, 1, msg.F("a share of peak FLOPs (0 picks the model's calibrated one)"), 0.4)
	}
	c.share("inference.mbu", in.MBU, MinMFU, 1, msg.F("a share of the GPU's HBM bandwidth"), DefaultMBU)
	c.gpuHourPrice("inference.gpu_hour_price", in.GPUHourPrice)
	if !topoOK {
		return
	}
	ranks, ok := c.ranks("inference.ranks", in.Ranks, endpoints)
	if !ok {
		return
	}
	if in.PrefillGPUs != 0 {
		c.between("inference.prefill_gpus", in.PrefillGPUs, 1, ranks-1, ranks/2, msg.F("with %d ranks, prefill_gpus (the rest decode; 0 picks half)", ranks))
	}
}
