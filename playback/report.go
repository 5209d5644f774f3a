package playback

import (
	"encoding/json"
	"fmt"

	simmetrics "fabriclab/sim/metrics"
)

// A run's report crosses from a worker to the canvas in two parts: its head
// (all but the flows and links, a few KB), decoded at once, and its flows
// and links as JSON, kept as they came and decoded only when Result is
// asked for (a lesson's figure of a flow or a link, a comparison's
// summary). The 8,192-GPU all-reduce's links are 8 of its 8 MB: decoded
// whole, the report held the page's thread 0.6-2.5 s under WebAssembly
// after the run's last frame.

// reportRest is what SplitReport leaves out of the head.
type reportRest struct {
	Flows []simmetrics.Flow `json:"flows"`
	Links []simmetrics.Link `json:"links"`
}

// SplitReport writes r as JSON in two parts: head, without the flows and
// links, and rest, {"flows": […], "links": […]} (Player.FinishReport).
func SplitReport(r *simmetrics.Result) (head, rest []byte, err error) {
	h := *r
	h.Flows, h.Links = nil, nil
	if head, err = json.Marshal(&h); err != nil {
		return nil, nil, err
	}
	rest, err = json.Marshal(reportRest{Flows: r.Flows, Links: r.Links})
	return head, rest, err
}

// FinishReport takes a remote run's report in SplitReport's two parts: the
// head decoded, the rest as it came.
func (p *Player) FinishReport(head *simmetrics.Result, rest []byte) {
	p.rest = rest
	p.Finish(head)
}

// Result is the run's report, once Done, with its flows and links (decoded
// now if they came as JSON and were not yet).
func (p *Player) Result() *simmetrics.Result {
	if p.rest != nil && p.result != nil {
		var r reportRest
		if err := json.Unmarshal(p.rest, &r); err != nil && p.err == nil {
			p.err = fmt.Errorf("the run's report, its flows and links: %w", err)
		}
		p.result.Flows, p.result.Links, p.rest = r.Flows, r.Links, nil
	}
	return p.result
}

// Report is the run's report, once Done, perhaps without its flows and
// links: enough for its totals and what is not per flow or per link.
func (p *Player) Report() *simmetrics.Result { return p.result }
