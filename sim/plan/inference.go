package plan

import (
	"fmt"
	"math"

	"fabriclab/sim/infer"
	"fabriclab/sim/scenario"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// Inference is an inference service over the first Ranks endpoints.
type Inference struct {
	Ranks  int
	Config infer.Config
	// GPUHourPrice prices the report's cost per million tokens; the run never reads it.
	GPUHourPrice float64
}

// inference is sc's inference service, checked (nil, with the problems in
// k, when it cannot run): the requests fit the model's context, and a decode
// GPU's weights and KV cache its HBM.
func inference(sc *scenario.Scenario, k *scenario.Check) *Inference {
	in := &sc.Inference
	ranks := in.Ranks
	if ranks == 0 {
		ranks = sc.Endpoints()
	}
	m, err := train.Preset(in.Model)
	if err != nil {
		panic(fmt.Sprintf("plan: %v", err))
	}
	gpu, err := train.GPUPreset(sc.Training.GPU) // topology.gpu and training.gpu follow each other
	if err != nil {
		panic(fmt.Sprintf("plan: %v", err))
	}
	cfg := infer.Config{Model: m, GPU: gpu, MFU: in.MFU, MBU: in.MBU, Prompt: in.PromptTokens, Output: in.OutputTokens,
		Requests: in.Requests, Interval: unit.Time(math.Round(float64(unit.Second) / in.RequestsPerS)), Prefill: in.PrefillGPUs, Batch: in.Batch}
	if cfg.MFU == 0 {
		cfg.MFU = train.Efficiency(m.Name, gpu.Name)
	}
	cfg.Slow = slowRanks(sc, ranks)
	if cfg.Prefill == 0 {
		cfg.Prefill = max(ranks/2, 1)
	}
	if ctx := in.PromptTokens + in.OutputTokens; ctx > m.Context {
		k.Fail(k.Blame("inference.prompt_tokens", "inference.output_tokens"), "%d prompt and %d output tokens are %d, past %s's context of %d tokens; ask for fewer (e.g. prompt_tokens: %d)",
			in.PromptTokens, in.OutputTokens, ctx, m.Name, m.Context, max(m.Context-in.OutputTokens, 1))
		return nil
	}
	weights := float64(m.Params()) * infer.BytesPerElement
	perSeq := float64(int64(in.PromptTokens+in.OutputTokens) * m.KVBytesPerToken)
	fits := int((gpu.HBMCapacity - weights) / perSeq)
	switch {
	case fits < 1:
		k.Fail(k.Blame("inference.model", "inference.prompt_tokens"), "%s's weights (%.0f GB) and one sequence's KV cache (%.1f GB) do not fit a %s's %.0f GB; use a GPU with more memory or fewer tokens",
			m.Name, weights/1e9, perSeq/1e9, gpu.Name, gpu.HBMCapacity/1e9)
		return nil
	case cfg.Batch == 0:
		cfg.Batch = min(fits, scenario.DefaultInferenceBatch)
	case cfg.Batch > fits:
		k.Fail("inference.batch", "%d sequences of %d tokens need %.0f GB of KV cache beside %.0f GB of weights, past a %s's %.0f GB; at most batch: %d fits",
			cfg.Batch, in.PromptTokens+in.OutputTokens, float64(cfg.Batch)*perSeq/1e9, weights/1e9, gpu.Name, gpu.HBMCapacity/1e9, fits)
		return nil
	}
	if k.Err() != nil {
		return nil
	}
	return &Inference{Ranks: ranks, Config: cfg, GPUHourPrice: in.GPUHourPrice}
}
