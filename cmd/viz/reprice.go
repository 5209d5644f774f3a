package main

import (
	"slices"
	"strings"

	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/sim/metrics"
)

// loadKey is what a load ran: its scenario (a built-in's name or YAML) and
// its settings other than those that change only the report.
type loadKey struct {
	yaml, name string
	sets       []string
}

// keyOf is what c runs: its settings without those it says change only the
// report (Load.Report, from the lesson knobs' descriptions).
func keyOf(c protocol.Load) loadKey {
	report := func(s string) bool { return slices.Contains(c.Report, strings.TrimSpace(s)) }
	return loadKey{yaml: c.YAML, name: c.Scenario, sets: slices.DeleteFunc(slices.Clone(c.Sets), report)}
}

func (k loadKey) same(o loadKey) bool {
	return k.yaml == o.yaml && k.name == o.name && slices.Equal(k.sets, o.sets)
}

// reprice answers a load that differs from the finished run on screen only in
// settings that change the report (a lesson's price knob): the report is
// worked out again from the loaded scenario (the cost at its price of a
// GPU-hour) and the figures sent, the canvas keeps its place, and nothing is
// run again (a 512-GPU training run takes seconds in the browser). It
// reports whether it did.
func (g *Game) reprice(c protocol.Load) bool {
	p := g.p
	if p == nil || g.cmp != nil || g.failure != "" || !p.Done() || p.Report() == nil || p.Report().Training == nil || !keyOf(c).same(g.ran) {
		return false
	}
	sc, err := playback.LoadCommand(c)
	if err != nil {
		return false // the load reports it
	}
	price := sc.Training.GPUHourPrice
	res := p.Report()
	res.Training.Cost = metrics.TrainingCost(res.Training, price)
	p.Scenario().Training.GPUHourPrice = price
	g.step = c.Step
	g.figures = figureRequest{specs: c.Figures, step: c.Step, sets: c.Sets}
	g.sendFigures()
	return true
}
