package protocol

// An Event is a message from the canvas to the page. Event returns its name
// on the wire: the value of its "fabriclab" field. Some names have two
// shapes (one run, or a comparison): two types.
type Event interface{ Event() string }

// Ready comes first, before anything about the first scenario.
type Ready struct{}

// Loaded: a scenario is built and plays. Skipped counts the loads of a burst
// dropped unbuilt.
type Loaded struct {
	Name    string `json:"name"`
	Step    string `json:"step"` // the lesson step of the load, echoed
	Skipped int    `json:"skipped"`
}

// CompareLoaded: two scenarios are built and play side by side.
type CompareLoaded struct {
	Loaded
	Compare bool      `json:"compare"` // always true
	Left    string    `json:"left"`    // the scenarios' names
	Right   string    `json:"right"`
	Labels  [2]string `json:"labels"`
}

// Time says where playback is: TUs is the time of the frame shown; EndUs
// and ComputedUs how far the run is computed; Progress the share computed
// (0…1, -1 while unknown); EtaS the seconds of computing left (-1 while
// unknown); SeekUs where a seek waits to go (absent when none).
type Time struct {
	TUs        float64  `json:"t_us"`
	EndUs      float64  `json:"end_us"`
	Playing    bool     `json:"playing"`
	Done       bool     `json:"done"`
	SpeedUs    float64  `json:"speed_us"`
	ComputedUs float64  `json:"computed_us"`
	Progress   float64  `json:"progress"`
	EtaS       float64  `json:"eta_s"`
	SeekUs     *float64 `json:"seek_us,omitempty"`
}

// CompareTime is a comparison's time: the shared time, and each side's end.
type CompareTime struct {
	Time
	Compare    bool    `json:"compare"` // always true
	LeftEndUs  float64 `json:"left_end_us"`
	RightEndUs float64 `json:"right_end_us"`
}

// Frame: the first frame is drawn.
type Frame struct{}

// Done: the whole run is computed (playback may be behind); its totals, as
// `fabriclab run --json` has them.
type Done struct {
	SimTimeUs     float64 `json:"sim_time_us"`
	Drops         int64   `json:"drops"`
	PauseFrames   int64   `json:"pause_frames"`
	GoodputGbps   float64 `json:"goodput_gbps"`
	FlowsFinished int     `json:"flows_finished"`
}

// CompareDone: both sides are computed. SimTimeUs is the longer run's;
// Difference the one-line difference the canvas's strip shows.
type CompareDone struct {
	Compare    bool       `json:"compare"` // always true
	SimTimeUs  float64    `json:"sim_time_us"`
	Left       SideTotals `json:"left"`
	Right      SideTotals `json:"right"`
	Difference string     `json:"difference"`
}

// SideTotals are one side's totals in CompareDone.
type SideTotals struct {
	Label         string  `json:"label"`
	Name          string  `json:"name"`
	SimTimeUs     float64 `json:"sim_time_us"`
	MaxFctUs      float64 `json:"max_fct_us"`
	Drops         int64   `json:"drops"`
	PauseFrames   int64   `json:"pause_frames"`
	GoodputGbps   float64 `json:"goodput_gbps"`
	FlowsFinished int     `json:"flows_finished"`
}

// Ended: playback reached the computed end (again each time it gets back there).
type Ended struct {
	TUs     float64 `json:"t_us"`
	Summary string  `json:"summary"`
}

// Summary says in words what the canvas shows, for the page's live region.
type Summary struct {
	Text string `json:"text"`
}

// CompareSummary says what both panes show, then the difference.
type CompareSummary struct {
	Text       string `json:"text"`
	Difference string `json:"difference"`
}

// Figures are the lesson figures a load asked for, once its run is done:
// Values by spec ("totals.max_fct_us | ms") as text, Errors by spec; Step
// and Sets echo the load's.
type Figures struct {
	Step   string            `json:"step"`
	Sets   []string          `json:"set"`
	Values map[string]string `json:"values"`
	Errors map[string]string `json:"errors"`
}

// Error: a bad parameter, command or scenario, or a run that stopped. Fatal
// is set only by the page (embed.js), when the program has ended.
type Error struct {
	Message string `json:"message"`
	Fatal   bool   `json:"fatal,omitempty"`
	// Notice: a wrong parameter of the page's address, left out; the canvas
	// plays the rest.
	Notice bool `json:"notice,omitempty"`
}

// CommandError: a command was wrong or failed (the canvas runs on); it
// carries the command's name ("" when it could not be read as one) and an
// editor command's (check, source, snapshot) id.
type CommandError struct {
	Message string  `json:"message"`
	ID      float64 `json:"id,omitempty"`
	Command string  `json:"command"`
}

// Checked answers Check: OK, or the problems found; Name is the scenario's
// when it parsed.
type Checked struct {
	ID     float64        `json:"id"`
	OK     bool           `json:"ok"`
	Name   string         `json:"name,omitempty"`
	Errors []CheckedError `json:"errors"` // never null
}

// CheckedError is one problem Check found: its line (0: none, e.g. a
// default that does not fit), its key, and the whole message.
type CheckedError struct {
	Line    int    `json:"line"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

// Source answers AskSource: the YAML to edit.
type Source struct {
	ID   float64 `json:"id"`
	YAML string  `json:"yaml"`
}

// Snapshot answers AskSnapshot: the frame on screen as SVG (without the
// tooltip), its size in CSS px, the scenario's name and the frame's time.
type Snapshot struct {
	ID     float64 `json:"id"`
	SVG    string  `json:"svg"`
	Name   string  `json:"name"`
	TUs    float64 `json:"t_us"`
	Width  float32 `json:"width"`
	Height float32 `json:"height"`
}

// Key is sent by the page (embed.js), not the program: a lesson key pressed
// on the canvas after Keys{Parent: true}.
type Key struct {
	Key string `json:"key"`
}

func (Ready) Event() string          { return "ready" }
func (Loaded) Event() string         { return "loaded" }
func (CompareLoaded) Event() string  { return "loaded" }
func (Time) Event() string           { return "time" }
func (CompareTime) Event() string    { return "time" }
func (Frame) Event() string          { return "frame" }
func (Done) Event() string           { return "done" }
func (CompareDone) Event() string    { return "done" }
func (Ended) Event() string          { return "ended" }
func (Summary) Event() string        { return "summary" }
func (CompareSummary) Event() string { return "summary" }
func (Figures) Event() string        { return "figures" }
func (Stats) Event() string          { return "stats" }
func (Error) Event() string          { return "error" }
func (CommandError) Event() string   { return "error" }
func (Checked) Event() string        { return "checked" }
func (Source) Event() string         { return "source" }
func (Snapshot) Event() string       { return "snapshot" }
func (Key) Event() string            { return "key" }
