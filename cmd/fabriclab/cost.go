package main

import (
	"fmt"
	"io"
	"strconv"

	"fabriclab/sim/metrics"
)

// printCost writes what a training run's GPU time costs, when the scenario
// sets training.gpu_hour_price (without one the text report is unchanged).
func printCost(w io.Writer, c *metrics.Cost) {
	if c == nil || c.GPUHourPrice == 0 {
		return
	}
	share := func(s metrics.CostShare, per string) string {
		return fmt.Sprintf("%s %s (%s of it waiting)", money(s.Cost), per, money(s.WaitingCost))
	}
	fmt.Fprintf(w, "          at %s per GPU-hour: %s, %s, %s\n", strconv.FormatFloat(c.GPUHourPrice, 'g', -1, 64),
		share(c.PerHour, "an hour"), share(c.Per1kIters, "per 1,000 iterations"), share(c.Per1BSamples, "per billion samples"))
}

func money(v *float64) string {
	if v == nil {
		return "-"
	}
	return ff(*v, 2)
}
