// Package metrics is what a run reports: totals, per-flow and per-link figures,
// and time series, with the JSON key names of the `fabriclab run --json` contract.
package metrics

// Result is one run's report.
type Result struct {
	Scenario string  `json:"scenario"`
	Seed     uint64  `json:"seed"`
	Fidelity string  `json:"fidelity"`
	Totals   Totals  `json:"totals"`
	Flows    []Flow  `json:"flows"`
	Links    []Link  `json:"links"`
	Series   *Series `json:"series,omitempty"`
	// Collective is present when the scenario ran a collective.
	Collective *Collective `json:"collective,omitempty"`
	// Training is present when the scenario ran training iterations.
	Training *Training `json:"training,omitempty"`
	// Inference is present when the scenario served inference requests.
	Inference *Inference `json:"inference,omitempty"`
	// Faults is present when the scenario has faults.
	Faults *Faults `json:"faults,omitempty"`
}

// Inference reports an inference service disaggregated into prefill and
// decode GPUs (sim/infer). Times are per request unless they say otherwise.
type Inference struct {
	Model        string `json:"model"`
	GPU          string `json:"gpu"`
	PrefillGPUs  int    `json:"prefill_gpus"`
	DecodeGPUs   int    `json:"decode_gpus"`
	Requests     int    `json:"requests"`
	PromptTokens int    `json:"prompt_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Batch        int    `json:"batch"` // sequences a decode GPU runs at once, at most
	// KVBytesPerToken is layers × KV heads × head dimension × 2 (key and
	// value) × 2 bytes; a request's prompt sends KVBytesPerRequest.
	KVBytesPerToken   int64   `json:"kv_bytes_per_token"`
	KVBytesPerRequest int64   `json:"kv_bytes_per_request"`
	PrefillUs         float64 `json:"prefill_us"`     // one prompt's prefill, compute only
	DecodeStepUs      float64 `json:"decode_step_us"` // one decode step of one sequence after its prompt
	KVTransferUs      float64 `json:"kv_transfer_us"` // mean, prefill GPU to decode GPU over the fabric
	TTFTP50Us         float64 `json:"ttft_p50_us"`    // time to first token: arrival to the end of prefill
	TTFTP99Us         float64 `json:"ttft_p99_us"`
	TPOTUs            float64 `json:"tpot_us"` // mean time per output token after the first (the KV transfer included)
	LatencyP50Us      float64 `json:"latency_p50_us"`
	LatencyP99Us      float64 `json:"latency_p99_us"`
	MakespanUs        float64 `json:"makespan_us"` // first arrival to last token
	// Output tokens per second over the makespan, in all and per GPU (every
	// GPU of both pools counts, busy or not).
	TokensPerSecond       float64        `json:"tokens_per_s"`
	TokensPerSecondPerGPU float64        `json:"tokens_per_s_per_gpu"`
	Cost                  *InferenceCost `json:"cost,omitempty"`
}

// Collective reports one collective with the nccl-tests definitions of algbw and busbw.
type Collective struct {
	Op        string  `json:"op"`
	Algo      string  `json:"algo"`
	Protocol  string  `json:"protocol,omitempty"` // NCCL's protocol: ll, ll128 or simple
	Ranks     int     `json:"ranks"`
	Bytes     int64   `json:"bytes"`
	TimeUs    float64 `json:"time_us"`
	AlgBwGBps float64 `json:"algbw_GBps"`
	BusBwGBps float64 `json:"busbw_GBps"`
	Channels  int     `json:"channels"`
	Pieces    int     `json:"pieces"`    // pipeline pieces per channel
	Transfers int     `json:"transfers"` // network transfers started
	Steps     int     `json:"steps"`
}

// Totals sums the run.
type Totals struct {
	// Truncated says why a run stopped before its end (an event budget), if it did.
	Truncated     string  `json:"truncated,omitempty"`
	SimTimeUs     float64 `json:"sim_time_us"`
	Events        uint64  `json:"events"`
	Drops         int64   `json:"drops"`
	Retransmits   int64   `json:"retransmits"`
	Timeouts      int64   `json:"timeouts"`
	PauseFrames   int64   `json:"pause_frames"`
	ECNMarks      int64   `json:"ecn_marks"`
	CNPs          int64   `json:"cnps,omitempty"`       // congestion notifications sent by receivers (cc: dcqcn)
	FECNMarks     int64   `json:"fecn_marks,omitempty"` // packets switches marked FECN (cc: ibcc)
	BECNs         int64   `json:"becns,omitempty"`      // BECNs sent by receivers (cc: ibcc)
	OutOfOrder    int64   `json:"out_of_order"`
	GoodputGbps   float64 `json:"goodput_gbps"` // payload delivered / (end of the run − first start)
	Flows         int     `json:"flows"`
	FlowsFinished int     `json:"flows_finished"`
	MaxFctUs      float64 `json:"max_fct_us"`
	MeanFctUs     float64 `json:"mean_fct_us"`
}

// Flow is one transfer. Unfinished flows have Finished false and FinishUs, FctUs 0.
type Flow struct {
	Src         int     `json:"src"`
	Dst         int     `json:"dst"`
	Bytes       int64   `json:"bytes"`
	StartUs     float64 `json:"start_us"`
	FinishUs    float64 `json:"finish_us"`
	FctUs       float64 `json:"fct_us"`
	Gbps        float64 `json:"gbps"` // bytes / fct
	Finished    bool    `json:"finished"`
	Delivered   int64   `json:"delivered_bytes"`
	Retransmits int64   `json:"retransmits"`
	OutOfOrder  int64   `json:"out_of_order"`
	// CNPs counts the congestion notifications the flow's receiver sent (cc: dcqcn).
	CNPs int64 `json:"cnps,omitempty"`
	// MinRateGbps is the lowest sending rate congestion control set (cc: dcqcn, ibcc; the line rate if never cut).
	MinRateGbps float64 `json:"min_rate_gbps,omitempty"`
	// BECNs counts the BECNs the flow's receiver sent (cc: ibcc).
	BECNs int64 `json:"becns,omitempty"`
	// MaxCCTI is the highest congestion control table index the flow's source reached (cc: ibcc).
	MaxCCTI int `json:"max_ccti,omitempty"`
}

// Link is one direction of a cable (an egress port). Only links that carried traffic are listed.
type Link struct {
	ID            int     `json:"id"`
	Name          string  `json:"name"`
	Kind          string  `json:"kind"`
	Gbps          float64 `json:"gbps"`
	Util          float64 `json:"util"` // wire bytes sent / capacity over the run
	MaxQueueBytes int64   `json:"max_queue_bytes"`
	Drops         int64   `json:"drops"`
	PauseUs       float64 `json:"pause_us"`
	PauseFrames   int64   `json:"pause_frames"`         // received by this port
	ECNMarks      int64   `json:"ecn_marks,omitempty"`  // packets this switch port marked (cc: dcqcn)
	FECNMarks     int64   `json:"fecn_marks,omitempty"` // packets this switch port marked FECN (cc: ibcc)
	// Classes splits the port's figures by traffic class (only with several network.classes).
	// PauseUs above is then the time at least one class was paused.
	Classes []LinkClass `json:"classes,omitempty"`
}

// LinkClass is one traffic class's share of a link.
type LinkClass struct {
	Name          string  `json:"name"`
	TxBytes       int64   `json:"tx_bytes"` // wire bytes sent
	MaxQueueBytes int64   `json:"max_queue_bytes"`
	Drops         int64   `json:"drops"`
	PauseUs       float64 `json:"pause_us"`
	PauseFrames   int64   `json:"pause_frames"` // received by this port for this class
}

// Series holds values sampled every IntervalUs, for charts.
type Series struct {
	IntervalUs float64     `json:"interval_us"`
	TimeUs     []float64   `json:"time_us"`
	FlowGbps   [][]float64 `json:"flow_gbps,omitempty"` // [flow][sample], goodput over the preceding interval
	// FlowRateGbps is each flow's congestion-controlled sending rate (DCQCN's RC, or
	// line / (1 + CCT[CCTI]) under ibcc) at each sample, 0 before the flow starts and
	// after it finishes ([flow][sample]; cc: dcqcn, ibcc).
	FlowRateGbps [][]float64   `json:"flow_rate_gbps,omitempty"`
	Queues       []QueueSeries `json:"queues,omitempty"` // the busiest switch ports
	Goodput      []float64     `json:"goodput_gbps"`     // all flows together
	// Counters are the run's totals so far at each sample (present when any is non-zero).
	Counters *CounterSeries `json:"counters,omitempty"`
}

// CounterSeries holds cumulative counts at each sample.
type CounterSeries struct {
	Drops       []int64 `json:"drops"`
	PauseFrames []int64 `json:"pause_frames"`
	ECNMarks    []int64 `json:"ecn_marks"`
	CNPs        []int64 `json:"cnps,omitempty"`       // cc: dcqcn
	FECNMarks   []int64 `json:"fecn_marks,omitempty"` // cc: ibcc
	BECNs       []int64 `json:"becns,omitempty"`      // cc: ibcc
}

// QueueSeries is one port's queue depth over time.
type QueueSeries struct {
	Link  int     `json:"link"`
	Name  string  `json:"name"`
	Bytes []int64 `json:"bytes"`
}

// Training reports data-parallel training iterations (the last one).
type Training struct {
	Model        string  `json:"model"`
	GPU          string  `json:"gpu"`
	Ranks        int     `json:"ranks"`
	Params       int64   `json:"params"`
	MFU          float64 `json:"mfu"`                   // share of peak the compute reaches
	Batch        int     `json:"batch"`                 // samples per GPU per micro-batch
	Accumulation int     `json:"accumulation"`          // micro-batches per optimizer step
	Sharding     string  `json:"sharding"`              // none, zero1, zero2, fsdp
	TP           int     `json:"tp"`                    // tensor-parallel degree
	PP           int     `json:"pp,omitempty"`          // pipeline stages (0: no pipeline)
	PPSchedule   string  `json:"pp_schedule,omitempty"` // gpipe, 1f1b, interleaved
	PPVirtual    int     `json:"pp_virtual,omitempty"`  // model chunks per stage (interleaved)
	// BubbleFraction is the share of the pipeline's forward-backward phase
	// that stages spend idle (fill, drain and waits), averaged over stages.
	BubbleFraction float64 `json:"bubble_fraction,omitempty"`
	Checkpointing  string  `json:"checkpointing,omitempty"` // selective, full; "" without activation checkpointing
	GradBytes      int64   `json:"grad_bytes"`              // gradients on the wire per step (all-reduced or reduce-scattered), after compression
	// MemoryBytes is what the fullest GPU holds: weights, gradients, optimizer
	// state and the activations kept for the backward (those of the
	// micro-batches a pipeline stage has in flight); a custom model's
	// activations are not known and left out.
	MemoryBytes       int64         `json:"memory_bytes"`
	IterationUs       float64       `json:"iteration_us"`
	ComputeUs         float64       `json:"compute_us"`      // forward + backward + optimizer
	ExposedCommUs     float64       `json:"exposed_comm_us"` // with pipeline stages: a stage's average, its bubble left out
	GPUUtil           float64       `json:"gpu_util"`
	ScalingEfficiency float64       `json:"scaling_efficiency"` // one GPU's iteration time / this one
	SamplesPerSecond  float64       `json:"samples_per_s"`
	Cost              *Cost         `json:"cost,omitempty"`    // what the GPU time costs (sim always sets it)
	Storage           *Storage      `json:"storage,omitempty"` // checkpoints and data-loader reads, with storage nodes
	Buckets           []Bucket      `json:"buckets"`
	Timeline          []GPUTimeline `json:"timeline"`
}

// Storage is what a training job's checkpoints and data-loader reads took
// on the storage nodes, and what the checkpoints cost the job. An
// iteration's period runs from its start to the next one's (or, for the
// last, to when its reads are in).
type Storage struct {
	Nodes int `json:"nodes"`
	// IterationUs is the period of an iteration without a checkpoint (the first).
	IterationUs float64 `json:"iteration_us"`
	Checkpoints int     `json:"checkpoints,omitempty"`
	// CheckpointBytes is one checkpoint: fp32 weights and Adam's two
	// moments, 12 bytes per parameter, each rank writing an equal share.
	CheckpointBytes int64 `json:"checkpoint_bytes,omitempty"`
	// CheckpointUs is the first checkpoint's write, first byte sent to last byte stored.
	CheckpointUs float64 `json:"checkpoint_us,omitempty"`
	// IterationCheckpointUs is the mean period of the iterations that ran
	// while a checkpoint was written.
	IterationCheckpointUs float64 `json:"iteration_checkpoint_us,omitempty"`
	// CheckpointExposedUs is what the checkpoints cost the job: the time
	// those iterations took beyond IterationUs each, summed.
	CheckpointExposedUs float64 `json:"checkpoint_exposed_us,omitempty"`
	ReadBytes           int64   `json:"read_bytes,omitempty"` // the loader's reads per iteration, all ranks
	ReadUs              float64 `json:"read_us,omitempty"`    // the last iteration's reads, first byte to last
}

// Bucket is one gradient bucket's all-reduce, in launch order.
type Bucket struct {
	Bytes    int64   `json:"bytes"`
	Tensors  int     `json:"tensors"`
	ReadyUs  float64 `json:"ready_us"`
	StartUs  float64 `json:"start_us"`
	FinishUs float64 `json:"finish_us"`
}

// GPUTimeline is one GPU's activity in the last iteration.
type GPUTimeline struct {
	GPU       int        `json:"gpu"`
	Intervals []Interval `json:"intervals"`
}

// Interval is a stretch of one activity: compute, communicate or idle.
// Compute and idle tile the GPU's compute lane; communicate runs beside them.
type Interval struct {
	Kind    string  `json:"kind"`
	Label   string  `json:"label,omitempty"`
	StartUs float64 `json:"start_us"`
	EndUs   float64 `json:"end_us"`
}
