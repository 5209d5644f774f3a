package protocol

// Stats answers AskStats: the frame timings and memory since the last
// stats, for the page's benchmarks. Times are in ms unless named _s or _us.
type Stats struct {
	Frames        int     `json:"frames"`          // frames drawn
	HeapBytes     uint64  `json:"heap_bytes"`      // the Go heap, garbage since the last collection included
	LiveBytes     int64   `json:"live_bytes"`      // the heap the last collection found in use
	SysBytes      uint64  `json:"sys_bytes"`       // what Go took from WebAssembly memory
	FrameBytes    int64   `json:"frame_bytes"`     // the recorded snapshots
	ComputeS      float64 `json:"compute_s"`       // wall time computing the run
	RunS          float64 `json:"run_s"`           // since it was loaded
	YieldS        float64 `json:"yield_s"`         // the turns given to the page between slices
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
	SliceMaxMs         float64 `json:"slice_max_ms"` // the longest slice of computing
	TurnP50Ms          float64 `json:"turn_p50_ms"`  // the turns given to the page between slices
	TurnP95Ms          float64 `json:"turn_p95_ms"`
	Turns              int     `json:"turns"`
	// the longest step of the simulation, where it began and the simulated time it covered
	AdvanceMaxMs     float64 `json:"advance_max_ms"`
	AdvanceMaxAtUs   float64 `json:"advance_max_at_us"`
	AdvanceMaxSpanUs float64 `json:"advance_max_span_us"`
	SnapshotMaxMs    float64 `json:"snapshot_max_ms"` // the longest snapshot
	GCIdleMaxMs      float64 `json:"gc_idle_max_ms"`  // the collector's idle marking: the most of one turn
	BuildMaxMs       float64 `json:"build_max_ms"`    // the longest slice of building a scenario
	GCIdleS          float64 `json:"gc_idle_s"`       // the collector's idle marking in all
	Grows            int     `json:"grows"`           // the memory grown ahead
	GrownBytes       uint64  `json:"grown_bytes"`
	GrowMaxMs        float64 `json:"grow_max_ms"`
}
