package metrics

import "strconv"

// Cost is what a training run's GPU time comes to, from its last iteration:
// every GPU is paid for the whole iteration, computing or waiting, and the
// waiting share is 1 − gpu_util. Money is in whatever currency the price is
// in; without a price only the GPU-hours are reported.
type Cost struct {
	GPUHourPrice float64   `json:"gpu_hour_price,omitempty"` // training.gpu_hour_price
	PerHour      CostShare `json:"per_hour"`                 // an hour of the job
	Per1kIters   CostShare `json:"per_1k_iterations"`
	Per1BSamples CostShare `json:"per_1b_samples"` // a billion samples: images or tokens, as samples_per_s counts them
}

// CostShare is the GPU time (and its cost, with a price) of a stretch of training.
type CostShare struct {
	GPUHours        float64  `json:"gpu_hours"`         // GPUs × hours
	WaitingGPUHours float64  `json:"waiting_gpu_hours"` // GPUs × hours × (1 − gpu_util)
	Cost            *float64 `json:"cost,omitempty"`    // gpu_hours × price
	WaitingCost     *float64 `json:"waiting_cost,omitempty"`
}

// TrainingCost is t's Cost at price per GPU-hour (0: no price).
func TrainingCost(t *Training, price float64) *Cost {
	share := func(hours float64) CostShare { // of the job
		gpuHours := float64(t.Ranks) * hours
		s := CostShare{GPUHours: sig(gpuHours), WaitingGPUHours: sig(gpuHours * (1 - t.GPUUtil))}
		if price > 0 {
			s.Cost, s.WaitingCost = ptr(sig(s.GPUHours*price)), ptr(sig(s.WaitingGPUHours*price))
		}
		return s
	}
	iteration := t.IterationUs / 3.6e9                                              // hours
	samples := float64(t.Batch * max(t.Accumulation, 1) * (t.Ranks / max(t.TP, 1))) // per iteration
	c := &Cost{GPUHourPrice: price, PerHour: share(1), Per1kIters: share(1e3 * iteration)}
	if samples > 0 {
		c.Per1BSamples = share(1e9 / samples * iteration)
	}
	return c
}

// InferenceCost is what a million output tokens cost in GPU time: every GPU
// of both pools is paid for the makespan.
type InferenceCost struct {
	GPUHourPrice       float64  `json:"gpu_hour_price,omitempty"` // inference.gpu_hour_price
	GPUHoursPerMillion float64  `json:"gpu_hours_per_million_tokens"`
	CostPerMillion     *float64 `json:"cost_per_million_tokens,omitempty"`
}

// InferenceCostOf is in's cost at price per GPU-hour (0: GPU-hours only).
func InferenceCostOf(in *Inference, price float64) *InferenceCost {
	if in.TokensPerSecond <= 0 {
		return nil
	}
	gpus := float64(in.PrefillGPUs + in.DecodeGPUs)
	c := &InferenceCost{GPUHourPrice: price, GPUHoursPerMillion: sig(gpus * 1e6 / in.TokensPerSecond / 3600)}
	if price > 0 {
		c.CostPerMillion = ptr(sig(c.GPUHoursPerMillion * price))
	}
	return c
}

// sig rounds v to 6 significant digits: reports carry figures, not float
// noise, and small ones keep theirs.
func sig(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return r
}

func ptr(v float64) *float64 { return &v }
