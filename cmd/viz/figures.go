package main

import (
	"encoding/json"
	"strings"

	"fabriclab/lessons/figures"
	"fabriclab/protocol"
	"fabriclab/sim/metrics"
)

// maxFigures bounds the figures one load asks for.
const maxFigures = 256

// figureRequest is what a load asked to be told once its run is done: the
// figures of a lesson step ("totals.max_fct_us | ms", as the build spells
// them), and the step and settings to echo, so the page can tell an answer
// about an earlier setting from the one it waits for.
type figureRequest struct {
	specs []string
	step  string
	sets  []string
}

// sendFigures tells the page the requested figures of the finished run:
// {"fabriclab": "figures", "step": …, "set": […], "values": {spec: text},
// "errors": {spec: message}}. Each is computed as the lesson build computes
// it, from the JSON `fabriclab run --json` prints.
func (g *Game) sendFigures() {
	r := g.figures
	if len(r.specs) == 0 || g.p == nil || g.p.Report() == nil {
		return
	}
	res := g.p.Report()
	if r.readsRest() {
		if res = g.p.Result(); res == nil { // decoded now (playback/report.go)
			return // sent once they have come (remote.go)
		}
	}
	values, errs := computeFigures(res, r.specs)
	sets := r.sets
	if sets == nil {
		sets = []string{}
	}
	g.out.event(protocol.Figures{Step: r.step, Sets: sets, Values: values, Errors: errs})
}

// readsRest says whether a figure may read the report's flows or links.
func (r figureRequest) readsRest() bool { return readsAny(r.specs, "flows", "links") }

// computeFigures finds and formats each figure in res ("true" or "false"
// for a condition, "if …"). The time series
// (big) are left out of the JSON unless a figure reads them.
func computeFigures(res *metrics.Result, specs []string) (values, errs map[string]string) {
	values, errs = map[string]string{}, map[string]string{}
	if len(specs) > maxFigures {
		specs = specs[:maxFigures]
	}
	r := *res
	if !readsAny(specs, "series") {
		r.Series = nil
	}
	data, err := json.Marshal(&r)
	var src figures.Source
	if err == nil {
		src, err = figures.Decode(data)
	}
	for _, spec := range specs {
		if err != nil {
			errs[spec] = err.Error()
			continue
		}
		text, lerr := figures.Evaluate(spec, src)
		if lerr != nil {
			errs[spec] = lerr.Error()
			continue
		}
		values[spec] = text
	}
	return values, errs
}

// readsAny reports whether a spec names any of words: the parts of the
// report it may read ("if series…" too).
func readsAny(specs []string, words ...string) bool {
	for _, s := range specs {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
	}
	return false
}
