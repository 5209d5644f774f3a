package protocol

// Stats answers AskStats: the frame timings and memory since the last
// stats, for the page's benchmarks. Times are in ms unless named _s or _us.
type Stats struct {
	Frames        int     `json:"frames"`          // frames drawn
	HeapBytes     uint64  `json:"heap_bytes"`      // the Go heap, garbage since the last collection included
	LiveBytes     int64   `json:"live_bytes"`      // the heap the last collection found in use
	SysBytes      uint64  `json:"sys_bytes"`       // what Go took from WebAssembly memory
	FrameBytes    int64   `json:"frame_bytes"`     // the recorded snapshots
	ComputeS      float64 `json:"compute_s"`       // wall time computing the run in this program (none when workers compute it)
	RunS          float64 `json:"run_s"`           // since it was loaded
	GCCPUS        float64 `json:"gc_cpu_s"`        // the collector's time
	GCs           uint32  `json:"gcs"`             // collections
	IntervalP50Ms float64 `json:"interval_p50_ms"` // between draws
	IntervalP95Ms float64 `json:"interval_p95_ms"`
	IntervalMaxMs float64 `json:"interval_max_ms"`
	DrawP50Ms     float64 `json:"draw_p50_ms"`
	DrawP95Ms     float64 `json:"draw_p95_ms"`
	Updates       int     `json:"updates"`
	UpdateP50Ms   float64 `json:"update_p50_ms"`
	UpdateP95Ms   float64 `json:"update_p95_ms"`
	// the frame intervals while the run computes
	ComputingTicks     int     `json:"computing_ticks"`
	ComputingTickP50Ms float64 `json:"computing_tick_p50_ms"`
	ComputingTickP95Ms float64 `json:"computing_tick_p95_ms"`
	ComputingTickMaxMs float64 `json:"computing_tick_max_ms"`
	FramesAsked        int     `json:"frames_asked"`
	// Workers are the runs' workers (0: one run or a comparison's left
	// side, 1: its right side): what each sent of the run that plays.
	Workers    []WorkerStats `json:"workers,omitempty"`
	Grows      int           `json:"grows"` // the memory grown ahead
	GrownBytes uint64        `json:"grown_bytes"`
	GrowMaxMs  float64       `json:"grow_max_ms"`
}

// WorkerStats is what a worker sent the canvas for the run that plays.
type WorkerStats struct {
	RunID  int   `json:"run_id"`
	Frames int   `json:"frames"`          // frames received (halving drops some after)
	Bytes  int64 `json:"bytes"`           // their binary form
	Done   bool  `json:"done"`            // the run's report came
	Early  bool  `json:"early,omitempty"` // begun before the canvas asked (protocol.Early) and taken over
}
