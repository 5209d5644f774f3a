package metrics

// Faults reports what a run's faults (stragglers and failures) cost.
type Faults struct {
	// Measure is what the run is judged by: the training iteration, the
	// collective, the inference makespan, else the last flow's finish.
	Measure string `json:"measure"`
	// MeasureUs is the run's measure; BaselineUs the same run's without
	// faults and DelayUs the difference (sim.Run runs the baseline: both
	// are absent where it was not run, as in the browser).
	MeasureUs  float64  `json:"measure_us"`
	BaselineUs *float64 `json:"baseline_us,omitempty"`
	DelayUs    *float64 `json:"delay_us,omitempty"`
	Faults     []Fault  `json:"faults"`
}

// Fault is one fault and what it did on its own: a slow GPU's factor, a
// link's stall and when routing moved off it.
type Fault struct {
	Index   int     `json:"index"` // its place in faults[]
	Kind    string  `json:"kind"`
	Target  string  `json:"target"` // "GPU 3", or the link's name
	Factor  float64 `json:"factor,omitempty"`
	Gbps    float64 `json:"gbps,omitempty"` // a degraded link's rate
	AtUs    float64 `json:"at_us"`
	UntilUs float64 `json:"until_us,omitempty"` // absent: for good
	// ReroutedUs is when routing moved the flows off a down link: at once
	// under adaptive routing, after network.reroute_delay under static and
	// ECMP; absent if the run ended (or the link came back) first.
	ReroutedUs *float64 `json:"rerouted_us,omitempty"`
	// FlowsStalled are the flows that waited behind a down link, with the
	// bytes they had left when they reached it, and the time they waited,
	// summed over the flows.
	FlowsStalled  int     `json:"flows_stalled,omitempty"`
	StalledBytes  int64   `json:"stalled_bytes,omitempty"`
	StalledFlowUs float64 `json:"stalled_flow_us,omitempty"`
	// HeldBytes is the most a down link's queue held (packet level), Drops
	// what the link dropped (a lossless fabric drops nothing).
	HeldBytes int64 `json:"held_bytes,omitempty"`
	Drops     int64 `json:"drops,omitempty"`
}
