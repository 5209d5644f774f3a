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
}

// Collective reports one collective with the nccl-tests definitions of algbw and busbw.
type Collective struct {
	Op        string  `json:"op"`
	Algo      string  `json:"algo"`
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
	SimTimeUs     float64 `json:"sim_time_us"`
	Events        uint64  `json:"events"`
	Drops         int64   `json:"drops"`
	Retransmits   int64   `json:"retransmits"`
	Timeouts      int64   `json:"timeouts"`
	PauseFrames   int64   `json:"pause_frames"`
	ECNMarks      int64   `json:"ecn_marks"`
	OutOfOrder    int64   `json:"out_of_order"`
	GoodputGbps   float64 `json:"goodput_gbps"` // payload delivered / (last delivery − first start)
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
	PauseFrames   int64   `json:"pause_frames"` // received by this port
}

// Series holds values sampled every IntervalUs, for charts.
type Series struct {
	IntervalUs float64       `json:"interval_us"`
	TimeUs     []float64     `json:"time_us"`
	FlowGbps   [][]float64   `json:"flow_gbps,omitempty"` // [flow][sample], goodput over the preceding interval
	Queues     []QueueSeries `json:"queues,omitempty"`    // the busiest switch ports
	Goodput    []float64     `json:"goodput_gbps"`        // all flows together
}

// QueueSeries is one port's queue depth over time.
type QueueSeries struct {
	Link  int     `json:"link"`
	Name  string  `json:"name"`
	Bytes []int64 `json:"bytes"`
}
