package main

import (
	"slices"
	"strings"

	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/sim/metrics"
)

// priceKey is the one key a load may change without a new run: the price of a
// GPU-hour only prices the report (metrics.TrainingCost), so the run stays.
const priceKey = "training.gpu_hour_price="

// loadKey is what a load ran: its scenario (a built-in's name or YAML) and
// its settings other than the price.
type loadKey struct {
	yaml, name string
	sets       []string
}

func keyOf(c protocol.Load) loadKey {
	return loadKey{yaml: c.YAML, name: c.Scenario, sets: slices.DeleteFunc(slices.Clone(c.Sets), func(s string) bool {
		return strings.HasPrefix(strings.TrimSpace(s), priceKey)
	})}
}

func (k loadKey) same(o loadKey) bool {
	return k.yaml == o.yaml && k.name == o.name && slices.Equal(k.sets, o.sets)
}

// reprice answers a load that differs from the finished run on screen only in
// training.gpu_hour_price (a lesson's price knob): the report's cost is
// worked out again at the new price and the figures sent, the canvas keeps
// its place, and nothing is run again (a 512-GPU training run takes seconds
// in the browser). It reports whether it did.
func (g *Game) reprice(c protocol.Load) bool {
	p := g.p
	if p == nil || g.cmp != nil || g.failure != "" || !p.Done() || p.Result() == nil || p.Result().Training == nil || !keyOf(c).same(g.ran) {
		return false
	}
	sc, err := playback.LoadCommand(c)
	if err != nil {
		return false // the load reports it
	}
	price := sc.Training.GPUHourPrice
	res := p.Result()
	res.Training.Cost = metrics.TrainingCost(res.Training, price)
	p.Scenario().Training.GPUHourPrice = price
	g.step = c.Step
	g.figures = figureRequest{specs: c.Figures, step: c.Step, sets: c.Sets}
	g.sendFigures()
	return true
}
