package protocol

// A Command is a message from the page to the canvas. Command returns its
// name on the wire: the value of its "fabriclab" field.
type Command interface{ Command() string }

// Load replaces what plays: a scenario (YAML, or a built-in's name, with
// set= overrides), or two side by side (Left and Right).
type Load struct {
	YAML     string   `json:"yaml,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	Sets     []string `json:"set,omitempty"`
	Play     bool     `json:"play,omitempty"`
	Step     string   `json:"step,omitempty"` // the lesson step that sent it, echoed back
	// Figures are lesson figures, "path | format", to compute when the run is done.
	Figures []string `json:"figures,omitempty"`
	// Report are the settings of Sets that change only the report, not the
	// run (a lesson knob's description says which, lessons.Knob.Changes).
	Report []string `json:"report,omitempty"`
	Left   *Side    `json:"left,omitempty"`
	Right  *Side    `json:"right,omitempty"`
}

// Side is one side of a comparison: a built-in's name or YAML, with set=
// overrides, and the label over its half of the canvas.
type Side struct {
	Label    string   `json:"label,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	YAML     string   `json:"yaml,omitempty"`
	Sets     []string `json:"set,omitempty"`
}

// The playback commands without arguments.
type (
	Play     struct{}
	Pause    struct{}
	Toggle   struct{}
	Step     struct{} // to where the next step begins
	Back     struct{} // to where the previous step began
	Reset    struct{}
	Faster   struct{}
	Slower   struct{}
	NextFlow struct{} // pick the next flow, as ] does
	PrevFlow struct{} // pick the previous flow, as [ does
	AskStats struct{} // answered by a Stats event
)

// Seek goes to a simulated time, computing up to it first.
type Seek struct {
	TUs float64 `json:"t_us"`
}

// Speed sets the simulated µs played per second.
type Speed struct {
	UsPerS float64 `json:"us_per_s"`
}

// Presenter turns big text on or off.
type Presenter struct {
	On bool `json:"on"`
}

// Quiz says whether the lesson step on screen has a quiz still to be
// answered: while one is, the canvas keeps back what would give the answer
// away (the run's end time in the bar, a comparison's difference).
type Quiz struct {
	Pending bool `json:"pending"`
}

// Tap is a click or touch on the canvas, in CSS px from its top left; Touch
// says a finger (the tooltip then shows there).
type Tap struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Touch bool    `json:"touch,omitempty"`
}

// Check validates a scenario's YAML without running it; answered by Checked.
// Scenario and Sets are refused: check takes the text only.
type Check struct {
	YAML     string   `json:"yaml,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	Sets     []string `json:"set,omitempty"`
	ID       float64  `json:"id,omitempty"` // echoed back, so the page knows the latest answer
}

// AskSource asks for the YAML to edit (a built-in's or the given text, with
// the set= overrides written in); answered by Source.
type AskSource struct {
	Scenario string   `json:"scenario,omitempty"`
	YAML     string   `json:"yaml,omitempty"`
	Sets     []string `json:"set,omitempty"`
	ID       float64  `json:"id,omitempty"`
}

// AskSnapshot asks for the frame on screen as SVG; answered by Snapshot.
type AskSnapshot struct {
	ID float64 `json:"id,omitempty"`
}

// Keys is handled by the page (embed.js), never by the program: Parent says
// the parent page handles the lesson's keys (they reach it as Key events),
// Focus gives the canvas the focus, Fullscreen says whether the parent shows
// the canvas full screen (the bar's button shows it pressed).
type Keys struct {
	Parent     *bool `json:"parent,omitempty"` // absent: unchanged
	Focus      bool  `json:"focus,omitempty"`
	Fullscreen *bool `json:"fullscreen,omitempty"` // absent: unchanged
}

func (Load) Command() string        { return "load" }
func (Play) Command() string        { return "play" }
func (Pause) Command() string       { return "pause" }
func (Toggle) Command() string      { return "toggle" }
func (Step) Command() string        { return "step" }
func (Back) Command() string        { return "back" }
func (Reset) Command() string       { return "reset" }
func (Seek) Command() string        { return "seek" }
func (Faster) Command() string      { return "faster" }
func (Slower) Command() string      { return "slower" }
func (Speed) Command() string       { return "speed" }
func (AskStats) Command() string    { return "stats" }
func (Presenter) Command() string   { return "presenter" }
func (Quiz) Command() string        { return "quiz" }
func (NextFlow) Command() string    { return "nextflow" }
func (PrevFlow) Command() string    { return "prevflow" }
func (Tap) Command() string         { return "tap" }
func (Check) Command() string       { return "check" }
func (AskSource) Command() string   { return "source" }
func (AskSnapshot) Command() string { return "snapshot" }
func (Keys) Command() string        { return "keys" }
