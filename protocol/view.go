package protocol

// View is what the canvas shows at TUs, in words and figures, for the
// page's "Canvas as a table": the nodes, the links busiest first, the flows
// busiest first, and each chart as a data table. Lists are capped (More*
// count the rest); texts are in the page's language. Sent on load, at most
// once a second while playing, and on pause, seek and step.
type View struct {
	TUs       float64     `json:"t_us"`
	Nodes     []ViewNode  `json:"nodes"` // never null
	MoreNodes int         `json:"more_nodes"`
	Links     []ViewLink  `json:"links"` // busiest first; never null
	MoreLinks int         `json:"more_links"`
	Flows     []ViewFlow  `json:"flows"` // busiest first, finished last; never null
	MoreFlows int         `json:"more_flows"`
	Charts    []ViewChart `json:"charts"` // never null
	// In a comparison the lists above are empty and Sides holds each run's
	// view, left then right, with Label its pane's title (the run's name).
	Label string `json:"label,omitempty"`
	Sides []View `json:"sides,omitempty"`
}

// ViewNode is a node as the canvas names it, its kind and its group (a
// DGX node or a pod; "" when none).
type ViewNode struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Group string `json:"group"`
}

// ViewLink is one direction of a cable: its load (0–100, as its colour
// shows), its egress queue, whether PFC pauses it and its fault.
type ViewLink struct {
	From       string `json:"from"`
	To         string `json:"to"`
	LoadPct    int    `json:"load_pct"`
	QueueBytes int64  `json:"queue_bytes"`
	Queue      string `json:"queue"` // QueueBytes as the canvas writes it
	Paused     bool   `json:"paused"`
	// State is the link's fault now as its tooltip says it (down, or
	// degraded and its rate); "" when it runs as built.
	State string `json:"state,omitempty"`
}

// ViewFlow is a flow (or a collective's transfer): its rate now, whether
// it is done, and its traffic class ("" when the run has one class).
type ViewFlow struct {
	Name     string  `json:"name"`
	RateGbps float64 `json:"rate_gbps"`
	Rate     string  `json:"rate"` // RateGbps as the canvas writes it
	Done     bool    `json:"done"`
	Class    string  `json:"class,omitempty"`
}

// ViewChart is a chart as a data table: Columns name the time and each
// line, each row is a time and the lines' values then (a sample of the
// points, the last always); Notes are the chart's other words (its figures,
// or why it is empty).
type ViewChart struct {
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Notes   []string   `json:"notes"`
}

// Tooltip is the text of the tooltip the keyboard opened (Inspect), its
// lines joined; "" when it closed.
type Tooltip struct {
	Text string `json:"text"`
}

// Inspect moves the keyboard's highlight over the canvas's nodes and links
// and shows the tooltip of the one highlighted: Dir 1 the next, -1 the
// previous, 0 closes the tooltip.
type Inspect struct {
	Dir float64 `json:"dir"`
}

func (View) Event() string      { return "view" }
func (Tooltip) Event() string   { return "tooltip" }
func (Inspect) Command() string { return "inspect" }
