package playback

import (
	"encoding/json"
	"fmt"

	simmetrics "fabriclab/sim/metrics"
)

// A run's report crosses from a worker to the canvas in two parts: its head
// (all but the flows and links, a few KB) as soon as the run is over, and
// its flows and links after, as JSON the canvas keeps as it came and
// decodes only when Result is asked for (a lesson's figure of a flow or a
// link, a comparison's summary). The 8,192-GPU all-reduce's flows and
// links are 9 of its 9 MB of JSON: written and read whole, the report held
// the worker 0.3-0.6 s and the page's thread 0.6-2.5 s under WebAssembly
// after the run's last frame.

// reportRest is what ReportHead leaves out.
type reportRest struct {
	Flows []simmetrics.Flow `json:"flows"`
	Links []simmetrics.Link `json:"links"`
}

// ReportHead is r as JSON without its flows and links.
func ReportHead(r *simmetrics.Result) ([]byte, error) {
	h := *r
	h.Flows, h.Links = nil, nil
	return json.Marshal(&h)
}

// ReportRest is r's flows and links as JSON: {"flows": […], "links": […]}.
func ReportRest(r *simmetrics.Result) ([]byte, error) {
	return json.Marshal(reportRest{Flows: r.Flows, Links: r.Links})
}

// FinishHead takes a remote run's report without its flows and links,
// which TakeRest brings: the run is done, its Report there, its Result not
// until then.
func (p *Player) FinishHead(head *simmetrics.Result) {
	p.restDue = true
	p.Finish(head)
}

// TakeRest takes the flows and links of a report FinishHead took, as
// ReportRest wrote them.
func (p *Player) TakeRest(rest []byte) {
	if p.restDue {
		p.rest, p.restDue = rest, false
	}
}

// Result is the run's report, once Done, with its flows and links (decoded
// now if they came as JSON and were not yet); nil until they have come.
func (p *Player) Result() *simmetrics.Result {
	if p.restDue {
		return nil
	}
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
